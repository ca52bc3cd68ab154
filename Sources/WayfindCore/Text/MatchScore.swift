/// Facts about a match that `--rank` orders by.
package struct MatchScore: Sendable, Equatable {
    /// Whether the query matches the line whole: every query word is a whole word and
    /// every word of the line is matched.
    package var coversLine = false
    /// How many query words matched a whole word rather than a prefix.
    package var wholeWords = 0
    /// Whether a query word matched the first word of the line.
    package var atLineStart = false
    /// How many words the line has.
    package var wordCount = 0
    /// An empty score.
    package init() {}
}
