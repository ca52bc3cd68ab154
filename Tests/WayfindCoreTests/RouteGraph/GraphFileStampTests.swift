import Foundation
import Testing
import WayfindSystemC

@testable import WayfindCore

#if canImport(Glibc)
    import Glibc
#endif

/// The `user.wayfind.checked` stamp: who sets it, and that a file changed since is
/// checked again in full.
@Suite("RouteGraph: the checked stamp")
struct GraphFileStampTests {
    static let epoch: Int64 = 1_700_000_000

    func isStamped(_ path: String) throws -> Bool {
        try #require(try FileSystem.mapFile(at: path, stamp: GraphFile.checkedStamp)).isStamped
    }

    /// Whether this file system keeps extended attributes at all (tmpfs before Linux 6.6
    /// does not); the tests below need them.
    func attributesWork(in directory: String) -> Bool {
        let probe = directory + "/probe"
        _ = FileManager.default.createFile(atPath: probe, contents: Data())
        defer { unlink(probe) }
        let descriptor = open(probe, O_RDONLY)
        defer { close(descriptor) }
        return wayfind_set_attribute(descriptor, "user.wayfind.probe", "1", 1) == 0
    }

    func graphFile(in scratch: ScratchDirectory) throws -> GraphFile {
        let file = GraphFile(path: scratch.path + "/graph.json")
        try file.update { graph in
            for (step, place) in ["Home", "Gym", "Café", "Old Town", "Home", "Harbour", "Gym", "Home"].enumerated() {
                graph.visit(place, at: Self.epoch + Int64(step) * 60)
            }
        }
        return file
    }

