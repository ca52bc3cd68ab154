import Foundation
import Testing
import WayfindTestSupport

/// The suite that holds every CLI suite, so `swift test --filter CLI` runs them all.
@Suite enum CLITests {}

/// Running the real programs the CLI renderers write for: groff and the shells.
enum CLITestSupport {
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
            root = try TestFiles.directory()
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
        func run(_ name: String, _ arguments: [String], timeout: TimeInterval = 60) async throws -> RunResult {
            guard let path = TestProcess.executable(name) else {
                throw SupportError("\(name) is not installed")
            }
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home.path
            environment["XDG_CONFIG_HOME"] = home.path + "/.config"
            environment["XDG_DATA_HOME"] = home.path + "/.local/share"
            environment["XDG_CACHE_HOME"] = home.path + "/.cache"
            environment["TERM"] = "xterm"
            environment["LC_ALL"] = "C.UTF-8"
            return try await TestProcess.run(path, arguments, environment: environment, currentDirectory: files, timeout: timeout)
        }
    }

    /// A failure of the test machinery itself.
    struct SupportError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

extension RunResult {
    /// The non-empty lines of standard output.
    var nonEmptyLines: [String] { out.split(separator: "\n").map(String.init) }
}
