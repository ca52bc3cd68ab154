/// The token-prefix matcher: does every query word start a different word of the line?
///
/// # How it works
///
/// A query such as `p pe` is split at whitespace into query words, each folded (case and
/// accents removed: `São` → `sao`) and sorted longest first. A line is split into words:
/// by default at every character that is neither letter nor digit and at camelCase humps,
/// so `person.badge.plus` is person, badge, plus and `systemGroupedBackground` is system,
/// Grouped, Background (see `WordMode`). We never build the words: we record where each
/// one starts in the folded line (`starts`) and compare query words against the folded
/// text from those positions.
///
/// For each query word, longest first, we take the first unused word start from which the
/// folded text begins with the query word, and mark it used:
///
///     query  p pe        sorted: pe, p
///     line   person.badge.plus
///     pe  → person (used)      p → plus (person is taken)      → match
///
/// Longest-first greedy is exact. The words a query word can take are the words it is a
/// prefix of. For two query words those sets either nest (`p` and `pe`: every word that
/// starts with `pe` starts with `p`) or are disjoint (`pe` and `pl`). Taking the smaller,
/// nested sets first can never take a word that a later, larger set needed more, so the
/// greedy choice finds a complete assignment whenever one exists. The unit tests check it
/// against a brute-force matcher on random inputs.
///
/// A query word may also run on past the end of a word when it continues the line's own
/// text (`xmark.bin` matches `xmark.bin.circle`, `systemgr` matches
/// `systemGroupedBackground`). Such a match uses up every word it runs over. Single-word
/// matches are preferred: a query word runs on only when no unused word alone fits it.
///
/// Lines that are pure ASCII (the common case) are matched in place with a lowercase
/// table; others are folded once into a scratch buffer that remembers, for each folded
/// byte, the offset of the original scalar, so matches can be highlighted.
public struct LineMatcher {
    /// The compiled query.
    public let query: MatchQuery

    // Scratch buffers, reused from line to line so matching allocates nothing.
    private var folded: [UInt8] = []
    private var origin: [Int32] = []
    private var starts: [Int32] = []
    private var used: [Bool] = []
    /// The matched ranges of the last successful `matches` call, in the line's byte offsets,
    /// one per query word, sorted by start.
    public private(set) var ranges: [Range<Int>] = []
    /// Ranking facts about the last successful match.
    public private(set) var lastScore = MatchScore()

    /// A matcher for `query`.
    public init(_ query: MatchQuery) {
        self.query = query
        ranges.reserveCapacity(query.words.count)
    }

    /// Whether `line` matches. With `recordRanges`, fills `ranges` and `lastScore`.
    public mutating func matches(_ line: UnsafeBufferPointer<UInt8>, recordRanges: Bool = false) -> Bool {
        if query.words.isEmpty {
            if recordRanges {
                ranges.removeAll(keepingCapacity: true)
                lastScore = MatchScore()
            }
            return true
        }
        guard let base = line.baseAddress, line.count > 0 else { return false }
        if UTF8Decoding.isASCII(base, count: line.count) {
            collectASCIIStarts(base, count: line.count)
            return assign(text: base, count: line.count, folded: false, recordRanges: recordRanges)
        }
        foldLine(base, count: line.count)
        return folded.withUnsafeBufferPointer { text in
            assign(text: text.baseAddress!, count: text.count, folded: true, recordRanges: recordRanges)
        }
    }

    // MARK: - Word starts

    /// Records word starts of an ASCII line.
    @inline(__always)
    private mutating func collectASCIIStarts(_ base: UnsafePointer<UInt8>, count: Int) {
        starts.removeAll(keepingCapacity: true)
        var tracker = WordStartTracker(mode: query.mode)
        for i in 0..<count {
            let b = base[i]
            let cls: ScalarClass
            if query.mode == .space {
                cls = TextFolding.isASCIIWhitespace(b) ? .separator : .lowercase
            } else {
                cls = UnicodeFolding.asciiClass(b)
            }
            tracker.advance(cls, at: Int32(i), starts: &starts)
        }
    }

    /// Folds a line with non-ASCII bytes into `folded`, recording origins and word starts.
    private mutating func foldLine(_ base: UnsafePointer<UInt8>, count: Int) {
        folded.removeAll(keepingCapacity: true)
        origin.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        var tracker = WordStartTracker(mode: query.mode)
        let end = base + count
        var p = base
        while p < end {
            let offset = Int32(p - base)
            let (value, length) = UTF8Decoding.decode(p, end: end)
            let position = Int32(folded.count)
            var cls: ScalarClass
            if value == UTF8Decoding.invalid {
                cls = .separator
                folded.append(0xFF)
            } else {
                cls = value < 0x80 ? UnicodeFolding.asciiClass(UInt8(value)) : UnicodeFolding.scalarClass(value)
                if query.mode == .space && cls != .mark {
                    let white = value < 0x80 ? TextFolding.isASCIIWhitespace(UInt8(value)) : TextFolding.isUnicodeWhitespace(value)
                    cls = white ? .separator : .lowercase
                }
                UnicodeFolding.appendFolded(value, to: &folded)
            }
            while origin.count < folded.count { origin.append(offset) }
            if Int32(folded.count) > position || cls == .mark {
                tracker.advance(cls, at: position, starts: &starts)
            }
            p += length
        }
        origin.append(Int32(count))
    }

    // MARK: - Assignment

