import Testing
import WayfindTestSupport

@testable import WayfindCore

@Suite("ByteStringSet")
struct ByteStringSetTests {
    /// Random strings with shared beginnings and ends, of every length around the
    /// eight-byte steps of the hash, against the standard library's Set.
    @Test func itAgreesWithASetOfArrays() {
        var random = SplitMix64(seed: 29)
        var set = ByteStringSet(expected: 4)
        var reference = Set<[UInt8]>()
        for _ in 0..<40_000 {
            let middle = (0..<Int.random(in: 0...20, using: &random)).map { _ in UInt8.random(in: 0x61...0x64, using: &random) }
            let bytes =
                (random.next() % 2 == 0 ? Array("Station ".utf8) : []) + middle + (random.next() % 2 == 0 ? Array(" Nord".utf8) : [])
            if random.next() % 3 == 0 {
                #expect(set.contains(bytes) == reference.contains(bytes))
            } else {
                #expect(set.insert(bytes) == reference.insert(bytes).inserted)
            }
            #expect(set.count == reference.count)
        }
        #expect(reference.count > 5_000)
    }
}

extension ByteStringSetTests {
    @Test func aUnionHoldsTheStringsOfBoth() {
        var random = SplitMix64(seed: 43)
        var first = ByteStringSet(expected: 4)
        var second = ByteStringSet(expected: 4)
        var reference = Set<[UInt8]>()
        for _ in 0..<3_000 {
            let bytes = (0..<Int.random(in: 0...10, using: &random)).map { _ in UInt8.random(in: 0x61...0x63, using: &random) }
            if random.next() % 2 == 0 { first.insert(bytes) } else { second.insert(bytes) }
            reference.insert(bytes)
        }
        first.formUnion(second)
        let count = first.count
        #expect(count == reference.count)
        for bytes in reference {
            let isThere = first.contains(bytes)
            #expect(isThere)
        }
    }
}
