/// One visit recorded by patching the graph file instead of rewriting it.
///
/// A visit changes at most four things in a saved graph: the edge from the last place
/// (one line, or a new line at the end of `edges`), the visited place's record (one
/// line of `places`), and `lastVisitedAt` and `lastVisitedLocation`. Parsing 100,000
/// edges into a graph and writing them all back costs most of a visit; this instead
/// checks the file's lines, finds those four, and describes the new file as the old
/// bytes with them replaced (a `FilePatch`), which the save copies as they are:
///
///     {"destination":"Airport","lastVisitedAt":1700000000,"origin":"City Center","weight":11}
///     → {"destination":"Airport","lastVisitedAt":1700003600,"origin":"City Center","weight":12}
///
/// For a file that `json()` wrote, the patched file is byte for byte what loading,
/// visiting and saving would write (the tests compare the two on random graphs). The
/// patch is declined (nil: load, visit and save instead) unless
///
/// - every line has exactly the writer's shape, checked as the full reader would (so a
///   corrupt file is never copied), and every place record has visits;
/// - the visited place already has exactly one record, and wherever the visited or the
///   last place is named, it is spelled as it would be written (a new spelling changes
///   every line that names the place);
/// - a new edge joins two places that already lie on edges (otherwise the `places`
///   array would be reordered);
/// - `--max-places` cannot drop anything: the file names no more places than the limit.
///
/// Anything the patch leaves alone is left as it was, so even a file written by other
/// means loads afterwards exactly as if it had been loaded, visited and saved.
extension RouteGraph {
    /// Where each edge line is: its start (the `{`), and its destination and origin bytes.
    private struct EdgeLine {
        var start: Int32
        var destination: Int32
        var destinationCount: Int32
        var origin: Int32
        var originCount: Int32
    }

