import Testing
import WayfindTestSupport

@testable import WayfindCore

@Suite("RouteGraph: suggestions by scanning the file")
struct SuggestionScanTests {
    static let epoch: Int64 = 1_700_000_000
    /// Spellings chosen to collide: case, accents, whitespace, marks that fold away.
    static let names = [
        "Airport", "airport", "Aírport", "City Center", "city  center", " City Center ", "Zürich Süd", "Zurich Sud",
        "São Paulo", "Sao Paulo", "Home", "HOME", "Gym", "Old Town", "Harbour", "\u{301}Mark", "Ölberg", "a", "A b",
        "Bäckerei", "Café", "Cafe\u{301}", "Köln Hbf", "Tōkyō",
    ]

    /// A graph from a random walk over a few of `names`, with random trips and times.
    static func randomGraph(using random: inout SplitMix64) -> RouteGraph {
        var graph = RouteGraph()
        let pool = names.shuffled(using: &random).prefix(Int.random(in: 2...names.count, using: &random))
        for step in 0..<Int.random(in: 0...60, using: &random) {
            let place = pool.randomElement(using: &random)!
            let time = epoch + Int64(step) * Int64.random(in: 1...200_000, using: &random)
            graph.visit(place, at: time, selfLoops: Bool.random(using: &random), newTrip: random.next() % 7 == 0)
        }
        if random.next() % 5 == 0, let doomed = pool.randomElement(using: &random) { graph.forget(doomed) }
        return graph
    }

    static func randomRequest(using random: inout SplitMix64) -> SuggestionRequest {
        SuggestionRequest(
            from: random.next() % 3 == 0 ? names.randomElement(using: &random) : nil,
            limit: [nil, 0, 1, 2, 3, 5, 10].randomElement(using: &random)!,
            successorsOnly: random.next() % 4 == 0,
            halfLife: random.next() % 3 == 0 ? Int64.random(in: 1...1_000_000, using: &random) : nil,
            now: epoch + Int64.random(in: 0...10_000_000, using: &random))
    }

