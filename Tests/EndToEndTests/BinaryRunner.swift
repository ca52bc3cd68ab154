import Foundation
import WayfindCLI
import WayfindTestSupport

/// Locates and runs the package's one executable, `wayfind`, and each tool through a link
/// named after it.
enum Binaries {
    /// The built `wayfind`: in `$WAYFIND_BIN_DIR` (the Makefile points it at the release
    /// build), else in the folder of this test bundle (the debug build).
    static let executable: URL = {
        if let dir = ProcessInfo.processInfo.environment["WAYFIND_BIN_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir).appendingPathComponent(MultiCall.name)
        }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        // Inside an .xctest bundle folder on some layouts: walk up to the build folder.
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent(MultiCall.name).path),
            dir.path != "/"
        {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent(MultiCall.name)
    }()

    /// Every tool, as the multi-call table lists them.
    static let tools = MultiCall.tools.map(\.name)

    /// A folder laid out as `make install` lays out its bin folder: `wayfind`, and a link
    /// named after each tool to it (each a link to `executable`).
    static let directory: URL = {
        let folder = try! TestFiles.directory()
        for name in [MultiCall.name] + tools {
            try! FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(name), withDestinationURL: executable)
        }
        return folder
    }()

    /// The file that runs `tool` (or `wayfind`).
    static func path(of tool: String) -> String {
        directory.appendingPathComponent(tool).path
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

    /// How a test runs `tools` as nobody when it runs as root, who reads any file: a shell
    /// line that copies the built binary into `folder` under each tool's name, the folder
    /// to run them from, and the prefix that runs them as nobody. Not root: nothing to
    /// copy, the built tools, no prefix. The copies are made by cp, not by this process: a
    /// file it held open for writing would be inherited by any child another test forks
    /// meanwhile, and exec of the copy would fail with ETXTBSY ("Text file busy").
    static func unprivileged(_ tools: [String], copiesIn folder: String) -> (copy: String, bin: String, prefix: String) {
        guard getuid() == 0 else { return ("", directory.path, "") }
        let binary = executable.resolvingSymlinksInPath().path
        let copy = "mkdir -p '\(folder)' && for t in \(tools.joined(separator: " ")); do cp '\(binary)' '\(folder)'/$t; done"
        return (copy, folder, "/usr/sbin/runuser -u nobody -- ")
    }

    /// Runs a shell pipeline with `bash -c`, with the binaries first on PATH.
    static func shell(_ script: String) async throws -> RunResult {
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = directory.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["NO_COLOR"] = nil
        return try await TestProcess.run("/bin/bash", ["-c", script], environment: env)
    }
}
