import Foundation
import Synchronization
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// The bytes of `path`, read through a close-on-exec descriptor: a child that an
/// end-to-end test spawns meanwhile must not inherit it, or the file would stay locked
/// and the next save would not reuse it as its spare (see `AtomicSaveTests`).
func fileBytes(_ path: String) -> [UInt8]? {
    (try? FileSystem.readFile(at: path)) ?? nil
}

@Suite("RouteGraph: the graph file")
struct GraphFileTests {
    @Test func aMissingFileIsAnEmptyGraphAndTheFirstSaveCreatesItPrivately() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/state/wayfind/routegraph.json")
        #expect(try file.load() == RouteGraph())
        try file.update { $0.visit("Home", at: 1) }
        #expect(fileMode(atPath: file.path) == 0o600)
        #expect(fileMode(atPath: scratch.path + "/state/wayfind") == 0o700)
        #expect(try file.load().lastVisitedLocation == "Home")
    }

    @Test func savesKeepThePreviousVersionAndLeaveNoTemporaryFiles() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        try file.update { $0.visit("A", at: 1) }
        let first = fileBytes(file.path)
        try file.update { $0.visit("B", at: 2) }
        #expect(fileBytes(file.backupPath) == first)
        #expect(try file.load().edge(from: "A", to: "B")?.weight == 1)
        #expect(scratch.contents() == ["graph.json", "graph.json.bak", "graph.json.lock"])
    }

    /// Each save, a patch or a full one, leaves the file, its previous version as the
    /// backup, and the lock: the rename of the new backup frees the one before.
    @Test func eachSaveLeavesTheFileItsBackupAndTheLockAlone() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        var versions: [[UInt8]?] = []
        for (round, place) in ["A", "B", "C", "D", "E", "F"].enumerated() {
            if round.isMultiple(of: 2) {
                try file.record(VisitRequest(visits: [.init(place: place, time: Int64(round))]))
            } else {
                try file.update { $0.visit(place, at: Int64(round)) }
            }
            versions.append(fileBytes(file.path))
            let expected = round == 0 ? ["graph.json", "graph.json.lock"] : ["graph.json", "graph.json.bak", "graph.json.lock"]
            #expect(scratch.contents() == expected, "after \(place)")
            if round >= 1 { #expect(fileBytes(file.backupPath) == versions[round - 1]) }
        }
    }

    @Test func anUpdateThatChangesNothingDoesNotWrite() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        try file.update { $0.visit("A", at: 1) }
        var before = stat()
        stat(file.path, &before)
        try file.update { _ in }
        try file.update { $0.forget("nowhere") }
        var after = stat()
        stat(file.path, &after)
        #expect(before.st_ino == after.st_ino)
    }

    @Test func anExistingFilesPermissionsAreKept() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        try file.update { $0.visit("A", at: 1) }
        chmod(file.path, 0o640)
        try file.update { $0.visit("B", at: 2) }
        #expect(fileMode(atPath: file.path) == 0o640)
    }

    @Test func aSymlinkPlantedAtTheTemporaryPathIsNotFollowed() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        try file.update { $0.visit("A", at: 1) }
        let victim = scratch.path + "/victim"
        _ = FileManager.default.createFile(atPath: victim, contents: Data("precious".utf8))
        symlink(victim, file.path + ".tmp")
        symlink(scratch.path + "/nonexistent", file.path + ".lock.tmp")
        // A link at the backup is replaced, and what it points to left alone.
        #expect(symlink(victim, file.backupPath) == 0)
        let first = fileBytes(file.path)
        try file.update { $0.visit("B", at: 2) }
        #expect(fileBytes(victim) == Array("precious".utf8))
        #expect(try file.load().lastVisitedLocation == "B")
        #expect(fileBytes(file.backupPath) == first)
        var info = stat()
        #expect(lstat(file.path + ".tmp", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(!scratch.contents().contains { $0.hasPrefix("graph.json.tmp.") || $0.hasPrefix("graph.json.bak.") })
    }

    @Test(arguments: [
        ("{\"edges\":[{\"origin\":\"A\",\"destination\":\"B\",\"weight\":1}", "line 1, column 54 (byte 53)"),
        ("{\"edges\":[],}\n", "trailing comma"),
        ("  {", "unexpected end of input"),
    ])
    func aCorruptFileIsNeverOverwritten(content: String, fragment: String) throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(content.utf8))
        var bodyRan = false
        #expect {
            try file.update { _ in bodyRan = true }
        } throws: { error in
            let message = "\(error)"
            return message.contains(file.path) && message.contains(fragment)
                && message.contains("(to recover, move \(file.path) away to start a new graph)")
        }
        #expect(!bodyRan)
        #expect(fileBytes(file.path) == Array(content.utf8))
        #expect(!FileManager.default.fileExists(atPath: file.backupPath))
    }

    @Test func anEmptyFileIsAnEmptyGraph() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data())
        #expect(try file.load() == RouteGraph())
        #expect(try file.suggestions(for: SuggestionRequest(now: 1)) == [])
        try file.update { $0.visit("Home", at: 1) }
        #expect(try file.load().lastVisitedLocation == "Home")
    }

    /// A file that is not a JSON object is probably the wrong file: the message says what
    /// it is not, and does not advise moving it away or restoring a backup.
    @Test(arguments: ["root:x:0:0:root:/root:/bin/bash\n", "[1, 2, 3]", "\u{7F}ELF\u{2}\u{1}"])
    func aFileThatIsNotAGraphIsNamedAndLeftAlone(content: String) throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/passwd")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(content.utf8))
        _ = FileManager.default.createFile(atPath: file.backupPath, contents: Data("{}".utf8))
        #expect {
            try file.update { $0.visit("Home", at: 1) }
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("\(file.path): not a route graph (") && !message.contains("move")
                && !message.contains(".bak") && message.hasSuffix("(name the graph with --graph FILE)")
        }
        #expect(fileBytes(file.path) == Array(content.utf8))
    }

    @Test func invalidUTF8InAPlaceNameIsReportedWithItsPosition() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        let content = Array("{\"edges\":[],\"lastVisitedLocation\":\"A".utf8) + [0xFF] + Array("\"}".utf8)
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(content))
        #expect(
            throws: GraphFileError.corrupt(
                path: file.path,
                error: JSONError(message: "lastVisitedLocation: invalid UTF-8 byte 0xFF in a string", offset: 36, line: 1, column: 37))
        ) { try file.update { _ in } }
        #expect(fileBytes(file.path) == content)
    }

    /// A visit refuses a name with a NUL (which `-z` output would cut); a file holding
    /// one, escaped as `\u0000`, is refused as corrupt, wherever the name is.
    @Test(arguments: [
        #"{"edges":[],"lastVisitedLocation":"A\u0000B","version":1}"#,
        #"{"edges":[{"origin":"X","destination":"\u0000"}],"version":1}"#,
        #"{"edges":[],"places":[{"name":"A\u0000","visits":1}],"version":1}"#,
    ])
    func aNULInAStoredPlaceNameIsRefused(content: String) throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(content.utf8))
        let error = #expect(throws: GraphFileError.self) { try file.update { $0.visit("Home", at: 1) } }
        #expect(error?.description.contains(": a place name must not contain a NUL byte") == true, "\(String(describing: error))")
        #expect(throws: GraphFileError.self) { try file.load() }
        #expect(throws: GraphFileError.self) { try file.suggestions(for: SuggestionRequest(limit: nil, now: 1)) }
        #expect(fileBytes(file.path) == Array(content.utf8))
    }

    @Test func aNewerVersionIsRefusedAndLeftAlone() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        let newer = RouteGraph.currentVersion + 1
        let content = Array("{\"version\":\(newer),\"edges\":{\"new\":true}}".utf8)
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(content))
        #expect(throws: GraphFileError.unsupportedVersion(path: file.path, found: Int64(newer), supported: RouteGraph.currentVersion)) {
            try file.update { $0.visit("A", at: 1) }
        }
        #expect(fileBytes(file.path) == content)
    }

    @Test func aDirectoryInsteadOfAFileIsAnError() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        mkdir(file.path, 0o700)
        #expect(throws: GraphFileError.fileSystem(.notARegularFile(path: file.path))) {
            try file.update { $0.visit("A", at: 1) }
        }
        #expect(throws: GraphFileError.fileSystem(.notARegularFile(path: file.path))) { try file.load() }
    }

    @Test func aWriteBeyondTheFileSizeLimitFailsAndLeavesTheOldFile() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        try file.update { $0.visit("A", at: 1) }
        let before = fileBytes(file.path)
        let status = TestProcess.runInChild {
            var limit = rlimit(rlim_cur: 4096, rlim_max: 4096)
            setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)  // like `ulimit -f 4`
            do {
                try file.update { graph in
                    for n in 0..<500 { graph.visit("place number \(n)", at: Int64(n)) }
                }
                return 1
            } catch let error as GraphFileError {
                guard case .fileSystem(.cannotWrite(_, let code)) = error, code == EFBIG else { return 2 }
                return "\(error)".contains("file too large") ? 0 : 3
            } catch {
                return 4
            }
        }
        #expect(status == 0)
        #expect(fileBytes(file.path) == before)
        #expect(scratch.contents() == ["graph.json", "graph.json.lock"])
    }

    @Test func aReadOnlyDirectoryFailsTheSaveAndLeavesTheOldFile() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        try file.update { $0.visit("A", at: 1) }
        // Root ignores permissions, so the child drops to "nobody" first.
        chmod(file.path, 0o644)
        chmod(file.lockPath, 0o666)
        chmod(scratch.path, 0o555)
        let before = fileBytes(file.path)
        let status = TestProcess.runInChild {
            if geteuid() == 0 {
                guard setgid(65534) == 0, setuid(65534) == 0 else { return 10 }
            }
            do {
                try file.update { $0.visit("B", at: 2) }
                return 1
            } catch let error as GraphFileError {
                guard case .fileSystem(.cannotOpen(_, let code)) = error, code == EACCES else { return 2 }
                return "\(error)".contains("permission denied") ? 0 : 3
            } catch {
                return 4
            }
        }
        #expect(status == 0)
        #expect(fileBytes(file.path) == before)
        #expect(scratch.contents() == ["graph.json", "graph.json.lock"])
    }

    @Test func concurrentUpdatesFromEightThreadsAreAllCounted() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        let threads = 8
        let visits = 6
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let file = GraphFile(path: path)
            for n in 0..<visits {
                do {
                    // Self-loops on: every visit after the very first adds exactly 1.
                    try file.update { $0.visit("place \(thread)-\(n % 3)", at: Int64(n), selfLoops: true) }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let graph = try GraphFile(path: path).load()
        #expect(graph.edges.reduce(0) { $0 + $1.weight } == threads * visits - 1)
    }
}
