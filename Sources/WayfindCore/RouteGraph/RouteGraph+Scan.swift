/// Suggestions and single visits without building the whole graph, from the same read
/// of the file (`GraphFileContents`, which checks every byte). A suggestion builds a small
/// graph of the edges leaving the from-place and the place records that can rank, and
/// asks it `suggestions(for:filter:allHabits:)`, with the habits of the whole file summed
/// by the scan. A visit builds a small graph of the last place, the visited place and the
/// edge between them, applies `record(_:)`, and writes the lines that changed with
/// `GraphFileFormat`; the rest of the file is copied.
///
/// Each returns nil whenever the small graph could answer differently from the whole one,
/// and the caller then loads the whole graph. A patched file reads back as the graph a
/// full load, visit and save would write; for a file `json()` wrote, byte for byte (but
/// where a place named only on edges, which only the seed's format has, is visited in
/// another spelling: its other lines keep theirs until the next full save).
extension RouteGraph {
    // MARK: Suggestions

    /// Whether `scannedSuggestions` may answer `request` at all: not every place
    /// (`-n 0`), nor the from-place itself (`--include-from`).
    static func scanMayAnswer(_ request: SuggestionRequest) -> Bool {
        (request.limit != nil || request.successorsOnly) && !request.includeFrom
    }

    /// How many records a filtered scan takes best first before it takes the rest as they
    /// are (16 per place asked for): a filter that so many failed rejects most, and taking
    /// each of 2,000 records from the heap cost a tenth of a suggestion.
    static func unorderedAfter(room: Int) -> Int { 16 * room }

