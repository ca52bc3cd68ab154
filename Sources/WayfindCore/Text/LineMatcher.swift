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
/// A query word *fits* at a word start when the folded text from there begins with it.
/// The text may run on past the end of that word (`xmark.bin` fits at the start of
/// `xmark.bin.circle`, `systemgr` at the start of `systemGroupedBackground`); only the
/// word start is used up. The line matches when every query word fits at a word start of
/// its own.
///
/// For each query word, longest first, we take a free word start where it fits and mark
/// it used:
///
///     query  p pe        sorted: pe, p
///     line   person.badge.plus
///     pe  → person (used)      p → plus (person is taken)      → match
///
/// Longest-first greedy is exact. The starts a query word fits at are the starts whose
/// text it prefixes. For two query words those sets either nest (`p` and `pe`: every text
/// that starts with `pe` starts with `p`) or are disjoint (`pe` and `pl`). Taking the
/// smaller, nested sets first can never take a start that a later, larger set needed
/// more, so the greedy choice finds a complete assignment whenever one exists, and which
/// start of its set a word takes does not matter. The tests check it against a
/// brute-force reference.
///
/// Time: each distinct query word looks at each word start at most once (a repeated
/// query word goes on from where its twin stopped), so a line costs O(line length ×
/// distinct query words).
///
/// Lines that are pure ASCII (the common case) are matched in place with a lowercase
/// table; others are folded once into a scratch buffer that remembers, for each folded
/// byte, the offset of the original scalar, so matches can be highlighted.
///
/// A case-sensitive query (`--no-ignore-case`) folds its words and the lines with their
/// case kept (`UnicodeFolding.caseKeptForm(of:)`: É is E, Ω is FE ω); its "lowercase"
/// table is the identity, so ASCII lines are still matched in place.
///
/// The matcher is a class holding raw scratch buffers, reused from line to line, so the
/// hot loop neither allocates nor retains.
///
/// For the same reason a matcher is not `Sendable`: two threads matching with one matcher
/// would write the same scratch buffers, and `ranges` is the last match's. The query is
/// `Sendable`; give each task its own `LineMatcher(query)` (a few small allocations).
/// A lock around every line would cost smartgrep's loop more than it saves anyone.
public final class LineMatcher {
    /// The compiled query.
    public let query: MatchQuery

    /// Growable scratch storage: folded bytes, their origins, word starts.
    ///
    /// `@exclusivity(unchecked)`: these are read and grown on every line, and only by this
    /// class's own methods, which never overlap; the runtime checks cost 6 % of a search.
    @exclusivity(unchecked) private var folded: ScratchBuffer<UInt8>
    @exclusivity(unchecked) private var origin: ScratchBuffer<Int32>
    @exclusivity(unchecked) private var starts: ScratchBuffer<Int32>
    /// Query words as raw pointers (owned copies), longest first.
    private let words: [UnsafeBufferPointer<UInt8>]
    /// Whether each query word equals the one before it.
    private let repeatsPrevious: [Bool]
    let lowercase: UnsafeMutablePointer<UInt8>
    let camelCase: Bool
    /// The query's `caseSensitive`: lines fold with their case kept.
    let caseSensitive: Bool
    let mode: WordMode
    private let fit: WordFit
    /// The line being matched (for the classes of folded positions).
    @exclusivity(unchecked) private var line = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    /// The matched ranges of the last successful `matches` call with `recordRanges`, in
    /// the line's byte offsets, sorted and merged where they overlap.
    public private(set) var ranges: [Range<Int>] = []
    /// Ranking facts about the last successful match with `recordRanges`.
    package private(set) var lastScore = MatchScore()

