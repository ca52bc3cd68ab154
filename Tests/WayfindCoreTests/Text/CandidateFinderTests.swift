import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

@Suite struct CandidateFinderTests {
    /// All candidate positions of `query` in `text`, following the finder from hit to hit.
    func candidates(_ query: String, in text: String) -> [Int] {
        guard let finder = CandidateFinder(query: MatchQuery(query)) else { return [] }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            finder.reset(buffer.baseAddress!, count: buffer.count)
            var result: [Int] = []
            var p = buffer.baseAddress!
            while let hit = finder.next(from: p) {
                result.append(hit - buffer.baseAddress!)
                p = hit + 1
            }
            return result
        }
    }

    @Test func followsBothCasesOfTheRarestByte() {
        // 'z' is rarer than 'a' in the table.
        #expect(candidates("za", in: "a z Z a") == [2, 4])
    }

    @Test func nonASCIICharactersAreCandidatesOnlyWhenTheyCanFoldToTheAnchor() {
        // ž (C5 BE) folds to z; é (C3 A9) and Cyrillic ж (D0 B6) cannot.
        #expect(candidates("z", in: "a é ж ž z") == [8, 11])
    }

    @Test func anEmptyQueryHasNoFinder() {
        #expect(CandidateFinder(query: MatchQuery("")) == nil)
    }

    @Test func findLastByteFindsTheLastOccurrence() {
        // Lengths around the 16-byte blocks, the match anywhere in a block or the tail.
        for length in 0..<40 {
            for position in -1..<length {
                var bytes = [UInt8](repeating: 0x01, count: length)
                if position >= 0 { bytes[position] = 0x00 }
                let found = bytes.withUnsafeBufferPointer { b -> Int in
                    guard let base = b.baseAddress else { return -1 }
                    return Platform.findLastByte(0x00, in: base, count: b.count).map { $0 - base } ?? -1
                }
                #expect(found == position)
            }
        }
        // Any byte, several matches, neighbours one above and below: as `lastIndex(of:)`.
        var random = SplitMix64(seed: 5)
        for _ in 0..<2000 {
            let target = UInt8.random(in: 0...255, using: &random)
            let bytes = (0..<Int.random(in: 0..<70, using: &random)).map { _ in
                [target, target &+ 1, target &- 1, 0x80].randomElement(using: &random)!
            }
            let found = bytes.withUnsafeBufferPointer { b -> Int? in
                b.baseAddress.flatMap { base in Platform.findLastByte(target, in: base, count: b.count).map { $0 - base } }
            }
            #expect(found == bytes.lastIndex(of: target), "\(target) in \(bytes)")
        }
    }
}