    /// The suggestions for `request` from the contents of the graph file `bytes`, as
    /// `suggestions(for:filter:)` of the whole graph would give them; nil when the small
    /// graph may not give the same answer:
    ///
    /// - the file has no `places` (statistics then come from every edge), or records
    ///   before edges (the spelling a place shows would then come from an edge), or two
    ///   records of one place (its statistics are their sum);
    /// - the contents hold only the edges leaving another place than the from-place
    ///   (`GraphFileContents.keptOrigin`: the read guessed the last place wrong);
    /// - a successor has no record (its spelling would come from the edges skipped);
    /// - every place is asked for (`-n 0`); or the list falls short of the limit, or ends
    ///   with a score of zero, and a name on an edge has no record or a record scores
    ///   zero by its habit: places that lie only on other edges (no record, no visits)
    ///   score zero, and the small graph does not know them or their edges (nor can it
    ///   tell, from contents that hold only some edges). (A request for `positiveOnly`
    ///   leaves those places out, and a short list is then whole.)
    ///
    /// The small graph holds the from-place, the last place, the successors, and of the
    /// other places those that can be among the `limit` best by score and time (the first
    /// part of `ranksBefore`) and pass the filter: any other ranks below `limit` of them.
    /// (The last place is always there: its record is not how it is shown.) A place's
    /// score depends on the habits of all places: they are summed over every record
    /// first, in file order, which is the order the whole graph sums its places in, and
    /// the small graph is given the sum.
    static func scannedSuggestions(
        _ contents: GraphFileContents, in bytes: UnsafeRawBufferPointer, for request: SuggestionRequest,
        filter: NameFilter?
    ) -> [Suggestion]? {
        guard contents.hasRecords, scanMayAnswer(request), (contents.records.first?.element.lowerBound ?? .max) > contents.lastEdgeStart
        else { return nil }
        let lastSpelling = contents.lastName.map { contents.bytes(of: $0, in: bytes) }
        let lastKey = lastSpelling.map { PlaceName.withKey($0) { Array($0) } } ?? []
        let fromBytes = request.from.map { Array(placeKey($0).utf8) } ?? lastKey
        // A read that kept only the edges leaving a place must have kept the from-place's.
        guard contents.keptOrigin == nil || contents.keptOrigin == fromBytes else { return nil }
        // The edges leaving the from-place, and the keys of their destinations.
        var leaving: [Int] = []
        var successorKeys: [[UInt8]] = []
        fromBytes.withUnsafeBytes { from in
            guard !from.isEmpty else { return }
            for (index, edge) in contents.edges.enumerated() where PlaceName.hasKey(contents.bytes(of: edge.origin, in: bytes), from) {
                leaving.append(index)
                successorKeys.append(PlaceName.withKey(contents.bytes(of: edge.destination, in: bytes)) { Array($0) })
            }
        }

        // The records: those of the from-place, the last place (shown as the header spells
        // it) and the successors, and the best others; first every record's habit.
        let moment = SuggestionMoment(request)
        let room = request.successorsOnly ? 0 : request.limit ?? 0
        var needed: [Int] = []
        /// The habit of each record that may rank; nil for the needed ones and those a
        /// full load drops (an empty name).
        var habits = [Double?](repeating: nil, count: contents.records.count)
        var allHabits = 0.0
        /// Whether a record scores zero by its habit: whether a full load lists such a
        /// place depends on edges the small graph does not hold.
        var hasHabitOfZero = false
        // The needed ones are told by their keys, and no place may have two records.
        let neededKeys = [fromBytes, lastKey] + successorKeys
        var keys = NameSet(capacity: contents.records.count)
        for (index, record) in contents.records.enumerated() {
            let (isEmpty, isNew, isNeeded) = PlaceName.withKey(contents.bytes(of: record.name, in: bytes)) { key in
                (key.isEmpty, key.isEmpty || keys.insert(key), neededKeys.contains { $0.withUnsafeBytes { Platform.bytesEqual(key, $0) } })
            }
            // A full load drops a name of whitespace only (empty key).
            if isEmpty { continue }
            guard isNew else { return nil }
            let habit = habit(
                visits: Int(clamping: record.visits), hours: record.hours, lastVisitedAt: record.time,
                at: moment)
            allHabits += habit
            if !(habit > 0) { hasHabitOfZero = true }
            if isNeeded { needed.append(index) } else { habits[index] = habit }
        }
        var best = BestCandidates(room: room)
        if room > 0 {
            // With a filter, which costs more than the rest of a record, the records are
            // ranked first and filtered best first, only until `room` of them (and their
            // ties) have passed it; without, the best are kept as they come. A filter few
            // pass (`bos`) is tried on every record anyway: after `unorderedAfter` records
            // taken best first, the rest are taken as they are, without ranking them.
            var ranked: [Candidate] = []
            for (index, habit) in habits.enumerated() {
                guard let habit else { continue }
                let candidate = Candidate(
                    place: index, score: score(trips: 0, habit: habit, allHabits: allHabits), time: contents.records[index].timeValue)
                guard !request.positiveOnly || candidate.score > 0 else { continue }
                if filter != nil {
                    ranked.append(candidate)
                } else if best.admits(score: candidate.score, time: candidate.time) {
                    best.append(candidate)
                }
            }
            if let filter {
                func passes(_ candidate: Candidate) -> Bool {
                    filter.accepts(spelling: contents.bytes(of: contents.records[candidate.place].name, in: bytes))
                }
                var queue = CandidateQueue(ranked)
                var taken = 0
                while let candidate = queue.next() {
                    guard best.admits(score: candidate.score, time: candidate.time) else { break }
                    taken += 1
                    if taken > Self.unorderedAfter(room: room) {
                        for candidate in [candidate] + queue.takeRest()
                        where best.admits(score: candidate.score, time: candidate.time) && passes(candidate) {
                            best.append(candidate)
                        }
                        best.cut()
                        break
                    }
                    guard passes(candidate) else { continue }
                    best.append(candidate)
                    if best.list.count == room { best.cut() }
                }
            } else {
                best.cut()
            }
        }

        // The small graph, and its answer.
        var graph = RouteGraph()
        for index in needed + best.list.map(\.place) {
            let record = contents.records[index]
            if let place = graph.intern(spelling: contents.bytes(of: record.name, in: bytes)) {
                graph.addRecord(record, to: place)
            }
        }
        if let lastSpelling {
            graph.lastPlace = graph.intern(spelling: lastSpelling)
            graph.lastVisitedAt = graph.lastPlace == nil ? nil : contents.lastVisitedAt
        }
        for (index, key) in zip(leaving, successorKeys) where !key.isEmpty {
            // A full load drops an edge to a name of whitespace only (empty key).
            let edge = contents.edges[index]
            guard let to = graph.placeIndex[PlaceKey(String(decoding: key, as: UTF8.self))],
                let from = graph.intern(spelling: contents.bytes(of: edge.origin, in: bytes))
            else { return nil }
            graph.strengthen(from: from, to: to, by: Int(clamping: edge.weight), at: edge.time)
        }
        let suggestions = graph.suggestions(for: request, filter: filter.map(Self.stringFilter), allHabits: allHabits)
        if request.successorsOnly || request.limit == 0 || request.positiveOnly { return suggestions }
        if suggestions.count == request.limit, let last = suggestions.last, last.score > 0 { return suggestions }
        // The list falls short (a query that few places match) or ends at zero: the small
        // graph knows every place that could be on it only if every name on an edge has a
        // record, as in every file `json()` writes. (Keying the edges' names costs a tenth
        // of the full load that the answer would otherwise take.)
        guard !hasHabitOfZero, contents.keptOrigin == nil else { return nil }
        var known = NameSet(capacity: contents.records.count)
        for record in contents.records { PlaceName.withKey(contents.bytes(of: record.name, in: bytes)) { _ = known.insert($0) } }
        for edge in contents.edges {
            let isKnown =
                PlaceName.withKey(contents.bytes(of: edge.origin, in: bytes)) { $0.isEmpty || !known.insert($0) }
                && PlaceName.withKey(contents.bytes(of: edge.destination, in: bytes)) { $0.isEmpty || !known.insert($0) }
            guard isKnown else { return nil }
        }
        return suggestions
    }

