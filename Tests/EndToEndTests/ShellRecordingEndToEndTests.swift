import Foundation
import Testing
import WayfindTestSupport

/// What the set-up does in the background, in real interactive shells: recording leaves
/// no process behind, and `cd <Tab>` forgets only directories that are gone, not those
/// it cannot see now (a disk unmounted, a network mount out of reach).
struct ShellRecordingEndToEndTests {
    typealias Home = ShellSetupEndToEndTests.Home
    static let shells = ShellSetupEndToEndTests.shells

    /// Learned commands, a forgotten directory and several `cd`s record in the background
    /// and leave no zombie. (fish reaps a dead child only when it next waits for a program
    /// of its own: the `cd`s come last, and the shell then runs nothing until `ps`.)
    @Test(.enabled(if: TestProcess.isInstalled("ps"), "ps (Debian's procps) lists the shell's children"), arguments: shells)
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

    /// A learned directory that is not there now is not offered, and is forgotten only
    /// when its parent is there, can be listed and holds something: a disk unmounted from
    /// a mount point (left empty) or whose mount point went with it keeps its directories.
    @Test(arguments: shells)
    func cdCompletionForgetsOnlyDirectoriesThatAreGone(shell: String) async throws {
        let home = try Home()
        let learned = ["work/gone", "work/here-too", "media/DISK/photos", "mnt/backup/photos2"]
        try home.makeFolders(learned)
        try await home.learn("cd", learned.map(home.path))
        // Deleted from a folder that holds others; a disk whose mount point went with it
        // (as udisks removes /media/USER/DISK); one whose mount point stays, empty.
        for folder in ["work/gone", "media/DISK", "mnt/backup/photos2"] { try FileManager.default.removeItem(atPath: home.path(folder)) }
        let lines = try await home.completed(
            shell, setup: ShellSetupEndToEndTests.setupLine(shell, ["cd"]), cases: [#"cd gon\t"#, #"cd photo\t"#], locale: "C.UTF-8")
        #expect(lines == ["RESULT: <cd><gon>", "RESULT: <cd><photo>"], "\(shell)")
        let kept = Set(["work/here-too", "media/DISK/photos", "mnt/backup/photos2"].map(home.path))
        #expect(try await home.places(home.cdGraph, expecting: kept) == kept, "\(shell)")
    }

    /// The same with a real disk (a tmpfs): unmounted, its directory is kept and not
    /// offered; mounted again, Tab offers it again.
    @Test(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root (CI runs as root)"), arguments: shells)
    func aDirectoryOnAnUnmountedDiskIsKeptAndComesBack(shell: String) async throws {
        let home = try Home()
        try home.makeFolders(["disk", "other"])
        let disk = home.path("disk")
        guard mount("tmpfs", disk, "tmpfs", 0, "size=1m") == 0 else {
            print("ShellRecordingEndToEndTests: cannot mount a tmpfs here (\(String(cString: strerror(errno)))): tried without a disk only")
            return
        }
        var mounted = true
        defer { if mounted { umount(disk) } }
        try home.makeFolders(["disk/pictures"])
        let pictures = home.path("disk/pictures")
        try await home.learn("cd", [pictures, home.path("other")])
        #expect(umount(disk) == 0)
        mounted = false
        let setup = ShellSetupEndToEndTests.setupLine(shell, ["cd"])
        let unmounted = try await home.completed(shell, setup: setup, cases: [#"cd pictu\t"#], locale: "C.UTF-8")
        #expect(unmounted == ["RESULT: <cd><pictu>"], "\(shell)")
        let both: Set = [pictures, home.path("other")]
        #expect(try await home.places(home.cdGraph, expecting: both) == both, "\(shell)")
        #expect(mount("tmpfs", disk, "tmpfs", 0, "size=1m") == 0)
        mounted = true
        try home.makeFolders(["disk/pictures"])
        let back = try await home.completed(shell, setup: setup, cases: [#"cd pictu\t"#], locale: "C.UTF-8")
        #expect(back == ["RESULT: <cd><\(pictures)/>"], "\(shell)")
    }
}
