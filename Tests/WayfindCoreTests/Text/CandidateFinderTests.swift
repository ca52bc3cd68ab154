import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

@Suite struct CandidateFinderTests {
    /// All candidate positions of `query` in `text`, following the finder from hit to hit.
    func candidates(_ query: String, in text: String) -> [Int] {
        candidates(query, caseSensitive: false, in: Array(text.utf8))
    }

    func candidates(_ query: String, caseSensitive: Bool, in bytes: [UInt8]) -> [Int] {
        let compiled = MatchQuery(query, mode: .all, fit: .prefix, caseSensitive: caseSensitive)
        guard let finder = CandidateFinder(query: compiled) else { return [] }
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

    @Test func aCommonAnchorNeedsItsNeighbourBesideItInASCIIText() {
        // "lib": the anchor is b, its neighbour i. Long enough for the 32-byte look.
        let text = " b ab Ib iB lib " + String(repeating: "x", count: 40)
        #expect(candidates("lib", in: text) == [7, 10, 14])
        // A first byte has no neighbour before it in the block: the anchor alone will do.
        #expect(candidates("lib", in: "b" + String(repeating: "x", count: 40)) == [0])
        // Beside a non-ASCII byte it may be an accented i (í is C3 AD).
        #expect(candidates("lib", in: "líb " + String(repeating: "x", count: 40)) == [3])
    }

    /// Long random lines of ASCII, accents and broken UTF-8: every hit the direct check
    /// does not rule out is a candidate, and every candidate is the anchor or a lead byte.
    @Test func candidatesHoldEveryHitTheDirectCheckKeeps() {
        let pieces = ["z", "Z", "e", "b", "i", "l", "y", "a", " ", "-", "ž", "í", "é", "ß", "ж", "\u{301}", "\n"]
            .map { Array($0.utf8) } + [[0x80], [0xC5], [0xFF]]
        let queries = ["zebra", "lib", "ze", "bi", "by", "ib", "z", "lí", "ýb", "a-b"]
        var random = SplitMix64(seed: 48)
        var kept = 0
        var filtered = 0
        for _ in 0..<4_000 {
            let line = (0..<Int.random(in: 10...90, using: &random)).flatMap { _ in pieces.randomElement(using: &random)! }
            for text in queries {
                let query = MatchQuery(text, mode: .all, fit: .prefix, caseSensitive: Bool.random(using: &random))
                guard let finder = CandidateFinder(query: query) else { continue }
                let matcher = LineMatcher(query)
                let leads = LeadByteSet.forFoldedByte(finder.anchorByte)
                let singles = line.indices.filter {
                    let b = line[$0]
                    return (b &- 0x41 < 26 ? b | 0x20 : b) == finder.anchorByte || (b >= 0x80 && leads.contains(b))
                }
                let found = Set(candidates(text, caseSensitive: query.caseSensitive, in: line))
                #expect(found.isSubset(of: singles), "\(text) in \(line)")
                let needed = line.withUnsafeBufferPointer { buffer in
                    singles.filter { i in
                        guard let w = finder.anchorWord else { return true }
                        let start = buffer.baseAddress!
                        return matcher.startsWord(
                            matcher.wordBuffers[w], hit: start + i, anchorOffset: finder.anchorOffset, blockStart: start,
                            blockEnd: start + buffer.count, terminator: 0x0A) != .no
                    }
                }
                #expect(Set(needed).isSubset(of: found), "\(text) in \(line)")
                kept += needed.count
                filtered += singles.count - found.count
            }
        }
        #expect(kept > 1_000 && filtered > 10_000)
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

    /// The verdicts of the search loop's direct checks at every hit of `query` in `line`
    /// (one line, no terminator), as `SmartgrepSearch.scan` asks for them.
    func directVerdicts(_ query: MatchQuery, in line: [UInt8]) -> [DirectVerdict] {
        guard let finder = CandidateFinder(query: query), let anchorWord = finder.anchorWord, !line.isEmpty else { return [] }
        let matcher = LineMatcher(query)
        let anchor = matcher.wordBuffers[anchorWord]
        return line.withUnsafeBufferPointer { buffer in
            let start = buffer.baseAddress!
            let end = start + buffer.count
            finder.reset(start, count: buffer.count)
            var verdicts: [DirectVerdict] = []
            var p = start
            while let hit = finder.next(from: p) {
                let offset = finder.anchorOffset
                verdicts.append(
                    matcher.startsWord(anchor, hit: hit, anchorOffset: offset, blockStart: start, blockEnd: end, terminator: 0x0A))
                p = hit + 1
            }
            return verdicts
        }
    }

    /// Binary data and accented text: a hit the direct check rules out (`.no`) never
    /// holds a match the whole line's match would find, and a `.yes` is a match.
    @Test(arguments: [WordMode.all, .punct, .space])
    func directChecksNearNonASCIIBytesAgreeWithTheMatcher(mode: WordMode) {
        let pieces: [[UInt8]] = [
            Array("z".utf8), Array("Z".utf8), Array("e".utf8), Array("b".utf8), Array("r".utf8), Array("a".utf8), Array("s".utf8),
            Array("E".utf8), Array(" ".utf8), Array(".".utf8), Array("ž".utf8), Array("Ž".utf8), Array("é".utf8), Array("ß".utf8),
            Array("ẞ".utf8), Array("\u{301}".utf8), Array("ж".utf8), Array("ｚ".utf8), Array("ǅ".utf8), [0x80], [0xC5], [0xFF],
            [0xE1, 0xBA], [0xBE],
        ]
        let queries = ["zebra", "ze", "eb", "bra", "ssa", "sz", "rz", "a", "ebr", "Zeb", "zS"]
        var random = SplitMix64(seed: 47)
        var ruledOut = 0
        for _ in 0..<40_000 {
            let line = (0..<Int.random(in: 1...9, using: &random)).flatMap { _ in pieces.randomElement(using: &random)! }
            for text in queries {
                let query = MatchQuery(text, mode: mode, fit: .prefix, caseSensitive: Bool.random(using: &random))
                let verdicts = directVerdicts(query, in: line)
                let matches = line.withUnsafeBufferPointer { LineMatcher(query).matches($0) }
                if matches {
                    #expect(verdicts.contains { $0 != .no }, "\(text) in \(line): \(verdicts)")
                } else {
                    #expect(!verdicts.contains(.yes), "\(text) in \(line): \(verdicts)")
                }
                ruledOut += verdicts.filter { $0 == .no }.count
            }
        }
        #expect(ruledOut > 10_000)
    }
}