    /// Assigns query words to word starts, longest first (see the essay above).
    @inline(__always)
    private mutating func assign(
        text: UnsafePointer<UInt8>, count: Int, folded isFolded: Bool, recordRanges: Bool
    ) -> Bool {
        let startCount = starts.count
        if startCount < query.words.count { return false }
        var usedFlags: [Bool] = []
        swap(&usedFlags, &used)
        defer { swap(&usedFlags, &used) }
        usedFlags.removeAll(keepingCapacity: true)
        usedFlags.append(contentsOf: repeatElement(false, count: startCount))
        var found: [Range<Int>] = []
        if recordRanges {
            swap(&found, &ranges)
            found.removeAll(keepingCapacity: true)
        }
        var score = MatchScore()
        var ok = true
        starts.withUnsafeBufferPointer { startsBuffer in
            usedFlags.withUnsafeMutableBufferPointer { usedBuffer in
                TextFolding.lowercaseTable.withUnsafeBufferPointer { lowerTable in
                    for word in query.words {
                        let taken = word.withUnsafeBufferPointer { q -> Int in
                            Self.takeStart(
                                for: q, text: text, count: count, starts: startsBuffer,
                                used: usedBuffer, lower: lowerTable)
                        }
                        if taken < 0 {
                            ok = false
                            return
                        }
                        if recordRanges {
                            let s = Int(startsBuffer[taken])
                            let e = s + word.count
                            if e == count || isWordEnd(e, text: text, starts: startsBuffer, after: taken) {
                                score.wholeWords += 1
                            }
                            if taken == 0 { score.atLineStart = true }
                            found.append(originalRange(s..<e, isFolded: isFolded))
                        }
                    }
                }
            }
        }
        if recordRanges {
            found.sort { $0.lowerBound < $1.lowerBound }
            swap(&found, &ranges)
            lastScore = score
        }
        return ok
    }

    /// Finds and uses up a start for query word `q`; returns its index or -1.
    @inline(__always)
    private static func takeStart(
        for q: UnsafeBufferPointer<UInt8>, text: UnsafePointer<UInt8>, count: Int,
        starts: UnsafeBufferPointer<Int32>, used: UnsafeMutableBufferPointer<Bool>,
        lower: UnsafeBufferPointer<UInt8>
    ) -> Int {
        let length = q.count
        let first = q[0]
        var runOn = -1
        for k in 0..<starts.count where !used[k] {
            let s = Int(starts[k])
            if s + length > count { break }
            if lower[Int(text[s])] != first { continue }
            var i = 1
            while i < length && lower[Int(text[s + i])] == q[i] { i += 1 }
            if i < length { continue }
            // The query word fits; does it stay inside this word?
            var next = k + 1
            if next == starts.count || Int(starts[next]) >= s + length {
                used[k] = true
                return k
            }
            if runOn < 0 {
                // It runs on: usable only if every start it runs over is still free.
                var free = true
                while next < starts.count && Int(starts[next]) < s + length {
                    if used[next] { free = false; break }
                    next += 1
                }
                if free { runOn = k }
            }
        }
        if runOn >= 0 {
            let s = Int(starts[runOn])
            var k = runOn
            while k < starts.count && Int(starts[k]) < s + length {
                used[k] = true
                k += 1
            }
        }
        return runOn
    }

    /// Whether folded position `e` ends a word: a new word starts there, or a separator does.
    @inline(__always)
    private func isWordEnd(_ e: Int, text: UnsafePointer<UInt8>, starts: UnsafeBufferPointer<Int32>, after k: Int) -> Bool {
        var j = k + 1
        while j < starts.count && Int(starts[j]) < e { j += 1 }
        if j < starts.count && Int(starts[j]) == e { return true }
        let b = text[e]
        if query.mode == .space { return TextFolding.isASCIIWhitespace(b) }
        return b < 0x80 && UnicodeFolding.asciiClass(b) == .separator
    }

    /// Maps a folded range back to the original line's bytes.
    @inline(__always)
    private func originalRange(_ r: Range<Int>, isFolded: Bool) -> Range<Int> {
        guard isFolded else { return r }
        let lowerBound = Int(origin[r.lowerBound])
        // The match ends after the scalar that produced its last folded byte, plus any
        // combining marks that follow it (they fold to nothing).
        let lastOrigin = origin[r.upperBound - 1]
        var j = r.upperBound
        while j < origin.count - 1 && origin[j] == lastOrigin { j += 1 }
        return lowerBound..<Int(origin[j])
    }
}

/// Facts about a match that `--rank` orders by.
public struct MatchScore: Sendable, Equatable {
    /// How many query words matched a whole word rather than a prefix.
    public var wholeWords = 0
    /// Whether a query word matched the first word of the line.
    public var atLineStart = false
    /// An empty score.
    public init() {}
}

/// Decides where words start as scalars go by (see `WordMode`).
@usableFromInline
struct WordStartTracker {
    let camelCase: Bool
    var previous: ScalarClass = .separator
    var beforePrevious: ScalarClass = .separator
    var previousPosition: Int32 = 0

    @inline(__always)
    init(mode: WordMode) { camelCase = mode == .all }

    /// Feeds the next scalar's class and folded position.
    @inline(__always)
    mutating func advance(_ cls: ScalarClass, at position: Int32, starts: inout [Int32]) {
        switch cls {
        case .mark:
            return
        case .separator:
            break
        default:
            if previous == .separator {
                starts.append(position)
            } else if camelCase {
                if cls == .uppercase && previous != .uppercase {
                    starts.append(position)  // fooBar, utf8String
                } else if cls == .lowercase && previous == .uppercase && beforePrevious == .uppercase {
                    starts.append(previousPosition)  // HTTPServer: the S starts Server
                }
            }
        }
        beforePrevious = previous
        previous = cls
        previousPosition = position
    }
}
