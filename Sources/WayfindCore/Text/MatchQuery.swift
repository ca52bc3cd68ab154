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
        // A stable sort: longest first, ties in typed order.
        self.words = words.enumerated()
            .sorted { ($0.element.count, -$0.offset) > ($1.element.count, -$1.offset) }
            .map(\.element)
    }

    /// Whether the query matches every line.
    public var matchesEverything: Bool { words.isEmpty }
}
