/// A set of byte strings, for the scans of a graph file: which folded keys or spellings
/// have been seen, without a `String` or a `Dictionary` per name.
///
/// The scans meet every name in the file (20,000 place records and 200,000 edge ends in
/// a 100k-edge graph). Each distinct string is copied once into one arena; the slots of
/// an open-addressing table hold a hash fragment and the entry number, so a lookup
/// touches one slot, and compares bytes only when the fragments agree. Equality is
/// always decided on the bytes: a hash collision costs a comparison, never a wrong answer.
struct ByteStringSet: ~Copyable {
    /// Slots: a 32-bit hash fragment (high half) and entry number + 1 (low half); 0 is empty.
    private var slots: UnsafeMutablePointer<UInt64>
    private var slotCount: Int
    /// Where each entry's bytes are in `arena`.
    private var entries: UnsafeMutablePointer<(start: Int32, count: Int32)>
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
        slots.initialize(repeating: 0, count: capacity)
        entries = .allocate(capacity: capacity / 2 + 1)
        arenaCapacity = max(capacity * 16, 256)
        arena = .allocate(byteCount: arenaCapacity, alignment: 8)
    }

    deinit {
        slots.deallocate()
        entries.deallocate()
        arena.deallocate()
    }

    /// Adds `bytes`; true if they were not in the set yet.
    @discardableResult
    @inline(__always)
    mutating func insert(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let hash = Self.hash(bytes)
        var slot = Int(truncatingIfNeeded: hash) & (slotCount - 1)
        if find(bytes, hash: hash, slot: &slot) { return false }
        if arenaUsed + bytes.count > arenaCapacity { growArena(toFit: bytes.count) }
        if let base = bytes.baseAddress { (arena + arenaUsed).copyMemory(from: base, byteCount: bytes.count) }
        entries[count] = (Int32(truncatingIfNeeded: arenaUsed), Int32(truncatingIfNeeded: bytes.count))
        arenaUsed += bytes.count
        count += 1
        slots[slot] = (hash >> 32) << 32 | UInt64(count)
        if count * 2 >= slotCount { growSlots() }
        return true
    }

    /// Adds `bytes`; true if they were not in the set yet.
    @discardableResult
    mutating func insert(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { insert($0) }
    }

    /// Whether `bytes` are in the set.
    func contains(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let hash = Self.hash(bytes)
        var slot = Int(truncatingIfNeeded: hash) & (slotCount - 1)
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
        let fragment = hash >> 32
        let mask = slotCount - 1
        while true {
            let stored = slots[slot]
            if stored == 0 { return false }
            if stored >> 32 == fragment {
                let entry = entries[Int(truncatingIfNeeded: stored & 0xFFFF_FFFF) - 1]
                if Int(entry.count) == bytes.count
                    && Self.equal(arena + Int(entry.start), bytes.baseAddress, bytes.count)
                {
                    return true
                }
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
        slots.deallocate()
        slotCount *= 2
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: 0, count: slotCount)
        let bigger = UnsafeMutablePointer<(start: Int32, count: Int32)>.allocate(capacity: slotCount / 2 + 1)
        bigger.update(from: entries, count: count)
        entries.deallocate()
        entries = bigger
        let mask = slotCount - 1
        for index in 0..<count {
            let entry = entries[index]
            let hash = Self.hash(UnsafeRawBufferPointer(start: arena + Int(entry.start), count: Int(entry.count)))
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = (hash >> 32) << 32 | UInt64(index + 1)
        }
    }
}
