import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// Readers of a graph file while it changes under them: saves that replace it between
/// the moment a reader opens it and the moment it reads it (made certain by
/// `FileSystem.readerHook`, which runs there), and other programs that rewrite it in place.
@Suite("GraphFile: readers under saves and faults", .serialized)
struct GraphFileFaultTests {
    /// Runs `body` with `change` called once, the first time a reader opens `path`
    /// (between its open and its read).
    func whileReading<T>(_ path: String, change: @escaping () -> Void, _ body: () throws -> T) rethrows -> T {
        nonisolated(unsafe) var done = false
        FileSystem.readerHook = { opened in
            guard opened == path, !done else { return }
            done = true
            change()
        }
        defer { FileSystem.readerHook = nil }
        return try body()
    }

    func names(_ suggestions: [Suggestion]) -> [String] { suggestions.map(\.place) }

    /// Three saves between a reader's open and its read: the file it opened is, by then,
    /// two versions old. The reader must still read one valid version. (Before, the third
    /// save rewrote that file in place as the spare, and the reader, with the size it took
    /// at the open, reported "unexpected end of input": a healthy graph called corrupt.)
    @Test func savesBetweenAReadersOpenAndItsReadNeverMakeAValidFileLookCorrupt() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        for (index, place) in ["Home", "Work", "Gym", "Home"].enumerated() { try file.update { $0.visit(place, at: Int64(index)) } }
        let request = SuggestionRequest(now: 10)
        let before = names(try file.suggestions(for: request))
        let found = try whileReading(
            file.path,
            change: {
                for index in 0..<3 {
                    _ = try? file.update { $0.visit("A place with a long name, number \(index)", at: Int64(20 + index)) }
                }
            }
        ) {
            try file.suggestions(for: request)
        }
        // The version the reader opened.
        #expect(names(found) == before)
        #expect(names(try file.suggestions(for: request)).contains("A place with a long name, number 1"))
    }

    /// A file that is not a graph when opened but replaced by a valid one before the
    /// reader judges it: read again, no error.
    @Test func aDamagedFileReplacedMeanwhileIsReadAgain() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        let good = GraphFile(path: scratch.path + "/good.json")
        try good.update { $0.visit("Home", at: 1) }
        try good.update { $0.visit("Work", at: 2) }
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(#"{"edges":[{"origin":"Ho"#.utf8))
        let graph = try whileReading(file.path, change: { rename(good.path, file.path) }) { try file.load() }
        #expect(graph.lastVisitedLocation == "Work")
    }

    /// The same damaged file, still there under the lock: corrupt, with the advice.
    @Test func aFileDamagedWhenReadUnderTheLockIsCorrupt() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        try file.update { $0.visit("Home", at: 1) }
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(#"{"edges":[{"origin":"Ho"#.utf8))
        #expect {
            try file.load()
        } throws: { error in
            guard case .corrupt = error as? GraphFileError else { return false }
            return "\(error)".contains("to recover")
        }
    }

    /// `cp backup.json graph.json` while a reader has it mapped: the file shrinks under
    /// the mapping. Each reader reports `changed while being read` (status 2) and writes
    /// nothing; before, the process died of SIGBUS (12 of 12 runs). Run in a child, so
    /// that the old behaviour could fail the test instead of ending the test run.
    ///
    /// Cut at 100 bytes, the old reader stopped in the first page and called the file
    /// corrupt; cut at a page boundary, its parse went on past the end: SIGBUS.
    @Test(arguments: ["suggest", "load", "visit", "one visit"], [100, 8192])
    func aFileThatShrinksWhileReadIsReportedAsChangedNotAFault(reader: String, cut size: Int) throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        // Large enough that the cut falls pages before the end.
        try file.update { graph in for index in 0..<3000 { graph.visit("Place \(index)", at: Int64(index)) } }
        let status = TestProcess.runInChild {
            var none = sigset_t()
            sigemptyset(&none)
            sigprocmask(SIG_SETMASK, &none, nil)
            alarm(20)
            let cut = { _ = truncate(file.path, off_t(size)) }
            do {
                try whileReading(file.path, change: cut) {
                    switch reader {
                    case "suggest": _ = try file.suggestions(for: SuggestionRequest(now: 10))
                    case "load": _ = try file.load()
                    case "visit": try file.update { graph in for index in 0..<3 { graph.visit("New \(index)", at: 9000) } }
                    default: _ = try RouteGraphVisitPatchProbe.visitOnce(file)
                    }
                }
                return 10
            } catch let error as GraphFileError {
                guard case .fileSystem(.changedWhileRead(let path)) = error, path == file.path else { return 11 }
                return "\(error)".hasPrefix("\(file.path): changed while being read") ? 0 : 12
            } catch {
                return 13
            }
        }
        #expect(status == 0, "\(reader): status \(status) (128 + n: killed by signal n)")
        // Nothing written: the file is what the other program left, and no temporary file.
        #expect(fileBytes(file.path)?.count == size)
        #expect(!scratch.contents().contains { $0.hasPrefix("graph.json.tmp") })
    }
}

extension GraphFileFaultTests {
    /// A save killed (kill -9, a crash, a power cut) leaves its temporary file, as large as
    /// the graph; the next save, holding the lock, removes it, and those of earlier versions.
    @Test func theNextSaveRemovesWhatKilledSavesLeft() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        try file.update { $0.visit("Home", at: 1) }
        let litter = ["graph.json.tmp.Zq8RkT3mW0aB", "graph.json.bak.Q1w2E3r4T5y6", "graph.json.tmp.31337.2882400001", "graph.json.tmp"]
        for name in litter {
            _ = FileManager.default.createFile(atPath: scratch.path + "/" + name, contents: Data(repeating: 0x7B, count: 100_000))
        }
        _ = FileManager.default.createFile(atPath: scratch.path + "/notes.txt", contents: Data("mine".utf8))
        try file.update { $0.visit("Work", at: 2) }
        #expect(scratch.contents() == ["graph.json", "graph.json.bak", "graph.json.lock", "notes.txt"])
    }
}

/// One visit through the patch path (`GraphFile.record`), as routegraph-visit records it.
enum RouteGraphVisitPatchProbe {
    static func visitOnce(_ file: GraphFile) throws -> Int {
        try file.record(VisitRequest(visits: [VisitRequest.Visit(place: "New place", time: 9000)], timeZone: .utc)).recorded
    }
}
