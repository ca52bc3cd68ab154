import Foundation
import WayfindTestSupport

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

    /// Runs `tool` with `arguments`, feeding `input` on stdin, in this process's
    /// environment without NO_COLOR and with `environment` on top.
    static func run(
        _ tool: String, _ arguments: [String], input: Data = Data(), environment: [String: String] = [:],
        currentDirectory: URL? = nil
    ) async throws -> RunResult {
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        env.merge(environment) { $1 }
        return try await TestProcess.run(
            directory.appendingPathComponent(tool).path, arguments, input: input, environment: env,
            currentDirectory: currentDirectory)
    }

    /// Runs a shell pipeline with `bash -c`, with the binaries first on PATH.
    static func shell(_ script: String) async throws -> RunResult {
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = directory.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["NO_COLOR"] = nil
        return try await TestProcess.run("/bin/bash", ["-c", script], environment: env)
    }
}
