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

    /// The word-start rule, the one place it is stated: whether a word starts at a
    /// character of class `current`, given the classes of the characters before and after
    /// it (combining marks skipped; `.separator` beyond either end of the line).
    ///
    /// A word starts at a letter or digit that follows a separator. With camelCase humps
    /// (mode `all`), also at an uppercase letter that follows a lowercase or uncased letter
    /// or a digit (`fooBar`, `utf8String`), and at an uppercase letter that follows
    /// another one and precedes a lowercase letter (the `S` of `HTTPServer`).
    @inline(__always)
    package static func startsWord(
        previous: ScalarClass, current: ScalarClass, next: ScalarClass, camelCase: Bool
    ) -> Bool {
        if current == .separator || current == .mark { return false }
        if previous == .separator { return true }
        guard camelCase && current == .uppercase else { return false }
        return previous != .uppercase || next == .lowercase
    }

    /// The class a character has for word splitting in this mode: its own class, except
    /// in `space` mode, where whitespace separates and everything else but marks is a
    /// word character.
    @inline(__always)
    func splittingClass(_ cls: ScalarClass, isWhitespace: Bool) -> ScalarClass {
        guard self == .space, cls != .mark else { return cls }
        return isWhitespace ? .separator : .lowercase
    }
}