    /// The patch that records a visit to `place` at `time` in the graph file `bytes`, as
    /// `visit(_:at:selfLoops:newTrip:)` then `prune(maxPlaces:)` would (0: no limit);
    /// `tripGap` starts a new trip after a longer pause, as in routegraph-visit. Nil when
    /// the file must be loaded instead (see the top of this file).
    public static func visitPatch(
        _ bytes: UnsafeRawBufferPointer, place: String, at time: Int64, selfLoops: Bool = false,
        newTrip: Bool = false, tripGap: Int64? = nil, maxPlaces: Int = 0
    ) -> FilePatch? {
        guard bytes.count < Int(Int32.max) else { return nil }
        let (display, placeKeyText) = normalize(place)
        let hereKey = Array(placeKeyText.utf8)
        let hereName = Array(display.utf8)
        guard !hereKey.isEmpty, isPlain(hereName) else { return nil }

        var reader = JSONReader(bytes)
        guard reader.skipLiteral("{\n  \"edges\": [\n    ") else { return nil }
        var lines: [EdgeLine] = []
        lines.reserveCapacity(bytes.count / 120)
        while true {
            let start = reader.offset
            guard reader.skipLiteral("{\"destination\":\""), let destination = reader.plainStringBody() else { return nil }
            if reader.skipLiteral(",\"lastVisitedAt\":") {
                guard reader.plainNonNegativeInteger() != nil else { return nil }
            }
            guard reader.skipLiteral(",\"origin\":\""), let origin = reader.plainStringBody(),
                reader.skipLiteral(",\"weight\":"), reader.plainNonNegativeInteger() != nil, reader.skipLiteral("}")
            else { return nil }
            lines.append(
                EdgeLine(
                    start: Int32(start), destination: Int32(offset(of: destination, in: bytes)),
                    destinationCount: Int32(destination.count), origin: Int32(offset(of: origin, in: bytes)),
                    originCount: Int32(origin.count)))
            if reader.skipLiteral(",\n    ") { continue }
            break
        }
        let edgesEnd = reader.offset
        guard reader.skipLiteral("\n  ],\n") else { return nil }
        var lastAt: Int64? = nil
        if reader.skipLiteral("  \"lastVisitedAt\": ") {
            guard let value = reader.plainNonNegativeInteger(), reader.skipLiteral(",\n") else { return nil }
            lastAt = value
        }
        var lastName: [UInt8]? = nil
        if reader.skipLiteral("  \"lastVisitedLocation\": \"") {
            guard let name = reader.plainStringBody(), reader.skipLiteral(",\n") else { return nil }
            lastName = Array(name)
        }
        guard reader.skipLiteral("  \"places\": [\n    ") else { return nil }
        let placesStart = reader.offset

        // The last place: spelled as it will be written (its own display spelling).
        var scratch: [UInt8] = []
        var lastKey: [UInt8]? = nil
        if let lastName {
            let isNormal = lastName.withUnsafeBytes { foldKey($0, into: &scratch) }
            guard isNormal, !scratch.isEmpty else { return nil }
            lastKey = scratch
        }
        if lastKey == nil { lastAt = nil }
        let startsTrip = newTrip || (tripGap.map { gap in lastAt.map { time - $0 > gap } ?? false } ?? false)
        let makesEdge = lastKey != nil && !startsTrip && (lastKey! != hereKey || selfLoops)

        // The places: the visited one's record, and that every record has visits.
        var hereRecord: (range: Range<Int>, visits: Int64, time: Int64?)? = nil
        var records: [(start: Int, count: Int)] = []
        while true {
            let start = reader.offset
            var recordTime: Int64? = nil
            if reader.skipLiteral("{\"lastVisitedAt\":") {
                guard let value = reader.plainNonNegativeInteger(), reader.skipLiteral(",\"name\":\"") else { return nil }
                recordTime = value
            } else {
                guard reader.skipLiteral("{\"name\":\"") else { return nil }
            }
            guard let name = reader.plainStringBody(), reader.skipLiteral(",\"visits\":"),
                let visits = reader.plainNonNegativeInteger(), visits > 0, reader.skipLiteral("}")
            else { return nil }
            records.append((offset(of: name, in: bytes), name.count))
            if keyMatches(name, hereKey, scratch: &scratch) {
                guard hereRecord == nil, sameBytes(name, hereName) else { return nil }
                hereRecord = (start..<reader.offset, visits, recordTime)
            }
            if let lastKey, let lastName, keyMatches(name, lastKey, scratch: &scratch), !sameBytes(name, lastName) {
                return nil
            }
            if reader.skipLiteral(",\n    ") { continue }
            break
        }
        let placesEnd = reader.offset
        guard let hereRecord, reader.skipLiteral("\n  ],\n  \"version\": 1\n}\n"), reader.offset == bytes.count
        else { return nil }

        // The edges: how the two places are spelled there, and the edge between them.
        var edgeIndex: Int? = nil
        var hereIsOnEdge = false
        var lastIsOnEdge = false
        for (index, line) in lines.enumerated() {
            let destination = UnsafeRawBufferPointer(
                rebasing: bytes[Int(line.destination)..<Int(line.destination + line.destinationCount)])
            let origin = UnsafeRawBufferPointer(rebasing: bytes[Int(line.origin)..<Int(line.origin + line.originCount)])
            // Whether a name is the visited place and whether it is the last place;
            // nil when it is one of them spelled otherwise.
            func identify(_ name: UnsafeRawBufferPointer) -> (isHere: Bool, isLast: Bool)? {
                var result = (isHere: false, isLast: false)
                if keyMatches(name, hereKey, scratch: &scratch) {
                    guard sameBytes(name, hereName) else { return nil }
                    result.isHere = true
                }
                if let lastKey, let lastName, keyMatches(name, lastKey, scratch: &scratch) {
                    guard sameBytes(name, lastName) else { return nil }
                    result.isLast = true
                }
                return result
            }
            guard let to = identify(destination), let from = identify(origin) else { return nil }
            hereIsOnEdge = hereIsOnEdge || to.isHere || from.isHere
            lastIsOnEdge = lastIsOnEdge || to.isLast || from.isLast
            let originIsLast = from.isLast
            let destinationIsHere = to.isHere
            if originIsLast && destinationIsHere {
                guard edgeIndex == nil else { return nil }
                edgeIndex = index
            }
        }
        if makesEdge && edgeIndex == nil && !(hereIsOnEdge && lastIsOnEdge) { return nil }
        if maxPlaces > 0 {
            // The places a load would know: at most one per distinct spelling in the
            // records and on edges, plus the last place. Counted only when it matters.
            let bound = records.count + 1 + 2 * lines.count
            if bound > maxPlaces {
                guard distinctSpellings(of: lines, records: records, in: bytes) + 1 <= maxPlaces else {
                    return nil
                }
            }
        }

        // The new file.
        var patch = FilePatch()
        if makesEdge, let lastName {
            if let edgeIndex {
                var line = JSONReader(UnsafeRawBufferPointer(rebasing: bytes[Int(lines[edgeIndex].start)...]))
                guard let edge = readEdgeLine(&line) else { return nil }
                let start = Int(lines[edgeIndex].start)
                patch.keep(0..<start)
                patch.add(
                    edgeLine(
                        destination: hereName, time: max(edge.time ?? time, time), origin: lastName,
                        weight: edge.weight == .max ? .max : edge.weight + 1))
                patch.keep(start + line.offset..<edgesEnd)
            } else {
                patch.keep(0..<edgesEnd)
                patch.add(Array(",\n    ".utf8) + edgeLine(destination: hereName, time: time, origin: lastName, weight: 1))
            }
        } else {
            patch.keep(0..<edgesEnd)
        }
        var header = Array("\n  ],\n  \"lastVisitedAt\": ".utf8)
        appendInteger(time, to: &header)
        header += Array(",\n  \"lastVisitedLocation\": \"".utf8) + hereName + Array("\",\n  \"places\": [\n    ".utf8)
        patch.add(header)
        patch.keep(placesStart..<hereRecord.range.lowerBound)
        var record = Array("{\"lastVisitedAt\":".utf8)
        appendInteger(max(hereRecord.time ?? time, time), to: &record)
        record += Array(",\"name\":\"".utf8) + hereName + Array("\",\"visits\":".utf8)
        appendInteger(hereRecord.visits == .max ? .max : hereRecord.visits + 1, to: &record)
        record.append(UInt8(ascii: "}"))
        patch.add(record)
        patch.keep(hereRecord.range.upperBound..<placesEnd)
        patch.keep(placesEnd..<bytes.count)
        return patch
    }

