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

    /// Tools only in the multi-call binary (the Makefile's LINKED): run through a link
    /// named after them to the built `wayfind`, as `make install` makes it.
    static let linkedTools = ["magickey-cgi"]

    /// The folder of those links.
    static let links: URL = {
        let folder = try! TestFiles.directory()
        for tool in linkedTools {
            try! FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(tool), withDestinationURL: directory.appendingPathComponent("wayfind"))
        }
        return folder
    }()

    /// The file that runs `tool`: its binary, or its link.
    static func path(of tool: String) -> String {
        (linkedTools.contains(tool) ? links : directory).appendingPathComponent(tool).path
    }

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
            path(of: tool), arguments, input: input, environment: env,
            currentDirectory: currentDirectory)
    }

    /// Runs a shell pipeline with `bash -c`, with the binaries first on PATH.
    static func shell(_ script: String) async throws -> RunResult {
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = directory.path + ":" + links.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["NO_COLOR"] = nil
        return try await TestProcess.run("/bin/bash", ["-c", script], environment: env)
    }
}
