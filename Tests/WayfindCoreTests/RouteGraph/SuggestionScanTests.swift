import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// Random graphs, and files of them in other layouts than `json()`'s.
enum RandomGraphs {
    static let epoch: Int64 = 1_700_000_000
    /// Spellings chosen to collide: case, accents, whitespace, marks that fold away.
    static let names = [
        "Airport", "airport", "Aírport", "City Center", "city  center", " City Center ", "Zürich Süd", "Zurich Sud",
        "São Paulo", "Sao Paulo", "Home", "HOME", "Gym", "Old Town", "Harbour", "\u{301}Mark", "Ölberg", "a", "A b",
        "Bäckerei", "Café", "Cafe\u{301}", "Köln Hbf", "Tōkyō", "Say \"cheese\"",
    ]

    /// A time zone of a whole or half hour from UTC−12 to UTC+14.
    static func timeZone(using random: inout SplitMix64) -> LocalTimeZone {
        .fixed(secondsEastOfUTC: Int.random(in: -24...28, using: &random) * 1800)
    }

    /// A graph from a random walk over a few of `names`, with random trips and times
    /// (so with visits by hour, in a random time zone).
    static func graph(using random: inout SplitMix64) -> RouteGraph {
        var graph = RouteGraph()
        let pool = names.shuffled(using: &random).prefix(Int.random(in: 2...names.count, using: &random))
        let zone = timeZone(using: &random)
        for step in 0..<Int.random(in: 0...60, using: &random) {
            let place = pool.randomElement(using: &random)!
            let time = epoch + Int64(step) * Int64.random(in: 1...200_000, using: &random)
            graph.visit(
                place, at: time, selfLoops: Bool.random(using: &random), newTrip: random.next() % 7 == 0, timeZone: zone)
        }
        if random.next() % 5 == 0, let doomed = pool.randomElement(using: &random) { graph.forget(doomed) }
        return graph
    }

    static func request(using random: inout SplitMix64) -> SuggestionRequest {
        var request = SuggestionRequest(
            from: random.next() % 3 == 0 ? names.randomElement(using: &random) : nil,
            limit: [nil, 0, 1, 2, 3, 5, 10].randomElement(using: &random)!,
            successorsOnly: random.next() % 4 == 0,
            halfLife: random.next() % 3 == 0 ? Int64.random(in: 1...1_000_000, using: &random) : nil,
            now: epoch + Int64.random(in: 0...10_000_000, using: &random), timeZone: timeZone(using: &random))
        // A quarter of the requests, by their time (the other draws stay as they were).
        request.positiveOnly = request.now % 4 == 0
        return request
    }

    /// The graph's file in another layout: written by Foundation (any key order, other
    /// whitespace), with some names spelled otherwise (same place) when `respellings`,
    /// sometimes a second record of a place, and some records without `hours` (as
    /// older versions wrote them) or with `"hours": null`.
    static func otherLayout(
        of graph: RouteGraph, using random: inout SplitMix64, respellings: Bool = true, pretty: Bool? = nil
    ) -> [UInt8] {
        func respelled(_ name: String) -> String {
            guard respellings, random.next() % 3 == 0 else { return name }
            let other = random.next() % 2 == 0 ? name.uppercased() : "  " + name.lowercased()
            return RouteGraph.placeKey(other) == RouteGraph.placeKey(name) ? other : name
        }
        var edges: [[String: Any]] = graph.edges.map { edge in
            var object: [String: Any] = [
                "origin": respelled(edge.origin), "destination": respelled(edge.destination), "weight": edge.weight,
            ]
            if let time = edge.lastVisitedAt { object["lastVisitedAt"] = time }
            return object
        }
        if random.next() % 4 == 0 { edges.shuffle(using: &random) }
        var places: [[String: Any]] = graph.placeStatistics.map { place in
            var object: [String: Any] = ["name": respelled(place.name), "visits": place.visits]
            if let time = place.lastVisitedAt { object["lastVisitedAt"] = time }
            switch random.next() % 6 {
            case 0: break
            case 1: object["hours"] = NSNull()
            default: if !place.hours.isEmpty { object["hours"] = place.hours.counts }
            }
            return object
        }
        if random.next() % 4 == 0, let place = graph.placeStatistics.randomElement(using: &random) {
            places.append(["name": place.name.lowercased(), "visits": 1, "hours": (0..<24).map { $0 == 5 ? 1 : 0 }])
        }
        var top: [String: Any] = ["edges": edges, "places": places, "version": RouteGraph.currentVersion]
        if let last = graph.lastVisitedLocation { top["lastVisitedLocation"] = respelled(last) }
        if let time = graph.lastVisitedAt { top["lastVisitedAt"] = time }
        let options: JSONSerialization.WritingOptions = pretty ?? (random.next() % 2 == 0) ? [.prettyPrinted] : []
        return Array(try! JSONSerialization.data(withJSONObject: top, options: options))
    }
}

