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
///
/// The matcher is a class holding raw scratch buffers, reused from line to line, so the
/// hot loop neither allocates nor retains.
public final class LineMatcher {
    /// The compiled query.
    public let query: MatchQuery

    /// Growable scratch storage: folded bytes, their origins, word starts.
    private var folded: ScratchBuffer<UInt8>
    private var origin: ScratchBuffer<Int32>
    private var starts: ScratchBuffer<Int32>
    /// Query words as raw pointers (owned copies), longest first.
    private let words: [UnsafeBufferPointer<UInt8>]
    private let lowercase: UnsafeMutablePointer<UInt8>
    private let camelCase: Bool
    private let spaceMode: Bool
    /// Spans taken by query words in `matchesASCIIDirectly`.
    private let taken: UnsafeMutablePointer<(Int, Int)>

    /// The matched ranges of the last successful `matches` call with `recordRanges`, in
    /// the line's byte offsets, sorted by start.
    public private(set) var ranges: [Range<Int>] = []
    /// Ranking facts about the last successful match with `recordRanges`.
    public private(set) var lastScore = MatchScore()

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
        taken = .allocate(capacity: max(query.words.count, 1))
        lowercase = .allocate(capacity: 256)
        for b in 0..<256 { lowercase[b] = b &- 0x41 < 26 ? UInt8(b | 0x20) : UInt8(b) }
        camelCase = query.mode == .all
        spaceMode = query.mode == .space
    }

    deinit {
        folded.deallocate()
        origin.deallocate()
        starts.deallocate()
        for w in words { w.deallocate() }
        lowercase.deallocate()
        taken.deallocate()
    }

    /// Whether `line` matches. With `recordRanges`, fills `ranges` and `lastScore`.
    public func matches(_ line: UnsafeBufferPointer<UInt8>, recordRanges: Bool = false) -> Bool {
        if words.isEmpty {
            if recordRanges {
                ranges.removeAll(keepingCapacity: true)
                lastScore = MatchScore()
            }
            return true
        }
        guard let base = line.baseAddress, line.count > 0 else { return false }
        if UTF8Decoding.isASCII(base, count: line.count) {
            if !recordRanges { return matchesASCIIDirectly(base, count: line.count) }
            collectASCIIStarts(base, count: line.count)
            return assign(text: base, count: line.count, isFolded: false, recordRanges: recordRanges)
        }
        foldLine(base, count: line.count)
        return assign(text: folded.base, count: folded.count, isFolded: true, recordRanges: recordRanges)
    }

    // MARK: - Word starts

    /// Records word starts of an ASCII line.
    @inline(__always)
    private func collectASCIIStarts(_ base: UnsafePointer<UInt8>, count: Int) {
        starts.ensureCapacity(count)
        starts.count = 0
        var tracker = WordStartTracker(camelCase: camelCase)
        let out = starts.base
        var n = 0
        if spaceMode {
            for i in 0..<count {
                let cls: ScalarClass = TextFolding.isASCIIWhitespace(base[i]) ? .separator : .lowercase
                tracker.advance(cls, at: Int32(i), into: out, count: &n)
            }
        } else {
            for i in 0..<count {
                tracker.advance(ASCIIClasses.of(base[i]), at: Int32(i), into: out, count: &n)
            }
        }
        starts.count = n
    }

    /// Folds a line with non-ASCII bytes into `folded`, recording origins and word starts.
    private func foldLine(_ base: UnsafePointer<UInt8>, count: Int) {
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
            var cls: ScalarClass
            if value == UTF8Decoding.invalid {
                cls = .separator
                f[nFolded] = 0xFF
                o[nFolded] = offset
                nFolded += 1
            } else {
                let (c, form) = UnicodeFolding.lookup(value)
                cls = c
                if spaceMode && cls != .mark {
                    let white = value < 0x80 ? TextFolding.isASCIIWhitespace(UInt8(value)) : TextFolding.isUnicodeWhitespace(value)
                    cls = white ? .separator : .lowercase
                }
                var raw = form.rawValue
                for _ in 0..<form.count {
                    f[nFolded] = UInt8(truncatingIfNeeded: raw)
                    o[nFolded] = offset
                    raw >>= 8
                    nFolded += 1
                }
            }
            if Int32(nFolded) > position || cls == .mark {
                tracker.advance(cls, at: position, into: starts.base, count: &nStarts)
            }
            p += length
        }
        o[nFolded] = Int32(count)
        folded.count = nFolded
        origin.count = nFolded + 1
        starts.count = nStarts
    }

    // MARK: - Assignment

    /// Assigns query words to word starts, longest first (see the essay above).
    @inline(__always)
    private func assign(text: UnsafePointer<UInt8>, count: Int, isFolded: Bool, recordRanges: Bool) -> Bool {
        let startCount = starts.count
        if startCount < words.count { return false }
        let starts = self.starts.base
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
        for word in words {
            let taken = takeStart(for: word, text: text, count: count, starts: starts, startCount: startCount, used: &used)
            if taken < 0 { return false }
            if recordRanges {
                let s = Int(starts[taken])
                let e = s + word.count
                if e == count || isWordEnd(e, text: text, starts: starts, startCount: startCount, after: taken) {
                    score.wholeWords += 1
                }
                if taken == 0 { score.atLineStart = true }
                ranges.append(originalRange(s..<e, isFolded: isFolded))
            }
        }
        if recordRanges {
            ranges.sort { $0.lowerBound < $1.lowerBound }
            lastScore = score
        }
        return true
    }

    /// Finds and uses up a start for query word `q`; returns its index or -1.
    @inline(__always)
    private func takeStart(
        for q: UnsafeBufferPointer<UInt8>, text: UnsafePointer<UInt8>, count: Int,
        starts: UnsafeMutablePointer<Int32>, startCount: Int, used: inout UsedStarts
    ) -> Int {
        let length = q.count
        let first = q[0]
        let lower = lowercase
        var runOn = -1
        var k = 0
        while k < startCount {
            defer { k += 1 }
            if used[k] { continue }
            let s = Int(starts[k])
            if s + length > count { break }
            if lower[Int(text[s])] != first { continue }
            var i = 1
            while i < length && lower[Int(text[s + i])] == q[i] { i += 1 }
            if i < length { continue }
            // The query word fits; does it stay inside this word?
            var next = k + 1
            if next == startCount || Int(starts[next]) >= s + length {
                used[k] = true
                return k
            }
            if runOn < 0 {
                // It runs on: usable only if every start it runs over is still free.
                var free = true
                while next < startCount && Int(starts[next]) < s + length {
                    if used[next] { free = false; break }
                    next += 1
                }
                if free { runOn = k }
            }
        }
        if runOn >= 0 {
            let s = Int(starts[runOn])
            var j = runOn
            while j < startCount && Int(starts[j]) < s + length {
                used[j] = true
                j += 1
            }
        }
        return runOn
    }

    /// Whether folded position `e` ends a word: a new word starts there, or a separator does.
    private func isWordEnd(_ e: Int, text: UnsafePointer<UInt8>, starts: UnsafeMutablePointer<Int32>, startCount: Int, after k: Int) -> Bool
    {
        var j = k + 1
        while j < startCount && Int(starts[j]) < e { j += 1 }
        if j < startCount && Int(starts[j]) == e { return true }
        let b = text[e]
        if spaceMode { return TextFolding.isASCIIWhitespace(b) }
        return b < 0x80 && ASCIIClasses.of(b) == .separator
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

    // MARK: - ASCII lines without word lists

    /// The same answer as the assignment over word starts, for an ASCII line, without
    /// listing the line's words: each query word (longest first) looks for the positions
    /// where it starts a word (`startsWord`), and takes the first that no earlier query
    /// word has taken or run over, preferring one that stays inside its word. Most lines
    /// have few such positions, so this is a few comparisons instead of a pass over every
    /// byte; the unit tests check it against the word-start path.
    private func matchesASCIIDirectly(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
        let end = base + count
        let lower = lowercase
        var takenCount = 0
        for word in words {
            let length = word.count
            if length > count { return false }
            let first = word[0]
            var chosen = -1
            var runOn = -1
            var i = 0
            let last = count - length
            while i <= last {
                defer { i += 1 }
                if lower[Int(base[i])] != first { continue }
                if startsWord(word, at: base + i, blockStart: base, blockEnd: end, terminator: 0x0A) != .yes { continue }
                if isTaken(i, length: length, takenCount: takenCount) { continue }
                if hasWordStart(inside: i, length: length, base: base, end: end) {
                    if runOn < 0 { runOn = i }
                    continue
                }
                chosen = i
                break
            }
            if chosen < 0 { chosen = runOn }
            if chosen < 0 { return false }
            taken[takenCount] = (chosen, chosen + length)
            takenCount += 1
        }
        return true
    }

    /// Whether a query word at `[position, position + length)` would use a word already
    /// used: its start lies in a taken span, or a taken word starts inside it.
    @inline(__always)
    private func isTaken(_ position: Int, length: Int, takenCount: Int) -> Bool {
        for t in 0..<takenCount {
            let (s, e) = taken[t]
            if position >= s && position < e { return true }
            if s > position && s < position + length { return true }
        }
        return false
    }

    /// Whether a word starts strictly inside `[position, position + length)` of an ASCII line.
    @inline(__always)
    private func hasWordStart(inside position: Int, length: Int, base: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> Bool {
        var k = position + 1
        while k < position + length {
            if isWordStart(base + k, blockStart: base, blockEnd: end, terminator: 0x0A) == .yes { return true }
            k += 1
        }
        return false
    }

    // MARK: - Direct checks for the search loop

    /// Whether the ASCII query word `word` starts a word at `position` of a block of
    /// lines, judged from the bytes around it alone: `.yes`, `.no`, or `.unknown` when a
    /// neighbouring byte is not ASCII (then the whole line must be matched).
    ///
    /// `blockStart` is the start of the block (a line start); `terminator` ends lines.
    @inline(__always)
    public func startsWord(
        _ word: UnsafeBufferPointer<UInt8>, at position: UnsafePointer<UInt8>,
        blockStart: UnsafePointer<UInt8>, blockEnd: UnsafePointer<UInt8>, terminator: UInt8
    ) -> DirectVerdict {
        let length = word.count
        if position < blockStart || blockEnd - position < length { return .no }
        let lower = lowercase
        for i in 0..<length where lower[Int(position[i])] != word[i] {
            // A non-ASCII character may still fold to the query's letters (ü → u).
            return position[i] >= 0x80 ? .unknown : .no
        }
        return isWordStart(position, blockStart: blockStart, blockEnd: blockEnd, terminator: terminator)
    }

    /// Whether a word starts at `position` (an ASCII byte), judged from its neighbours.
    @inline(__always)
    func isWordStart(
        _ position: UnsafePointer<UInt8>, blockStart: UnsafePointer<UInt8>, blockEnd: UnsafePointer<UInt8>,
        terminator: UInt8
    ) -> DirectVerdict {
        let current = position[0]
        if spaceMode {
            if TextFolding.isASCIIWhitespace(current) { return .no }
        } else if ASCIIClasses.of(current) == .separator {
            return .no
        }
        if position == blockStart { return .yes }
        let before = position[-1]
        if before == terminator { return .yes }
        if before >= 0x80 { return .unknown }
        if spaceMode { return TextFolding.isASCIIWhitespace(before) ? .yes : .no }
        let previousClass = ASCIIClasses.of(before)
        if previousClass == .separator { return .yes }
        guard camelCase else { return .no }
        let currentClass = ASCIIClasses.of(current)
        if currentClass == .uppercase {
            if previousClass != .uppercase { return .yes }
            // HTTPServer: an uppercase letter after one starts a word if a lowercase follows.
            let afterPosition = position + 1
            if afterPosition >= blockEnd { return .no }
            let after = afterPosition[0]
            if after >= 0x80 { return .unknown }
            return ASCIIClasses.of(after) == .lowercase ? .yes : .no
        }
        return .no
    }

    /// The query words, longest first, as raw buffers.
    public var wordBuffers: [UnsafeBufferPointer<UInt8>] { words }
}

/// The answer of `LineMatcher.startsWord`.
public enum DirectVerdict {
    case yes, no, unknown
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

/// Which word starts are used: a bit mask, or a byte array for lines of more than 64 words.
struct UsedStarts {
    var mask: UInt64
    let bytes: UnsafeMutablePointer<Bool>?

    @inline(__always)
    subscript(index: Int) -> Bool {
        get {
            if let bytes { return bytes[index] }
            return mask & (1 << UInt64(index)) != 0
        }
        set {
            if let bytes {
                bytes[index] = newValue
            } else if newValue {
                mask |= 1 << UInt64(index)
            } else {
                mask &= ~(1 << UInt64(index))
            }
        }
    }
}

/// A growable raw buffer for scratch data that lives as long as its owner.
struct ScratchBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    /// Makes room for `needed` elements (contents are not kept).
    @inline(__always)
    mutating func ensureCapacity(_ needed: Int) {
        if needed <= capacity { return }
        base.deallocate()
        capacity = max(needed, capacity * 2)
        base = .allocate(capacity: capacity)
    }

    func deallocate() { base.deallocate() }
}

/// Classes of ASCII bytes, one table lookup each.
enum ASCIIClasses {
    nonisolated(unsafe) static let table: UnsafeMutablePointer<ScalarClass> = {
        let t = UnsafeMutablePointer<ScalarClass>.allocate(capacity: 256)
        for b in 0..<256 {
            t[b] = b < 0x80 ? UnicodeFolding.asciiClass(UInt8(b)) : .separator
        }
        return t
    }()

    @inline(__always)
    static func of(_ byte: UInt8) -> ScalarClass { table[Int(byte)] }
}

/// Decides where words start as scalars go by (see `WordMode`).
struct WordStartTracker {
    let camelCase: Bool
    var previous: ScalarClass = .separator
    var beforePrevious: ScalarClass = .separator
    var previousPosition: Int32 = 0

    @inline(__always)
    init(camelCase: Bool) { self.camelCase = camelCase }

    /// Feeds the next scalar's class and folded position; appends any new word start.
    @inline(__always)
    @discardableResult
    mutating func advance(_ cls: ScalarClass, at position: Int32, into starts: UnsafeMutablePointer<Int32>, count: inout Int) -> Bool {
        switch cls {
        case .mark:
            return false
        case .separator:
            break
        default:
            if previous == .separator {
                starts[count] = position
                count += 1
            } else if camelCase {
                if cls == .uppercase && previous != .uppercase {
                    starts[count] = position  // fooBar, utf8String
                    count += 1
                } else if cls == .lowercase && previous == .uppercase && beforePrevious == .uppercase {
                    starts[count] = previousPosition  // HTTPServer: the S starts Server
                    count += 1
                }
            }
        }
        beforePrevious = previous
        previous = cls
        previousPosition = position
        return true
    }
}
