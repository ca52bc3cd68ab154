import Testing
import WayfindTestSupport

@testable import WayfindCore

/// The byte rules that let a scan skip folding a name (`RouteGraph.mayHaveKey`,
/// `KeyEnds`, `SuccessorCollector.mayWant`): they may let through names without the key,
/// never turn away one with it.
@Suite("RouteGraph: the byte filters before folding")
struct KeyFilterTests {
    /// The key of `name`.
    func key(_ name: String) -> [UInt8] {
        var key: [UInt8] = []
        Array(name.utf8).withUnsafeBytes { _ = RouteGraph.foldKey($0, into: &key) }
        return key
    }

    /// Whether each filter lets `name` through for `key`.
    func filters(_ name: String, _ key: [UInt8]) -> (mayHaveKey: Bool, keyEnds: Bool, mayWant: Bool) {
        let bytes = Array(name.utf8)
        return bytes.withUnsafeBytes { buffer in
            var ends = KeyEnds()
            ends.insert(key)
            // As the skim sees an origin: the byte before its last, or its opening quote.
            let before = bytes.count >= 2 ? bytes[bytes.count - 2] : UInt8(ascii: "\"")
            let collector = SuccessorCollector(bytes: buffer, fromKey: key)
            return (
                RouteGraph.mayHaveKey(buffer, key), ends.mayHold(buffer),
                collector.mayWant(originEndingWith: bytes.last ?? 0, after: before)
            )
        }
    }

    @Test func aNameIsNeverTurnedAwayFromItsOwnKey() {
        var random = SplitMix64(seed: 0xF11_7E45)
        // Cases, accents (composed and with a combining mark), letters that fold to two,
        // spaces and runs of them, digits, punctuation, one-byte names.
        let pieces = [
            "a", "B", "é", "E\u{301}", "ß", "ł", "Z", "9", "-", " ", "  ", "ü", "Ünï", "x", "İ", "ﬁ", "\u{301}", "Å", "q7",
        ]
        var checked = 0
        for _ in 0..<5000 {
            let name = (0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let key = key(name)
            guard !key.isEmpty else { continue }
            let passed = filters(name, key)
            #expect(passed.mayHaveKey && passed.keyEnds && passed.mayWant, "\(name.debugDescription)")
            checked += 1
        }
        #expect(checked > 4000)
    }

    @Test func namesThatDifferInTheirLastTwoBytesAreTurnedAway() {
        // The same first and last bytes; only the byte before the last tells them apart.
        let passed = filters("Airport 13", key("airport 23"))
        #expect(!passed.mayHaveKey && !passed.keyEnds && !passed.mayWant)
        // A different last byte.
        let other = filters("Airport 13", key("Airport 14"))
        #expect(!other.mayHaveKey && !other.keyEnds && !other.mayWant)
        // A one-byte key cannot end a name whose last two bytes are plain.
        let short = filters("33", key("3"))
        #expect(!short.mayHaveKey && !short.mayWant)
        // Not plain before the last byte: only the last byte is known.
        #expect(filters("Zürich Süd 3", key("zurich sud 3")) == (true, true, true))
        #expect(filters("Süd 3", key("sud 4")).mayHaveKey == false)
    }
}