    @Test func scanningAFileGivesTheSameSuggestionsAsLoadingIt() throws {
        var random = SplitMix64(seed: 3)
        var scanned = 0
        for _ in 0..<400 {
            let graph = Self.randomGraph(using: &random)
            let bytes = graph.json()
            let loaded = try RouteGraph(json: bytes)
            for _ in 0..<8 {
                let request = Self.randomRequest(using: &random)
                let letter = ["a", "c", "h", "z", "o"].randomElement(using: &random)!
                let filter: ((String) -> Bool)? = random.next() % 3 == 0 ? { RouteGraph.placeKey($0).contains(letter) } : nil
                let fast = bytes.withUnsafeBytes { RouteGraph.scannedSuggestions(in: $0, for: request, filter: filter) }
                guard let fast else { continue }
                scanned += 1
                let full = loaded.suggestions(for: request, filter: filter)
                #expect(fast == full, "request \(request) on\n\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        // The comparison means something only if the scan mostly answers by itself.
        #expect(scanned > 1000)
    }

    /// The same with the edge lines split between two threads however small the file.
    @Test func scanningOnTwoThreadsGivesTheSameSuggestionsAsLoading() throws {
        var random = SplitMix64(seed: 37)
        var scanned = 0
        for _ in 0..<300 {
            let graph = Self.randomGraph(using: &random)
            let bytes = graph.json()
            let loaded = try RouteGraph(json: bytes)
            for _ in 0..<6 {
                let request = Self.randomRequest(using: &random)
                let fast = bytes.withUnsafeBytes {
                    RouteGraph.scannedSuggestions(in: $0, for: request, filter: nil, parallelAbove: 0)
                }
                guard let fast else { continue }
                scanned += 1
                #expect(fast == loaded.suggestions(for: request), "request \(request)")
            }
        }
        #expect(scanned > 500)
    }

    /// A file whose edge lines were checked before (stamped) has them skimmed: the same
    /// answers, on one thread and on two.
    @Test func skimmingACheckedFileGivesTheSameSuggestionsAsLoadingIt() throws {
        var random = SplitMix64(seed: 41)
        var skimmed = 0
        for _ in 0..<400 {
            let graph = Self.randomGraph(using: &random)
            let bytes = graph.json()
            let loaded = try RouteGraph(json: bytes)
            for _ in 0..<8 {
                let request = Self.randomRequest(using: &random)
                let letter = ["a", "c", "h", "z", "o"].randomElement(using: &random)!
                let filter: ((String) -> Bool)? = random.next() % 3 == 0 ? { RouteGraph.placeKey($0).contains(letter) } : nil
                let parallelAbove = random.next() % 2 == 0 ? 0 : RouteGraph.parallelScanBytes
                let fast = bytes.withUnsafeBytes {
                    RouteGraph.scannedSuggestions(
                        in: $0, for: request, filter: filter, parallelAbove: parallelAbove, edgesChecked: true)
                }
                // Skimming answers exactly when checking does.
                let checked = bytes.withUnsafeBytes {
                    RouteGraph.scannedSuggestions(in: $0, for: request, filter: filter, parallelAbove: parallelAbove)
                }
                #expect((fast == nil) == (checked == nil), "request \(request)")
                guard let fast else { continue }
                skimmed += 1
                #expect(fast == loaded.suggestions(for: request, filter: filter), "request \(request)")
            }
        }
        #expect(skimmed > 1000)
    }

    /// Skimming trusts the file's shape, so a file stamped wrongly can get a wrong answer,
    /// but never a crash: bytes of valid files changed at random (to the bytes the skim
    /// looks for most), skimmed from a buffer of exactly the file's size (run it under
    /// `swift test --sanitize=address` to see that nothing past the end is read).
    @Test func skimmingABrokenFileNeverCrashes() throws {
        var random = SplitMix64(seed: 43)
        var answered = 0
        for _ in 0..<1500 {
            guard let bytes = damaged(Self.randomGraph(using: &random).json(), using: &random) else { continue }
            let request = Self.randomRequest(using: &random)
            let parallelAbove = random.next() % 2 == 0 ? 0 : 1 << 20
            let result = withExactCopy(of: bytes) {
                RouteGraph.scannedSuggestions(
                    in: $0, for: request, filter: nil, parallelAbove: parallelAbove, edgesChecked: true)
            }
            if result != nil { answered += 1 }
        }
        // Most changes break a line the skim reads, some only a name it passes over.
        #expect(answered > 0 && answered < 1500)
    }

    /// A split point is only ever the start of an edge line, and a file broken in either
    /// half is left to the full load.
    @Test func aSplitScanChecksBothHalves() throws {
        var graph = RouteGraph()
        for step in 0..<40 { graph.visit(["Home", "Gym", "Café", "Old Town", "Harbour"][step % 5], at: Self.epoch + Int64(step)) }
        let bytes = graph.json()
        let request = SuggestionRequest(limit: 3, now: Self.epoch + 100)
        let whole = try #require(
            bytes.withUnsafeBytes { RouteGraph.scannedSuggestions(in: $0, for: request, filter: nil, parallelAbove: 0) })
        #expect(whole == (try RouteGraph(json: bytes)).suggestions(for: request))
        let split = try #require(
            bytes.withUnsafeBytes { buffer in
                RouteGraph.edgeLineSplit(in: buffer, from: 0, end: RouteGraph.headerFromTail(buffer)!.edgesEnd)
            })
        #expect(Array(bytes[(split - 7)..<(split + 16)]) == Array("},\n    {\"destination\":\"".utf8))
        // One bad byte in the first half, then in the second: never an answer.
        for position in [split - 20, split + 20] {
            var broken = bytes
            broken[position] = 0x01
            #expect(broken.withUnsafeBytes { RouteGraph.scannedSuggestions(in: $0, for: request, filter: nil, parallelAbove: 0) } == nil)
        }
    }

