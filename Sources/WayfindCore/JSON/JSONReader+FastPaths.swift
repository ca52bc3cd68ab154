/// The fast paths of `JSONReader`: a known writer's shapes read with plain byte comparisons.
extension JSONReader {
    // A document written by a known writer has a predictable shape. These calls let a
    // caller read such a shape with plain byte comparisons, and `rewind(to:)` and read
    // the same bytes again with the validating calls (JSONReader.swift) when anything differs; the
    // validating path then produces the error, if there is one. They accept nothing
    // the validating path would reject.

    /// Consumes `literal` if the input continues with exactly its bytes (no whitespace
    /// is skipped); otherwise leaves the position alone and returns false.
    @inline(__always)
    package mutating func skipLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        // Inline, eight bytes at a time, the last (or only) load overlapping the one
        // before: literals are short, and a call to memcmp per literal was a tenth of a
        // scan of the graph file.
        let here = UnsafeRawPointer(bytes.baseAddress! + offset)
        let text = UnsafeRawPointer(literal.utf8Start)
        if count >= 8 {
            var index = 0
            while index + 8 < count {
                let word = here.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                guard word == text.loadUnaligned(fromByteOffset: index, as: UInt64.self) else { return false }
                index += 8
            }
            guard
                here.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                    == text.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            else { return false }
        } else if count >= 4 {
            // Four bytes, then the last four (the list separator `,\n    ` has six).
            guard here.loadUnaligned(as: UInt32.self) == text.loadUnaligned(as: UInt32.self),
                here.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                    == text.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            else { return false }
        } else {
            for index in 0..<count {
                guard here.load(fromByteOffset: index, as: UInt8.self) == text.load(fromByteOffset: index, as: UInt8.self)
                else { return false }
            }
        }
        offset += count
        return true
    }

    /// After an opening quote already consumed: the bytes of a string without escapes,
    /// consuming its closing quote; nil for a string with an escape or invalid content.
    @inline(__always)
    package mutating func plainStringBody() -> UnsafeRawBufferPointer? {
        let start = offset
        guard let isPlain = try? scanPlainString(), isPlain else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<offset - 1])
    }

    /// A non-negative integer of 1 to 18 digits without a leading zero, fraction or
    /// exponent; nil (position unspecified) for anything else. The digits are found, and
    /// their value made, eight at a time.
    @inline(__always)
    package mutating func plainNonNegativeInteger() -> Int64? {
        guard let start = skipPlainNonNegativeInteger() else { return nil }
        return Self.plainIntegerValue(bytes, from: start, to: offset)
    }

    /// `plainNonNegativeInteger()` without its value, for a reader that may not need it:
    /// the offset of its first digit, the digits skipped (`plainIntegerValue` makes the
    /// value); nil (position unspecified) for anything else.
    @inline(__always)
    package mutating func skipPlainNonNegativeInteger() -> Int? {
        let start = offset
        var end = offset
        let ones: UInt64 = 0x0101_0101_0101_0101
        while true {
            if end + 8 <= bytes.count {
                // A byte is a digit when it is 0x30 + (0…9): after `^ 0x30` its high
                // nibble is zero and its low nibble plus 6 does not reach 0x10.
                let word = bytes.loadUnaligned(fromByteOffset: end, as: UInt64.self) ^ (ones &* 0x30)
                let notDigit = (word | ((word & (ones &* 0x0F)) &+ ones &* 0x06)) & (ones &* 0xF0)
                if notDigit == 0 {
                    end += 8
                    if end - start > 18 { return nil }
                    continue
                }
                end += notDigit.littleEndian.trailingZeroBitCount / 8
                break
            }
            while end < bytes.count && bytes[end] &- UInt8(ascii: "0") < 10 { end += 1 }
            break
        }
        let count = end - start
        guard count > 0, count <= 18, count == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if end < bytes.count {
            let next = bytes[end]
            if next == UInt8(ascii: ".") || next | 0x20 == UInt8(ascii: "e") { return nil }
        }
        offset = end
        return start
    }

    /// The value of the digits of `bytes` that `skipPlainNonNegativeInteger()` checked,
    /// from `start` to `end`.
    @inline(__always)
    package static func plainIntegerValue(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int64 {
        var value: Int64 = 0
        var index = start
        // Pairs, then fours, then eights combined in place (a Unix time has ten digits).
        while end &- index >= 8 {
            var word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &- 0x3030_3030_3030_3030
            word = (word &* 10 &+ (word >> 8)) & 0x00FF_00FF_00FF_00FF
            word = (word &* 100 &+ (word >> 16)) & 0x0000_FFFF_0000_FFFF
            word = (word &* 10000 &+ (word >> 32)) & 0xFFFF_FFFF
            value = value &* 100_000_000 &+ Int64(word)
            index &+= 8
        }
        while index < end {
            value = value &* 10 &+ Int64(bytes[index] &- UInt8(ascii: "0"))
            index &+= 1
        }
        return value
    }

    /// Moves back to `offset`, an earlier position inside the current container, to read
    /// the same bytes again.
    package mutating func rewind(to offset: Int) {
        self.offset = offset
    }
}
