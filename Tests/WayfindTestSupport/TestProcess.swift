import Foundation
import Synchronization

/// What a finished program printed and how it exited.
public struct RunResult: CustomStringConvertible, Sendable {
    /// The exit status; -1 when the program was killed for taking too long.
    public var status: Int32
    public var stdout: Data
    public var stderr: String

    public init(status: Int32, stdout: Data, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Standard output as text.
    public var out: String { String(decoding: stdout, as: UTF8.self) }
    /// The lines of standard output, each without its newline.
    public var lines: [String] {
        out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
    public var description: String { "status \(status)\n--- stdout\n\(out)--- stderr\n\(stderr)" }
}

/// Runs programs for tests: the one place that starts a process.
public enum TestProcess {
    /// The full path of the program `name` on `PATH`, if there is one.
    public static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether `name` is on `PATH`: the condition of the tests that need it.
    public static func isInstalled(_ name: String) -> Bool { executable(name) != nil }

    /// Runs `executable` with `arguments`, `input` on standard input, in `environment`
    /// (this process's when nil) and `currentDirectory`. Standard output and error go to
    /// files, not pipes, so nothing blocks on a full pipe. With a `timeout`, a program
    /// still running after that many seconds is killed and the status is -1, so a confused
    /// program fails its test instead of hanging the run (a program that leads a process
    /// group, as `setsid` makes it, is killed with its whole group).
    public static func run(
        _ executable: String, _ arguments: [String], input: Data = Data(), environment: [String: String]? = nil,
        currentDirectory: URL? = nil, timeout: TimeInterval? = nil
    ) throws -> RunResult {
        let scratch = try TestFiles.directory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (inURL, outURL, errURL) = ["in", "out", "err"].map { scratch.appendingPathComponent($0) }.triple
        try input.write(to: inURL)
        for url in [outURL, errURL] { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let handles = try (FileHandle(forReadingFrom: inURL), FileHandle(forWritingTo: outURL), FileHandle(forWritingTo: errURL))
        process.standardInput = handles.0
        process.standardOutput = handles.1
        process.standardError = handles.2
        processesStarted.add(1, ordering: .sequentiallyConsistent)
        try process.run()
        var timedOut = false
        if let timeout {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(5_000) }
            timedOut = process.isRunning
            if timedOut {
                let pid = process.processIdentifier
                kill(getpgid(pid) == pid ? -pid : pid, SIGKILL)
            }
        }
        process.waitUntilExit()
        for handle in [handles.0, handles.1, handles.2] { try? handle.close() }
        return RunResult(
            status: timedOut ? -1 : process.terminationStatus, stdout: try Data(contentsOf: outURL),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

extension Array {
    fileprivate var triple: (Element, Element, Element) { (self[0], self[1], self[2]) }
}

extension TestProcess {
    /// Runs `body` in a forked child process and returns its exit status (or 128 + the
    /// signal): for what cannot be done in the test process itself, such as resource
    /// limits or dropping root. The child first closes the descriptors it inherits, so
    /// that it holds no lock another test running meanwhile has taken.
    public static func runInChild(_ body: () -> Int32) -> Int32 {
        processesStarted.add(1, ordering: .sequentiallyConsistent)
        let pid = fork()
        if pid == 0 {
            for descriptor in 3..<Int32(1024) { close(descriptor) }
            _exit(body())
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        if status & 0x7F != 0 { return 128 + (status & 0x7F) }
        return (status >> 8) & 0xFF
    }
}

extension TestProcess {
    /// How many processes this test process has started so far. A child holds a copy of
    /// every descriptor open in the test process, with its `flock`, from its fork until it
    /// execs or closes them; a test that needs a file nobody else holds (a spare that a
    /// save reuses only then) compares this before and after.
    public static var started: Int { processesStarted.load(ordering: .sequentiallyConsistent) }
}

private let processesStarted = Atomic<Int>(0)

/// zsh's completion system, loaded fast.
public enum Zsh {
    /// zsh commands that load the completion system from a dump of the default `fpath`,
    /// made once per test process: `compinit` reads every function on `fpath` (0.3 s a
    /// shell here), the dump loads in 0.01 s. Functions added to `fpath` afterwards are
    /// not in the dump: a test of finding one runs a full `compinit`.
    public static let compinit: String = {
        let dump = TestFiles.folder.appendingPathComponent("zcompdump").path
        _ = try? TestProcess.run(
            "/usr/bin/env", ["zsh", "-f", "-c", "autoload -U compinit; compinit -u -d \(dump)"], timeout: 60)
        return "autoload -U compinit; compinit -u -C -d \(dump)"
    }()
}

extension TestProcess {
    /// `run`, waited for on a thread of its own: Swift Testing runs tests on as many
    /// threads as there are cores, and a test that blocks one while a program runs (or
    /// sleeps) keeps every other test off it.
    public static func run(
        _ executable: String, _ arguments: [String], input: Data = Data(), environment: [String: String]? = nil,
        currentDirectory: URL? = nil, timeout: TimeInterval? = nil
    ) async throws -> RunResult {
        try await onThreadOfItsOwn {
            try run(
                executable, arguments, input: input, environment: environment, currentDirectory: currentDirectory,
                timeout: timeout)
        }
    }
}

/// Runs `body` on a new thread and waits for it without holding a Swift concurrency
/// thread.
public func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
