import Testing
import WayfindTestSupport

@testable import WayfindCore

/// The `successors` block at the end of a graph file: a copy of the edge lines that leave
/// the last place, which a suggestion from a stamped file reads instead of the edges.
@Suite("RouteGraph: the successors block")
struct SuccessorsBlockTests {
    typealias Random = SuggestionScanTests

    /// A file as wayfind wrote it before the block (and as the seed's code writes it):
    /// `bytes` without its `successors` key.
    static func withoutBlock(_ bytes: [UInt8]) -> [UInt8] {
        var text = String(decoding: bytes, as: UTF8.self)
        guard let key = text.range(of: "  \"successors\": "), let version = text.range(of: "  \"version\": 1\n}\n")
        else { return bytes }
        text.removeSubrange(key.lowerBound..<version.lowerBound)
        return Array(text.utf8)
    }

    /// Where the block's lines are, found by searching the text.
    static func blockLines(_ bytes: [UInt8]) -> Range<Int>? {
        let text = String(decoding: bytes, as: UTF8.self)
        if let empty = text.range(of: "\"successors\": [],") {
            let position = text.utf8.distance(from: text.startIndex, to: empty.upperBound) - 2
            return position..<position
        }
        guard let key = text.range(of: "  \"successors\": [\n    "), let end = text.range(of: "\n  ],\n  \"version\"")
        else { return nil }
        return text.utf8.distance(
            from: text.startIndex, to: key.upperBound)..<text.utf8.distance(
                from: text.startIndex, to: end.lowerBound)
    }

    /// A random graph with a last place, as saved.
    static func randomFile(using random: inout SplitMix64) -> (RouteGraph, [UInt8])? {
        let graph = Random.randomGraph(using: &random)
        guard graph.lastVisitedLocation != nil else { return nil }
        return (graph, graph.json())
    }

    @Test func theBlockHoldsTheEdgesLeavingTheLastPlaceInFileOrder() throws {
        var random = SplitMix64(seed: 71)
        var lines = 0
        for _ in 0..<300 {
            guard let (graph, bytes) = Self.randomFile(using: &random) else { continue }
            let last = RouteGraph.placeKey(graph.lastVisitedLocation!)
            let expected = graph.edges.filter { RouteGraph.placeKey($0.origin) == last }
            let range = try #require(Self.blockLines(bytes))
            let text = String(decoding: bytes[range], as: UTF8.self)
            let copied = text.isEmpty ? [] : text.components(separatedBy: ",\n    ")
            #expect(copied.count == expected.count)
            for (line, edge) in zip(copied, expected) {
                #expect(line.contains("\"origin\":") && line.contains("\"weight\":\(edge.weight)}"))
            }
            lines += copied.count
            // The full reader ignores the block: a file without it loads the same.
            #expect(try RouteGraph(json: Self.withoutBlock(bytes)).json() == bytes)
        }
        #expect(lines > 100)
    }

    @Test func theBlockIsFoundFromTheEnd() {
        var random = SplitMix64(seed: 72)
        var found = 0
        for _ in 0..<300 {
            let bytes = Random.randomGraph(using: &random).json()
            let fromTail = bytes.withUnsafeBytes { RouteGraph.successorsFromTail($0) }
            #expect(fromTail == Self.blockLines(bytes))
            if fromTail != nil { found += 1 }
            #expect(Self.withoutBlock(bytes).withUnsafeBytes { RouteGraph.successorsFromTail($0) } == nil)
        }
        #expect(found > 200)
        // A last record, not a block, before the version.
        let records = Array("{\n  \"places\": [\n    {\"name\":\"A\",\"visits\":1}\n  ],\n  \"version\": 1\n}\n".utf8)
        #expect(records.withUnsafeBytes { RouteGraph.successorsFromTail($0) } == nil)
    }

