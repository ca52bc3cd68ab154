/// Comparing and searching bytes: names in the graph's tables, lines in a buffer.
extension Platform {
    /// Whether two buffers hold the same bytes. Names, mostly: short ones are compared
    /// eight bytes at a time in place (a call to `memcmp` costs more than they do).
    @inline(__always)
    static func bytesEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        guard count > 0, let left = a.baseAddress, let right = b.baseAddress else { return true }
        if count > 64 { return systemCompareBytes(left, right, count) == 0 }
        if count < 8 {
            for index in 0..<count
            where left.load(fromByteOffset: index, as: UInt8.self) != right.load(fromByteOffset: index, as: UInt8.self) {
                return false
            }
            return true
        }
        var index = 0
        while index &+ 8 < count {
            guard left.loadUnaligned(fromByteOffset: index, as: UInt64.self) == right.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            else { return false }
            index &+= 8
        }
        // The last eight bytes, overlapping those before.
        return left.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            == right.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }

    /// The last `byte` in `[start, start+count)`, or nil: glibc's `memrchr`, which Swift's
    /// Glibc module does not export. Sixteen bytes at a time (`SIMD16` compiles to one
    /// compare and one mask test), the match found in its block from the compare's bytes
    /// read as two words; the last few bytes one at a time.
    @inline(__always)
    package static func findLastByte(_ byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> UnsafePointer<UInt8>? {
        let pattern = SIMD16<UInt8>(repeating: byte)
        var index = count
        while index >= 16 {
            let matches = UnsafeRawPointer(start + (index &- 16)).loadUnaligned(as: SIMD16<UInt8>.self) .== pattern
            if any(matches) {
                // 0xFF where a byte matches, read as two words (the first byte lowest).
                let words = unsafeBitCast(SIMD16<UInt8>(repeating: 0).replacing(with: 0xFF, where: matches), to: SIMD2<UInt64>.self)
                let bit = words[1] != 0 ? 127 &- words[1].leadingZeroBitCount : 63 &- words[0].leadingZeroBitCount
                return start + (index &- 16 &+ bit &>> 3)
            }
            index &-= 16
        }
        while index > 0 {
            index &-= 1
            if start[index] == byte { return start + index }
        }
        return nil
    }
}