    /// A matcher for `query`.
    public init(_ query: MatchQuery) {
        self.query = query
        folded = ScratchBuffer(capacity: 1024)
        origin = ScratchBuffer(capacity: 1024)
        starts = ScratchBuffer(capacity: 256)
        words = query.words.map { word in
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(word.count, 1))
            _ = copy.initialize(from: word)
            return UnsafeBufferPointer(copy)
        }
        repeatsPrevious = query.words.indices.map { $0 > 0 && query.words[$0] == query.words[$0 - 1] }
        lowercase = .allocate(capacity: 256)
        for b in 0..<256 { lowercase[b] = (0x41...0x5A).contains(b) && !query.caseSensitive ? UInt8(b | 0x20) : UInt8(b) }
        caseSensitive = query.caseSensitive
        camelCase = query.mode == .all
        mode = query.mode
        fit = query.fit
    }

    deinit {
        folded.deallocate()
        origin.deallocate()
        starts.deallocate()
        for w in words { w.deallocate() }
        lowercase.deallocate()
    }

    /// Whether `line` matches: each query word starts a different word of it, in any
    /// order, ignoring case and accents (`LineMatcher(MatchQuery("x bin"))` matches
    /// `xmark.bin.fill`, `MatchQuery("sao")` matches `São Paulo`).
    public func matches(_ line: String) -> Bool {
        var line = line
        return line.withUTF8 { matches($0) }
    }

    /// The parts of `line` the query words matched (word prefixes, merged where they
    /// overlap), for highlighting; nil when the line does not match.
    public func matchedRanges(in line: String) -> [Range<String.Index>]? {
        var copy = line
        guard copy.withUTF8({ matches($0, recordRanges: true) }) else { return nil }
        let utf8 = line.utf8
        return ranges.map { range in
            utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)
        }
    }

    /// Whether the UTF-8 bytes `line` match (the fast entry: no copy, no allocation).
    /// With `recordRanges`, fills `ranges` and `lastScore`.
    public func matches(_ line: UnsafeBufferPointer<UInt8>, recordRanges: Bool = false) -> Bool {
        if words.isEmpty && fit != .line {
            if recordRanges {
                ranges.removeAll(keepingCapacity: true)
                lastScore = MatchScore()
            }
            return true
        }
        guard let base = line.baseAddress, line.count > 0 else {
            if recordRanges { ranges.removeAll(keepingCapacity: true) }
            return words.isEmpty
        }
        self.line = line
        if UTF8Decoding.isASCII(base, count: line.count) {
            collectASCIIStarts(base, count: line.count)
            if fit != .prefix { return assignWhole(text: base, count: line.count, isFolded: false, recordRanges: recordRanges) }
            return assign(text: base, count: line.count, isFolded: false, recordRanges: recordRanges)
        }
        foldLine(base, count: line.count)
        if fit != .prefix { return assignWhole(text: folded.base, count: folded.count, isFolded: true, recordRanges: recordRanges) }
        return assign(text: folded.base, count: folded.count, isFolded: true, recordRanges: recordRanges)
    }

    // MARK: - Word starts

    /// The splitting class of an ASCII byte in this mode.
    @inline(__always)
    func asciiClass(_ b: UInt8) -> ScalarClass {
        mode.splittingClass(ASCIIClasses.of(b), isWhitespace: TextFolding.isASCIIWhitespace(b))
    }

    /// Records word starts of an ASCII line.
    @inline(__always)
    private func collectASCIIStarts(_ base: UnsafePointer<UInt8>, count: Int) {
        starts.ensureCapacity(count + 1)
        var tracker = WordStartTracker(camelCase: camelCase)
        let out = starts.base
        var n = 0
        if mode == .space {
            for i in 0..<count { tracker.advance(asciiClass(base[i]), at: Int32(i), into: out, count: &n) }
        } else {
            for i in 0..<count { tracker.advance(ASCIIClasses.of(base[i]), at: Int32(i), into: out, count: &n) }
        }
        tracker.finish(into: out, count: &n)
        starts.count = n
    }

    /// Folds a line with non-ASCII bytes into `folded`, recording origins and word starts.
    private func foldLine(_ base: UnsafePointer<UInt8>, count: Int) {
        // One loop, specialized for each folding: a test of `caseSensitive` for every
        // character cost a search for `zebra` 3.5 % more instructions.
        if caseSensitive {
            foldLine(base, count: count, folding: CaseKeptFolding.self)
        } else {
            foldLine(base, count: count, folding: CaseIgnoredFolding.self)
        }
    }

    /// `foldLine(_:count:)` with each character folded by `F`.
    private func foldLine<F: ScalarFolding>(_ base: UnsafePointer<UInt8>, count: Int, folding: F.Type) {
        // A scalar folds to at most 7 bytes from at least 1 input byte.
        folded.ensureCapacity(count * 7 + 1)
        origin.ensureCapacity(count * 7 + 1)
        starts.ensureCapacity(count * 7 + 1)
        var tracker = WordStartTracker(camelCase: camelCase)
        let f = folded.base
        let o = origin.base
        var nFolded = 0
        var nStarts = 0
        let end = base + count
        var p = base
        while p < end {
            let offset = Int32(p - base)
            let (value, length) = UTF8Decoding.decode(p, end: end)
            let position = Int32(nFolded)
            let cls = scalarClass(value)
            if value == UTF8Decoding.invalid {
                // An invalid byte is a character that matches nothing (as U+FFFD would be).
                f[nFolded] = 0xFF
                o[nFolded] = offset
                nFolded += 1
            } else {
                let form = F.form(of: value)
                var raw = form.rawValue
                for _ in 0..<form.count {
                    f[nFolded] = UInt8(truncatingIfNeeded: raw)
                    o[nFolded] = offset
                    raw >>= 8
                    nFolded += 1
                }
            }
            // A character that folds to nothing (other than a mark) is invisible.
            if Int32(nFolded) > position || cls == .mark {
                tracker.advance(cls, at: position, into: starts.base, count: &nStarts)
            }
            p += length
        }
        tracker.finish(into: starts.base, count: &nStarts)
        o[nFolded] = Int32(count)
        folded.count = nFolded
        origin.count = nFolded + 1
        starts.count = nStarts
    }

    /// The splitting class of a decoded scalar value (`UTF8Decoding.invalid` included).
    @inline(__always)
    private func scalarClass(_ value: UInt32) -> ScalarClass {
        if value == UTF8Decoding.invalid { return mode.splittingClass(.separator, isWhitespace: false) }
        let white = value < 0x80 ? TextFolding.isASCIIWhitespace(UInt8(value)) : TextFolding.isUnicodeWhitespace(value)
        return mode.splittingClass(UnicodeFolding.scalarClass(value), isWhitespace: white)
    }

    // MARK: - Assignment

    /// Assigns query words to word starts, longest first (see the essay above).
    @inline(__always)
    private func assign(text: UnsafePointer<UInt8>, count: Int, isFolded: Bool, recordRanges: Bool) -> Bool {
        let startCount = starts.count
        if startCount < words.count { return false }
        // Used starts: a bit mask for up to 64 words (nearly every line), else a byte array.
        var usedBytes: UnsafeMutablePointer<Bool>? = nil
        if startCount > 64 {
            usedBytes = .allocate(capacity: startCount)
            usedBytes!.initialize(repeating: false, count: startCount)
        }
        defer { usedBytes?.deallocate() }
        var used = UsedStarts(mask: 0, bytes: usedBytes)
        if recordRanges { ranges.removeAll(keepingCapacity: true) }
        var score = MatchScore()
        // Where a repeated query word goes on looking: every fit before these is used.
        var wholeFrom = 0
        var anyFrom = 0
        for (w, word) in words.enumerated() {
            if !repeatsPrevious[w] {
                wholeFrom = 0
                anyFrom = 0
            }
            var taken = -1
            if recordRanges {
                // Any fit will do (see above); a whole word ranks and highlights better.
                taken = firstFreeFit(word, from: wholeFrom, text: text, count: count, used: used, whole: true, isFolded: isFolded)
                wholeFrom = taken < 0 ? startCount : taken + 1
            }
            if taken < 0 {
                taken = firstFreeFit(word, from: anyFrom, text: text, count: count, used: used, whole: false, isFolded: isFolded)
                if taken < 0 { return false }
                anyFrom = taken + 1
            }
            used[taken] = true
            if recordRanges {
                let s = Int(starts.base[taken])
                let e = s + word.count
                if endsWord(at: e, text: text, count: count, isFolded: isFolded) { score.wholeWords += 1 }
                if taken == 0 { score.atLineStart = true }
                ranges.append(s..<e)
            }
        }
        if recordRanges {
            // Overlapping matches (a run-on and the word it runs over) highlight as one.
            let merged = Self.merged(ranges)
            score.wordCount = startCount
            score.coversLine = score.wholeWords == words.count && everyStartIsInside(merged)
            lastScore = score
            ranges = merged.map { originalRange($0, isFolded: isFolded) }
        }
        return true
    }

    /// Assigns query words to word starts where each fits whole (`-w`, `-x`).
    ///
    /// Greedy is not exact here: with camelCase humps, `pe` fits whole at both `pEBar` and
    /// `pe.x`, `p` only at the first, and a greedy `pe` may take the start `p` needed.
    /// So this finds a matching with augmenting paths (Kuhn's algorithm); queries have a
    /// few words, and only `-w` and `-x` come here. With `-x`, the words' matched parts
    /// must also cover every word start of the line, and that depends on the assignment
    /// (a run-on word covers several): there, assignments are tried in turn.
    private func assignWhole(text: UnsafePointer<UInt8>, count: Int, isFolded: Bool, recordRanges: Bool) -> Bool {
        let startCount = starts.count
        if recordRanges { ranges.removeAll(keepingCapacity: true) }
        if words.isEmpty {
            if recordRanges { lastScore = MatchScore() }
            return startCount == 0
        }
        if startCount < words.count { return false }
        let starts = self.starts.base
        // The starts where each query word fits whole.
        var fits: [[Int]] = []
        fits.reserveCapacity(words.count)
        for (w, word) in words.enumerated() {
            if repeatsPrevious[w] {
                fits.append(fits[w - 1])
                continue
            }
            var list: [Int] = []
            for k in 0..<startCount {
                let s = Int(starts[k])
                if s + word.count > count { break }
                var i = 0
                while i < word.count && lowercase[Int(text[s + i])] == word[i] { i += 1 }
                if i == word.count && endsWord(at: s + word.count, text: text, count: count, isFolded: isFolded) {
                    list.append(k)
                }
            }
            if list.isEmpty { return false }
            fits.append(list)
        }
        var owner = [Int](repeating: -1, count: startCount)
        if fit == .line {
            // Which assignment matters: 'вαι_é é' covers 'вΑΙ_é é' only when 'é' takes
            // the second é (the first is inside the run-on). Try assignments in turn;
            // twins take starts in increasing order, so repeated words cost no factorial.
            var chosen = [Int](repeating: -1, count: words.count)
            func coversLine() -> Bool {
                (0..<startCount).allSatisfy { t in
                    let p = Int(starts[t])
                    return chosen.indices.contains { w in
                        let s = Int(starts[chosen[w]])
                        return s <= p && p < s + words[w].count
                    }
                }
            }
            func search(_ w: Int) -> Bool {
                if w == words.count { return coversLine() }
                for k in fits[w] where owner[k] < 0 && (!repeatsPrevious[w] || k > chosen[w - 1]) {
                    owner[k] = w
                    chosen[w] = k
                    if search(w + 1) { return true }
                    owner[k] = -1
                }
                return false
            }
            guard search(0) else { return false }
            if !recordRanges { return true }
        }
        var seen = [Bool](repeating: false, count: startCount)
        func place(_ w: Int) -> Bool {
            for k in fits[w] where !seen[k] {
                seen[k] = true
                if owner[k] < 0 || place(owner[k]) {
                    owner[k] = w
                    return true
                }
            }
            return false
        }
        for w in words.indices where fit != .line {
            for k in seen.indices { seen[k] = false }
            if !place(w) { return false }
        }
        guard fit == .line || recordRanges else { return true }
        var matched: [Range<Int>] = []
        for k in 0..<startCount where owner[k] >= 0 {
            let s = Int(starts[k])
            matched.append(s..<(s + words[owner[k]].count))
        }
        // Sorted by start already; merge the ranges that touch a run-on.
        var merged: [Range<Int>] = []
        for r in matched {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        let covers = everyStartIsInside(merged)
        if fit == .line && !covers { return false }
        if recordRanges {
            var score = MatchScore()
            score.wholeWords = words.count
            score.atLineStart = owner[0] >= 0
            score.wordCount = startCount
            score.coversLine = covers
            lastScore = score
            ranges = merged.map { originalRange($0, isFolded: isFolded) }
        }
        return true
    }

    /// The first unused word start at or after `from` where `q` fits (with `whole`, only
    /// where it also ends a word), or -1.
    @inline(__always)
    private func firstFreeFit(
        _ q: UnsafeBufferPointer<UInt8>, from: Int, text: UnsafePointer<UInt8>, count: Int, used: UsedStarts,
        whole: Bool, isFolded: Bool
    ) -> Int {
        let length = q.count
        let first = q[0]
        let lower = lowercase
        let starts = self.starts.base
        var k = from
        while k < self.starts.count {
            defer { k += 1 }
            let s = Int(starts[k])
            if s + length > count { break }
            if used[k] || lower[Int(text[s])] != first { continue }
            var i = 1
            while i < length && lower[Int(text[s + i])] == q[i] { i += 1 }
            if i < length { continue }
            if whole && !endsWord(at: s + length, text: text, count: count, isFolded: isFolded) { continue }
            return k
        }
        return -1
    }

    /// Whether folded position `e` ends a word: the line ends there, or a word or a
    /// separator starts there.
    private func endsWord(at e: Int, text: UnsafePointer<UInt8>, count: Int, isFolded: Bool) -> Bool {
        if e >= count { return true }
        if !isFolded {
            let cls = asciiClass(text[e])
            if cls == .separator { return true }
            let previous = asciiClass(text[e - 1])
            let next = e + 1 < count ? asciiClass(text[e + 1]) : .separator
            return WordMode.startsWord(previous: previous, current: cls, next: next, camelCase: camelCase)
        }
        // Inside one character's folded form (`s` of `ß` → `ss`) is no end.
        let o = origin.base
        if o[e] == o[e - 1] { return false }
        let (value, _) = UTF8Decoding.decode(line.baseAddress! + Int(o[e]), end: line.baseAddress! + line.count)
        if scalarClass(value) == .separator { return true }
        let starts = self.starts.base
        var lo = 0
        var hi = self.starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(starts[mid]) < e { lo = mid + 1 } else { hi = mid }
        }
        return lo < self.starts.count && Int(starts[lo]) == e
    }

    /// Whether every word start lies inside one of `ranges` (sorted, disjoint).
    private func everyStartIsInside(_ ranges: [Range<Int>]) -> Bool {
        let starts = self.starts.base
        var r = 0
        for k in 0..<self.starts.count {
            let s = Int(starts[k])
            while r < ranges.count && ranges[r].upperBound <= s { r += 1 }
            if r == ranges.count || ranges[r].lowerBound > s { return false }
        }
        return true
    }

    /// Maps a folded range back to the original line's bytes.
    private func originalRange(_ r: Range<Int>, isFolded: Bool) -> Range<Int> {
        guard isFolded else { return r }
        let o = origin.base
        let lowerBound = Int(o[r.lowerBound])
        // The match ends after the scalar that produced its last folded byte, plus any
        // combining marks that follow it (they fold to nothing).
        let lastOrigin = o[r.upperBound - 1]
        var j = r.upperBound
        while j < origin.count - 1 && o[j] == lastOrigin { j += 1 }
        return lowerBound..<Int(o[j])
    }

    /// The query words, longest first, as raw buffers.
    package var wordBuffers: [UnsafeBufferPointer<UInt8>] { words }
}

/// A matcher's scratch buffers belong to one thread at a time (see `LineMatcher`).
@available(*, unavailable)
extension LineMatcher: Sendable {}

extension LineMatcher {
    /// `ranges` in order, those that overlap or touch made one: what highlighting shows
    /// of matches that overlap (a run-on and the word it runs over, or several queries).
    package static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }
}
