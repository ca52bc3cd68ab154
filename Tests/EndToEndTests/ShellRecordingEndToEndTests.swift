import Foundation
import Testing
import WayfindTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// What the set-up does in the background, in real interactive shells: recording leaves
/// no process behind.
struct ShellRecordingEndToEndTests {
    typealias Home = ShellSetupEndToEndTests.Home
    static let shells = ShellSetupEndToEndTests.shells

    /// Learned commands, a forgotten directory and several `cd`s record in the background
    /// and leave no zombie. (fish reaps a dead child only when it next waits for a program
    /// of its own: the `cd`s come last, and the shell then runs nothing until `ps`.)
    @Test(.enabled(if: TestProcess.isInstalled("ps")), arguments: shells)
    func recordingInTheBackgroundLeavesNoZombie(shell: String) async throws {
        let home = try Home()
        try home.makeFolders(["a", "b", "c/gone", "c/kept"])
        try await home.learn("cd", [home.path("c/gone")])
        try FileManager.default.removeItem(atPath: home.path("c/gone"))
        let log = home.home.appendingPathComponent("children.log").path
        let pid = shell == "fish" ? "$fish_pid" : "$$"
        let setup = ShellSetupEndToEndTests.setupLine(shell, ["cd", "trip"])
        let lines = [
            "trip Rome", "trip Oslo", "cd go\\t", "cd a", "cd ../b", "cd ../c", "cd ..",
            "<pause><pause>ps -o stat=,comm= --ppid \(pid) > \(log)",
        ]
        let late = try await home.typed(shell, setup: setup, lines: lines)
        #expect(late.isEmpty, "\(shell): late \(late)")
        // The visits were made (so there was something to leave behind).
        let dirs: Set = [home.path("a"), home.path("b"), home.path("c"), home.home.path]
        #expect(try await home.places(home.cdGraph, expecting: dirs) == dirs, "\(shell)")
        #expect(try await home.places(home.tripGraph, expecting: ["Rome", "Oslo"]) == ["Rome", "Oslo"], "\(shell)")
        let children = try String(contentsOfFile: log, encoding: .utf8)
        #expect(children.contains("ps"), "\(shell): \(children)")
        #expect(!children.split(separator: "\n").contains { $0.hasPrefix("Z") }, "\(shell): the shell's children\n\(children)")
    }
}