/// The suggestions from a scan of `bytes`, or nil when it leaves them to a full load.
/// As `GraphFile.suggestions` reads: every record's hours kept, only the edges leaving the
/// from-place, then every edge if that scan cannot answer. `answeredLeaving` counts the
/// answers from the first read, when it kept only some edges.
func scannedSuggestions(
    _ bytes: [UInt8], _ request: SuggestionRequest, filter: ((String) -> Bool)? = nil, answeredLeaving: UnsafeMutablePointer<Int>? = nil
) -> [Suggestion]? {
    bytes.withUnsafeBytes { buffer in
        let nameFilter = filter.map(RouteGraph.nameFilter)
        guard let first = try? RouteGraph.contents(of: buffer, edges: GraphFileContents.edges(for: request, filtered: filter != nil))
        else { return nil }
        if let suggestions = RouteGraph.scannedSuggestions(first, in: buffer, for: request, filter: nameFilter) {
            if first.keptOrigin != nil { answeredLeaving?.pointee += 1 }
            return suggestions
        }
        guard first.keptOrigin != nil, let whole = try? RouteGraph.contents(of: buffer) else { return nil }
        return RouteGraph.scannedSuggestions(whole, in: buffer, for: request, filter: nameFilter)
    }
}

@Suite("RouteGraph: suggestions by scanning the file")
struct SuggestionScanTests {
    @Test func scanningAFileGivesTheSameSuggestionsAsLoadingIt() throws {
        var random = SplitMix64(seed: 3)
        var scanned = 0
        var withHours = 0
        var answeredLeaving = 0
        for _ in 0..<100 {
            let bytes = RandomGraphs.graph(using: &random).json()
            if String(decoding: bytes, as: UTF8.self).contains("{\"hours\":[") { withHours += 1 }
            let loaded = try RouteGraph(json: bytes)
            for _ in 0..<8 {
                let request = RandomGraphs.request(using: &random)
                let letter = ["a", "c", "h", "z", "o"].randomElement(using: &random)!
                let filter: ((String) -> Bool)? = random.next() % 3 == 0 ? { RouteGraph.placeKey($0).contains(letter) } : nil
                guard let fast = scannedSuggestions(bytes, request, filter: filter, answeredLeaving: &answeredLeaving) else { continue }
                scanned += 1
                #expect(
                    fast == loaded.suggestions(for: request, filter: filter),
                    "\(request) on\n\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        // The comparison means something only if the scan mostly answers by itself, on
        // files with visits by hour (asked at random hours, in random time zones).
        #expect(scanned > 400)
        #expect(withHours > 80)
        // Most from the read of only the edges leaving the from-place.
        #expect(answeredLeaving > 250, "\(answeredLeaving)")
    }

    /// Files in other layouts, with other spellings and second records, are answered the
    /// same or left to the full load.
    @Test func scanningAFileInAnotherLayoutGivesTheSameSuggestionsOrNone() throws {
        var random = SplitMix64(seed: 13)
        var scanned = 0
        for _ in 0..<120 {
            let bytes = RandomGraphs.otherLayout(of: RandomGraphs.graph(using: &random), using: &random)
            let loaded = try RouteGraph(json: bytes)
            for _ in 0..<6 {
                let request = RandomGraphs.request(using: &random)
                guard let fast = scannedSuggestions(bytes, request) else { continue }
                scanned += 1
                #expect(fast == loaded.suggestions(for: request), "\(request) on\n\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        // JSONSerialization orders keys as the process's hash seed says, so the count varies
        // from run to run: 98 to 173 in 32 runs of 80 graphs, hence 120 graphs for this bound.
        #expect(scanned > 100, "scanned \(scanned)")
    }

    /// Many places with equal scores and times: only names break the ties, and the scan
    /// keeps every place tied with the last one it needs.
    @Test func tiesAreBrokenAsAFullLoadBreaksThem() throws {
        var random = SplitMix64(seed: 11)
        var scanned = 0
        var filtered = 0
        for _ in 0..<15 {
            var graph = RouteGraph()
            let count = Int.random(in: 12...300, using: &random)
            let places = (0..<count).map { "Stop \(["Ä", "a", "B", "b", "ç"].randomElement(using: &random)!)\($0 % 7)-\($0)" }
            for step in 0..<Int.random(in: 20...600, using: &random) {
                let time = RandomGraphs.epoch + Int64.random(in: 0...2, using: &random) * 100_000
                graph.visit(places.randomElement(using: &random)!, at: time, newTrip: step % 5 == 0)
            }
            let bytes = graph.json()
            let loaded = try RouteGraph(json: bytes)
            for limit in [1, 3, 10] {
                let request = SuggestionRequest(from: places[0], limit: limit, now: RandomGraphs.epoch + 300_000)
                guard let fast = scannedSuggestions(bytes, request) else { continue }
                scanned += 1
                #expect(fast == loaded.suggestions(for: request))
                // Filtered: the scan filters best first, and must still keep every tie.
                for letter in ["b", "c", "3", "-7", "z"] {
                    let filter: (String) -> Bool = { RouteGraph.placeKey($0).contains(letter) }
                    guard let fast = scannedSuggestions(bytes, request, filter: filter) else { continue }
                    filtered += 1
                    #expect(fast == loaded.suggestions(for: request, filter: filter), "\(letter) \(limit)")
                }
            }
        }
        #expect(scanned > 30)
        #expect(filtered > 60)
    }

    @Test func twoRecordsOfOnePlaceAreLeftToTheFullLoad() throws {
        var lines = (0..<12).map { "    {\"lastVisitedAt\":1700000000,\"name\":\"Place \($0)\",\"visits\":\($0 + 1)}" }
        lines.append("    {\"lastVisitedAt\":1700000000,\"name\":\"place 3\",\"visits\":50}")
        let text =
            "{\n  \"edges\": [\n    {\"destination\":\"Place 1\",\"lastVisitedAt\":1700000000,\"origin\":\"Place 0\",\"weight\":1}\n  ],\n"
            + "  \"lastVisitedAt\": 1700000000,\n  \"lastVisitedLocation\": \"Place 0\",\n  \"places\": [\n"
            + lines.joined(separator: ",\n") + "\n  ],\n  \"version\": 1\n}\n"
        let bytes = Array(text.utf8)
        let request = SuggestionRequest(limit: 3, now: RandomGraphs.epoch)
        #expect(scannedSuggestions(bytes, request) == nil)
        // The full load adds the two records up: place 3 has 54 of the 128 visits, which
        // outweighs the one trip to Place 1.
        let loaded = try RouteGraph(json: bytes)
        #expect(loaded.suggestions(for: request).map(\.place).prefix(2) == ["place 3", "Place 1"])
    }

    /// A place that lies only on edges has no record and scores zero: a list that would
    /// reach it is left to the full load, which knows it.
    @Test func aListThatReachesPlacesWithoutRecordsIsLeftToTheFullLoad() throws {
        let text =
            #"{"edges":[{"origin":"Home","destination":"Gym","weight":2},{"origin":"Pool","destination":"Gym","weight":1}],"#
            + #""lastVisitedLocation":"Home","places":[{"name":"Gym","visits":3},{"name":"Home","visits":1}],"version":1}"#
        let bytes = Array(text.utf8)
        let request = SuggestionRequest(limit: 5, now: RandomGraphs.epoch)
        #expect(scannedSuggestions(bytes, request) == nil)
        #expect(try RouteGraph(json: bytes).suggestions(for: request).map(\.place) == ["Gym", "Pool"])
        // With room for one only, the edge answers, and the scan may too.
        let one = SuggestionRequest(limit: 1, now: RandomGraphs.epoch)
        #expect(scannedSuggestions(bytes, one)?.map(\.place) == ["Gym"])
        // Asked for places of a positive score only, Pool is left out by both, and the
        // scan answers by itself (what `magickey-suggest --graph` asks).
        var positive = request
        positive.positiveOnly = true
        #expect(scannedSuggestions(bytes, positive)?.map(\.place) == ["Gym"])
        #expect(try RouteGraph(json: bytes).suggestions(for: positive).map(\.place) == ["Gym"])
    }

    /// A query that few places match (a completion's word) gives a short list: the scan
    /// answers it when every name on an edge has a record, as in the files `json()`
    /// writes. (Before, it was left to the full load, nine times the work at 10,000
    /// edges: `magickey-suggest --graph` asks for the places that match what is typed.)
    @Test func aShortListIsAnsweredByTheScanWhenEveryPlaceHasARecord() throws {
        var graph = RouteGraph()
        for (step, place) in ["Home", "Work", "Gym", "Home", "Work", "Café", "Home", "Harbour", "Home"].enumerated() {
            graph.visit(place, at: RandomGraphs.epoch + Int64(step) * 3600)
        }
        let bytes = graph.json()
        let request = SuggestionRequest(limit: 5, now: RandomGraphs.epoch + 40_000)
        let filter: (String) -> Bool = { RouteGraph.placeKey($0).hasPrefix("h") }
        let fast = scannedSuggestions(bytes, request, filter: filter)
        #expect(fast?.map(\.place) == ["Harbour"])
        #expect(fast == (try RouteGraph(json: bytes)).suggestions(for: request, filter: filter))
    }

    /// A record of no visits scores zero, and whether a full load lists it depends on
    /// edges the small graph does not hold (found by `make fuzz`): a short list with such
    /// a record is left to the full load.
    @Test func aShortListWithARecordOfNoVisitsIsLeftToTheFullLoad() throws {
        let text =
            #"{"version":1,"edges":[{"origin":"A","destination":"B","weight":5}],"#
            + #""places":[{"name":"A","visits":5},{"name":"b","visits":0}]}"#
        let bytes = Array(text.utf8)
        let request = SuggestionRequest(limit: 3, now: RandomGraphs.epoch)
        #expect(try RouteGraph(json: bytes).suggestions(for: request).map(\.place) == ["A", "b"])
        #expect(scannedSuggestions(bytes, request) == nil)
        var positive = request
        positive.positiveOnly = true
        #expect(scannedSuggestions(bytes, positive)?.map(\.place) == ["A"])
        #expect(try RouteGraph(json: bytes).suggestions(for: positive).map(\.place) == ["A"])
    }

    /// The last place shows `lastVisitedLocation`'s spelling, which a filter sees.
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
        let request = SuggestionRequest(from: "Home", limit: 2, now: RandomGraphs.epoch)
        let filter: (String) -> Bool = { $0.contains("P") }
        let expected = try RouteGraph(json: bytes).suggestions(for: request, filter: filter)
        #expect(expected.map(\.place) == ["AirPort", "Port Louis"])
        #expect(scannedSuggestions(bytes, request, filter: filter) == expected)
    }

    /// A suggestion first reads only the edges leaving the last place, which the
    /// writer's layout names after the edges: found by stepping back over the records.
    @Test func theLastPlaceIsFoundInTheWritersLayout() throws {
        var graph = RouteGraph()
        for (step, place) in ["Home", "Work", "Gym", "Home", "Zürich Süd"].enumerated() {
            graph.visit(place, at: RandomGraphs.epoch + Int64(step) * 3600)
        }
        let bytes = graph.json()
        bytes.withUnsafeBytes { #expect(GraphFileContents.LayoutTail($0).lastPlace == "Zürich Süd") }
        let contents = try bytes.withUnsafeBytes { try RouteGraph.contents(of: $0, edges: .leavingLastPlace) }
        #expect(contents.keptOrigin == Array(RouteGraph.placeKey("Zürich Süd").utf8))
        #expect(contents.edges.isEmpty && contents.edgeCount == 4)
        let home = try bytes.withUnsafeBytes { try RouteGraph.contents(of: $0, edges: .leaving(key: Array("home".utf8))) }
        #expect(home.edges.count == 2 && home.edgeCount == 4)
        // Not in the writer's layout, or with an escape: no guess, and every edge is kept.
        for text in [
            #"{"edges":[],"lastVisitedLocation":"Home","version":1}"#,
            "{\n  \"lastVisitedLocation\": \"Ho\\u006de\",\n  \"version\": 1\n}\n",
        ] {
            Array(text.utf8).withUnsafeBytes { #expect(GraphFileContents.LayoutTail($0).lastPlace == nil, "\(text)") }
        }
    }

    /// A guess that is wrong (a nested key spelled like the header) is told from what
    /// the read found, and the suggestion is made from every edge.
    @Test func aWrongGuessOfTheLastPlaceIsReadAgainWithEveryEdge() throws {
        var graph = RouteGraph()
        for (step, place) in ["Home", "Work", "Gym", "Home", "Work", "Home"].enumerated() {
            graph.visit(place, at: RandomGraphs.epoch + Int64(step) * 3600)
        }
        var text = String(decoding: graph.json(), as: UTF8.self)
        text.removeLast(2)  // "}\n"
        text += ",\n  \"zz\": {\n  \"lastVisitedLocation\": \"Gym\"\n  }\n}\n"
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { #expect(GraphFileContents.LayoutTail($0).lastPlace == "Gym") }
        let request = SuggestionRequest(limit: 2, now: RandomGraphs.epoch + 40_000)
        let loaded = try RouteGraph(json: bytes)
        #expect(loaded.lastVisitedLocation == "Home")
        var answeredLeaving = 0
        #expect(scannedSuggestions(bytes, request, answeredLeaving: &answeredLeaving) == loaded.suggestions(for: request))
        #expect(answeredLeaving == 0)
        #expect(loaded.suggestions(for: request).first?.place == "Work")
    }

    /// Through `GraphFile`, as the tools ask: a wrong guess of the last place, and a
    /// request the scan leaves to the full load, answer as a full load does.
    @Test func aGraphFileAnswersAsAFullLoadWhateverItsReadGuessed() throws {
        var graph = RouteGraph()
        for (step, place) in ["Home", "Work", "Gym", "Home", "Work", "Home"].enumerated() {
            graph.visit(place, at: RandomGraphs.epoch + Int64(step) * 3600)
        }
        var text = String(decoding: graph.json(), as: UTF8.self)
        text.removeLast(2)
        text += ",\n  \"zz\": {\n  \"lastVisitedLocation\": \"Gym\"\n  }\n}\n"
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.path + "/graph.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let loaded = try RouteGraph(json: Array(text.utf8))
        for request in [
            SuggestionRequest(limit: 2, now: RandomGraphs.epoch + 40_000),
            SuggestionRequest(limit: nil, now: RandomGraphs.epoch + 40_000),
            SuggestionRequest(from: "gym", limit: 1, now: RandomGraphs.epoch + 40_000),
        ] {
            #expect(try GraphFile(path: path).suggestions(for: request) == loaded.suggestions(for: request), "\(request)")
        }
    }

}

/// `CandidateQueue`, which a filtered scan takes its candidates from best first.
@Suite struct CandidateQueueTests {
    @Test func itGivesTheOrderOfAStableSort() {
        var random = SplitMix64(seed: 27)
        for count in [0, 1, 2, 3, 7, 64, 1000] {
            // Few distinct scores and times: many ties, which keep the order given.
            let candidates = (0..<count).map { place in
                Candidate(place: place, score: Double(random.next() % 4) / 2, time: Int64(random.next() % 3))
            }
            var queue = CandidateQueue(candidates)
            var taken: [Int] = []
            while let candidate = queue.next() { taken.append(candidate.place) }
            let sorted = candidates.enumerated().sorted {
                RouteGraph.ranksBefore(score: $0.element.score, time: $0.element.time, score: $1.element.score, time: $1.element.time)
                    ?? ($0.offset < $1.offset)
            }
            #expect(taken == sorted.map(\.element.place), "\(count) candidates")
        }
    }
}

/// `BestCandidates`, which an unfiltered scan keeps its best candidates in.
@Suite struct BestCandidatesTests {
    /// The best `room` of `candidates` and their ties, as a stable sort orders them.
    static func reference(_ candidates: [Candidate], room: Int) -> [Int] {
        let sorted = candidates.enumerated().sorted {
            RouteGraph.ranksBefore(score: $0.element.score, time: $0.element.time, score: $1.element.score, time: $1.element.time)
                ?? ($0.offset < $1.offset)
        }.map(\.element)
        guard room > 0, sorted.count >= room else { return room > 0 ? sorted.map(\.place) : [] }
        let last = sorted[room - 1]
        return sorted.filter {
            RouteGraph.ranksBefore(score: last.score, time: last.time, score: $0.score, time: $0.time) != true
        }.map(\.place)
    }

    @Test func aCutKeepsTheBestAndTheirTiesInTheOrderOfAStableSort() {
        var random = SplitMix64(seed: 28)
        // Rooms small and large, lists shorter and longer.
        for room in [1, 2, 10, 32, 33, 100, .max] {
            // 5,000 ties: a list no cut shortens, cut again only as it doubles.
            for count in [0, 1, 9, 10, 11, 64, 255, 600, 5000] {
                for distinct in [1, 2, 1000] {
                    // Few distinct scores and times: many ties.
                    let candidates = (0..<count).map { place in
                        Candidate(
                            place: place, score: Double(random.next() % UInt64(distinct)) / 2, time: Int64(random.next() % 3))
                    }
                    var best = BestCandidates(room: room)
                    for candidate in candidates where best.admits(score: candidate.score, time: candidate.time) {
                        best.append(candidate)
                    }
                    best.cut()
                    let expected = count >= room ? Self.reference(candidates, room: room) : candidates.map(\.place)
                    #expect(best.list.map(\.place) == expected, "room \(room), \(count) candidates, \(distinct) scores")
                    // The bar is the room-th: a candidate ranking after it is not admitted.
                    if count >= room, let last = best.list.dropFirst(room - 1).first {
                        #expect(!best.admits(score: last.score - 1, time: last.time))
                        #expect(best.admits(score: last.score, time: last.time))
                    }
                }
            }
        }
    }
}
