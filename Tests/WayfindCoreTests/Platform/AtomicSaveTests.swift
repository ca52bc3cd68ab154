import Foundation
import Testing
import WayfindSystemC

@testable import WayfindCore

#if canImport(Glibc)
    import Glibc
#endif

/// Default dispositions and no blocked signals, as in a process that just started.
private func defaultSignals() {
    for signal in [SIGIO, SIGALRM] { Glibc.signal(signal, SIG_DFL) }
    var none = sigset_t()
    sigemptyset(&none)
    sigprocmask(SIG_SETMASK, &none, nil)
}

/// `FileSystem.writeAtomically` with a backup: the target, `.bak` and the spare `.tmp`
/// rotate, and the spare is rewritten only when nobody else can see it.
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
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        let path = scratch.path + "/graph.json"
        var reused = 0
        for (index, version) in Self.versions.enumerated() {
            let spareBefore = inode(path + ".tmp")
            try save(version, to: path)
            #expect(fileBytes(path) == version)
            if index >= 1 { #expect(fileBytes(path + ".bak") == Self.versions[index - 1]) }
            if index >= 2 { #expect(fileBytes(path + ".tmp") == Self.versions[index - 2]) }
            if let spareBefore {
                #expect(inode(path) == spareBefore, "save \(index + 1) did not reuse the spare")
                reused += 1
            }
            let expected = ["graph.json", "graph.json.bak", "graph.json.tmp"].prefix(min(index + 1, 3))
            #expect(scratch.contents() == Array(expected))
        }
        #expect(reused == Self.versions.count - 3)
    }

    @Test func aSpareAReaderStillHoldsIsNeverWritten() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        let path = scratch.path + "/graph.json"
        for version in Self.versions.prefix(3) { try save(version, to: path) }
        // A reader maps the current version (the third) and one opens it; two saves later
        // that inode is the spare, and a third save would rewrite it if it were free.
        let mapped = try #require(try FileSystem.mapFile(at: path))
        let held = open(path, O_RDONLY)
        #expect(held >= 0)
        let third = Self.versions[2]
        for version in Self.versions[3...5] {
            try save(version, to: path)
            #expect(fileBytes(path) == version)
            #expect(Array(mapped.bytes) == third)
            var buffer = [UInt8](repeating: 0, count: 64)
            #expect(pread(held, &buffer, buffer.count, 0) == third.count)
            #expect(Array(buffer.prefix(third.count)) == third)
            #expect(!scratch.contents().contains { $0.hasPrefix("graph.json.tmp.") })
        }
        // Once the readers let go, the spare is reused again.
        close(held)
        withExtendedLifetime(mapped) {}
        _ = consume mapped
        let spare = inode(path + ".tmp")
        try save(Self.versions[6], to: path)
        #expect(inode(path) == spare)
        #expect(fileBytes(path) == Self.versions[6])
        #expect(fileBytes(path + ".bak") == Self.versions[5])
    }

    @Test func aSpareWithAnotherNameIsNeverWritten() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
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
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
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
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        let path = scratch.path + "/graph.json"
        for version in Self.versions.prefix(3) { try save(version, to: path) }
        #expect(unlink(path + ".tmp") == 0 && mkfifo(path + ".tmp", 0o600) == 0)
        let status = runInChild {
            // A blocked open ends the child with SIGALRM instead of hanging the test run
            // (the test thread's blocked signals are inherited: unblock them).
            defaultSignals()
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

    /// Someone opening the spare while a save probes it with a lease gets the saver a
    /// SIGIO, whose default action would end it: hundreds of saves while another process
    /// opens the spare over and over must all succeed.
    @Test func openingTheSpareDuringSavesDoesNotKillTheSaver() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        let path = scratch.path + "/graph.json"
        for version in Self.versions.prefix(3) { try save(version, to: path) }
        let opener = fork()
        if opener == 0 {
            // Like `cat` in a loop: open, hold a moment, close.
            while true {
                let descriptor = open(path + ".tmp", O_RDONLY)
                if descriptor >= 0 {
                    usleep(50)
                    close(descriptor)
                }
            }
        }
        let status = runInChild {
            // As a fresh process would start (the test thread may block signals, and an
            // earlier save in this process may have set SIGIO aside already).
            defaultSignals()
            for round in 0..<400 {
                do { try save(Self.versions[round % Self.versions.count], to: path) } catch { return 1 }
            }
            return 0
        }
        kill(opener, SIGKILL)
        var ignored: Int32 = 0
        waitpid(opener, &ignored, 0)
        #expect(status == 0, "the saver ended with \(status) (128 + \(SIGIO) is SIGIO)")
    }

    /// A save that does not vouch for its file leaves no stamp on it, not even the one a
    /// reused spare carried from its past (same size in the same clock tick, that stale
    /// stamp would match).
    @Test func aSaveThatDoesNotVouchLeavesNoStampOnAReusedSpare() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        let path = scratch.path + "/graph.json"
        let name = "user.wayfind.test"
        for version in Self.versions.prefix(3) {
            try FileSystem.writeAtomically(version, to: path, backupPath: path + ".bak", stamp: name)
        }
        func hasStamp(_ file: String) -> Bool {
            let descriptor = open(file, O_RDONLY)
            defer { close(descriptor) }
            var value = [UInt8](repeating: 0, count: 96)
            return wayfind_get_attribute(descriptor, name, &value, 96) > 0
        }
        try #require(hasStamp(path + ".tmp"), "this file system keeps no extended attributes")
        let spare = inode(path + ".tmp")
        try FileSystem.writeAtomically(Self.versions[3], to: path, backupPath: path + ".bak", stamp: name, vouching: false)
        #expect(inode(path) == spare)
        #expect(!hasStamp(path))
        #expect(hasStamp(path + ".bak"))
    }

    @Test func aReusedSpareTakesTheTargetsPermissions() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        let path = scratch.path + "/graph.json"
        for version in Self.versions.prefix(3) { try save(version, to: path) }
        #expect(fileMode(path + ".tmp") == 0o600)
        chmod(path, 0o640)
        let spare = inode(path + ".tmp")
        try save(Self.versions[3], to: path)
        #expect(inode(path) == spare)
        #expect(fileMode(path) == 0o640)
        // Back to private: two saves later the spare is the inode that was 0640.
        chmod(path, 0o600)
        for version in Self.versions[4...5] {
            try save(version, to: path)
            #expect(fileMode(path) == 0o600)
        }
    }

    @Test func aFailedWriteToTheSpareLeavesTargetAndBackupAndRemovesTheSpare() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        let path = scratch.path + "/graph.json"
        for version in Self.versions.prefix(3) { try save(version, to: path) }
        #expect(inode(path + ".tmp") != nil)
        let status = runInChild {
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
