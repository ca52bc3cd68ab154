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
/// `Ź`), so a third stream finds bytes ≥ 0x80, eight at a time, and keeps those that lead
/// the UTF-8 of a character whose folded form contains the byte (`ž` is C5 BE, so C5 is
/// kept for `z`; Cyrillic's D0 and D1 are not). That set is computed from the folding
/// tables the first time the input has a non-ASCII byte.
///
///     query  zyg        rarest byte: z        streams: 'z', 'Z', lead bytes {C5, …}
///     input  …/lib/zygote/x\n…   the first hit of any stream marks a candidate
///
/// When the rarest byte comes from a query word that is pure ASCII, the search loop
/// checks that word directly at the hit (`anchorWord`, `anchorOffset`) and looks at the
/// whole line only when it fits: most hits of a common byte are rejected in a few
/// instructions.
public struct CandidateFinder {
    /// The index, in `LineMatcher.wordBuffers`, of the ASCII query word holding the
    /// anchor byte, or nil when the anchor comes from a word with non-ASCII bytes.
    public let anchorWord: Int?
    /// Where the anchor byte sits in that word.
    public let anchorOffset: Int
    private let lower: UInt8
    private let upper: UInt8
    private var leadBytes: LeadByteSet? = nil
    private var ignoresNonASCII = false
    private var end: UnsafePointer<UInt8>
    // The next hit of each stream at or after the last search point; `end` means none.
    private var nextLower: UnsafePointer<UInt8>
    private var nextUpper: UnsafePointer<UInt8>
    private var nextNonASCII: UnsafePointer<UInt8>

    /// A finder for `query`, or nil when every line is a candidate (an empty query, or one
    /// without ASCII bytes).
    public init?(query: MatchQuery) {
        var best: (word: Int, offset: Int, byte: UInt8, ascii: Bool)? = nil
        var bestFrequency = Int.max
        for (w, word) in query.words.enumerated() {
            let ascii = word.allSatisfy { $0 < 0x80 }
            for (i, b) in word.enumerated() where b < 0x80 {
                // Prefer words we can check directly; then the rarest byte.
                let f = ByteFrequency.rank(b) + (ascii ? 0 : 1000)
                if f < bestFrequency {
                    bestFrequency = f
                    best = (w, i, b, ascii)
                }
            }
        }
        guard let best else { return nil }
        anchorWord = best.ascii ? best.word : nil
        anchorOffset = best.offset
        lower = best.byte
        upper = (best.byte >= 0x61 && best.byte <= 0x7A) ? best.byte - 0x20 : best.byte
        let sentinel = UnsafePointer<UInt8>(bitPattern: 1)!
        end = sentinel
        nextLower = sentinel
        nextUpper = sentinel
        nextNonASCII = sentinel
    }

    /// Starts over on a new block of input `[start, start + count)`.
    public mutating func reset(_ start: UnsafePointer<UInt8>, count: Int) {
        end = start + count
        // Positions before `start` force a fresh search in each stream.
        let stale = start - 1
        nextLower = stale
        nextUpper = stale
        nextNonASCII = stale
    }

    /// The first candidate position at or after `p`, or nil when there is none before the
    /// end of the block. A candidate byte ≥ 0x80 means "match this whole line".
    @inline(__always)
    public mutating func next(from p: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        if p >= end { return nil }
        if nextLower < p {
            nextLower = Platform.findByte(lower, in: p, count: end - p) ?? end
        }
        var best = nextLower
        if upper != lower {
            if nextUpper < p {
                nextUpper = Platform.findByte(upper, in: p, count: end - p) ?? end
            }
            if nextUpper < best { best = nextUpper }
        }
        if nextNonASCII < p && !ignoresNonASCII {
            nextNonASCII = findLeadByte(from: p, before: best)
        }
        if nextNonASCII < best { best = nextNonASCII }
        return best < end ? best : nil
    }

    /// The first kept lead byte in `[p, limit)`; `limit` itself when there is none there
    /// (later calls search on from the new `p`, so no byte is scanned twice).
    @inline(__always)
    private mutating func findLeadByte(from p: UnsafePointer<UInt8>, before limit: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
        var q = p
        while q < limit {
            let hit = UTF8Decoding.firstNonASCII(q, end: limit)
            if hit >= limit { break }
            if leadBytes == nil {
                leadBytes = LeadByteSet.forFoldedByte(lower)
                if leadBytes!.isEmpty {
                    // No non-ASCII character folds to the anchor: this stream is done.
                    ignoresNonASCII = true
                    return end
                }
            }
            if leadBytes!.contains(hit.pointee) { return hit }
            q = hit + 1
        }
        // Nothing before `limit`: remember that by pointing before the next search start.
        return limit < end ? limit : end
    }
}

/// A set of bytes, as four 64-bit masks.
public struct LeadByteSet: Sendable, Equatable {
    var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// Whether the set is empty.
    public var isEmpty: Bool { bits.0 | bits.1 | bits.2 | bits.3 == 0 }

    /// Whether `byte` is in the set.
    @inline(__always)
    public func contains(_ byte: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: return bits.0 & bit != 0
        case 1: return bits.1 & bit != 0
        case 2: return bits.2 & bit != 0
        default: return bits.3 & bit != 0
        }
    }

    /// Adds `byte`.
    public mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: bits.0 |= bit
        case 1: bits.1 |= bit
        case 2: bits.2 |= bit
        default: bits.3 |= bit
        }
    }

    public static func == (a: LeadByteSet, b: LeadByteSet) -> Bool {
        a.bits.0 == b.bits.0 && a.bits.1 == b.bits.1 && a.bits.2 == b.bits.2 && a.bits.3 == b.bits.3
    }

    /// The highest scalar value searched: every character whose folded form contains an
    /// ASCII byte is below it (Latin, its extensions, ligatures, letterlike symbols and the
    /// fullwidth forms all are; the unit tests check it over all of Unicode).
    static let searchLimit: UInt32 = 0x20000

    /// The lead bytes of the UTF-8 of every non-ASCII character whose folded form contains
    /// the ASCII byte `byte`.
    public static func forFoldedByte(_ byte: UInt8) -> LeadByteSet {
        byte < 0x80 ? asciiTable[Int(byte)] : LeadByteSet()
    }

    /// `forFoldedByte` for every ASCII byte, computed in one pass over the scalars the
    /// first time it is needed (about half a millisecond; only inputs with non-ASCII bytes
    /// pay it).
    static let asciiTable: [LeadByteSet] = {
        var table = [LeadByteSet](repeating: LeadByteSet(), count: 128)
        var value: UInt32 = 0x80
        while value < searchLimit {
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
    }()
}

/// How common each byte is in ordinary text, for choosing the rarest byte of a query.
///
/// Relative ranks, not measured counts: lowercase letters in English order of frequency,
/// then digits and the punctuation of paths and identifiers. Only the order matters.
public enum ByteFrequency {
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
    public static func rank(_ b: UInt8) -> Int { table[Int(b)] }
}
