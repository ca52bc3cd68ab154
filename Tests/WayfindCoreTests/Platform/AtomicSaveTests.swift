import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// `FileSystem.writeAtomically` with a backup: every save is a new file renamed over the
/// target, the previous version becomes `.bak`, and no file that was the target is ever
/// written again.
@Suite("Platform: atomic saves")
struct AtomicSaveTests {
    /// Versions of different lengths.
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

    @Test func eachNameAlwaysHoldsACompleteVersionAndNothingElseIsLeft() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        for (index, version) in Self.versions.enumerated() {
            try save(version, to: path)
            #expect(fileBytes(path) == version)
            if index >= 1 { #expect(fileBytes(path + ".bak") == Self.versions[index - 1]) }
            #expect(scratch.contents() == (index == 0 ? ["graph.json"] : ["graph.json", "graph.json.bak"]))
        }
    }

    /// What `cp`, `rsync` or a backup tool sees: it opens the file (no lock) and reads it
    /// slowly while saves go on. Every file that was the target keeps its bytes, so each
    /// reader reads the version it opened, whole. (Before, the third save rewrote the
    /// first version's file in place, as the spare.)
    @Test func aFileThatWasTheTargetIsNeverWrittenAgain() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        var held: [(descriptor: Int32, bytes: [UInt8], inode: ino_t)] = []
        defer { for file in held { close(file.descriptor) } }
        for version in Self.versions {
            try save(version, to: path)
            let descriptor = open(path, O_RDONLY)
            #expect(descriptor >= 0)
            // Every save makes a new file (the old ones are still open: no inode is reused).
            let number = try #require(inode(path))
            #expect(!held.contains { $0.inode == number })
            held.append((descriptor, version, number))
        }
        for file in held {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = pread(file.descriptor, &buffer, buffer.count, 0)
            #expect(Array(buffer.prefix(max(count, 0))) == file.bytes)
        }
    }

    /// Large files, of pieces that begin and end anywhere. Each save reads back as its
    /// pieces, the backup as the version before, and the file a reader holds keeps its
    /// bytes.
    @Test func largeFilesOfManyPiecesAreSavedWhole() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        var random = SplitMix64(seed: 24)
        let chunk = 256 * 1024
        let sizes = [chunk - 1, chunk, chunk + 1, 3 * chunk, 4 * chunk + 12_345, 8 * chunk, 5 * chunk + 7]
        var previous: [UInt8]? = nil
        var held: (descriptor: Int32, bytes: [UInt8])? = nil
        defer { if let held { close(held.descriptor) } }
        for (round, size) in sizes.enumerated() {
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var cuts = (0..<Int.random(in: 0...6, using: &random)).map { _ in Int.random(in: 0...size, using: &random) }
            cuts = ([0] + cuts.sorted() + [size])
            try bytes.withUnsafeBytes { buffer in
                let pieces = zip(cuts, cuts.dropFirst()).map { UnsafeRawBufferPointer(rebasing: buffer[$0..<$1]) }
                try FileSystem.writeAtomically(pieces: pieces, to: path, backupPath: path + ".bak")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes), "\(size), cut at \(cuts)")
            if let previous {
                #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".bak")) == Data(previous), "backup before \(size)")
            }
            if round == 3 {
                let descriptor = open(path, O_RDONLY)
                #expect(descriptor >= 0)
                held = (descriptor, bytes)
            }
            previous = bytes
        }
        let kept = try #require(held)
        var buffer = [UInt8](repeating: 0, count: kept.bytes.count + 1)
        #expect(pread(kept.descriptor, &buffer, buffer.count, 0) == kept.bytes.count)
        #expect(Array(buffer.prefix(kept.bytes.count)) == kept.bytes)
    }

    @Test func aSymlinkAtAnOldTemporaryPathIsNeverFollowed() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        for version in Self.versions.prefix(3) { try save(version, to: path) }
        let victim = scratch.path + "/victim"
        _ = FileManager.default.createFile(atPath: victim, contents: Data("precious".utf8))
        #expect(symlink(victim, path + ".tmp") == 0 && symlink(victim, path + ".bak.new") == 0)
        try save(Self.versions[3], to: path)
        #expect(fileBytes(victim) == Array("precious".utf8))
        #expect(fileBytes(path) == Self.versions[3])
        #expect(fileBytes(path + ".bak") == Self.versions[2])
        var info = stat()
        #expect(lstat(path + ".tmp", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    }

    /// A FIFO planted at the old fixed temporary path is neither opened nor in the way.
    @Test func aFIFOAtAnOldTemporaryPathNeitherBlocksNorIsWritten() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        for version in Self.versions.prefix(3) { try save(version, to: path) }
        #expect(mkfifo(path + ".tmp", 0o600) == 0)
        let status = TestProcess.runInChild {
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
    }

    @Test func aSaveKeepsTheTargetsPermissions() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        try save(Self.versions[0], to: path)
        #expect(fileMode(atPath: path) == 0o600)
        chmod(path, 0o640)
        for version in Self.versions[1...3] {
            try save(version, to: path)
            #expect(fileMode(atPath: path) == 0o640)
        }
    }

    @Test func aFailedWriteLeavesTargetAndBackupAndRemovesTheTemporaryFile() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        for version in Self.versions.prefix(3) { try save(version, to: path) }
        let status = TestProcess.runInChild {
            var limit = rlimit(rlim_cur: 4096, rlim_max: 4096)
            setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)  // like `ulimit -f 4`
            do {
                try save([UInt8](repeating: UInt8(ascii: "x"), count: 10_000), to: path)
                return 1
            } catch let error as FileSystemError {
                guard case .cannotWrite(let failed, let code) = error, code == EFBIG, failed.hasPrefix(path + ".tmp.") else {
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

    /// The names a dead save leaves, and only those, are leftovers; another user's
    /// regular file with such a name is not removed (tested as a process: see
    /// RouteGraphProcessTests).
    @Test func leftoversAreFoundByTheirNamesOnly() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        try save(Self.versions[0], to: path)
        let leftovers = [
            "graph.json.tmp.AbCdEf012345", "graph.json.bak.zzzzzzzzzzzz", "graph.json.tmp", "graph.json.tmp.4242.3735928559",
            "graph.json.bak.new",
        ]
        let others = [
            "graph.json.tmp.AbCdEf01234", "graph.json.tmp.AbCdEf0123456", "graph.json.tmp.AbCdEf01234!", "graph.jsonx.tmp.AbCdEf012345",
            "other.json.tmp.AbCdEf012345", "graph.json.tmp.12.", "graph.json.tmpx", "graph.json.bak",
        ]
        for name in leftovers + others { _ = FileManager.default.createFile(atPath: scratch.path + "/" + name, contents: Data("x".utf8)) }
        try FileManager.default.createDirectory(atPath: scratch.path + "/graph.json.tmp.AAAAAAAAAAAA", withIntermediateDirectories: false)
        // A save's own temporary file stays.
        let own = "graph.json.tmp.OwnOwnOwn123"
        _ = FileManager.default.createFile(atPath: scratch.path + "/" + own, contents: Data("x".utf8))
        #expect(FileSystem.removeLeftovers(of: path, except: own))
        #expect(scratch.contents() == (["graph.json", "graph.json.tmp.AAAAAAAAAAAA", own] + others).sorted())
        #expect(!FileSystem.removeLeftovers(of: scratch.path + "/missing/graph.json"))
    }
}
