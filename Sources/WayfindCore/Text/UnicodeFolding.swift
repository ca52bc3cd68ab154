/// Case and accent folding of single Unicode scalars, for matching.
///
/// TEMPORARY STUB: ASCII is exact; non-ASCII uses the standard library's
/// properties. It is replaced by generated tables (see `UnicodeTables.generated.swift`).

/// What a scalar is to the word splitter.
public enum ScalarClass: UInt8, Sendable {
    /// Neither letter nor digit nor mark: whitespace, punctuation, symbols, invalid bytes.
    case separator = 0
    /// A lowercase letter.
    case lowercase = 1
    /// An uppercase or titlecase letter (starts a camelCase hump).
    case uppercase = 2
    /// A letter without case (CJK, Arabic, …).
    case uncasedLetter = 3
    /// A decimal digit.
    case digit = 4
    /// A combining mark: continues the word of the scalar before it and folds to nothing.
    case mark = 5
}

/// Folding of one scalar: lowercase, accents removed, and letters readers see as accented
/// but Unicode does not decompose (ł→l, ø→o, æ→ae, ß→ss, …) spelled out in ASCII.
public enum UnicodeFolding {
    /// The class of any scalar value.
    @inlinable
    public static func scalarClass(_ value: UInt32) -> ScalarClass {
        if value < 0x80 { return asciiClass(UInt8(truncatingIfNeeded: value)) }
        guard let scalar = Unicode.Scalar(value) else { return .separator }
        let p = scalar.properties
        switch p.generalCategory {
        case .uppercaseLetter, .titlecaseLetter: return .uppercase
        case .lowercaseLetter: return .lowercase
        case .otherLetter, .modifierLetter: return .uncasedLetter
        case .decimalNumber: return .digit
        case .nonspacingMark, .spacingMark, .enclosingMark: return .mark
        default: return .separator
        }
    }

    /// The class of an ASCII byte.
    @inlinable
    public static func asciiClass(_ byte: UInt8) -> ScalarClass {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return .lowercase
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return .uppercase
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return .digit
        default: return .separator
        }
    }

    /// Appends the folded UTF-8 form of `value` (any scalar value) to `output`.
    public static func appendFolded(_ value: UInt32, to output: inout [UInt8]) {
        if value < 0x80 {
            var b = UInt8(truncatingIfNeeded: value)
            if b >= 0x41 && b <= 0x5A { b |= 0x20 }
            output.append(b)
            return
        }
        guard let scalar = Unicode.Scalar(value) else { return }
        if scalarClass(value) == .mark { return }
        for u in scalar.properties.lowercaseMapping.utf8 { output.append(u) }
    }
}
