/// How a value the user gave (a key, a flag's value, a path, a field of a row) is shown in
/// an error message: whole when short, otherwise cut, with its length.
///
/// A message is one line that a person reads. A 4 MB pasted key or a 50 MB gazetteer
/// field echoed whole would bury it (and fill a log), and a newline inside a value would
/// break it in two, so every message shows values through here:
///
///     not a magicKey: 'AQDlsHHPSlNGPtDxAcEBm5LeWQ'
///     not a magicKey: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA…' (4000000 bytes)
///     not a magicKey: 'two\nlines'
package enum MessageValue {
    /// The most characters (Unicode scalars) shown of a value: a whole magicKey (26 to
    /// 40), a coordinate or a typical path fits, and the start of a longer value is
    /// enough to recognise it.
    package static let shownCharacters = 80

    /// `value` in single quotes, cut after `shownCharacters` with its length in bytes:
    /// `'AAAA…' (4000000 bytes)`.
    package static func quoted(_ value: String) -> String {
        let (shown, wasCut) = cut(value)
        return wasCut ? "'\(shown)…' (\(value.utf8.count) bytes)" : "'\(shown)'"
    }

    /// `value` without quotes (for paths, which messages show bare), cut the same way:
    /// `/tmp/aaaa… (5000 bytes)`.
    package static func plain(_ value: String) -> String {
        let (shown, wasCut) = cut(value)
        return wasCut ? "\(shown)… (\(value.utf8.count) bytes)" : shown
    }

    /// The start of `value`, at most `shownCharacters` scalars long once its control
    /// characters are escaped (`\n`, `\t`, `\r`, `\u{1B}`), and whether anything was left
    /// out. Scalars, not characters: one character can be megabytes of combining marks.
    private static func cut(_ value: String) -> (shown: String, wasCut: Bool) {
        var shown = ""
        var count = 0
        for scalar in value.unicodeScalars {
            let piece: String
            switch scalar {
            case "\n": piece = "\\n"
            case "\t": piece = "\\t"
            case "\r": piece = "\\r"
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}": piece = "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: piece = String(scalar)
            }
            let length = piece.unicodeScalars.count
            if count + length > shownCharacters { return (shown, true) }
            shown += piece
            count += length
        }
        return (shown, false)
    }
}
