/// Folding of whole texts, built on `UnicodeFolding`'s per-scalar tables.
package enum TextFolding {
    /// Whether an ASCII byte is whitespace (space, tab, newline, vertical tab, form feed,
    /// carriage return).
    @inline(__always)
    package static func isASCIIWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || (b >= 0x09 && b <= 0x0D)
    }

    /// Whether a non-ASCII scalar is whitespace (the Unicode White_Space property).
    @inline(__always)
    package static func isUnicodeWhitespace(_ v: UInt32) -> Bool {
        switch v {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// The folded UTF-8 of `text`: lowercase, accents removed, ł→l, ß→ss, … Invalid bytes
    /// become 0xFF, which never occurs in valid UTF-8 and so never matches.
    package static func fold(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { fold($0) }
    }

    /// The folded UTF-8 of raw bytes (see `fold(_:)`); with `keepingCase`, each character's
    /// `UnicodeFolding.caseKeptForm(of:)` instead (for `--no-ignore-case`).
    package static func fold(_ bytes: UnsafeBufferPointer<UInt8>, keepingCase: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        guard var p = bytes.baseAddress else { return output }
        let end = p + bytes.count
        while p < end {
            let (value, length) = UTF8Decoding.decode(p, end: end)
            if value == UTF8Decoding.invalid {
                output.append(0xFF)
            } else if keepingCase {
                UnicodeFolding.caseKeptForm(of: value).append(to: &output)
            } else {
                UnicodeFolding.appendFolded(value, to: &output)
            }
            p += length
        }
        return output
    }
}
