/// A 64-bit fingerprint of a gazetteer's bytes, carried in every magicKey so that a key is
/// only ever resolved against the file it came from.
///
/// Not cryptographic: it guards against mix-ups, not forgery. It takes eight bytes per
/// step, one multiply and one shift, so it runs at several GB/s and never limits the
/// `--places` scan. The state is fed in order, block by block, so a file read in pieces
/// gets the same fingerprint as one read whole.
package struct GazetteerFingerprint {
    /// The multiplier: 2⁶⁴/φ, odd, with well-spread bits (as in Fibonacci hashing).
    static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    /// The starting state: any fixed value; this one spells "wayfind1".
    package static let seed: UInt64 = 0x7761_7966_696E_6431

    private var state: UInt64
    private var pending: UInt64 = 0
    private var pendingCount = 0
    private var length: UInt64 = 0

    /// A fresh fingerprint, or one with a different `seed` for other uses (checksums).
    package init(seed: UInt64 = GazetteerFingerprint.seed) { state = seed }

    @inline(__always)
    private mutating func mix(_ word: UInt64) {
        state = (state ^ word) &* Self.multiplier
        state ^= state &>> 29
    }

    /// Feeds bytes.
    package mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard var p = bytes.baseAddress else { return }
        var count = bytes.count
        length &+= UInt64(count)
        while pendingCount > 0 && count > 0 {
            pending |= UInt64(p.pointee) << UInt64(8 * pendingCount)
            pendingCount += 1
            p += 1
            count -= 1
            if pendingCount == 8 {
                mix(pending)
                pending = 0
                pendingCount = 0
            }
        }
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i + 8 <= count {
            mix(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            i += 8
        }
        while i < count {
            pending |= UInt64(p[i]) << UInt64(8 * pendingCount)
            pendingCount += 1
            i += 1
        }
    }

    /// Feeds an array of bytes.
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { update($0) }
    }

    /// The fingerprint of everything fed (murmur3's finaliser over the state and length).
    package var value: UInt64 {
        var copy = self
        if copy.pendingCount > 0 { copy.mix(copy.pending | 0x80 << UInt64(8 * copy.pendingCount)) }
        var h = copy.state ^ copy.length
        h ^= h &>> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h &>> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        h ^= h &>> 33
        return h
    }

    /// The fingerprint of `bytes`.
    package static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var f = GazetteerFingerprint()
        f.update(bytes)
        return f.value
    }

    /// Sixteen lowercase hex digits, for messages.
    package static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
