/// Finds the places in a block of lines where a match could be, so the matcher sees only
/// those.
///
/// # Why
///
/// Most lines of a large input do not match a rare word, and looking at each of them costs
/// more than the answer. Every query word must appear in a matching line, so every byte of
/// every query word must too. We pick the query byte that is rarest in ordinary text (a
/// static frequency table, as ripgrep does), and jump from one occurrence to the next with
/// `memchr`, which glibc runs with SIMD: a rare word costs about a memory scan.
///
/// Case and accents complicate this. A query byte `z` also appears as `Z`, so we follow
/// both (two `memchr` streams, merged). And a non-ASCII character may fold to it (`ž`,
/// `Ź`), so more streams follow the bytes that lead the UTF-8 of a character whose
/// folded form contains it (`ž` is C5 BE, so C5 is followed for `z`, and E1 for `ẑ`;
/// Cyrillic's D0 and D1 are not). These sets are small (one to seven bytes) and generated
/// with the folding tables. Each stream remembers its next hit, so each byte of input is
/// scanned at most once per stream.
///
///     query  zyg        rarest byte: z        streams: 'z', 'Z', C5, E1
///     input  …/lib/zygote/x\n…   the first hit of any stream marks a candidate
///
/// When the rarest byte comes from a query word that is pure ASCII, the search loop
/// checks that word directly at the hit (`anchorWord`, `anchorOffset`) and looks at the
/// whole line only when it fits: most hits of a common byte are rejected in a few
/// instructions.
package final class CandidateFinder {
    /// The index, in `LineMatcher.wordBuffers`, of the ASCII query word holding the
    /// anchor byte, or nil when the anchor comes from a word with non-ASCII bytes.
    package let anchorWord: Int?
    /// Where the anchor byte sits in that word.
    package let anchorOffset: Int
    /// The anchor byte (folded: lowercase).
    package let anchorByte: UInt8
    /// The bytes followed: the anchor in both cases, then the lead bytes of the non-ASCII
    /// characters that fold to it.
    private let needles: [UInt8]
    private let streams: UnsafeMutablePointer<UnsafePointer<UInt8>>
    /// The end of the block (`@exclusivity(unchecked)`: read for every candidate, written
    /// only by `reset`; the runtime checks were a tenth of a two-word search).
    @exclusivity(unchecked) private var end: UnsafePointer<UInt8>

    /// A finder for `query`, or nil when every line is a candidate (an empty query, or one
    /// without ASCII bytes).
    package init?(query: MatchQuery) {
        var best: (word: Int, offset: Int, byte: UInt8, ascii: Bool)? = nil
        var bestFrequency = Int.max
        for (w, word) in query.words.enumerated() {
            let ascii = word.allSatisfy { $0 < 0x80 }
            for (i, b) in word.enumerated() where b < 0x80 {
                // Prefer words we can check directly; then the rarest byte. A case-sensitive
                // query's uppercase letter is followed as its lowercase would be.
                let f = ByteFrequency.rank(Self.lowercased(b)) + (ascii ? 0 : 1000)
                if f < bestFrequency {
                    bestFrequency = f
                    best = (w, i, b, ascii)
                }
            }
        }
        guard let best else { return nil }
        anchorWord = best.ascii ? best.word : nil
        anchorOffset = best.offset
        let lower = Self.lowercased(best.byte)
        anchorByte = lower
        var needles = [lower]
        if lower >= 0x61 && lower <= 0x7A { needles.append(lower - 0x20) }
        let leads = LeadByteSet.forFoldedByte(lower)
        for b in 0xC2...0xF4 where leads.contains(UInt8(b)) { needles.append(UInt8(b)) }
        self.needles = needles
        streams = .allocate(capacity: needles.count)
        end = UnsafePointer<UInt8>(bitPattern: 1)!
        streams.initialize(repeating: end, count: needles.count)
    }

    deinit { streams.deallocate() }

    /// An ASCII byte with its letter lowercased.
    private static func lowercased(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }

    /// Whether the character whose UTF-8 starts at `p` (a lead byte that `next` found)
    /// really folds to something containing the anchor byte: `ł` and `ž` share the lead
    /// byte C5, but only `ž` can be a `z`.
    @inline(__always)
    package func characterFoldsToAnchor(at p: UnsafePointer<UInt8>) -> Bool {
        let (value, _) = UTF8Decoding.decode(p, end: end)
        if value == UTF8Decoding.invalid { return false }
        let form = UnicodeFolding.foldedBytes(of: value)
        var raw = form.rawValue
        for _ in 0..<form.count {
            if UInt8(truncatingIfNeeded: raw) == anchorByte { return true }
            raw >>= 8
        }
        return false
    }

    /// Starts over on a new block of input `[start, start + count)`.
    package func reset(_ start: UnsafePointer<UInt8>, count: Int) {
        end = start + count
        // Positions before `start` force a fresh search in each stream.
        for i in 0..<needles.count { streams[i] = start - 1 }
    }

    /// The first candidate position at or after `p`, or nil when there is none before the
    /// end of the block. A candidate byte ≥ 0x80 means "match this whole line".
    @inline(__always)
    package func next(from p: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        if p >= end { return nil }
        var best = end
        var i = 0
        let count = needles.count
        while i < count {
            var hit = streams[i]
            if hit < p {
                hit = Platform.findByte(needles[i], in: p, count: end - p) ?? end
                streams[i] = hit
            }
            if hit < best { best = hit }
            i += 1
        }
        return best < end ? best : nil
    }
}