    /// One edge line as `json()` writes it (without indentation or separator).
    private static func edgeLine(destination: [UInt8], time: Int64, origin: [UInt8], weight: Int64) -> [UInt8] {
        var line = Array("{\"destination\":\"".utf8) + destination + Array("\",\"lastVisitedAt\":".utf8)
        appendInteger(time, to: &line)
        line += Array(",\"origin\":\"".utf8) + origin + Array("\",\"weight\":".utf8)
        appendInteger(weight, to: &line)
        line.append(UInt8(ascii: "}"))
        return line
    }

    /// The time and weight of the edge line at the reader, which has been checked.
    private static func readEdgeLine(_ reader: inout JSONReader) -> (time: Int64?, weight: Int64)? {
        guard reader.skipLiteral("{\"destination\":\""), reader.plainStringBody() != nil else { return nil }
        var time: Int64? = nil
        if reader.skipLiteral(",\"lastVisitedAt\":") {
            guard let value = reader.plainNonNegativeInteger() else { return nil }
            time = value
        }
        guard reader.skipLiteral(",\"origin\":\""), reader.plainStringBody() != nil, reader.skipLiteral(",\"weight\":"),
            let weight = reader.plainNonNegativeInteger(), reader.skipLiteral("}")
        else { return nil }
        return (time, weight)
    }

    /// How many different spellings the records and edges have, by bytes, in a small
    /// open-addressing table (no names are folded or copied).
    private static func distinctSpellings(
        of lines: [EdgeLine], records: [(start: Int, count: Int)], in bytes: UnsafeRawBufferPointer
    ) -> Int {
        var table = SpellingCounter(expected: records.count + lines.count / 4, bytes: bytes)
        for record in records { table.insert(record.start, record.count) }
        for line in lines {
            table.insert(Int(line.destination), Int(line.destinationCount))
            table.insert(Int(line.origin), Int(line.originCount))
        }
        return table.count
    }

