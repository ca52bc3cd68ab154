/// Finds the places in a block of lines where a match could be, so the matcher sees only
/// those.
///
/// # Why
///
/// Most lines of a large input do not match a rare word, and looking at each of them costs
/// more than the answer. Every query word must appear in a matching line, so every byte of
/// every query word must too. We pick the query byte that is rarest in ordinary text (a
/// static frequency table, as ripgrep does), the anchor, and look for it thirty-two bytes
/// at a time (two SIMD vectors): a rare word costs about a memory scan.
///
/// Case and accents complicate this. The anchor `z` also appears as `Z`, so both are
/// looked for. And a non-ASCII character may fold to it (`ž`, `Ź`), so the bytes that
/// lead the UTF-8 of a character whose folded form contains it are candidates too (`ž` is
/// C5 BE, so C5 is one for `z`, and E1 for `ẑ`; Cyrillic's D0 and D1 are not). These sets
/// are small (one to seven bytes) and generated with the folding tables.
///
/// A common anchor (the `b` of `lib` comes every 60 bytes of English) would stop the scan
/// too often, so when it comes from a query word that is pure ASCII, its rarer neighbour
/// in the word must sit beside it too (`ib`): in ASCII text the word's bytes come in a
/// row. A non-ASCII neighbour may fold to it (`íb`), so it lets the anchor through.
/// Against one `memchr` stream per byte (both cases, lead bytes), `-c lib` over the
/// 211 MB bench corpus took 111 ms instead of 145, `lib py` 263 instead of 307, `zebra`
/// 50 instead of 68, an absent word the same (`bench/smartgrep.sh`'s corpus, 3ff9f29).
///
///     query  zyg    anchor z, beside it y    candidates: zy zY Zy ZY, z or Z beside a
///                                            non-ASCII byte, and C5, C6, E1 (ž, ƶ, ẑ …)
///     input  …/lib/zygote/x\n…   the first candidate marks where to look
///
/// The search loop then checks that word directly at the hit (`anchorWord`,
/// `anchorOffset`) and looks at the whole line only when it fits: most hits are rejected
/// in a few instructions.
package final class CandidateFinder {
    /// The index, in `LineMatcher.wordBuffers`, of the ASCII query word holding the
    /// anchor byte, or nil when the anchor comes from a word with non-ASCII bytes.
    package let anchorWord: Int?
    /// Where the anchor byte sits in that word.
    package let anchorOffset: Int
    /// The anchor byte (folded: lowercase).
    package let anchorByte: UInt8
    /// The anchor in either case: a byte ORed with `anchorCase` (0x20 for a letter, else 0)
    /// is the anchor.
    private let anchor: SIMD16<UInt8>
    private let anchorCase: SIMD16<UInt8>
    /// The anchor word's byte beside the anchor (folded, and its case bit), and where it
    /// sits: +1 or -1, or 0 when there is none (then the neighbour is the anchor itself).
    private let neighbour: SIMD16<UInt8>
    private let neighbourCase: SIMD16<UInt8>
    private let neighbourDelta: Int
    /// The lead bytes of the non-ASCII characters that fold to the anchor.
    private let leads: LeadByteSet
    private let leadBytes: [SIMD16<UInt8>]
    /// The block (`@exclusivity(unchecked)`: read for every candidate, written only by
    /// `reset`; the runtime checks were a tenth of a two-word search).
    @exclusivity(unchecked) private var start: UnsafePointer<UInt8>
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
        anchor = SIMD16(repeating: lower)
        anchorCase = SIMD16(repeating: Self.caseBit(lower))
        var pair: (byte: UInt8, delta: Int) = (lower, 0)
        if best.ascii {
            let word = query.words[best.word]
            for delta in [1, -1] where word.indices.contains(best.offset + delta) {
                let b = Self.lowercased(word[best.offset + delta])
                if pair.delta == 0 || ByteFrequency.rank(b) < ByteFrequency.rank(pair.byte) { pair = (b, delta) }
            }
        }
        neighbour = SIMD16(repeating: pair.byte)
        neighbourCase = SIMD16(repeating: Self.caseBit(pair.byte))
        neighbourDelta = pair.delta
        let leads = LeadByteSet.forFoldedByte(lower)
        self.leads = leads
        leadBytes = (0xC2...0xF4).filter { leads.contains(UInt8($0)) }.map { SIMD16(repeating: UInt8($0)) }
        start = UnsafePointer<UInt8>(bitPattern: 1)!
        end = start
    }

    /// 0x20 for a lowercase letter (ORed with either case, it gives the lowercase), else 0.
    private static func caseBit(_ lower: UInt8) -> UInt8 { lower >= 0x61 && lower <= 0x7A ? 0x20 : 0 }

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
        self.start = start
        end = start + count
    }

    /// The first candidate position at or after `p`, or nil when there is none before the
    /// end of the block. A candidate byte ≥ 0x80 means "match this whole line".
    ///
    /// Thirty-two bytes at a time, a quick look first: is any anchor beside its neighbour,
    /// or any byte not ASCII? Only then the exact candidates of each half. The last bytes
    /// of the block, and a first byte whose neighbour lies before it, are looked at one
    /// by one, for the anchor alone or a lead byte (`single`).
    @inline(__always)
    package func next(from p: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        var q = p
        let delta = neighbourDelta
        if q < end && q + delta < start {
            if single(q.pointee) { return q }
            q += 1
        }
        while end - q > 2 * Self.width {
            let v0 = Self.load(q), v1 = Self.load(q + Self.width)
            let n0 = Self.load(q + delta), n1 = Self.load(q + Self.width + delta)
            let pairs = Self.bytes((v0 | anchorCase) .== anchor) & Self.bytes((n0 | neighbourCase) .== neighbour)
                | Self.bytes((v1 | anchorCase) .== anchor) & Self.bytes((n1 | neighbourCase) .== neighbour)
            if Self.hasHighBit(pairs | v0 | v1 | n0 | n1) {
                let first = candidates(v0, n0)
                if Self.hasHighBit(first) { return q + Self.firstSet(first) }
                let second = candidates(v1, n1)
                if Self.hasHighBit(second) { return q + Self.width + Self.firstSet(second) }
            }
            q += 2 * Self.width
        }
        while q < end {
            if single(q.pointee) { return q }
            q += 1
        }
        return nil
    }

    /// The candidates among sixteen bytes `v` whose neighbours are `n`, as lanes of all
    /// ones: the anchor beside its neighbour or beside a non-ASCII byte (which may fold
    /// to the neighbour), and, if `v` holds non-ASCII bytes, the anchor's lead bytes.
    @inline(__always)
    private func candidates(_ v: SIMD16<UInt8>, _ n: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let high = SIMD16<UInt8>(repeating: 0x80)
        let neighbourFits = Self.bytes((n | neighbourCase) .== neighbour) | Self.bytes((n & high) .== high)
        var found = Self.bytes((v | anchorCase) .== anchor) & neighbourFits
        if !leadBytes.isEmpty && Self.hasHighBit(v) {
            for lead in leadBytes { found |= Self.bytes(v .== lead) }
        }
        return found
    }

    /// Whether `b` is a candidate by itself: the anchor in either case, or a lead byte
    /// (`candidates` without the neighbour, for one byte).
    @inline(__always)
    private func single(_ b: UInt8) -> Bool {
        b | anchorCase[0] == anchorByte || (b >= 0x80 && leads.contains(b))
    }

    /// The first lane set (all ones) of sixteen, not all zero.
    @inline(__always)
    private static func firstSet(_ lanes: SIMD16<UInt8>) -> Int {
        let w = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        return (w[0] != 0 ? w[0].trailingZeroBitCount : 64 + w[1].trailingZeroBitCount) >> 3
    }

    /// Whether any of sixteen bytes has its high bit set, tested as two words (`any(_:)`
    /// and conversions between lane types go lane by lane).
    @inline(__always)
    private static func hasHighBit(_ v: SIMD16<UInt8>) -> Bool {
        let w = unsafeBitCast(v, to: SIMD2<UInt64>.self)
        return (w[0] | w[1]) & 0x8080_8080_8080_8080 != 0
    }

    /// The bytes in a SIMD vector (`SIMD16`: the baseline x86-64 has 16-byte registers).
    private static let width = 16

    @inline(__always)
    private static func load(_ p: UnsafePointer<UInt8>) -> SIMD16<UInt8> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self)
    }

    @inline(__always)
    private static func bytes(_ m: SIMDMask<SIMD16<Int8>>) -> SIMD16<UInt8> { unsafeBitCast(m, to: SIMD16<UInt8>.self) }
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
        from: UnsafePointer<UInt8>, matcher: LineMatcher, anchor: UnsafeBufferPointer<UInt8>?, anchorOffset: Int,
        start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>
    ) -> UnsafePointer<UInt8>? {
        var from = from
        while let h = next(from: from) {
            if let anchor {
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
