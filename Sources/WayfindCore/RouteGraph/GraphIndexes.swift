/// The two lookups of a `RouteGraph`, folded key → place and (origin, destination) →
/// edge, as small open-addressing tables instead of `Dictionary`.
///
/// A `Dictionary` keyed by a type of this module has its generic metadata built at run
/// time, and building it looks for the key's `Hashable` conformance through every
/// conformance record in the binary: for a suggestion from a 1k-edge graph that was
/// half of all instructions, start-up included. These tables are plain arrays of
/// integers and strings, whose metadata the standard library has ready.

/// Folded place key → index in the graph's place table.
struct PlaceKeyIndex: Sendable {
    /// Power-of-two slots: 0 when empty, else the entry's number + 1 (low 32 bits) and
    /// the high half of its key's hash (high 32 bits), so most probes compare no bytes.
    private var slots: [UInt64] = []
    private var keys: [String] = []
    private var values: [Int] = []

    /// The index stored for `key`, or nil; setting stores it (setting nil is not
    /// supported: places are only ever renumbered all at once).
    subscript(key: String) -> Int? {
        get {
            guard !slots.isEmpty else { return nil }
            var key = key
            return key.withUTF8 { bytes in
                let hash = ByteStringSet.hash(UnsafeRawBufferPointer(bytes))
                var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
                return find(UnsafeRawBufferPointer(bytes), hash: hash, slot: &slot).map { values[$0] }
            }
        }
        set {
            guard let newValue else { preconditionFailure("PlaceKeyIndex cannot remove a key") }
            if (keys.count + 1) * 2 > slots.count { grow() }
            var text = key
            text.withUTF8 { bytes in
                let hash = ByteStringSet.hash(UnsafeRawBufferPointer(bytes))
                var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
                if let entry = find(UnsafeRawBufferPointer(bytes), hash: hash, slot: &slot) {
                    values[entry] = newValue
                } else {
                    keys.append(key)
                    values.append(newValue)
                    slots[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(keys.count)
                }
            }
        }
    }

    /// The entry holding `bytes`, or nil with `slot` on the empty slot for them.
    private func find(_ bytes: UnsafeRawBufferPointer, hash: UInt64, slot: inout Int) -> Int? {
        let mask = slots.count - 1
        while true {
            let stored = slots[slot]
            if stored == 0 { return nil }
            if stored & 0xFFFF_FFFF_0000_0000 == hash & 0xFFFF_FFFF_0000_0000 {
                let entry = Int(truncatingIfNeeded: stored & 0xFFFF_FFFF) - 1
                var other = keys[entry]
                if other.withUTF8({ $0.count == bytes.count && UnsafeRawBufferPointer($0).elementsEqual(bytes) }) {
                    return entry
                }
            }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        let capacity = max(16, slots.count * 2)
        slots = [UInt64](repeating: 0, count: capacity)
        let mask = capacity - 1
        for entry in keys.indices {
            var key = keys[entry]
            let hash = key.withUTF8 { ByteStringSet.hash(UnsafeRawBufferPointer($0)) }
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(entry + 1)
        }
    }

    mutating func removeAll(keepingCapacity: Bool) {
        if keepingCapacity {
            for index in slots.indices { slots[index] = 0 }
        } else {
            slots = []
        }
        keys.removeAll(keepingCapacity: keepingCapacity)
        values.removeAll(keepingCapacity: keepingCapacity)
    }
}

/// `RouteGraph.linkKey(origin, destination)` → index in the graph's edges.
struct LinkIndex: Sendable {
    /// Power-of-two slots of keys, and of their values + 1 (0: empty).
    private var keys: [UInt64] = []
    private var values: [Int] = []
    private var count = 0

    /// The index stored for `key`, or nil; setting stores it (setting nil is not
    /// supported: edges are only ever renumbered all at once).
    subscript(key: UInt64) -> Int? {
        get {
            guard !keys.isEmpty else { return nil }
            var slot = Self.slot(of: key, mask: keys.count - 1)
            while values[slot] != 0 {
                if keys[slot] == key { return values[slot] - 1 }
                slot = (slot + 1) & (keys.count - 1)
            }
            return nil
        }
        set {
            guard let newValue else { preconditionFailure("LinkIndex cannot remove a key") }
            if (count + 1) * 2 > keys.count { grow(to: max(16, keys.count * 2)) }
            var slot = Self.slot(of: key, mask: keys.count - 1)
            while values[slot] != 0 && keys[slot] != key { slot = (slot + 1) & (keys.count - 1) }
            if values[slot] == 0 { count += 1 }
            keys[slot] = key
            values[slot] = newValue + 1
        }
    }

    /// Room for `capacity` keys without growing.
    mutating func reserveCapacity(_ capacity: Int) {
        var size = max(16, keys.count)
        while size < capacity * 2 { size *= 2 }
        if size > keys.count { grow(to: size) }
    }

    mutating func removeAll(keepingCapacity: Bool) {
        count = 0
        if keepingCapacity {
            for index in values.indices { values[index] = 0 }
        } else {
            keys = []
            values = []
        }
    }

    @inline(__always)
    private static func slot(of key: UInt64, mask: Int) -> Int {
        // SplitMix64's finaliser.
        var hash = key &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        hash &*= 0x94D0_49BB_1331_11EB
        hash ^= hash >> 29
        return Int(truncatingIfNeeded: hash) & mask
    }

    private mutating func grow(to size: Int) {
        let oldKeys = keys
        let oldValues = values
        keys = [UInt64](repeating: 0, count: size)
        values = [Int](repeating: 0, count: size)
        let mask = size - 1
        for index in oldKeys.indices where oldValues[index] != 0 {
            var slot = Self.slot(of: oldKeys[index], mask: mask)
            while values[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = oldKeys[index]
            values[slot] = oldValues[index]
        }
    }
}