    /// Many places with few distinct scores and times, so the frecency short list of the
    /// scan keeps or drops places on ties of score and time, decided by name.
    @Test func theShortListBreaksTiesAsAFullLoadDoes() throws {
        var random = SplitMix64(seed: 11)
        var scanned = 0
        for _ in 0..<60 {
            var graph = RouteGraph()
            let count = Int.random(in: 12...80, using: &random)
            let places = (0..<count).map { "Stop \(["Ä", "a", "B", "b", "ç"].randomElement(using: &random)!)\($0 % 7)-\($0)" }
            for step in 0..<Int.random(in: 20...300, using: &random) {
                let time = Self.epoch + Int64.random(in: 0...2, using: &random) * 100_000
                graph.visit(places.randomElement(using: &random)!, at: time, newTrip: step % 5 == 0)
            }
            let bytes = graph.json()
            let loaded = try RouteGraph(json: bytes)
            for _ in 0..<20 {
                let request = SuggestionRequest(
                    from: random.next() % 2 == 0 ? places.randomElement(using: &random) : nil,
                    limit: Int.random(in: 1...12, using: &random),
                    halfLife: random.next() % 4 == 0 ? 86_400 : nil,
                    now: Self.epoch + 400_000)
                let filter: ((String) -> Bool)? = random.next() % 3 == 0 ? { $0.contains("b") } : nil
                let fast = bytes.withUnsafeBytes { RouteGraph.scannedSuggestions(in: $0, for: request, filter: filter) }
                guard let fast else { continue }
                scanned += 1
                #expect(fast == loaded.suggestions(for: request, filter: filter), "request \(request)")
            }
        }
        #expect(scanned > 600)
    }

    /// Two records of one place (a file edited by hand, in the writer's shape): the scan
    /// must not count them as two places; it leaves such a file to the full load.
    @Test func twoRecordsOfOnePlaceAreLeftToTheFullLoad() throws {
        var lines = (0..<12).map { "    {\"lastVisitedAt\":1700000000,\"name\":\"Place \($0)\",\"visits\":\($0 + 1)}" }
        lines.append("    {\"lastVisitedAt\":1700000000,\"name\":\"place 3\",\"visits\":50}")
        let text =
            "{\n  \"edges\": [\n    {\"destination\":\"Place 1\",\"lastVisitedAt\":1700000000,\"origin\":\"Place 0\",\"weight\":1}\n  ],\n"
            + "  \"lastVisitedAt\": 1700000000,\n  \"lastVisitedLocation\": \"Place 0\",\n  \"places\": [\n"
            + lines.joined(separator: ",\n") + "\n  ],\n  \"version\": 1\n}\n"
        let bytes = Array(text.utf8)
        let request = SuggestionRequest(limit: 3, now: Self.epoch)
        #expect(bytes.withUnsafeBytes { RouteGraph.scannedSuggestions(in: $0, for: request) } == nil)
        // The full load adds the two records up: after the successor, place 3 (54 visits).
        let loaded = try RouteGraph(json: bytes)
        #expect(loaded.suggestions(for: request).map(\.place).prefix(2) == ["Place 1", "place 3"])
    }