    // MARK: Visits

    /// The changes to the graph file `bytes` (read as `contents`) that record `request`,
    /// in file order: the file then holds what loading it, calling `record(request)` and
    /// saving would (a tenth of the instructions at 10,000 edges, and a third of the
    /// time); nil when the file must be loaded and saved
    /// whole:
    ///
    /// - the request is not one visit and nothing to forget;
    /// - it is not in the current version, lacks `places` or the header values, has one
    ///   of its keys twice or the `successors` of earlier versions (which a save drops),
    ///   or an empty list the visit would add to;
    /// - the last place has no record with visits (a full save may drop it once it is not
    ///   last);
    /// - the last place is named with another spelling than it is shown with (the edge
    ///   this visit adds could then change how it is shown), or the visited place's record
    ///   with another spelling than the visit's (a full save writes the new one on every
    ///   line), or the edge or the visited place's record is there twice (they would be
    ///   merged);
    /// - `maxPlaces` might drop a place (told by counting every name);
    /// - the contents hold some edges only;
    /// - more than one edge or record in eight is in another layout (not merely written
    ///   with escapes, as the writer writes some names): a file another program wrote is
    ///   saved whole once, in the writer's layout, which later reads take quickly, rather
    ///   than patched in a layout that sends every read of it down the general path
    ///   (20 times as many instructions).
    static func visitPatch(
        _ contents: GraphFileContents, in bytes: UnsafeRawBufferPointer, _ request: VisitRequest
    ) -> [FileChange]? {
        guard mayPatch(request), contents.version == currentVersion, contents.keptOrigin == nil,
            contents.elementsInOtherLayouts <= (contents.edgeCount + contents.records.count) / 8
        else { return nil }
        let (place, time, maxPlaces) = (request.visits[0].place, request.visits[0].time, request.maxPlaces)
        // Each key once, none unknown; the header values' places.
        var timeSpan: Range<Int32>? = nil
        var locationSpan: Range<Int32>? = nil
        for (index, member) in contents.members.enumerated() {
            guard member.key != .successors,
                member.key == .other || !contents.members[..<index].contains(where: { $0.key == member.key })
            else {
                return nil
            }
            if member.key == .lastVisitedAt { timeSpan = member.value }
            if member.key == .lastVisitedLocation { locationSpan = member.value }
        }
        guard let lastName = contents.lastName, contents.lastVisitedAt != nil, contents.hasRecords, let timeSpan,
            let locationSpan
        else { return nil }
        let last = PlaceName.normalize(contents.bytes(of: lastName, in: bytes))
        let visited = PlaceName.normalize(place)
        guard !visited.key.isEmpty, !last.key.isEmpty else { return nil }

        // Every name of the file, folded: where the two places are, and how they are
        // spelled.
        var edgeMatch: Int? = nil
        var recordMatch: Int? = nil
        var lastRecords: [Int] = []
        let here = Array(visited.key.utf8)
        let lastKey = Array(last.key.utf8)
        let lastDisplay = Array(last.display.utf8)
        /// Whether the name is the last place; nil if it is, spelled otherwise than shown.
        func isLast(_ spelling: UnsafeRawBufferPointer) -> Bool? {
            guard lastKey.withUnsafeBytes({ PlaceName.hasKey(spelling, $0) }) else { return false }
            return lastDisplay.withUnsafeBytes { Platform.bytesEqual(spelling, $0) } ? true : nil
        }
        func isHere(_ spelling: UnsafeRawBufferPointer) -> Bool {
            here.withUnsafeBytes { PlaceName.hasKey(spelling, $0) }
        }
        for (index, edge) in contents.edges.enumerated() {
            let destination = contents.bytes(of: edge.destination, in: bytes)
            guard isLast(destination) != nil, let originIsLast = isLast(contents.bytes(of: edge.origin, in: bytes)) else {
                return nil
            }
            if originIsLast && isHere(destination) {
                guard edgeMatch == nil else { return nil }
                edgeMatch = index
            }
        }
        for (index, record) in contents.records.enumerated() {
            let name = contents.bytes(of: record.name, in: bytes)
            guard let nameIsLast = isLast(name) else { return nil }
            if nameIsLast { lastRecords.append(index) }
            if isHere(name) {
                guard recordMatch == nil else { return nil }
                recordMatch = index
            }
        }
        // A visit adds at most two places: the visited one, and the last one if no other
        // line names it. (So the small graph's own prune, below, drops nothing either.)
        guard maxPlaces <= 0 || Self.namesFewPlaces(contents, in: bytes, atMost: maxPlaces - 2) else {
            return nil
        }
        // A last place of no visits is kept only for being last (or on an edge): once
        // another place is last, a full save may drop its record. Only an edited file has
        // one; leave it to the full save.
        guard lastRecords.contains(where: { contents.records[$0].visits > 0 }) else { return nil }
        // A visit spelled otherwise than the place's record changes how the place is
        // shown, and so every line that names it.
        if let recordMatch, !visited.display.utf8.elementsEqual(contents.bytes(of: contents.records[recordMatch].name, in: bytes)) {
            return nil
        }

        // The small graph: the last place, the visited place and the edge between them,
        // as the whole graph has them; then the visit.
        var graph = RouteGraph()
        let from = graph.intern(display: last.display, key: last.key)
        for index in lastRecords {
            graph.addRecord(contents.records[index], to: from)
        }
        graph.lastPlace = from
        graph.lastVisitedAt = contents.lastVisitedAt
        var edgeBefore: Link? = nil
        // The visited place as the whole graph has it (a place named only on edges other
        // than this one has no statistics, as if new).
        if edgeMatch != nil || recordMatch != nil {
            let to = graph.intern(display: visited.display, key: visited.key)
            if let recordMatch, to != from {
                graph.addRecord(contents.records[recordMatch], to: to)
            }
            if let edgeMatch {
                let edge = contents.edges[edgeMatch]
                graph.strengthen(from: from, to: to, by: Int(clamping: edge.weight), at: edge.time)
                edgeBefore = graph.links.last
            }
        }
        guard graph.record(request).recorded == 1, let to = graph.lastPlace else { return nil }

        // The new file: the changed lines in place of the old ones, new lines at the ends
        // of their lists.
        typealias F = GraphFileFormat
        var changes: [FileChange] = []
        /// The line `write` writes in place of the list element `element`, or added after
        /// `end`, the end of its list; false when the list is empty.
        func put(at element: Range<Int32>?, orAfter end: Int32?, _ write: (inout [UInt8]) -> Void) -> Bool {
            guard let range = element.map({ Int($0.lowerBound)..<Int($0.upperBound) }) ?? end.map({ Int($0)..<Int($0) }) else {
                return false
            }
            var line: [UInt8] = []
            if element == nil { F.append(F.elementSeparator, to: &line) }
            write(&line)
            changes.append(FileChange(range: range, bytes: line))
            return true
        }
        if let index = graph.linkIndex[linkKey(from, to)], graph.links[index] != edgeBefore {
            let link = graph.links[index]
            let (origin, destination) = (graph.placeTable[from].name, graph.placeTable[to].name)
            let listEnd = contents.lastEdgeEnd == .min ? nil : contents.lastEdgeEnd
            let written = put(at: edgeMatch.map { contents.edges[$0].element }, orAfter: listEnd) {
                F.appendEdge(destination: destination, time: link.lastVisitedAt, origin: origin, weight: link.weight, to: &$0)
            }
            guard written else { return nil }
        }
        let stats = graph.placeTable[to]
        let written = put(at: recordMatch.map { contents.records[$0].element }, orAfter: contents.records.last?.element.upperBound) {
            F.appendRecord(name: stats.name, visits: stats.visits, time: stats.lastVisitedAt, hours: stats.hours, to: &$0)
        }
        guard written else { return nil }
        _ = put(at: timeSpan, orAfter: nil) { JSONWriter.appendInteger(graph.lastVisitedAt ?? time, to: &$0) }
        _ = put(at: locationSpan, orAfter: nil) { JSONWriter.appendQuoted(stats.name, to: &$0) }
        changes.sort { $0.range.lowerBound < $1.range.lowerBound }
        return changes
    }

