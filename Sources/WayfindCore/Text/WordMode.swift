/// Where a line splits into words.
public enum WordMode: String, Sendable, CaseIterable {
    /// At whitespace, at every character that is neither letter nor digit, and at camelCase
    /// humps: `systemGroupedBackground` is system, Grouped, Background; `HTTPServer` is
    /// HTTP, Server; `utf8String` is utf8, String.
    case all
    /// At whitespace and at every character that is neither letter nor digit.
    case punct
    /// At whitespace only (the seed article's strict rule).
    case space
}
