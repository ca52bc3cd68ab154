/// A streaming, validating JSON pull reader over UTF-8 bytes: the caller says what it
/// expects next (`beginObject`, `nextKey`, `beginArray`, `nextElement`, `readInt64`, …)
/// and the reader checks that the bytes agree, in one pass, without building a tree as
/// `JSONDecoder` does. What the caller does not want is `skipValue()`d, which validates
/// it fully, so unknown keys are ignored without loosening the grammar.
///
/// It is a complete RFC 8259 validator: trailing commas, leading zeros, raw control
/// characters, invalid UTF-8 (overlong forms, surrogates, values above U+10FFFF), a byte
/// order mark, trailing garbage and nesting deeper than `maximumDepth` are refused; and,
/// beyond the RFC, unpaired surrogates in `\u` escapes, which a `String` cannot hold.
/// Commas are tracked with one flag, `atContainerStart`, not a stack: a nested container
/// is always read to its end before its parent goes on.
package struct JSONReader {
    /// The deepest nesting of arrays and objects accepted, to bound recursion in
    /// `skipValue()`; Foundation's `JSONSerialization` uses the same limit.
    package static let maximumDepth = 512

    /// The kind of the next value, as told by its first byte (`{`, `[`, `"`, `-` or a
    /// digit, `t` or `f`, `n`); the raw value names it for messages: `expected a string,
    /// found an array`.
    package enum ValueKind: String, Sendable, Equatable {
        case object = "an object", array = "an array", string = "a string", number = "a number", bool = "a boolean"
        case null = "null"
    }

    /// The document being read; it must outlive the reader.
    package let bytes: UnsafeRawBufferPointer
    /// The byte offset of the next unread byte.
    package internal(set) var offset = 0
    /// How many arrays and objects are open.
    private var depth = 0
    /// True right after `[` or `{`: the next thing is a first element or the end, not a comma.
    private var atContainerStart = false

    /// Creates a reader at the start of `bytes`.
    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// An error at `offset` (by default the current position) with its line and column.
    package func error(_ message: String, at offset: Int? = nil) -> JSONError {
        JSONError(message: message, offset: offset ?? self.offset, in: bytes)
    }

    // MARK: Structure

    /// Skips whitespace and tells what kind of value comes next.
    package mutating func peekKind() throws(JSONError) -> ValueKind {
        skipWhitespace()
        guard offset < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case 0xEF where offset == 0 && bytes.count >= 3 && bytes[1] == 0xBB && bytes[2] == 0xBF:
            throw error("a byte order mark is not allowed")
        case let byte: throw error("unexpected \(Self.describe(byte)), expected a value")
        }
    }

    /// Reads `{`; then call `nextKey()` until it returns nil.
    package mutating func beginObject() throws(JSONError) {
        try expectKind(.object)
        try enterContainer()
    }

    /// Reads the comma or closing brace after the previous member, and the next key and
    /// its colon; nil when the object has ended (the `}` is consumed).
    package mutating func nextKey() throws(JSONError) -> String? {
        try nextKeyBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Like `nextKey()`, but hands the key's bytes to `body` instead of making a `String`:
    /// a slice of the input when the key has no escapes, else its decoded bytes.
    @inline(__always)
    package mutating func nextKeyBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) throws(JSONError) -> T? {
        guard try advanceToMember() else { return nil }
        let result = try stringBytesAfterQuote(body)
        try expectColon()
        return result
    }

    /// Reads `[`; then call `nextElement()` before each element until it returns false.
    package mutating func beginArray() throws(JSONError) {
        try expectKind(.array)
        try enterContainer()
    }

    /// Reads the comma before the next element; false when the array has ended (the `]`
    /// is consumed).
    @inline(__always)
    package mutating func nextElement() throws(JSONError) -> Bool {
        skipWhitespace()
        guard offset < bytes.count else { throw error("unexpected end of input in an array") }
        let byte = bytes[offset]
        if byte == UInt8(ascii: "]") { return leaveContainer() }
        if atContainerStart {
            atContainerStart = false
            return true
        }
        guard byte == UInt8(ascii: ",") else {
            throw error("unexpected \(Self.describe(byte)), expected ',' or ']' after an array element")
        }
        offset += 1
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            throw error("trailing comma before ']'")
        }
        return true
    }

    /// Checks that only whitespace is left after the document.
    package mutating func finish() throws(JSONError) {
        skipWhitespace()
        if offset < bytes.count {
            throw error("unexpected \(Self.describe(bytes[offset])) after the end of the document")
        }
    }

    // MARK: Values

    /// Reads a string value.
    package mutating func readString() throws(JSONError) -> String {
        try readStringBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads a string value and hands its bytes to `body` (valid only during the call):
    /// a slice of the input when the string has no escapes, the common case, so reading
    /// a name that is already known allocates nothing.
    @inline(__always)
    package mutating func readStringBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) throws(JSONError) -> T {
        try expectKind(.string)
        return try stringBytesAfterQuote(body)
    }

    /// Reads a number that is an integer in range of `Int64` (no fraction, no exponent).
    package mutating func readInt64() throws(JSONError) -> Int64 {
        try expectKind(.number)
        let start = offset
        guard try !scanNumber() else {
            throw error("expected an integer, found a number with a fraction or exponent", at: start)
        }
        guard let value = Int64(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)) else {
            throw error("integer out of range", at: start)
        }
        return value
    }

    /// Reads `null` if it comes next and says whether it did; anything else is left unread.
    package mutating func readNullIfPresent() throws(JSONError) -> Bool {
        guard try peekKind() == .null else { return false }
        try expectLiteral("null")
        return true
    }

    /// Reads and validates the next value, whatever it is, and drops it.
    package mutating func skipValue() throws(JSONError) {
        switch try peekKind() {
        case .object:
            try enterContainer()
            while try advanceToMember() {
                try skipStringAfterQuote()
                try expectColon()
                try skipValue()
            }
        case .array:
            try enterContainer()
            while try nextElement() { try skipValue() }
        case .string:
            offset += 1
            try skipStringAfterQuote()
        case .number:
            try scanNumber()
        case .bool:
            try expectLiteral(bytes[offset] == UInt8(ascii: "t") ? "true" : "false")
        case .null:
            try expectLiteral("null")
        }
    }

    // MARK: Containers

    private mutating func enterContainer() throws(JSONError) {
        guard depth < Self.maximumDepth else {
            throw error("nesting deeper than \(Self.maximumDepth) levels")
        }
        depth += 1
        offset += 1
        atContainerStart = true
    }

    private mutating func leaveContainer() -> Bool {
        offset += 1
        depth -= 1
        atContainerStart = false
        return false
    }

    /// Moves to the opening quote of the next key (consumed), or past the closing brace.
    private mutating func advanceToMember() throws(JSONError) -> Bool {
        skipWhitespace()
        guard offset < bytes.count else { throw error("unexpected end of input in an object") }
        var byte = bytes[offset]
        if byte == UInt8(ascii: "}") { return leaveContainer() }
        if atContainerStart {
            atContainerStart = false
        } else {
            guard byte == UInt8(ascii: ",") else {
                throw error("unexpected \(Self.describe(byte)), expected ',' or '}' after an object member")
            }
            offset += 1
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of input in an object") }
            byte = bytes[offset]
            if byte == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
        }
        guard byte == UInt8(ascii: "\"") else {
            throw error("unexpected \(Self.describe(byte)), expected a string key")
        }
        offset += 1
        return true
    }

    private mutating func expectColon() throws(JSONError) {
        skipWhitespace()
        guard offset < bytes.count else { throw error("unexpected end of input, expected ':'") }
        guard bytes[offset] == UInt8(ascii: ":") else {
            throw error("unexpected \(Self.describe(bytes[offset])), expected ':' after an object key")
        }
        offset += 1
    }

    /// Skips whitespace and checks the kind; for strings the opening quote is consumed.
    private mutating func expectKind(_ kind: ValueKind) throws(JSONError) {
        let found = try peekKind()
        guard found == kind else {
            throw error("expected \(kind.rawValue), found \(found.rawValue)")
        }
        if kind == .string { offset += 1 }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        guard !skipLiteral(literal) else { return }
        let text = UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        if text.starts(with: bytes[offset...]) { throw error("unexpected end of input in '\(literal)'", at: bytes.count) }
        throw error("invalid literal, expected '\(literal)'")
    }

    /// Skips whitespace (space, tab, newline, carriage return).
    @inline(__always)
    package mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    // MARK: Numbers

    /// Consumes a number, checking the RFC 8259 grammar:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; whether it has a fraction
    /// or an exponent.
    @discardableResult
    private mutating func scanNumber() throws(JSONError) -> Bool {
        var hasFractionOrExponent = false
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        guard offset < bytes.count, Self.isDigit(bytes[offset]) else {
            throw error("expected a digit after '-'")
        }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
            if offset < bytes.count, Self.isDigit(bytes[offset]) {
                throw error("leading zeros are not allowed in numbers")
            }
        } else {
            skipDigits()
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            hasFractionOrExponent = true
            offset += 1
            guard offset < bytes.count, Self.isDigit(bytes[offset]) else {
                throw error("expected a digit after '.'")
            }
            skipDigits()
        }
        if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
            hasFractionOrExponent = true
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                offset += 1
            }
            guard offset < bytes.count, Self.isDigit(bytes[offset]) else {
                throw error("expected a digit in the exponent")
            }
            skipDigits()
        }
        return hasFractionOrExponent
    }

    @inline(__always)
    private mutating func skipDigits() {
        while offset < bytes.count, Self.isDigit(bytes[offset]) { offset += 1 }
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    // MARK: Strings

    /// Hands the bytes of the string whose opening quote was consumed to `body`: a slice
    /// of the input when it has no escapes, the common case, else its decoded bytes.
    @inline(__always)
    private mutating func stringBytesAfterQuote<T>(_ body: (UnsafeRawBufferPointer) -> T) throws(JSONError) -> T {
        let start = offset
        if try scanPlainString() {
            return body(UnsafeRawBufferPointer(rebasing: bytes[start..<offset - 1]))
        }
        offset = start
        var decoded: [UInt8] = []
        try decodeString(into: &decoded)
        return decoded.withUnsafeBytes { body($0) }
    }

    private mutating func skipStringAfterQuote() throws(JSONError) {
        try stringBytesAfterQuote { _ in }
    }

    /// Validates up to the closing quote (consumed) and returns true, or stops at the
    /// first backslash and returns false. Internal, not private, so that a test can
    /// compare it with a plain byte-at-a-time reference.
    ///
    /// Place names are mostly ASCII with a two- or three-byte sequence every few bytes
    /// (`Thủ Đức`, `Bağcılar`), so the loop reads eight bytes at a time and steps over
    /// well-formed sequences inside the word it has, without a call and without
    /// reading the word again. Anything else goes to `scanStringByte()`, one byte or
    /// sequence at a time, which is where every error comes from.
    @inline(__always)
    mutating func scanPlainString() throws(JSONError) -> Bool {
        // An empty buffer has no base address, and nothing is loaded from it (its count is
        // 0), so any pointer does; `scanStringByte()` then reports the end of input. (A
        // throw here would cost every call a larger stack frame.)
        let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        let count = bytes.count
        var index = offset
        while true {
            words: while index &+ 8 <= count {
                let start = index
                // The bytes that need a look: quote, backslash, control character or
                // ≥ 0x80 (the has-zero-byte test on each condition). Borrows only ever
                // flag bytes above a true quote, backslash or control character, so the
                // lowest flagged byte always needs a look, and so does the next one
                // after a sequence has been stepped over (a byte ≥ 0x80 borrows nothing).
                let word = UInt64(littleEndian: (base + start).loadUnaligned(as: UInt64.self))
                let ones: UInt64 = 0x0101_0101_0101_0101
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                var special =
                    (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | (word &- ones &* 0x20) | word)
                    & 0x8080_8080_8080_8080
                while special != 0 {
                    index = start &+ special.trailingZeroBitCount &>> 3
                    guard index &+ 4 <= count else { break words }
                    // The closing quote, or a well-formed sequence, told from the next
                    // four bytes at once (read little-endian: the first byte is lowest).
                    let head = UInt32(littleEndian: (base + index).loadUnaligned(as: UInt32.self))
                    if head & 0xFF == 0x22 {
                        offset = index &+ 1
                        return true
                    }
                    if head & 0xC0E0 == 0x80C0, head & 0x1E != 0 {
                        // 110xxxxx 10xxxxxx, not the overlong C0 or C1.
                        index &+= 2
                    } else if head & 0xC0_C0F0 == 0x80_80E0, head & 0x200F != 0, head & 0x200F != 0x200D {
                        // 1110xxxx 10xxxxxx 10xxxxxx. The lead's low four bits and the
                        // second byte's 0x20 are both zero for an overlong E0 80-9F, and
                        // 0xD and set for a surrogate ED A0-BF.
                        index &+= 3
                    } else {
                        break words
                    }
                    let consumed = index &- start
                    guard consumed < 8 else { continue words }
                    special &= ~0 &<< (consumed &* 8)
                }
                index = start &+ 8
            }
            offset = index
            if let result = try scanStringByte() { return result }
            index = offset
        }
    }

    /// One step of `scanPlainString()` the slow way, for anything its loop does not
    /// handle (and the last few bytes of the input): true after a closing quote, false
    /// at a backslash, nil after a byte or sequence that may be part of a plain string.
    /// Every error of a plain string comes from here. Kept out of line so the loop
    /// keeps its registers.
    @inline(never)
    private mutating func scanStringByte() throws(JSONError) -> Bool? {
        guard offset < bytes.count else { throw error("unexpected end of input in a string") }
        let byte = bytes[offset]
        if byte == UInt8(ascii: "\"") {
            offset += 1
            return true
        }
        if byte == UInt8(ascii: "\\") { return false }
        if byte < 0x20 {
            throw error("control character \(Self.hex(byte)) in a string must be escaped")
        }
        offset += byte < 0x80 ? 1 : try utf8SequenceLength()
        return nil
    }

    /// Decodes the string at `offset` (after the opening quote) up to its closing quote.
    private mutating func decodeString(into output: inout [UInt8]) throws(JSONError) {
        while true {
            let start = offset
            switch try scanStringByte() {
            case true?: return
            case false?: try decodeEscape(into: &output)
            case nil: output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]))
            }
        }
    }

    private mutating func decodeEscape(into output: inout [UInt8]) throws(JSONError) {
        let start = offset
        offset += 1
        guard offset < bytes.count else { throw error("unexpected end of input in a string") }
        let letter = bytes[offset]
        offset += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(letter)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4(escapeAt: start)
            if scalar & 0xFC00 == 0xD800 {
                // A high surrogate must be followed by an escaped low surrogate.
                let lowStart = offset
                guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                    bytes[offset + 1] == UInt8(ascii: "u")
                else { throw error("unpaired surrogate \\u\(Self.hex4(scalar)) in a string", at: start) }
                offset += 2
                let low = try readHex4(escapeAt: lowStart)
                guard low & 0xFC00 == 0xDC00 else {
                    throw error("unpaired surrogate \\u\(Self.hex4(scalar)) in a string", at: start)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar & 0xFC00 == 0xDC00 {
                throw error("unpaired surrogate \\u\(Self.hex4(scalar)) in a string", at: start)
            }
            // Valid: surrogates were paired above, and four hex digits stay below U+10FFFF.
            UTF8.encode(Unicode.Scalar(scalar)!) { output.append($0) }
        default:
            throw error("invalid escape '\\\(Self.printable(letter))' in a string", at: start)
        }
    }

    private mutating func readHex4(escapeAt start: Int) throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard offset < bytes.count else { throw error("unexpected end of input in a string") }
            // Of the scalars a byte can be, only 0-9, a-f and A-F have a value.
            guard let digit = Character(Unicode.Scalar(bytes[offset])).hexDigitValue else {
                throw error("invalid \\u escape, expected four hex digits", at: start)
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at `offset`, whose first byte is
    /// not ASCII (Unicode Table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF).
    @inline(__always)
    private func utf8SequenceLength() throws(JSONError) -> Int {
        let lead = bytes[offset]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw error("invalid UTF-8 byte \(Self.hex(lead)) in a string")
        }
        guard offset + length <= bytes.count else {
            throw error("invalid UTF-8: truncated sequence in a string")
        }
        let second = bytes[offset + 1]
        guard second >= low && second <= high else {
            throw error("invalid UTF-8 byte \(Self.hex(second)) in a string", at: offset + 1)
        }
        var index = 2
        while index < length {
            let next = bytes[offset + index]
            guard next & 0xC0 == 0x80 else {
                throw error("invalid UTF-8 byte \(Self.hex(next)) in a string", at: offset + index)
            }
            index += 1
        }
        return length
    }

    // MARK: Messages

    /// `'x'` for printable ASCII, `byte 0xNN` otherwise.
    static func describe(_ byte: UInt8) -> String {
        if byte > 0x20 && byte < 0x7F { return "character '\(printable(byte))'" }
        return "byte \(hex(byte))"
    }

    private static func printable(_ byte: UInt8) -> String {
        byte > 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : hex(byte)
    }

    private static func hex(_ byte: UInt8) -> String {
        "0x" + hex4(UInt32(byte)).dropFirst(2)
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(4 - digits.count, 0)) + digits
    }
}
