/// A query compiled for matching: folded words, longest first.
public struct MatchQuery: Sendable {
    /// The folded query words, longest first; equal lengths keep the order typed.
    public let words: [[UInt8]]
    /// Where lines split into words.
    public let mode: WordMode

    /// Compiles `text`: split at whitespace (leading, trailing and repeated whitespace is
    /// ignored), fold each word, and drop characters that can never start a word in `mode`
    /// from the front of each word (no word of a line starts with `.` or `-`). A word that
    /// folds to nothing is dropped, so a query of only such words matches every line.
    public init(_ text: String, mode: WordMode = .all) {
        self.mode = mode
        var words: [[UInt8]] = []
        for part in text.split(whereSeparator: { $0.isWhitespace }) {
            var word = TextFolding.fold(String(part))
            let keep = word.firstIndex { b in
                if mode == .space { return true }
                return b >= 0x80 || UnicodeFolding.asciiClass(b) != .separator
            }
            word.removeSubrange(0..<(keep ?? word.count))
            if !word.isEmpty { words.append(word) }
        }
        // Longest first, ties in typed order (an insertion sort: queries have few words,
        // and the generic sort's set-up cost more than a whole run on empty input).
        for i in 1..<max(words.count, 1) {
            var j = i
            let word = words[i]
            while j > 0 && words[j - 1].count < word.count {
                words[j] = words[j - 1]
                j -= 1
            }
            words[j] = word
        }
        self.words = words
    }

    /// Whether the query matches every line.
    public var matchesEverything: Bool { words.isEmpty }
}
