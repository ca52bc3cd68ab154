/// Finds the lines that could match, so the matcher sees only those.
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
/// both (two `memchr` streams, merged). And any non-ASCII character might fold to it (`ž`,
/// `Ź`), so lines with non-ASCII bytes are always candidates: a third stream finds bytes
/// ≥ 0x80 eight at a time. Each stream remembers its next hit, so each byte of input is
/// scanned at most once per stream.
///
///     query  zyg        rarest byte: z        streams: 'z', 'Z', non-ASCII
///     input  …/lib/zygote/x\n…   the first hit of any stream marks a candidate line
public struct CandidateFinder {
    private let lower: UInt8
    private let upper: UInt8
    private let followsNonASCII: Bool
    private var end: UnsafePointer<UInt8>
    // The next hit of each stream at or after the last search point; `end` means none.
    private var nextLower: UnsafePointer<UInt8>
    private var nextUpper: UnsafePointer<UInt8>
    private var nextNonASCII: UnsafePointer<UInt8>
    private var searchedFrom: UnsafePointer<UInt8>

    /// A finder for `query`, or nil when every line is a candidate (an empty query, or one
    /// whose rarest byte is not ASCII).
    public init?(query: MatchQuery) {
        var best: UInt8? = nil
        var bestFrequency = Int.max
        for word in query.words {
            for b in word where b < 0x80 {
                let f = ByteFrequency.caseInsensitive(b)
                if f < bestFrequency {
                    bestFrequency = f
                    best = b
                }
            }
        }
        guard let anchor = best else { return nil }
        lower = anchor
        upper = (anchor >= 0x61 && anchor <= 0x7A) ? anchor - 0x20 : anchor
        followsNonASCII = true
        let sentinel = UnsafePointer<UInt8>(bitPattern: 1)!
        end = sentinel
        nextLower = sentinel
        nextUpper = sentinel
        nextNonASCII = sentinel
        searchedFrom = sentinel
    }

    /// Starts over on a new block of input `[start, start + count)`.
    public mutating func reset(_ start: UnsafePointer<UInt8>, count: Int) {
        end = start + count
        // Positions before `start` force a fresh search in each stream.
        let stale = start - 1
        nextLower = stale
        nextUpper = stale
        nextNonASCII = stale
        searchedFrom = start
    }

    /// The first candidate position at or after `p`, or nil when there is none before the
    /// end of the block.
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
        if followsNonASCII {
            if nextNonASCII < p {
                // Search only as far as the best hit so far: past it, the answer is known.
                let hit = UTF8Decoding.firstNonASCII(p, end: best)
                nextNonASCII = hit < best ? hit : p - 1
                if hit < best { best = hit }
            } else if nextNonASCII < best {
                best = nextNonASCII
            }
        }
        return best < end ? best : nil
    }
}

/// How common each byte is in ordinary text, for choosing the rarest byte of a query.
///
/// Relative ranks, not measured counts: lowercase letters in English order of frequency,
/// then digits and the punctuation of paths and identifiers. Only the order matters.
public enum ByteFrequency {
    @usableFromInline
    static let table: [UInt8] = {
        var t = [UInt8](repeating: 10, count: 256)
        // Letters, most common first ("etaoin shrdlu …"), scored 255 down.
        let letters = Array("etaoinsrlcdhupmgfbywkvxzjq".utf8)
        for (i, b) in letters.enumerated() { t[Int(b)] = UInt8(250 - i * 9) }
        for b in UInt8(ascii: "0")...UInt8(ascii: "9") { t[Int(b)] = 120 }
        t[Int(UInt8(ascii: "/"))] = 240
        t[Int(UInt8(ascii: "."))] = 200
        t[Int(UInt8(ascii: "-"))] = 150
        t[Int(UInt8(ascii: "_"))] = 140
        t[Int(UInt8(ascii: " "))] = 245
        return t
    }()

    /// The frequency rank of `b` together with its other case.
    @inline(__always)
    public static func caseInsensitive(_ b: UInt8) -> Int {
        Int(table[Int(b)])
    }
}
