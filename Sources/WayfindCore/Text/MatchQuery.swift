/// A query compiled for matching: folded words, longest first.
public struct MatchQuery: Sendable {
    /// The folded query words, longest first; words of equal length in byte order, so
    /// repeated words sit side by side.
    package let words: [[UInt8]]
    /// Where lines split into words.
    public let mode: WordMode
    /// How much of a word a query word must match (`-w`, `-x`).
    package let fit: WordFit
    /// Whether case counts (`--no-ignore-case`): the words are folded with their case
    /// kept (`UnicodeFolding.caseKeptForm(of:)`), and so are the lines they are matched in.
    package let caseSensitive: Bool
    /// Whether `text` had characters other than whitespace, yet no words (`.`, `***`):
    /// smartgrep refuses such a query rather than match every line.
    package let hasNoWords: Bool

    /// Compiles `text` (see `init(_:mode:fit:)`), each query word matching word prefixes.
    public init(_ text: String, mode: WordMode = .all) {
        self.init(text, mode: mode, fit: .prefix)
    }

    /// Compiles `text`: split at whitespace (leading, trailing and repeated whitespace is
    /// ignored), trim each word, fold it. Trimming drops the characters that cannot be part
    /// of a word in `mode` from both ends (`paris,` is `paris`, `.bin` is `bin`) and, in
    /// every mode, combining marks from the front (no word of a line starts with one); in
    /// `space` mode only whitespace separates words, so nothing else is trimmed. A word left
    /// empty is dropped, so a query of only such words matches every line. With
    /// `caseSensitive`, words keep their case (see `caseSensitive`).
    package init(_ text: String, mode: WordMode, fit: WordFit, caseSensitive: Bool = false) {
        self.mode = mode
        self.fit = fit
        self.caseSensitive = caseSensitive
        var words: [[UInt8]] = []
        var sawNonWhitespace = false
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            let end = base + bytes.count
            var p = base
            // The scalars of the current word: class, start, length.
            var scalars: [(cls: ScalarClass, start: UnsafePointer<UInt8>, length: Int)] = []
            while p <= end {
                var value: UInt32 = 0x20
                var length = 1
                if p < end { (value, length) = UTF8Decoding.decode(p, end: end) }
                let white = value < 0x80 ? TextFolding.isASCIIWhitespace(UInt8(value)) : TextFolding.isUnicodeWhitespace(value)
                if !white {
                    sawNonWhitespace = true
                    scalars.append((UnicodeFolding.scalarClass(value), p, length))
                } else if !scalars.isEmpty {
                    var first = 0
                    var last = scalars.count - 1
                    // A word never starts with a mark, in a line or a query (U+0345 folds to
                    // a letter, so a leading one would make a word no line has).
                    while first <= last && (scalars[first].cls == .mark || (mode != .space && scalars[first].cls == .separator)) {
                        first += 1
                    }
                    if mode != .space {
                        while last >= first && scalars[last].cls == .separator { last -= 1 }
                    }
                    if first <= last {
                        let start = scalars[first].start
                        let stop = scalars[last].start + scalars[last].length
                        let word = TextFolding.fold(UnsafeBufferPointer(start: start, count: stop - start), keepingCase: caseSensitive)
                        if !word.isEmpty { words.append(word) }
                    }
                    scalars.removeAll(keepingCapacity: true)
                }
                p += length
            }
        }
        // Longest first, then byte order. Short queries (nearly all) use an insertion sort:
        // the generic sort's first use costs more than a whole run on empty input.
        if words.count > 16 {
            words.sort(by: Self.sortsBefore)
        } else {
            for i in 1..<max(words.count, 1) {
                var j = i
                let word = words[i]
                while j > 0 && Self.sortsBefore(word, words[j - 1]) {
                    words[j] = words[j - 1]
                    j -= 1
                }
                words[j] = word
            }
        }
        self.words = words
        hasNoWords = words.isEmpty && sawNonWhitespace
    }

    /// The order of query words: longer first, then by bytes.
    static func sortsBefore(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        if a.count != b.count { return a.count > b.count }
        return a.lexicographicallyPrecedes(b)
    }

    /// Whether the query matches every line.
    public var matchesEverything: Bool { words.isEmpty }
}

/// How much of a line's word a query word must match.
package enum WordFit: Sendable {
    /// A word's start (smartgrep's rule): `bin` matches `binoculars`.
    case prefix
    /// A whole word (`-w`): `bin` matches `xmark.bin`, not `binoculars`.
    case word
    /// Whole words that together cover the line (`-x`): every word of the line matched.
    case line
}