    @Test func aSaveStampsTheFileItWrote() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        try #require(attributesWork(in: scratch.path))
        let file = try graphFile(in: scratch)
        #expect(try isStamped(file.path))
        // A patched save (a visit to a known place) too.
        try file.update(patching: { bytes, isChecked in
            #expect(isChecked)
            return RouteGraph.visitPatch(
                bytes, place: "Gym", at: Self.epoch + 3600, selfLoops: false, newTrip: false, tripGap: nil,
                maxPlaces: 1000, edgesChecked: isChecked
            ).map { ($0, ()) }
        }) { _ in Issue.record("the visit was not patched") }
        #expect(try isStamped(file.path))
    }

    @Test func aScanThatChecksAnUnstampedFileStampsIt() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        try #require(attributesWork(in: scratch.path))
        var graph = RouteGraph()
        for step in 0..<30 { graph.visit(["Home", "Gym", "Café", "Old Town"][step % 4], at: Self.epoch + Int64(step)) }
        let path = scratch.path + "/graph.json"
        _ = FileManager.default.createFile(atPath: path, contents: Data(graph.json()))
        #expect(try !isStamped(path))
        let request = SuggestionRequest(limit: 3, now: Self.epoch + 100)
        let first = try GraphFile(path: path).suggestions(for: request)
        #expect(try isStamped(path))
        // Skimmed the second time, with the same answer.
        #expect(try GraphFile(path: path).suggestions(for: request) == first)
        #expect(first == graph.suggestions(for: request))
    }

    /// A file whose `successors` block disagrees with its edges (edited by hand) is
    /// answered from the edges and not stamped, so the block is never trusted; a scan
    /// from another place cannot compare the block and does not stamp either. The next
    /// save writes the block anew.
    @Test func aFileWhoseBlockDisagreesWithItsEdgesIsNotStamped() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        try #require(attributesWork(in: scratch.path))
        var graph = RouteGraph()
        for step in 0..<30 { graph.visit(["Home", "Gym", "Café", "Old Town"][step % 4], at: Self.epoch + Int64(step)) }
        var text = String(decoding: graph.json(), as: UTF8.self)
        // The last place is Gym; its one edge leads to Café. The copy says Home.
        let copied = #"{"destination":"Café","lastVisitedAt":1700000026,"origin":"Gym","weight":7}"#
        let lied = #"{"destination":"Home","lastVisitedAt":1700000026,"origin":"Gym","weight":7}"#
        try #require(text.contains("\"successors\": [\n    " + copied + "\n  ]"))
        text = text.replacingOccurrences(of: "[\n    " + copied + "\n  ]", with: "[\n    " + lied + "\n  ]")
        let path = scratch.path + "/graph.json"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        let request = SuggestionRequest(limit: 3, now: Self.epoch + 100)
        #expect(try GraphFile(path: path).suggestions(for: request) == graph.suggestions(for: request))
        #expect(try !isStamped(path))
        #expect(try GraphFile(path: path).suggestions(for: request) == graph.suggestions(for: request))

        _ = FileManager.default.createFile(atPath: path, contents: Data(graph.json()))
        let fromHome = SuggestionRequest(from: "Home", limit: 3, now: Self.epoch + 100)
        #expect(try GraphFile(path: path).suggestions(for: fromHome) == graph.suggestions(for: fromHome))
        #expect(try !isStamped(path))
        #expect(try GraphFile(path: path).suggestions(for: request) == graph.suggestions(for: request))
        #expect(try isStamped(path))
        // Stamped, from the last place: the block is read (the same answer).
        #expect(try GraphFile(path: path).suggestions(for: request) == graph.suggestions(for: request))
    }

    /// A file changed in place after it was stamped (here an edge line of another place
    /// made invalid, same size) is checked in full again: an error, not an answer.
    @Test func aFileChangedSinceItsStampIsCheckedAgain() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        try #require(attributesWork(in: scratch.path))
        let file = try graphFile(in: scratch)
        // Two: Home's successors, a full answer (a shorter list than asked for is left to
        // the full load, which would report the error whatever the stamp).
        let request = SuggestionRequest(limit: 2, now: Self.epoch + 3600)
        #expect(try file.suggestions(for: request).map(\.place) == ["Harbour", "Gym"])
        var bytes = try #require(fileBytes(file.path))
        // The destination of the first edge line whose origin is not Home (the last place):
        // a line the skim passes over.
        var lineStart = 0
        var found = false
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let text = String(decoding: line, as: UTF8.self)
            if text.hasPrefix("    {\"destination\":\""), !text.contains("\"origin\":\"Home\"") {
                found = true
                break
            }
            lineStart += line.count + 1
        }
        try #require(found)
        bytes[lineStart + "    {\"destination\":\"".utf8.count] = 0x01
        var info = stat()
        stat(file.path, &info)
        let descriptor = open(file.path, O_WRONLY)
        #expect(bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) } == bytes.count)
        // A later time, whatever the clock's tick: the change is what a stamp must see.
        var times = [info.st_atim, info.st_mtim]
        times[1].tv_sec += 1
        futimens(descriptor, &times)
        close(descriptor)
        #expect(throws: GraphFileError.self) { try file.suggestions(for: request) }
    }

    /// Names the writer escapes (here a backslash) would be read raw by the fast paths,
    /// so a save with such names does not stamp, and suggestions match a full load.
    @Test func aGraphWithEscapedNamesIsNotStamped() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        try #require(attributesWork(in: scratch.path))
        let file = GraphFile(path: scratch.path + "/graph.json")
        try file.update { graph in
            for (step, place) in ["Home", "a\\b", "Work", "Home", "C:\\Temp", "C:\\Temp", "Work", "Home", "Work", "C:\\Temp", "Home"]
                .enumerated()
            {
                graph.visit(place, at: Self.epoch + Int64(step) * 60)
            }
        }
        #expect(try !isStamped(file.path))
        let graph = try file.load()
        for from in [nil, "C:\\Temp", "Home"] {
            let request = SuggestionRequest(from: from, limit: 2, now: Self.epoch + 3600)
            #expect(try file.suggestions(for: request) == graph.suggestions(for: request))
            #expect(try file.suggestions(for: request) == graph.suggestions(for: request))  // after any stamping
        }
    }

    /// A file in the writer's shape but with two records of one place is not patched
    /// (a patch checks every record of an unstamped file, as a stamp vouches for one
    /// record per place): it is rewritten whole, stamped, and read as a full load reads it.
    @Test func twoRecordsOfOnePlaceAreRewrittenNotPatched() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        try #require(attributesWork(in: scratch.path))
        let path = scratch.path + "/graph.json"
        let text = """
            {
              "edges": [
                {"destination":"Foo","lastVisitedAt":1700000100,"origin":"Alpha","weight":1},
                {"destination":"Work","lastVisitedAt":1700000200,"origin":"Foo","weight":1}
              ],
              "lastVisitedAt": 1700000200,
              "lastVisitedLocation": "Work",
              "places": [
                {"lastVisitedAt":1700000100,"name":"Alpha","visits":5},
                {"lastVisitedAt":1700000150,"name":"Foo","visits":3},
                {"lastVisitedAt":1700000200,"name":"Work","visits":1},
                {"lastVisitedAt":1700000160,"name":"foo","visits":4}
              ],
              "version": 1
            }

            """
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        let file = GraphFile(path: path)
        var patched = false
        try file.update(patching: { bytes, isChecked in
            #expect(!isChecked)
            let patch = RouteGraph.visitPatch(bytes, place: "Work", at: Self.epoch + 300, maxPlaces: 1000, edgesChecked: isChecked)
            patched = patch != nil
            return patch.map { ($0, ()) }
        }) { graph in graph.visit("Work", at: Self.epoch + 300) }
        #expect(!patched)
        #expect(try isStamped(path))
        let request = SuggestionRequest(limit: 2, now: Self.epoch + 3600)
        #expect(try file.suggestions(for: request) == file.load().suggestions(for: request))
        #expect(try file.load().statistics(of: "foo")?.visits == 7)
    }

    /// A stamp whose identity matches, on a file not in the writer's shape (the seed's own
    /// pretty-printed layout), only costs a failed skim: the answer is the full load's.
    @Test func aStampedFileNotInTheWritersShapeIsStillRead() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        try #require(attributesWork(in: scratch.path))
        let path = scratch.path + "/graph.json"
        let seed = """
            {
              "edges" : [
                { "destination" : "Airport", "origin" : "City Center", "weight" : 11 },
                { "destination" : "Football Field", "origin" : "City Center", "weight" : 1 }
              ],
              "lastVisitedLocation" : "City Center"
            }
            """
        _ = FileManager.default.createFile(atPath: path, contents: Data(seed.utf8))
        var info = stat()
        stat(path, &info)
        FileStamp.set(path: path, name: GraphFile.checkedStamp, identity: FileIdentity(info))
        #expect(try isStamped(path))
        let names = try GraphFile(path: path).suggestions(for: SuggestionRequest(limit: 5, now: Self.epoch)).map(\.place)
        #expect(names == ["Airport", "Football Field"])
    }

    /// The identity a stamp holds names the inode: the same bytes and stamp in another
    /// file (a copy that kept the attributes) are not trusted.
    @Test func aStampCopiedToAnotherFileDoesNotMatch() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        try #require(attributesWork(in: scratch.path))
        let file = try graphFile(in: scratch)
        let copy = scratch.path + "/copy.json"
        _ = FileManager.default.createFile(atPath: copy, contents: Data(try #require(fileBytes(file.path))))
        var value = [UInt8](repeating: 0, count: 96)
        let source = open(file.path, O_RDONLY)
        let length = wayfind_get_attribute(source, GraphFile.checkedStamp, &value, 96)
        close(source)
        #expect(length > 0)
        let target = open(copy, O_RDONLY)
        #expect(wayfind_set_attribute(target, GraphFile.checkedStamp, value, UInt(length)) == 0)
        // Same size and time too, as `cp -a` would leave them.
        var info = stat()
        stat(file.path, &info)
        var times = [info.st_atim, info.st_mtim]
        futimens(target, &times)
        close(target)
        #expect(try isStamped(file.path))
        #expect(try !isStamped(copy))
    }
}