    /// The header found from the end is the one a forward scan reaches, and a file whose
    /// tail is not the writer's gives none.
    @Test func theHeaderFoundFromTheEndIsTheOneAForwardScanReaches() throws {
        var random = SplitMix64(seed: 31)
        var found = 0
        for _ in 0..<300 {
            let bytes = Self.randomGraph(using: &random).json()
            let header = bytes.withUnsafeBytes { buffer in
                RouteGraph.headerFromTail(buffer).map { (edgesEnd: $0.edgesEnd, lastName: $0.lastName.map { Array($0) }) }
            }
            let forward = bytes.withUnsafeBytes { buffer -> (Int, [UInt8]?)? in
                var reader = JSONReader(buffer)
                var lines = LineCounter()
                guard reader.skipLiteral("{\n  \"edges\": [\n    "),
                    RouteGraph.scanEdgeLineRun(&reader, stoppingAt: nil, &lines) != nil
                else { return nil }
                let end = reader.offset
                guard reader.skipLiteral("\n  ],\n") else { return nil }
                if reader.skipLiteral("  \"lastVisitedAt\": ") {
                    _ = reader.skipPlainNonNegativeInteger()
                    _ = reader.skipLiteral(",\n")
                }
                guard reader.skipLiteral("  \"lastVisitedLocation\": \"") else { return (end, nil) }
                return (end, reader.plainStringBody().map { Array($0) })
            }
            guard let forward else { continue }
            found += 1
            let fromTail = try #require(header)
            #expect(fromTail.edgesEnd == forward.0)
            #expect(fromTail.lastName == forward.1)
        }
        #expect(found > 100)
        for text in [
            "", "\n", "{\n  \"places\": [\n  ],\n}\n", "  ],\n  \"places\": [\n    {}\n",
            "x\n  ],\n  \"lastVisitedAt\": 1,\n  \"a\": 2,\n  \"places\": [\n",
        ] {
            #expect(Array(text.utf8).withUnsafeBytes { RouteGraph.headerFromTail($0) } == nil, "\(text)")
        }
    }

    /// The last place is shown (and filtered) with the header's spelling, which wins over
    /// its record's; the short list must not judge it by the record (found in review).
    @Test func theLastPlaceIsFilteredByTheSpellingAFullLoadShows() throws {
        let text = """
            {
              "edges": [
                {"destination":"Gym","lastVisitedAt":1700000000,"origin":"Home","weight":1}
              ],
              "lastVisitedAt": 1700000000,
              "lastVisitedLocation": "AirPort",
              "places": [
                {"lastVisitedAt":1700000000,"name":"Gym","visits":1},
                {"lastVisitedAt":1700000000,"name":"Home","visits":1},
                {"lastVisitedAt":1700000000,"name":"Airport","visits":100},
                {"lastVisitedAt":1700000000,"name":"Port Louis","visits":1}
              ],
              "version": 1
            }

            """
        let bytes = Array(text.utf8)
        let matcher = LineMatcher(MatchQuery("port"))
        let filter: (String) -> Bool = { name in
            var name = name
            return name.withUTF8 { matcher.matches($0) }
        }
        let request = SuggestionRequest(from: "Gym", limit: 1, now: Self.epoch)
        let full = try RouteGraph(json: bytes).suggestions(for: request, filter: filter)
        #expect(full.map(\.place) == ["AirPort"])
        let fast = bytes.withUnsafeBytes { RouteGraph.scannedSuggestions(in: $0, for: request, filter: filter) }
        #expect(fast == nil || fast == full)
    }

    /// Edge-shaped lines in another array between `edges` and the header: the tail looks
    /// right, but the edges end elsewhere, so neither fast path may answer (found in review).
    @Test(arguments: [0, 1 << 20])
    func edgesThatEndBeforeTheHeaderFoundFromTheTail(parallelAbove: Int) throws {
        var edges = (0..<40).map {
            "    {\"destination\":\"Gym\",\"lastVisitedAt\":1700000000,\"origin\":\"Home \($0)\",\"weight\":1}"
        }
        edges[39] = "    {\"destination\":\"Gym\",\"lastVisitedAt\":1700000000,\"origin\":\"Home\",\"weight\":1}"
        let text =
            "{\n  \"edges\": [\n" + edges.joined(separator: ",\n") + "\n  ],\n  \"junk\": [\n    {\"destination\":\"Pool\",}"
            + "\n  ],\n  \"lastVisitedAt\": 1700000000,\n  \"lastVisitedLocation\": \"Home\",\n  \"places\": [\n"
            + "    {\"lastVisitedAt\":1700000000,\"name\":\"Gym\",\"visits\":8},\n"
            + "    {\"lastVisitedAt\":1700000000,\"name\":\"Pool\",\"visits\":1},\n"
            + "    {\"lastVisitedAt\":1700000000,\"name\":\"Home\",\"visits\":1}\n  ],\n  \"version\": 1\n}\n"
        let bytes = Array(text.utf8)
        #expect(throws: (any Error).self) { try RouteGraph(json: bytes) }
        let request = SuggestionRequest(limit: 2, now: Self.epoch)
        let fast = bytes.withUnsafeBytes {
            RouteGraph.scannedSuggestions(in: $0, for: request, filter: nil, parallelAbove: parallelAbove)
        }
        #expect(fast == nil)
        let patch = bytes.withUnsafeBytes {
            RouteGraph.visitPatch(
                $0, place: "Pool", at: Self.epoch + 100, selfLoops: false, newTrip: false, tripGap: nil, maxPlaces: 0,
                parallelAbove: parallelAbove)
        }
        #expect(patch == nil)
    }

