/// Place lookups by exact spelling while a graph file is read, without making strings.
///
/// A file of 100k edges names places 200k times, but only a few thousand different
/// spellings occur. Making a `String` for each name, folding it and hashing it with
/// `Hasher` cost most of a load, so this table keys the raw UTF-8 bytes (as they lie in
/// the file) with a cheap multiplicative hash and open addressing. Only the first time a
/// spelling is seen is it copied, decoded, folded and interned in the graph; every later
/// sighting is one hash of the bytes and one comparison.
///
/// The table also keeps "the most recently used spelling is shown" cheap: each place
/// remembers which entry last named it, so a repeated spelling costs an integer compare.
final class SpellingTable {
    /// Slots hold entry numbers + 1; 0 is empty. The capacity is a power of two.
    private var slots: UnsafeMutablePointer<Int32>
    private var slotCount: Int
    private var mask: Int

    /// One known spelling: where its bytes are in `arena`, their hash, and its place
    /// (-1 for a name that is empty once trimmed). Kept together so a lookup touches
    /// one cache line.
    private struct Entry {
        var hash: UInt64
        var start: Int32
        var count: Int32
        var place: Int32
    }

    // Raw storage: this is the hottest loop of a load, and array accesses there cost
    // retains, releases and bounds checks that showed in profiles.
    private var entries: UnsafeMutablePointer<Entry>
    private var entryCapacity: Int
    private var entryCount = 0
    /// The spelling bytes of every entry, back to back.
    private var arena: UnsafeMutablePointer<UInt8>
    private var arenaCapacity: Int
    private var arenaCount = 0
    /// The display name of each entry (normalized spelling).
    private var displays: [String] = []
    /// For each place index, the entry whose spelling it shows now (-1: none yet).
    private var namingEntry: [Int32] = []

    /// Fewer than this share of slots in use keeps probe runs short.
    private static let maximumLoad = 0.5
    /// Enough for a small graph without growing.
    private static let initialCapacity = 256

    init(expectedSpellings: Int = 0) {
        var capacity = Self.initialCapacity
        while Double(expectedSpellings) > Double(capacity) * Self.maximumLoad { capacity *= 2 }
        slotCount = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
        mask = capacity - 1
        entryCapacity = capacity / 2
        entries = .allocate(capacity: entryCapacity)
        arenaCapacity = entryCapacity * 32
        arena = .allocate(capacity: arenaCapacity)
    }

    deinit {
        slots.deallocate()
        entries.deallocate()
        arena.deallocate()
    }

    /// The place index of the place spelled `bytes`, interning it in `graph` when the
    /// spelling is new, and making this spelling its display name; nil for a name that
    /// is empty once trimmed.
    @inline(__always)
    func place(spelled bytes: UnsafeRawBufferPointer, in graph: inout RouteGraph) -> Int? {
        let hash = Self.hash(bytes)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = Int(slots[slot])
            if stored == 0 { break }
            let entry = stored - 1
            let found = entries[entry]
            if found.hash == hash && found.count == Int32(truncatingIfNeeded: bytes.count)
                && Self.equal(arena + Int(found.start), bytes)
            {
                let place = Int(found.place)
                if place < 0 { return nil }
                if namingEntry[place] != Int32(entry) {
                    namingEntry[place] = Int32(entry)
                    graph.placeTable[place].name = displays[entry]
                }
                return place
            }
            slot = (slot + 1) & mask
        }
        return insert(bytes, hash: hash, slot: slot, in: &graph)
    }

    private func insert(_ bytes: UnsafeRawBufferPointer, hash: UInt64, slot: Int, in graph: inout RouteGraph) -> Int? {
        let (display, key) = RouteGraph.normalize(String(decoding: bytes, as: UTF8.self))
        var place: Int32 = -1
        if !key.isEmpty {
            let index = graph.intern(display: display, key: key)
            place = Int32(index)
            while namingEntry.count < graph.placeTable.count { namingEntry.append(-1) }
            namingEntry[index] = Int32(entryCount)
        }
        if entryCount == entryCapacity {
            let bigger = UnsafeMutablePointer<Entry>.allocate(capacity: entryCapacity * 2)
            bigger.moveInitialize(from: entries, count: entryCount)
            entries.deallocate()
            entries = bigger
            entryCapacity *= 2
        }
        if arenaCount + bytes.count > arenaCapacity {
            let capacity = max(arenaCapacity * 2, arenaCount + bytes.count)
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            bigger.update(from: arena, count: arenaCount)
            arena.deallocate()
            arena = bigger
            arenaCapacity = capacity
        }
        if let base = bytes.baseAddress {
            (arena + arenaCount).update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        }
        entries[entryCount] = Entry(hash: hash, start: Int32(arenaCount), count: Int32(bytes.count), place: place)
        arenaCount += bytes.count
        displays.append(display)
        entryCount += 1
        slots[slot] = Int32(entryCount)
        if Double(entryCount) > Double(slotCount) * Self.maximumLoad { grow() }
        return place < 0 ? nil : Int(place)
    }

    /// Byte equality of a stored spelling and `bytes` of the same length, eight bytes at
    /// a time (names are short; a call to memcmp cost more than the comparison).
    @inline(__always)
    private static func equal(_ stored: UnsafeMutablePointer<UInt8>, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        while index + 8 <= count {
            if UnsafeRawPointer(stored + index).loadUnaligned(as: UInt64.self)
                != (base + index).loadUnaligned(as: UInt64.self)
            {
                return false
            }
            index += 8
        }
        while index < count {
            if stored[index] != base.load(fromByteOffset: index, as: UInt8.self) { return false }
            index += 1
        }
        return true
    }

    private func grow() {
        slots.deallocate()
        slotCount *= 2
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: 0, count: slotCount)
        mask = slotCount - 1
        for entry in 0..<entryCount {
            var slot = Int(truncatingIfNeeded: entries[entry].hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry + 1)
        }
    }

    /// A fast, well-mixed hash of a short byte string: eight bytes at a time, multiplied
    /// and folded (the mixing of wyhash/FxHash), then a final avalanche so the low bits
    /// used for the slot depend on every byte.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = UInt64(truncatingIfNeeded: bytes.count) &* multiplier
        var index = 0
        while index + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            hash = (hash ^ word) &* multiplier
            hash ^= hash >> 29
            index += 8
        }
        if index < bytes.count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count {
                tail |= UInt64(bytes[index]) << shift
                shift += 8
                index += 1
            }
            hash = (hash ^ tail) &* multiplier
        }
        hash ^= hash >> 32
        hash &*= 0xD6E8_FEB8_6659_FD93
        hash ^= hash >> 32
        return hash
    }
}
