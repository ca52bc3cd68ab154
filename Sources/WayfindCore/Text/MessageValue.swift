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
            let piece = escaped(scalar)
            let length = piece.unicodeScalars.count
            if count + length > shownCharacters { return (shown, true) }
            shown += piece
            count += length
        }
        return (shown, false)
    }

    /// `value` with its control characters escaped, for a terminal: a name printed there
    /// as it is could set the window's title (ESC ] 0 ; … BEL), move the cursor or hide
    /// what follows. `value` itself when it has none (the usual case, checked on the bytes).
    ///
    ///     Home                 Home
    ///     a<ESC>]0;pwned<BEL>  a\u{1B}]0;pwned\u{7}
    ///     two<LF>lines         two\nlines
    package static func escapingControlCharacters(_ value: String) -> String {
        var copy = value
        let plain = copy.withUTF8 { bytes in
            // C0 and DEL are single bytes; C1 (U+0080 to U+009F) is 0xC2 0x80 to 0xC2 0x9F.
            !bytes.indices.contains {
                bytes[$0] < 0x20 || bytes[$0] == 0x7F || (bytes[$0] == 0xC2 && $0 + 1 < bytes.count && bytes[$0 + 1] < 0xA0)
            }
        }
        if plain { return value }
        var shown = ""
        for scalar in value.unicodeScalars { shown += escaped(scalar) }
        return shown
    }

    /// One scalar as messages and terminals show it: control characters escaped (`\n`,
    /// `\t`, `\r`, `\u{1B}`), anything else as it is. (A backslash is left as it is: a
    /// name with `\n` in it reads as one with a newline, but both are shown safely.)
    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": "\\n"
        case "\t": "\\t"
        case "\r": "\\r"
        case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}": "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        default: String(scalar)
        }
    }
}