    /// Whether `visitPatch` may describe `request` as changes to a file: one visit, and
    /// nothing to forget.
    static func mayPatch(_ request: VisitRequest) -> Bool {
        request.visits.count == 1 && request.forget.isEmpty
    }

    /// Whether the file names at most `limit` places: told by the number of names when
    /// that is small enough, else by the number of different spellings (a place has one
    /// or more), counted in `NameSet`.
    private static func namesFewPlaces(_ contents: GraphFileContents, in bytes: UnsafeRawBufferPointer, atMost limit: Int)
        -> Bool
    {
        let names = contents.records.count + 2 * contents.edgeCount
        if names <= limit { return true }
        var spellings = NameSet(capacity: contents.records.count)
        /// Counts the spelling of `name`; false when the count passed the limit. The set
        /// is passed, not captured: a captured variable is checked for exclusive access at
        /// run time, on every call.
        func count(_ name: GraphFileContents.Name, _ spellings: inout NameSet) -> Bool {
            _ = spellings.insert(contents.bytes(of: name, in: bytes))
            return spellings.count <= limit
        }
        for record in contents.records where !count(record.name, &spellings) { return false }
        for edge in contents.edges where !count(edge.origin, &spellings) || !count(edge.destination, &spellings) {
            return false
        }
        return true
    }
}

