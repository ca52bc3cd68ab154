/// A set of byte strings, for the scans of a graph file: which folded keys or spellings
/// have been seen, without a `String` or a `Dictionary` per name.
///
/// The scans meet every name in the file (20,000 place records and 200,000 edge ends in
/// a 100k-edge graph). Each distinct string is copied once into one arena; the slots of
/// an open-addressing table hold its whole hash and where its bytes are, so a lookup
/// reads one slot, and the bytes only when the hashes agree. Equality is always decided
/// on the bytes: a hash collision costs a comparison, never a wrong answer.
struct ByteStringSet: ~Copyable {
    /// Slots of two words: the string's hash with the low bit set (0: empty), and where
    /// its bytes are in `arena` (offset in the high half, length in the low half). A
    /// probe reads one slot and, when the whole hash agrees, the bytes: no third array.
    private var slots: UnsafeMutablePointer<(hash: UInt64, place: UInt64)>
    private var slotCount: Int
    private var arena: UnsafeMutableRawPointer
    private var arenaCapacity: Int
    private var arenaUsed = 0
    /// How many distinct strings the set holds.
    private(set) var count = 0

    /// An empty set with room for about `expected` strings before it grows.
    init(expected: Int) {
        var capacity = 64
        while capacity < expected * 2 { capacity *= 2 }
        slotCount = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: (0, 0), count: capacity)
        arenaCapacity = max(capacity * 16, 256)
        arena = .allocate(byteCount: arenaCapacity, alignment: 8)
    }

    deinit {
        slots.deallocate()
        arena.deallocate()
    }

    /// Adds `bytes`; true if they were not in the set yet.
    @discardableResult
    @inline(__always)
    mutating func insert(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let hash = Self.hash(bytes) | 1
        var slot = Int(truncatingIfNeeded: hash >> 7) & (slotCount - 1)
        if find(bytes, hash: hash, slot: &slot) { return false }
        if arenaUsed + bytes.count > arenaCapacity { growArena(toFit: bytes.count) }
        if let base = bytes.baseAddress { (arena + arenaUsed).copyMemory(from: base, byteCount: bytes.count) }
        slots[slot] = (hash, UInt64(arenaUsed) << 32 | UInt64(bytes.count))
        arenaUsed += bytes.count
        count += 1
        if count * 2 >= slotCount { growSlots() }
        return true
    }

    /// Adds every string of `other`.
    mutating func formUnion(_ other: borrowing ByteStringSet) {
        for index in 0..<other.slotCount where other.slots[index].hash != 0 {
            let place = other.slots[index].place
            insert(
                UnsafeRawBufferPointer(
                    start: other.arena + Int(truncatingIfNeeded: place >> 32), count: Int(truncatingIfNeeded: place & 0xFFFF_FFFF)))
        }
    }

    /// Adds `bytes`; true if they were not in the set yet.
    @discardableResult
    mutating func insert(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { insert($0) }
    }

    /// Whether `bytes` are in the set.
    func contains(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let hash = Self.hash(bytes) | 1
        var slot = Int(truncatingIfNeeded: hash >> 7) & (slotCount - 1)
        return find(bytes, hash: hash, slot: &slot)
    }

    /// Whether `bytes` are in the set.
    func contains(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { contains($0) }
    }

    /// Probes from `slot`: true with `slot` on the match, or false with `slot` on the
    /// empty slot where `bytes` would go.
    @inline(__always)
    private func find(_ bytes: UnsafeRawBufferPointer, hash: UInt64, slot: inout Int) -> Bool {
        let mask = slotCount - 1
        while true {
            let stored = slots[slot]
            if stored.hash == 0 { return false }
            if stored.hash == hash && Int(truncatingIfNeeded: stored.place & 0xFFFF_FFFF) == bytes.count
                && Self.equal(arena + Int(truncatingIfNeeded: stored.place >> 32), bytes.baseAddress, bytes.count)
            {
                return true
            }
            slot = (slot + 1) & mask
        }
    }

    /// A hash of every byte, eight at a time (the last word overlapping the one before
    /// it), and the length. Names differ anywhere (a town, a number at the end).
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count)
        guard let base = bytes.baseAddress else { return mix(hash) }
        if count < 8 {
            var word: UInt64 = 0
            for index in 0..<count { word |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << (8 * index) }
            return mix(hash ^ word)
        }
        // One multiply per word; the finaliser spreads the result.
        var index = 0
        while index + 8 < count {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
            hash = hash << 29 | hash >> 35
            index += 8
        }
        return mix(hash ^ base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }

    /// SplitMix64's finaliser: every input bit reaches every output bit.
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var hash = value &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        hash &*= 0x94D0_49BB_1331_11EB
        hash ^= hash >> 29
        return hash
    }

    @inline(__always)
    private static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer?, _ count: Int) -> Bool {
        guard let b else { return count == 0 }
        if count < 8 {
            for index in 0..<count where a.load(fromByteOffset: index, as: UInt8.self) != b.load(fromByteOffset: index, as: UInt8.self) {
                return false
            }
            return true
        }
        var index = 0
        while index + 8 < count {
            if a.loadUnaligned(fromByteOffset: index, as: UInt64.self) != b.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
                return false
            }
            index += 8
        }
        return a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }

    private mutating func growArena(toFit extra: Int) {
        var capacity = arenaCapacity * 2
        while capacity < arenaUsed + extra { capacity *= 2 }
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        bigger.copyMemory(from: arena, byteCount: arenaUsed)
        arena.deallocate()
        arena = bigger
        arenaCapacity = capacity
    }

    private mutating func growSlots() {
        let old = slots
        let oldCount = slotCount
        slotCount *= 2
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: (0, 0), count: slotCount)
        let mask = slotCount - 1
        for index in 0..<oldCount where old[index].hash != 0 {
            var slot = Int(truncatingIfNeeded: old[index].hash >> 7) & mask
            while slots[slot].hash != 0 { slot = (slot + 1) & mask }
            slots[slot] = old[index]
        }
        old.deallocate()
    }
}
