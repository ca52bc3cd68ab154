import Foundation
import Testing

/// The suite that holds every CLI suite, so `swift test --filter CLI` runs them all.
@Suite enum CLITests {}

/// Running the real programs the CLI renderers write for: groff and the shells.
enum CLITestSupport {
    /// What a finished program printed and how it exited.
    struct Output {
        /// The exit status, or -1 when the program was killed for taking too long.
        var status: Int32
        var stdout: String
        var stderr: String

        /// The non-empty lines of stdout.
        var lines: [String] {
            stdout.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        }
    }

    /// The full path of the program `name` on `PATH`, if there is one.
    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":")
            .map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether `name` is on `PATH`: the condition of the tests that need it.
    static func isInstalled(_ name: String) -> Bool {
        executable(name) != nil
    }

    /// A scratch area for one test, removed by `remove()`: `files/` is the working
    /// directory, holding things to complete (`alpha.txt`, `beta.txt`, `with space.txt`,
    /// `subdir/`) and nothing else; `home/` is `HOME`; scripts and captured output go in the
    /// root, out of sight of file completion.
    struct Scratch {
        /// The root of the scratch area.
        let root: URL
        /// The working directory of every command run here.
        var files: URL { root.appendingPathComponent("files") }
        /// `HOME`, and the XDG directories under it.
        var home: URL { root.appendingPathComponent("home") }

        /// A new scratch area with the files to complete.
        init() throws {
            root = FileManager.default.temporaryDirectory
                .appendingPathComponent("wayfind-cli-\(UUID().uuidString)")
            let fileManager = FileManager.default
            try fileManager.createDirectory(
                at: files.appendingPathComponent("subdir"), withIntermediateDirectories: true)
            try fileManager.createDirectory(at: home, withIntermediateDirectories: true)
            for name in ["alpha.txt", "beta.txt", "with space.txt"] {
                _ = fileManager.createFile(
                    atPath: files.appendingPathComponent(name).path, contents: nil)
            }
        }

        /// Writes `text` to `name` in the root (or `directory`) and returns the file's path.
        func write(_ text: String, to name: String, in directory: URL? = nil) throws -> String {
            let url = (directory ?? root).appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }

        /// Deletes the whole area.
        func remove() {
            try? FileManager.default.removeItem(at: root)
        }

        /// Runs `name` with `arguments` in `files`, with `HOME` and the XDG directories in
        /// `home` so no shell reads or writes the user's files, and kills it after `timeout`
        /// seconds so a confused shell fails the test instead of hanging it.
        func run(_ name: String, _ arguments: [String], timeout: TimeInterval = 60) throws -> Output {
            guard let path = executable(name) else {
                throw SupportError("\(name) is not installed")
            }
            let outURL = root.appendingPathComponent("stdout-\(UUID().uuidString)")
            let errURL = root.appendingPathComponent("stderr-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            // Files rather than pipes: nothing can block on a full pipe while we wait.
            let outHandle = try FileHandle(forWritingTo: outURL)
            let errHandle = try FileHandle(forWritingTo: errURL)

            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.currentDirectoryURL = files
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home.path
            environment["XDG_CONFIG_HOME"] = home.path + "/.config"
            environment["XDG_DATA_HOME"] = home.path + "/.local/share"
            environment["XDG_CACHE_HOME"] = home.path + "/.cache"
            environment["TERM"] = "xterm"
            environment["LC_ALL"] = "C.UTF-8"
            process.environment = environment
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = outHandle
            process.standardError = errHandle
            try process.run()

            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            let timedOut = process.isRunning
            if timedOut { process.terminate() }
            process.waitUntilExit()
            try outHandle.close()
            try errHandle.close()
            return Output(
                status: timedOut ? -1 : process.terminationStatus,
                stdout: try String(contentsOf: outURL, encoding: .utf8),
                stderr: try String(contentsOf: errURL, encoding: .utf8))
        }
    }

    /// A failure of the test machinery itself.
    struct SupportError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
