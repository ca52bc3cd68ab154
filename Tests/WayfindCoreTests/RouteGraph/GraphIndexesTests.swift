import Testing
import WayfindTestSupport

@testable import WayfindCore

/// The graph's two lookup tables against `Dictionary` as the reference: random keys
/// (many colliding in their low bits), updates, lookups of absent keys, and clearing.
@Suite("RouteGraph: the place and edge indexes")
struct GraphIndexesTests {
    @Test func thePlaceIndexAnswersAsADictionary() {
        var random = SplitMix64(seed: 23)
        let pieces = ["a", "é", "zürich", " ", "1", "ß", "home", "x"]
        for round in 0..<40 {
            var index = PlaceKeyIndex()
            var reference: [String: Int] = [:]
            for step in 0..<Int.random(in: 0...400, using: &random) {
                let key = (0..<Int.random(in: 0...5, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
                if random.next() % 3 == 0 {
                    #expect(index[key] == reference[key], "round \(round) step \(step) key \(key)")
                } else {
                    index[key] = step
                    reference[key] = step
                }
                if random.next() % 150 == 0 {
                    let keep = random.next() % 2 == 0
                    index.removeAll(keepingCapacity: keep)
                    reference.removeAll()
                }
            }
            for (key, value) in reference { #expect(index[key] == value) }
        }
    }

    @Test func keysWhoseHashesShareTheirTagAreToldApartByTheirBytes() {
        // Found by searching: the same high 32 bits of `ByteStringSet.hash` (the tag a
        // slot keeps) and the same slot in a 16-slot table, so a lookup of either key
        // meets the other's entry first or second and must compare their bytes.
        let (first, second) = ("k362363", "k413026")
        func hash(_ key: String) -> UInt64 { Array(key.utf8).withUnsafeBytes { ByteStringSet.hash($0) } }
        #expect(hash(first) >> 32 == hash(second) >> 32 && hash(first) & 15 == hash(second) & 15)
        var index = PlaceKeyIndex()
        index[first] = 1
        #expect(index[second] == nil)
        index[second] = 2
        #expect(index[first] == 1 && index[second] == 2)
        index[second] = 3
        index[first] = 4
        #expect(index[first] == 4 && index[second] == 3)
    }

    @Test func theEdgeIndexAnswersAsADictionary() {
        var random = SplitMix64(seed: 29)
        for round in 0..<40 {
            var index = LinkIndex()
            if random.next() % 2 == 0 { index.reserveCapacity(Int.random(in: 0...300, using: &random)) }
            var reference: [UInt64: Int] = [:]
            for step in 0..<Int.random(in: 0...600, using: &random) {
                // Places 0 to 30 each way: the key 0 (place 0 to itself) included.
                let key = RouteGraph.linkKey(Int.random(in: 0...30, using: &random), Int.random(in: 0...30, using: &random))
                if random.next() % 3 == 0 {
                    #expect(index[key] == reference[key], "round \(round) step \(step) key \(key)")
                } else {
                    index[key] = step
                    reference[key] = step
                }
                if random.next() % 200 == 0 {
                    index.removeAll(keepingCapacity: random.next() % 2 == 0)
                    reference.removeAll()
                }
            }
            for (key, value) in reference { #expect(index[key] == value) }
        }
    }
}
