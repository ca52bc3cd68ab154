import Testing
import WayfindTestSupport

@testable import WayfindCore

@Suite("RouteGraph: visits recorded by patching the file")
struct VisitPatchTests {
    typealias Random = SuggestionScanTests

    /// What loading `bytes`, visiting and saving would write.
    static func fullRewrite(
        _ bytes: [UInt8], place: String, at time: Int64, selfLoops: Bool, newTrip: Bool, tripGap: Int64?, maxPlaces: Int
    ) throws -> [UInt8] {
        var graph = try RouteGraph(json: bytes)
        var startsTrip = newTrip
        if let tripGap, let last = graph.lastVisitedAt, time - last > tripGap { startsTrip = true }
        graph.visit(place, at: time, selfLoops: selfLoops, newTrip: startsTrip)
        if maxPlaces > 0 { graph.prune(maxPlaces: maxPlaces) }
        return graph.json()
    }

    @Test func aPatchedFileIsByteForByteWhatAFullRewriteWouldWrite() throws {
        var random = SplitMix64(seed: 11)
        var patched = 0
        var patchedNewPlaces = 0
        for _ in 0..<600 {
            var bytes = Random.randomGraph(using: &random).json()
            // A few visits in a row, each patched when the patch allows, else rewritten.
            for _ in 0..<4 {
                let place = Random.names.randomElement(using: &random)!
                guard !RouteGraph.placeKey(place).isEmpty else { continue }
                let time = Random.epoch + Int64.random(in: -1000...20_000_000, using: &random)
                let selfLoops = random.next() % 4 == 0
                let newTrip = random.next() % 6 == 0
                let tripGap: Int64? = random.next() % 4 == 0 ? Int64.random(in: 1...5_000_000, using: &random) : nil
                let maxPlaces = [0, 0, 3, 5, 7, 12, 50_000].randomElement(using: &random)!
                let expected = try Self.fullRewrite(
                    bytes, place: place, at: time, selfLoops: selfLoops, newTrip: newTrip, tripGap: tripGap,
                    maxPlaces: maxPlaces)
                let patch = bytes.withUnsafeBytes {
                    RouteGraph.visitPatch(
                        $0, place: place, at: time, selfLoops: selfLoops, newTrip: newTrip, tripGap: tripGap,
                        maxPlaces: maxPlaces)
                }
                // The same with the edge lines split between two threads.
                let split = bytes.withUnsafeBytes {
                    RouteGraph.visitPatch(
                        $0, place: place, at: time, selfLoops: selfLoops, newTrip: newTrip, tripGap: tripGap,
                        maxPlaces: maxPlaces, parallelAbove: 0)
                }
                #expect(split == patch)
                // And with the edge lines located rather than checked (a stamped file),
                // on one thread and on two.
                for parallelAbove in [0, RouteGraph.parallelScanBytes] {
                    let located = bytes.withUnsafeBytes {
                        RouteGraph.visitPatch(
                            $0, place: place, at: time, selfLoops: selfLoops, newTrip: newTrip, tripGap: tripGap,
                            maxPlaces: maxPlaces, parallelAbove: parallelAbove, edgesChecked: true)
                    }
                    #expect(located == patch)
                }
                if let patch {
                    patched += 1
                    if try RouteGraph(json: bytes).statistics(of: place) == nil { patchedNewPlaces += 1 }
                    let actual = bytes.withUnsafeBytes { patch.applied(to: $0) }
                    #expect(
                        actual == expected,
                        """
                        visit \(place) at \(time) selfLoops \(selfLoops) newTrip \(newTrip) gap \(String(describing: tripGap)) max \(maxPlaces) of
                        \(String(decoding: bytes, as: UTF8.self))
                        expected
                        \(String(decoding: expected, as: UTF8.self))
                        actual
                        \(String(decoding: actual, as: UTF8.self))
                        """)
                }
                bytes = expected
            }
        }
        // The comparison means something only if patches are common, new places included.
        #expect(patched > 300)
        #expect(patchedNewPlaces > 20)
    }

    /// Locating edge lines trusts the file's shape, so a file stamped wrongly can get a
    /// wrong patch, but never a crash: bytes of valid files changed at random (to the
    /// bytes the lines are located by), from a buffer of exactly the file's size (run it
    /// under `swift test --sanitize=address` to see that nothing past the end is read).
    @Test func locatingTheLinesOfABrokenFileNeverCrashes() {
        var random = SplitMix64(seed: 17)
        var patched = 0
        for _ in 0..<1500 {
            guard let bytes = damaged(Random.randomGraph(using: &random).json(), using: &random) else { continue }
            let place = Random.names.randomElement(using: &random)!
            let maxPlaces = [0, 5].randomElement(using: &random)!
            let parallelAbove = random.next() % 2 == 0 ? 0 : 1 << 20
            let patch = withExactCopy(of: bytes) {
                RouteGraph.visitPatch(
                    $0, place: place, at: Random.epoch, selfLoops: false, newTrip: false, tripGap: nil,
                    maxPlaces: maxPlaces, parallelAbove: parallelAbove, edgesChecked: true)
            }
            if patch != nil { patched += 1 }
        }
        #expect(patched > 0 && patched < 1500)
    }

    /// Places that lie only on early edges and have no record (a file in the article's
    /// format, saved by us): `--max-places` must count them, or a visit that should drop
    /// a place would be patched instead.
    @Test func placesOnlyOnEarlyEdgesCountTowardsTheLimit() throws {
        let origins = (0..<6).map { "Origin \($0)" }
        var edges = origins.enumerated().map { #"{"origin":"\#($1)","destination":"Stop \#($0 % 3)","weight":1}"# }
        edges += (0..<6).map { #"{"origin":"Stop \#($0 % 3)","destination":"Stop \#(($0 + 1) % 3)","weight":2}"# }
        let seed = #"{"edges":["# + edges.joined(separator: ",") + #"],"lastVisitedLocation":"Stop 0"}"#
        let bytes = try RouteGraph(json: Array(seed.utf8)).json()
        var patched = 0
        for maxPlaces in 3...14 {
            for place in ["Stop 1", "Stop 2"] {
                let expected = try Self.fullRewrite(
                    bytes, place: place, at: Random.epoch, selfLoops: false, newTrip: false, tripGap: nil, maxPlaces: maxPlaces)
                guard let patch = bytes.withUnsafeBytes({ RouteGraph.visitPatch($0, place: place, at: Random.epoch, maxPlaces: maxPlaces) })
                else { continue }
                patched += 1
                let actual = bytes.withUnsafeBytes { patch.applied(to: $0) }
                #expect(
                    String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
                    "max \(maxPlaces), visit \(place)")
            }
        }
        #expect(patched >= 4)
    }

    @Test func aVisitThatChangesASpellingIsLeftToTheFullRewrite() throws {
        var graph = RouteGraph()
        for place in ["Home", "Airport", "Home", "Airport"] { graph.visit(place, at: Random.epoch) }
        let bytes = graph.json()
        #expect(bytes.withUnsafeBytes { RouteGraph.visitPatch($0, place: "home", at: Random.epoch) } == nil)
        #expect(bytes.withUnsafeBytes { RouteGraph.visitPatch($0, place: "Home", at: Random.epoch) } != nil)
    }

    @Test func aCorruptOrForeignFileIsNeverPatched() {
        for text in [
            #"{"edges":[{"origin":"Home","destination":"Gym","weight":2}],"lastVisitedLocation":"Gym"}"#,
            "{\n  \"edges\": [\n    {\"destination\":\"Gym\",\"origin\":\"Home\",\"weight\":2}\n  ],\n  \"lastVisitedLocation\": \"Gym\",\n  \"places\": [\n    {\"name\":\"Gym\",\"visits\":2}\n  ],\n  \"version\": 1\n}",
            "{\n  \"edges\": [\n    {\"destination\":\"G\u{1}ym\",\"origin\":\"Home\",\"weight\":2}\n  ],\n  \"lastVisitedLocation\": \"Home\",\n  \"places\": [\n    {\"name\":\"Gym\",\"visits\":2}\n  ],\n  \"version\": 1\n}\n",
        ] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBytes { RouteGraph.visitPatch($0, place: "Gym", at: Random.epoch) } == nil, "\(text)")
        }
        // The same file whole and in the writer's shape is patched.
        let valid = Array(
            "{\n  \"edges\": [\n    {\"destination\":\"Gym\",\"origin\":\"Home\",\"weight\":2}\n  ],\n  \"lastVisitedLocation\": \"Gym\",\n  \"places\": [\n    {\"name\":\"Gym\",\"visits\":2}\n  ],\n  \"version\": 1\n}\n"
                .utf8)
        #expect(valid.withUnsafeBytes { RouteGraph.visitPatch($0, place: "Gym", at: Random.epoch) } != nil)
    }
}
