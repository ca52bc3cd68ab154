import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCore

#if canImport(Glibc)
    import Glibc
#endif

/// `FileSystem.writeAtomically` with a backup: the target, `.bak` and the spare `.tmp`
/// rotate, and the spare is rewritten only when no reader holds it.
@Suite("Platform: atomic saves and the spare")
struct AtomicSaveTests {
    /// Versions of different lengths, so a reused spare must both grow and shrink.
    static let versions: [[UInt8]] = [
        "first version, medium\n", "second, a much longer version than any other one so far\n", "3rd\n",
        "fourth version\n", "5\n", "sixth version, longer again than the fifth\n", "7th\n",
    ].map { Array($0.utf8) }

    func save(_ bytes: [UInt8], to path: String) throws {
        try FileSystem.writeAtomically(bytes, to: path, backupPath: path + ".bak")
    }

    func inode(_ path: String) -> ino_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_ino : nil
    }

    @Test func eachNameAlwaysHoldsACompleteVersionAndTheSpareIsReused() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        var reused = 0
        var disturbed = 0
        // A process another test starts while this one has a file open holds that file
        // for a moment, and a held spare is (rightly) not reused: such saves are counted
        // apart.
        var started = TestProcess.started
        for (index, version) in Self.versions.enumerated() {
            let spareBefore = inode(path + ".tmp")
            try save(version, to: path)
            let alone = TestProcess.started == started
            started = TestProcess.started
            #expect(fileBytes(path) == version)
            if index >= 1 { #expect(fileBytes(path + ".bak") == Self.versions[index - 1]) }
            if index >= 2 { #expect(fileBytes(path + ".tmp") == Self.versions[index - 2]) }
            if let spareBefore {
                if inode(path) == spareBefore {
                    reused += 1
                } else {
                    #expect(!alone, "save \(index + 1) did not reuse the spare, and no process was started meanwhile")
                    disturbed += 1
                }
            }
            let expected = ["graph.json", "graph.json.bak", "graph.json.tmp"].prefix(min(index + 1, 3))
            #expect(scratch.contents() == Array(expected))
        }
        #expect(reused + disturbed == Self.versions.count - 3)
        #expect(reused >= 1)
    }

    /// Large versions that differ in scattered blocks, grow and shrink: whatever a reused
    /// spare held, it ends up holding exactly the new version.
    @Test func aReusedSpareHoldsExactlyTheNewVersion() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        var random = SplitMix64(seed: 29)
        var version = (0..<50_000).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) }
        for _ in 0..<12 {
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                version[Int.random(in: 0..<version.count, using: &random)] = UInt8.random(in: 0x20...0x7E, using: &random)
            }
            let change = Int.random(in: -5000...5000, using: &random)
            if change > 0 { version += Array(repeating: UInt8(ascii: "x"), count: change) } else { version.removeLast(-change) }
            try save(version, to: path)
            #expect(fileBytes(path) == version)
        }
    }

    /// A reader holds the file it reads (a shared lock, kept while it is mapped): two
    /// saves later that file is the spare, and a third save must not rewrite it.
    @Test func aSpareAReaderStillHoldsIsNeverWritten() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        for version in Self.versions.prefix(3) { try save(version, to: path) }
        let third = Self.versions[2]
        let held = try #require(try FileSystem.mapFile(at: path))
        for version in Self.versions[3...5] {
            try save(version, to: path)
            #expect(fileBytes(path) == version)
            #expect(Array(held.bytes) == third)
            #expect(!scratch.contents().contains { $0.hasPrefix("graph.json.tmp.") })
        }
        #expect(fileBytes(path + ".bak") == Self.versions[4])
        withExtendedLifetime(held) {}
    }

    @Test func aSpareWithAnotherNameIsNeverWritten() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        for version in Self.versions.prefix(3) { try save(version, to: path) }
        let victim = scratch.path + "/victim"
        #expect(link(path + ".tmp", victim) == 0)
        let before = fileBytes(victim)
        try save(Self.versions[3], to: path)
        #expect(fileBytes(victim) == before)
        #expect(fileBytes(path) == Self.versions[3])
        #expect(fileBytes(path + ".bak") == Self.versions[2])
    }

    @Test func aSymlinkAtTheSparePathIsNeverFollowed() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        for version in Self.versions.prefix(3) { try save(version, to: path) }
        let victim = scratch.path + "/victim"
        _ = FileManager.default.createFile(atPath: victim, contents: Data("precious".utf8))
        #expect(unlink(path + ".tmp") == 0 && symlink(victim, path + ".tmp") == 0)
        try save(Self.versions[3], to: path)
        #expect(fileBytes(victim) == Array("precious".utf8))
        #expect(fileBytes(path) == Self.versions[3])
        #expect(fileBytes(path + ".bak") == Self.versions[2])
        var info = stat()
        #expect(lstat(path + ".tmp", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(!scratch.contents().contains { $0.hasPrefix("graph.json.tmp.") })
    }

    /// A FIFO planted at the spare's path: opening it for writing would wait for a
    /// reader forever, with the graph's lock held. The save must go around it.
    @Test func aFIFOAtTheSparePathNeitherBlocksNorIsWritten() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        for version in Self.versions.prefix(3) { try save(version, to: path) }
        #expect(unlink(path + ".tmp") == 0 && mkfifo(path + ".tmp", 0o600) == 0)
        let status = TestProcess.runInChild {
            // A blocked open ends the child with SIGALRM instead of hanging the test run
            // (the test thread's blocked signals are inherited: unblock them).
            var none = sigset_t()
            sigemptyset(&none)
            sigprocmask(SIG_SETMASK, &none, nil)
            alarm(10)
            do {
                try save(Self.versions[3], to: path)
                return 0
            } catch {
                return 1
            }
        }
        #expect(status == 0)
        #expect(fileBytes(path) == Self.versions[3])
        #expect(fileBytes(path + ".bak") == Self.versions[2])
        var info = stat()
        #expect(lstat(path + ".tmp", &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func aReusedSpareTakesTheTargetsPermissions() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        for version in Self.versions.prefix(3) { try save(version, to: path) }
        #expect(fileMode(atPath: path + ".tmp") == 0o600)
        chmod(path, 0o640)
        let spare = inode(path + ".tmp")
        let started = TestProcess.started
        try save(Self.versions[3], to: path)
        #expect(inode(path) == spare || TestProcess.started != started)
        #expect(fileMode(atPath: path) == 0o640)
        // Back to private: two saves later the spare is the inode that was 0640.
        chmod(path, 0o600)
        for version in Self.versions[4...5] {
            try save(version, to: path)
            #expect(fileMode(atPath: path) == 0o600)
        }
    }

    @Test func aFailedWriteToTheSpareLeavesTargetAndBackupAndRemovesTheSpare() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        for version in Self.versions.prefix(3) { try save(version, to: path) }
        #expect(inode(path + ".tmp") != nil)
        let status = TestProcess.runInChild {
            var limit = rlimit(rlim_cur: 4096, rlim_max: 4096)
            setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)  // like `ulimit -f 4`
            do {
                try save([UInt8](repeating: UInt8(ascii: "x"), count: 10_000), to: path)
                return 1
            } catch let error as FileSystemError {
                guard case .cannotWrite(let failed, let code) = error, code == EFBIG, failed == path + ".tmp" else {
                    return 2
                }
                return 0
            } catch {
                return 3
            }
        }
        #expect(status == 0)
        #expect(fileBytes(path) == Self.versions[2])
        #expect(fileBytes(path + ".bak") == Self.versions[1])
        #expect(scratch.contents() == ["graph.json", "graph.json.bak"])
    }
}