    @Test func aFileNotInTheWritersShapeIsLeftToTheFullLoad() {
        let request = SuggestionRequest(from: "Home", now: Self.epoch)
        for text in [
            #"{"edges":[{"origin":"Home","destination":"Gym","weight":2}],"lastVisitedLocation":"Gym"}"#,
            "{\n  \"edges\": [\n    {\"destination\":\"Gym\",\"origin\":\"Home\",\"weight\":2}\n  ],\n  \"places\": [\n    {\"name\":\"Gym\",\"visits\":2}\n  ],\n  \"version\": 2\n}\n",
            "{\n  \"edges\": [\n    {\"destination\":\"Gym\",\"origin\":\"Home\",\"weight\":2}\n  ],\n  \"places\": [\n    {\"name\":\"Gym\",\"visits\":2}\n  ],\n  \"version\": 1\n}\n trailing",
        ] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBytes { RouteGraph.scannedSuggestions(in: $0, for: request) } == nil)
        }
    }

    /// Random names from pieces that test the eight-bytes-at-a-time path at every offset:
    /// runs of spaces, tabs, capitals, DEL, accents and marks.
    @Test func foldingRandomBytesGivesThePlaceKey() {
        var random = SplitMix64(seed: 5)
        let pieces = ["a", "Z", "q", "7", " ", "  ", "\t", "\u{7F}", "é", "Ä", "\u{301}", "İ", "ß", "\u{2003}", "-", "~", "{"]
        for _ in 0..<5000 {
            let name = (0..<Int.random(in: 0...40, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            var key: [UInt8] = []
            var text = name
            let isNormal = text.withUTF8 { RouteGraph.foldKey(UnsafeRawBufferPointer($0), into: &key) }
            #expect(String(decoding: key, as: UTF8.self) == RouteGraph.placeKey(name), "\(Array(name.utf8))")
            #expect(isNormal == (RouteGraph.normalize(name).display == name), "\(Array(name.utf8))")
            // keyMatches against this name's key and against another name's.
            let other = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            for candidate in [key, Array(RouteGraph.placeKey(other).utf8), Array(RouteGraph.placeKey(name + other).utf8)] {
                var scratch: [UInt8] = []
                let matches = text.withUTF8 { RouteGraph.keyMatches(UnsafeRawBufferPointer($0), candidate, scratch: &scratch) }
                #expect(matches == (key == candidate), "\(Array(name.utf8)) against \(candidate)")
            }
        }
    }

    @Test(arguments: names + ["  ", "\t a \u{2003} b\n", "x\u{00A0}", "ǅemal", "ﬁne"])
    func foldingBytesGivesThePlaceKey(_ name: String) {
        var key: [UInt8] = []
        var text = name
        let isNormal = text.withUTF8 { RouteGraph.foldKey(UnsafeRawBufferPointer($0), into: &key) }
        #expect(String(decoding: key, as: UTF8.self) == RouteGraph.placeKey(name))
        #expect(isNormal == (RouteGraph.normalize(name).display == name))
    }
}

/// A visitor that only lets the lines be checked.
private struct LineCounter: EdgeLineVisitor {
    mutating func visit(_ index: Int, _ line: EdgeLine) {}
}
