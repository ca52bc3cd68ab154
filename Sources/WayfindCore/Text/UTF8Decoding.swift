/// A strict UTF-8 decoder over raw bytes that never fails: an invalid or truncated
/// sequence decodes as one invalid byte, so bad input is passed through unchanged and
/// simply matches nothing.
package enum UTF8Decoding {
    /// The value returned for a byte that does not start a valid sequence.
    package static let invalid: UInt32 = 0xFFFF_FFFF

    /// Decodes the scalar at `start` (which must be before `end`), returning its value
    /// (or `invalid`) and how many bytes it used (1 for an invalid byte).
    @inline(__always)
    package static func decode(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> (value: UInt32, length: Int) {
        let b0 = start[0]
        if b0 < 0x80 { return (UInt32(b0), 1) }
        let available = end - start
        @inline(__always) func cont(_ i: Int) -> UInt32? {
            guard i < available else { return nil }
            let b = start[i]
            return b & 0xC0 == 0x80 ? UInt32(b & 0x3F) : nil
        }
        switch b0 {
        case 0xC2...0xDF:
            guard let c1 = cont(1) else { break }
            return ((UInt32(b0 & 0x1F) << 6) | c1, 2)
        case 0xE0...0xEF:
            guard let c1 = cont(1), let c2 = cont(2) else { break }
            let v = (UInt32(b0 & 0x0F) << 12) | (c1 << 6) | c2
            if v < 0x800 || (v >= 0xD800 && v <= 0xDFFF) { break }
            return (v, 3)
        case 0xF0...0xF4:
            guard let c1 = cont(1), let c2 = cont(2), let c3 = cont(3) else { break }
            let v = (UInt32(b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3
            if v < 0x10000 || v > 0x10FFFF { break }
            return (v, 4)
        default:
            break
        }
        return (invalid, 1)
    }

    /// Whether the bytes are all ASCII, eight at a time.
    @inline(__always)
    package static func isASCII(_ start: UnsafePointer<UInt8>, count: Int) -> Bool {
        var i = 0
        let raw = UnsafeRawPointer(start)
        while i + 8 <= count {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < count {
            if start[i] >= 0x80 { return false }
            i += 1
        }
        return true
    }

    /// The first byte ≥ 0x80 in `[start, end)`, or `end`.
    @inline(__always)
    package static func firstNonASCII(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
        var p = start
        while end - p >= 8 {
            let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080
            if word != 0 { return p + (word.trailingZeroBitCount >> 3) }
            p += 8
        }
        while p < end {
            if p.pointee >= 0x80 { return p }
            p += 1
        }
        return end
    }
}