    /// A stamped file is answered from its block and records: an edge line broken
    /// elsewhere is not even read, while a suggestion from another place, which skims the
    /// edges, meets it and leaves the file to the full load.
    @Test func aCheckedFileIsAnsweredFromItsBlockWithoutReadingTheEdges() throws {
        var random = SplitMix64(seed: 73)
        var answered = 0
        for _ in 0..<300 {
            guard let (graph, bytes) = Self.randomFile(using: &random) else { continue }
            let last = RouteGraph.placeKey(graph.lastVisitedLocation!)
            guard let other = graph.edges.firstIndex(where: { RouteGraph.placeKey($0.origin) != last }) else { continue }
            // Break that edge's line: its `}` becomes `x`.
            var text = String(decoding: bytes, as: UTF8.self)
            let lines = text.components(separatedBy: "\n")
            var edgeLines = lines.indices.filter { lines[$0].hasPrefix("    {\"destination\"") }
            edgeLines = Array(edgeLines.prefix(graph.edges.count))
            var broken = lines
            let line = broken[edgeLines[other]]
            let closing = line.lastIndex(of: "}")!
            broken[edgeLines[other]] = line.replacingCharacters(in: closing...closing, with: "x")
            text = broken.joined(separator: "\n")
            let damaged = Array(text.utf8)
            let request = SuggestionRequest(from: nil, limit: 3, now: Random.epoch + 10_000_000)
            let fast = damaged.withUnsafeBytes {
                RouteGraph.scannedSuggestions(in: $0, for: request, filter: nil, parallelAbove: 1 << 20, edgesChecked: true)
            }
            if let fast {
                answered += 1
                #expect(fast == graph.suggestions(for: request))
            }
            let fromOther = SuggestionRequest(from: graph.edges[other].origin, limit: 3, now: Random.epoch + 10_000_000)
            let skimmed = damaged.withUnsafeBytes {
                RouteGraph.scannedSuggestions(in: $0, for: fromOther, filter: nil, parallelAbove: 1 << 20, edgesChecked: true)
            }
            #expect(skimmed == nil)
        }
        #expect(answered > 50)
    }

    /// A scan of an unstamped file vouches for it (so that it may be stamped) only when
    /// the block copies the last place's edge lines exactly, or there is no block.
    @Test func aScanVouchesOnlyForABlockThatCopiesTheEdges() throws {
        var random = SplitMix64(seed: 74)
        var vouched = 0
        var tampered = 0
        for _ in 0..<300 {
            guard let (graph, bytes) = Self.randomFile(using: &random) else { continue }
            let request = SuggestionRequest(from: nil, limit: 3, now: Random.epoch + 10_000_000)
            func scan(_ file: [UInt8], _ request: SuggestionRequest) -> (answer: [Suggestion]?, vouching: Bool) {
                var vouching = true
                let answer = file.withUnsafeBytes {
                    RouteGraph.scannedSuggestions(in: $0, for: request, filter: nil, vouching: &vouching)
                }
                return (answer, vouching)
            }
            let original = scan(bytes, request)
            guard original.answer != nil else { continue }
            #expect(original.vouching)
            vouched += 1
            #expect(scan(Self.withoutBlock(bytes), request).vouching)
            // From another place, the block cannot be compared.
            if let other = graph.edges.first(where: {
                RouteGraph.placeKey($0.origin) != RouteGraph.placeKey(graph.lastVisitedLocation!)
            }) {
                let fromOther = scan(bytes, SuggestionRequest(from: other.origin, limit: 3, now: request.now))
                #expect(fromOther.answer == nil || !fromOther.vouching)
            }
            // A block line whose weight was changed: the answer still comes from the
            // edges, and the file is not vouched for.
            guard let range = Self.blockLines(bytes), !range.isEmpty else { continue }
            var changed = bytes
            let weightEnd = range.upperBound - 1  // the `}` of the block's last line
            guard changed[weightEnd - 1] >= UInt8(ascii: "0"), changed[weightEnd - 1] < UInt8(ascii: "9") else { continue }
            changed[weightEnd - 1] += 1
            let result = scan(changed, request)
            #expect(!result.vouching)
            #expect(result.answer == nil || result.answer == graph.suggestions(for: request))
            // A block with a line too many.
            var text = String(decoding: bytes[range], as: UTF8.self)
            text += ",\n    " + text.components(separatedBy: ",\n    ")[0]
            let longer = Array(bytes[..<range.lowerBound]) + Array(text.utf8) + Array(bytes[range.upperBound...])
            #expect(!scan(longer, request).vouching)
            tampered += 1
        }
        #expect(vouched > 100 && tampered > 50)
    }

    /// A file saved before the block existed is patched into one with the block, as
    /// loading, visiting and saving it would write.
    @Test func aFileWithoutTheBlockIsPatchedIntoOneWithIt() throws {
        var random = SplitMix64(seed: 75)
        var patched = 0
        for _ in 0..<300 {
            let bytes = Self.withoutBlock(Random.randomGraph(using: &random).json())
            let place = Random.names.randomElement(using: &random)!
            let time = Random.epoch + Int64.random(in: 0...20_000_000, using: &random)
            let patch = bytes.withUnsafeBytes { RouteGraph.visitPatch($0, place: place, at: time, selfLoops: true) }
            guard let patch else { continue }
            patched += 1
            let expected = try VisitPatchTests.fullRewrite(
                bytes, place: place, at: time, selfLoops: true, newTrip: false, tripGap: nil, maxPlaces: 0)
            #expect(bytes.withUnsafeBytes { patch.applied(to: $0) } == expected)
        }
        #expect(patched > 100)
    }
}
