/// Writes JSON into a byte buffer, deterministically.
///
/// The same calls always produce the same bytes: no hash-ordered dictionaries, no
/// locale, no floating point. Callers write object keys in sorted order themselves (the
/// route graph has a fixed, small set of keys), which keeps this type free of buffering.
///
/// Containers opened at a depth below `wrapDepth` put each member on its own line,
/// indented by two spaces per level; deeper ones are written compactly. With
/// `wrapDepth: 2` a route graph comes out with one edge per line, so a visit changes one
/// line of the file and `diff` shows exactly what was learned:
///
///     {
///       "edges": [
///         {"destination":"Airport","origin":"City Center","weight":12}
///       ],
///       "version": 1
///     }
///
/// Strings are escaped minimally: `"` and `\`, and control characters (the short forms
/// `\n`, `\t`, … where JSON has them, `\u00XX` otherwise). Everything else, including
/// non-ASCII text, is written as UTF-8, which is what RFC 8259 requires between systems.
public struct JSONWriter {
    /// The document so far.
    public private(set) var bytes: [UInt8] = []
    /// Containers opened at a depth below this are written one member per line.
    public let wrapDepth: Int
    /// How many containers are open.
    private var depth = 0
    /// Whether the innermost open container has no member yet.
    private var isFirstMember = true

    /// Creates an empty writer; `capacity` reserves room for the expected size.
    public init(wrapDepth: Int = 0, capacity: Int = 0) {
        self.wrapDepth = wrapDepth
        bytes.reserveCapacity(capacity)
    }

    /// Writes `{`.
    public mutating func beginObject() {
        beginValue()
        open(UInt8(ascii: "{"))
    }

    /// Writes `}`.
    public mutating func endObject() {
        close(UInt8(ascii: "}"))
    }

    /// Writes `[`.
    public mutating func beginArray() {
        beginValue()
        open(UInt8(ascii: "["))
    }

    /// Writes `]`.
    public mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    /// Writes a member's key and colon; the value follows with one of the value calls.
    public mutating func key(_ key: String) {
        separateMember()
        writeQuoted(key)
        bytes.append(UInt8(ascii: ":"))
        if isWrapped(depth - 1) { bytes.append(UInt8(ascii: " ")) }
        pendingKey = true
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        beginValue()
        writeQuoted(value)
    }

    /// Writes an integer value.
    public mutating func integer(_ value: Int64) {
        beginValue()
        Self.appendInteger(value, to: &bytes)
    }

    /// Appends the decimal digits of `value` to `bytes`.
    static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Work with the magnitude as UInt64 so Int64.min has no special case.
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for UInt64.max's 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            repeat {
                scratch[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude != 0
            while count > 0 {
                count -= 1
                bytes.append(scratch[count])
            }
        }
    }

    /// Writes a value that is already valid JSON (such as a string quoted earlier), as is.
    public mutating func rawValue(_ json: [UInt8]) {
        beginValue()
        bytes.append(contentsOf: json)
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        beginValue()
        bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
    }

    /// Writes `null`.
    public mutating func null() {
        beginValue()
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    /// Ends the document with a newline, as text files do.
    public mutating func finish() {
        bytes.append(UInt8(ascii: "\n"))
    }

    // MARK: Layout

    /// True between `key(_:)` and its value, so the value is not treated as an element.
    private var pendingKey = false

    private func isWrapped(_ containerDepth: Int) -> Bool {
        containerDepth < wrapDepth
    }

    /// Before any value: the comma and line break of an array element, unless the value
    /// belongs to a key that already wrote them.
    private mutating func beginValue() {
        if pendingKey {
            pendingKey = false
        } else if depth > 0 {
            separateMember()
        }
    }

    private mutating func separateMember() {
        if !isFirstMember { bytes.append(UInt8(ascii: ",")) }
        isFirstMember = false
        if isWrapped(depth - 1) { newline(indent: depth) }
    }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        depth += 1
        isFirstMember = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if isWrapped(depth) && !isFirstMember { newline(indent: depth) }
        bytes.append(bracket)
        isFirstMember = false
    }

    private mutating func newline(indent: Int) {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<indent * 2 { bytes.append(UInt8(ascii: " ")) }
    }

    // MARK: Strings

    private mutating func writeQuoted(_ text: String) {
        var text = text
        text.withUTF8 { Self.appendQuoted(UnsafeRawBufferPointer($0), to: &bytes) }
    }

    /// Appends the UTF-8 `text` to `bytes` as a JSON string: quoted, with `"`, `\` and
    /// control characters escaped (the only JSON string writer of the package).
    static func appendQuoted(_ text: UnsafeRawBufferPointer, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(text, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends what goes between a JSON string's quotes for the UTF-8 `text`.
    static func appendEscaped(_ text: UnsafeRawBufferPointer, to bytes: inout [UInt8]) {
        var runStart = 0
        for index in text.indices {
            let byte = text[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[runStart..<index]))
            appendEscape(byte, to: &bytes)
            runStart = index + 1
        }
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[runStart...]))
    }

    private static func appendEscape(_ byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [
                UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
            ])
        }
    }
}