/// A set of byte strings: the spellings among a file's names (for `--max-places`), or
/// the keys of its records (none may be there twice). The package's one hash table of its
/// own: a visit of a 100,000-edge graph meets 220,000 names, and `Dictionary` took three
/// times as long. Open addressing over 8-byte slots, so that the table of 20,000 names
/// stays in the processor's cache: a slot holds 32 bits of the string's fingerprint and
/// where its copy is in `arena` (a 32-bit length, then the bytes), to compare on a match.
private struct NameSet: ~Copyable {
    /// Fingerprint bits with the low bit set (0: empty) << 32 | the copy's offset.
    private var slots: UnsafeMutableBufferPointer<UInt64>
    private var arena: UnsafeMutableRawBufferPointer
    private var arenaUsed = 0
    /// How many different strings were inserted.
    private(set) var count = 0

    /// An empty set, with room for `capacity` strings before it grows.
    init(capacity: Int) {
        var size = 64
        while size < 2 * capacity { size *= 2 }
        slots = .allocate(capacity: size)
        slots.initialize(repeating: 0)
        arena = .allocate(byteCount: size * 16, alignment: 8)
    }

    deinit {
        slots.deallocate()
        arena.deallocate()
    }

    /// Adds `string` (copied); true if it is new, false if it was there.
    mutating func insert(_ string: UnsafeRawBufferPointer) -> Bool {
        let hash = bytesFingerprint(string)
        let tag = (hash >> 32 | 1) << 32
        let mask = slots.count &- 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            if slots[slot] & 0xFFFF_FFFF_0000_0000 == tag, Platform.bytesEqual(stored(slots[slot]), string) { return false }
            slot = (slot &+ 1) & mask
        }
        if arenaUsed + 4 + string.count > arena.count {
            let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * arena.count + string.count, alignment: 8)
            bigger.copyMemory(from: UnsafeRawBufferPointer(rebasing: arena[..<arenaUsed]))
            arena.deallocate()
            arena = bigger
        }
        arena.storeBytes(of: UInt32(string.count), toByteOffset: arenaUsed, as: UInt32.self)
        UnsafeMutableRawBufferPointer(rebasing: arena[arenaUsed + 4..<arenaUsed + 4 + string.count]).copyMemory(from: string)
        slots[slot] = tag | UInt64(arenaUsed)
        arenaUsed += 4 + string.count
        count += 1
        if 2 * count > slots.count { grow() }
        return true
    }

    /// The copy a slot points to.
    private func stored(_ slot: UInt64) -> UnsafeRawBufferPointer {
        let start = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF)
        let length = Int(arena.loadUnaligned(fromByteOffset: start, as: UInt32.self))
        return UnsafeRawBufferPointer(rebasing: arena[start + 4..<start + 4 + length])
    }

    /// Doubles the table, keeping it at most half full.
    private mutating func grow() {
        let old = slots
        slots = .allocate(capacity: 2 * old.count)
        slots.initialize(repeating: 0)
        let mask = slots.count &- 1
        for entry in old where entry != 0 {
            var slot = Int(truncatingIfNeeded: bytesFingerprint(stored(entry))) & mask
            while slots[slot] != 0 { slot = (slot &+ 1) & mask }
            slots[slot] = entry
        }
        old.deallocate()
    }
}

