import Foundation

/// What a run of a built binary produced.
struct RunResult: CustomStringConvertible {
    var status: Int32
    var stdout: Data
    var stderr: String
    var out: String { String(decoding: stdout, as: UTF8.self) }
    var lines: [String] { out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    var description: String { "status \(status)\n--- stdout\n\(out)--- stderr\n\(stderr)" }
}

/// Locates and runs the package's built executables.
enum Binaries {
    /// The folder holding the binaries: `$WAYFIND_BIN_DIR` (the Makefile points it at the
    /// release build), else the folder of this test bundle (the debug build).
    static let directory: URL = {
        if let dir = ProcessInfo.processInfo.environment["WAYFIND_BIN_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        // Inside an .xctest bundle folder on some layouts: walk up to the build folder.
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("smartgrep").path),
            dir.path != "/"
        {
            dir = dir.deletingLastPathComponent()
        }
        return dir
    }()

    /// The fixtures folder.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The repository root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `tool` with `arguments`, feeding `input` on stdin.
    static func run(
        _ tool: String, _ arguments: [String], input: Data = Data(), environment: [String: String] = [:],
        currentDirectory: URL? = nil
    ) throws -> RunResult {
        let process = Process()
        process.executableURL = directory.appendingPathComponent(tool)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent("wayfind-in-\(UUID().uuidString)")
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("wayfind-out-\(UUID().uuidString)")
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("wayfind-err-\(UUID().uuidString)")
        try input.write(to: inputFile)
        FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer {
            for f in [inputFile, outputFile, errorFile] { try? FileManager.default.removeItem(at: f) }
        }
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus,
            stdout: try Data(contentsOf: outputFile),
            stderr: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }

    /// Runs a shell pipeline with `bash -c`, with the binaries first on PATH.
    static func shell(_ script: String) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = directory.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["NO_COLOR"] = nil
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }
}

extension Data {
    init(_ text: String) { self = Data(text.utf8) }
}