/// A set of bytes, as four 64-bit masks.
package struct LeadByteSet: Sendable, Equatable {
    var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// An empty set.
    package init() {}

    init(bits: (UInt64, UInt64, UInt64, UInt64)) { self.bits = bits }

    /// The four masks (bytes 0-63, 64-127, 128-191, 192-255).
    package var masks: [UInt64] { [bits.0, bits.1, bits.2, bits.3] }

    /// Whether the set is empty.
    package var isEmpty: Bool { bits.0 | bits.1 | bits.2 | bits.3 == 0 }

    /// Whether `byte` is in the set.
    @inline(__always)
    package func contains(_ byte: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: return bits.0 & bit != 0
        case 1: return bits.1 & bit != 0
        case 2: return bits.2 & bit != 0
        default: return bits.3 & bit != 0
        }
    }

    /// Adds `byte`.
    package mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: bits.0 |= bit
        case 1: bits.1 |= bit
        case 2: bits.2 |= bit
        default: bits.3 |= bit
        }
    }

    package static func == (a: LeadByteSet, b: LeadByteSet) -> Bool {
        a.bits.0 == b.bits.0 && a.bits.1 == b.bits.1 && a.bits.2 == b.bits.2 && a.bits.3 == b.bits.3
    }

    /// The lead bytes of the UTF-8 of every non-ASCII character whose folded form contains
    /// the ASCII byte `byte`.
    package static func forFoldedByte(_ byte: UInt8) -> LeadByteSet {
        byte < 0x80 ? asciiTable[Int(byte)] : LeadByteSet()
    }

    /// `forFoldedByte` for every ASCII byte: generated (`LeadByteTable.generated.swift`)
    /// because computing it takes a millisecond, more than a whole run should.
    static let asciiTable: [LeadByteSet] = LeadByteTable.sets.map {
        LeadByteSet(bits: ($0.0, $0.1, $0.2, $0.3))
    }

    /// Computes `forFoldedByte` for every ASCII byte from the folding tables (for the test
    /// that keeps the generated table true, and to regenerate it).
    package static func computeASCIITable() -> [LeadByteSet] {
        var table = [LeadByteSet](repeating: LeadByteSet(), count: 128)
        var value: UInt32 = 0x80
        while value <= 0x10FFFF {
            if value == 0xD800 { value = 0xE000 }
            let form = UnicodeFolding.foldedBytes(of: value)
            var raw = form.rawValue
            for _ in 0..<form.count {
                let b = UInt8(truncatingIfNeeded: raw)
                if b < 0x80 { table[Int(b)].insert(FoldedScalar(encoding: value)[0]) }
                raw >>= 8
            }
            value += 1
        }
        return table
    }
}

/// How common each byte is in ordinary text, for choosing the rarest byte of a query.
///
/// Relative ranks, not measured counts: lowercase letters in English order of frequency,
/// then digits and the punctuation of paths and identifiers. Only the order matters.
package enum ByteFrequency {
    static let table: [Int] = {
        var t = [Int](repeating: 10, count: 256)
        // Letters, most common first ("etaoin srl…"), scored 250 down.
        let letters = Array("etaoinsrlcdhupmgfbywkvxzjq".utf8)
        for (i, b) in letters.enumerated() { t[Int(b)] = 250 - i * 9 }
        for b in UInt8(ascii: "0")...UInt8(ascii: "9") { t[Int(b)] = 120 }
        t[Int(UInt8(ascii: "/"))] = 240
        t[Int(UInt8(ascii: "."))] = 200
        t[Int(UInt8(ascii: "-"))] = 150
        t[Int(UInt8(ascii: "_"))] = 140
        t[Int(UInt8(ascii: " "))] = 245
        return t
    }()

    /// The frequency rank of `b` (a folded byte, so it stands for both cases).
    @inline(__always)
    package static func rank(_ b: UInt8) -> Int { table[Int(b)] }
}

extension CandidateFinder {
    /// The next hit at or after `from` that a direct check does not rule out: a hit
    /// where `matcher`'s `anchor` word (`anchorWord`'s bytes, its `anchorOffset`-th at the
    /// hit, or in the folded form of the character there) may start a word, or, without
    /// an anchor word, a lead byte whose character folds to the anchor (ł shares ž's C5,
    /// not its z). Nil when no hit is left before `end`.
    @inline(__always)
    package func nextHit(
        from: UnsafePointer<UInt8>, matcher: LineMatcher?, anchor: UnsafeBufferPointer<UInt8>?, anchorOffset: Int,
        start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>
    ) -> UnsafePointer<UInt8>? {
        var from = from
        while let h = next(from: from) {
            if let anchor, let matcher {
                let verdict = matcher.startsWord(
                    anchor, hit: h, anchorOffset: anchorOffset, blockStart: start, blockEnd: end, terminator: 0x0A)
                if verdict == .no {
                    from = h + 1
                    continue
                }
            } else if h.pointee >= 0x80 && !characterFoldsToAnchor(at: h) {
                from = h + 1
                continue
            }
            return h
        }
        return nil
    }
}