/// A 64-bit fingerprint of `bytes` (not for security: only to tell keys apart quickly,
/// with equal keys always equal).
private func bytesFingerprint(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: bytes.count)
    var index = 0
    while index &+ 8 <= bytes.count {
        hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        index &+= 8
    }
    var tail: UInt64 = 0
    while index < bytes.count {
        tail = tail << 8 | UInt64(bytes[index])
        index &+= 1
    }
    hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
    return hash ^ (hash >> 29)
}

/// One change to a file: the bytes in `range` replaced by `bytes` (an empty range: inserted).
struct FileChange {
    var range: Range<Int>
    var bytes: [UInt8]

    /// Calls `body` with the pieces of the file `old` with `changes` (in file order, not
    /// overlapping) made: old bytes and new, valid during the call. (`copied`: how much of
    /// `old` is in `pieces` already.)
    static func withPieces<Result>(
        of old: UnsafeRawBufferPointer, with changes: ArraySlice<FileChange>, pieces: [UnsafeRawBufferPointer] = [],
        copied: Int = 0, _ body: ([UnsafeRawBufferPointer]) throws -> Result
    ) rethrows -> Result {
        guard let change = changes.first else { return try body(pieces + [UnsafeRawBufferPointer(rebasing: old[copied...])]) }
        return try change.bytes.withUnsafeBytes { new in
            let kept = UnsafeRawBufferPointer(rebasing: old[copied..<change.range.lowerBound])
            return try withPieces(
                of: old, with: changes.dropFirst(), pieces: pieces + [kept, new], copied: change.range.upperBound, body)
        }
    }
}