    /// Whether `name` can be written without escapes (the reader's plain strings).
    private static func isPlain(_ name: [UInt8]) -> Bool {
        !name.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }

    private static func sameBytes(_ a: UnsafeRawBufferPointer, _ b: [UInt8]) -> Bool {
        a.count == b.count && b.withUnsafeBytes { Platform.bytesEqual(a.baseAddress, $0.baseAddress, count: a.count) }
    }

    static func offset(of part: UnsafeRawBufferPointer, in whole: UnsafeRawBufferPointer) -> Int {
        guard let base = whole.baseAddress, let start = part.baseAddress else { return 0 }
        return start - base
    }

    private static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        bytes += Array(String(value).utf8)
    }
}

/// Counts distinct byte strings that lie in one buffer, by offset and length.
///
/// Raw storage and inline comparisons: it sees every name on every edge (200,000 in a
/// 100k-edge file), and array bounds checks and memcmp calls showed in profiles.
private struct SpellingCounter: ~Copyable {
    /// Slots hold a 32-bit hash fragment (high half) and entry number + 1 (low half).
    private var slots: UnsafeMutablePointer<UInt64>
    private var slotCount: Int
    private var entries: UnsafeMutablePointer<(start: Int32, count: Int32)>
    private(set) var count = 0
    private let base: UnsafeRawPointer

    init(expected: Int, bytes: UnsafeRawBufferPointer) {
        var capacity = 1024
        while capacity < expected * 2 { capacity *= 2 }
        slotCount = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
        entries = .allocate(capacity: capacity / 2 + 1)
        base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
    }

    deinit {
        slots.deallocate()
        entries.deallocate()
    }

    mutating func insert(_ start: Int, _ length: Int) {
        let hash = Self.hash(base + start, length)
        let fragment = hash >> 32
        let mask = slotCount - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = slots[slot]
            if stored == 0 { break }
            if stored >> 32 == fragment {
                let entry = entries[Int(stored & 0xFFFF_FFFF) - 1]
                if Int(entry.count) == length && Self.equal(base + Int(entry.start), base + start, length) { return }
            }
            slot = (slot + 1) & mask
        }
        entries[count] = (Int32(start), Int32(length))
        count += 1
        slots[slot] = fragment << 32 | UInt64(count)
        if count * 2 >= slotCount { grow() }
    }

    /// A hash of the first and last eight bytes and the length: place names differ in
    /// their beginning (the town) or their end (a number), and equal hashes are checked
    /// byte by byte anyway, so hashing the middle would only cost time.
    @inline(__always)
    private static func hash(_ start: UnsafeRawPointer, _ count: Int) -> UInt64 {
        var head: UInt64 = 0
        var tail: UInt64 = 0
        if count >= 8 {
            head = start.loadUnaligned(as: UInt64.self)
            tail = start.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else {
            for index in 0..<count { head |= UInt64(start.load(fromByteOffset: index, as: UInt8.self)) << (8 * index) }
        }
        var hash = (head &* 0x9E37_79B9_7F4A_7C15) ^ (tail &* 0xD6E8_FEB8_6659_FD93) ^ UInt64(truncatingIfNeeded: count)
        hash ^= hash >> 29
        hash &*= 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 32
        return hash
    }

    @inline(__always)
    private static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        var index = 0
        while index + 8 <= count {
            if a.loadUnaligned(fromByteOffset: index, as: UInt64.self) != b.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
                return false
            }
            index += 8
        }
        while index < count {
            if a.load(fromByteOffset: index, as: UInt8.self) != b.load(fromByteOffset: index, as: UInt8.self) { return false }
            index += 1
        }
        return true
    }

    private mutating func grow() {
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
            let hash = Self.hash(base + Int(entry.start), Int(entry.count))
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = (hash >> 32) << 32 | UInt64(index + 1)
        }
    }
}
