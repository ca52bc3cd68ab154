/// Suggestions without loading the whole graph: a scan of the file's bytes that keeps
/// only what `suggestions(for:filter:)` can look at.
///
/// Suggesting from one place needs the edges *leaving that place* and the visit
/// statistics of every place, nothing else. A full load interns both ends of every edge
/// (200,000 names in a 100k-edge file) and builds an edge index; this scan instead
/// checks each edge's origin against the from-place's key, usually on its first byte,
/// and folds names only for the `places` records and the few matching edges:
///
///     {"destination":"Airport",…,"origin":"City Center","weight":11}   origin matches: kept
///     {"destination":"Harbour",…,"origin":"Old Town","weight":3}       'o' ≠ 'c': skipped
///
/// From these it builds a small graph (the from-place, its successors, and of the other
/// places only the best `limit` by frecency) and asks it for suggestions, so the ranking
/// is the same code as for a full load. The small graph gives the same answer as the
/// whole one when:
///
/// - the file has exactly the shape `json()` writes (top-level keys in order, one edge or
///   place per line, no escapes), so every byte is checked here and a file the full
///   reader would reject is never accepted;
/// - every place has at most one record, spelled as it is displayed (as `json()` writes
///   them), so a record is the whole of a place's statistics, and every successor has
///   one, which is then where its displayed spelling comes from;
/// - the frecency tier is filled with places whose score is above zero: places that
///   only lie on edges (no record, no visits) score zero, and the small graph does not
///   know them, so a list that would reach them is left to the full load.
///
/// Otherwise the scan returns nil and the caller loads the graph; nothing is guessed.
extension RouteGraph {
    /// The suggestions for `request` read straight from the bytes of a graph file, or nil
    /// when the file is not in the writer's exact shape or the answer could depend on
    /// what the scan skips (then load the graph and ask it).
    ///
    /// With `edgesChecked` (the file carries the checked stamp with its current
    /// identity, see `GraphFile.checkedStamp`), the edge lines are skimmed rather than
    /// checked (`skimEdgeLines`), record names are read up to their closing quote, and
    /// only the records that can matter are folded; the layout is still followed, and
    /// anything unexpected returns nil.
    public static func scannedSuggestions(
        in bytes: UnsafeRawBufferPointer, for request: SuggestionRequest, filter: ((String) -> Bool)? = nil,
        edgesChecked: Bool = false
    ) -> [Suggestion]? {
        var vouching = false
        return scannedSuggestions(
            in: bytes, for: request, filter: filter, parallelAbove: parallelScanBytes, edgesChecked: edgesChecked,
            vouching: &vouching)
    }

    /// `scannedSuggestions`, and whether the scan vouches for the file as the checked
    /// stamp does (see `GraphFile.checkedStamp`): it checked every byte, and the file's
    /// `successors` block, if any, is exactly the last place's edge lines. A scan from
    /// another place cannot tell the latter, so it vouches only for a file without the
    /// block. (Meaningless with `edgesChecked`.)
    public static func scannedSuggestions(
        in bytes: UnsafeRawBufferPointer, for request: SuggestionRequest, filter: ((String) -> Bool)? = nil,
        edgesChecked: Bool = false, vouching: inout Bool
    ) -> [Suggestion]? {
        scannedSuggestions(
            in: bytes, for: request, filter: filter, parallelAbove: parallelScanBytes, edgesChecked: edgesChecked,
            vouching: &vouching)
    }

    /// `scannedSuggestions`, checking the edge lines on two threads from `parallelAbove`
    /// bytes of them.
    static func scannedSuggestions(
        in bytes: UnsafeRawBufferPointer, for request: SuggestionRequest, filter: ((String) -> Bool)?,
        parallelAbove: Int, edgesChecked: Bool = false
    ) -> [Suggestion]? {
        var vouching = false
        return scannedSuggestions(
            in: bytes, for: request, filter: filter, parallelAbove: parallelAbove, edgesChecked: edgesChecked,
            vouching: &vouching)
    }

    static func scannedSuggestions(
        in bytes: UnsafeRawBufferPointer, for request: SuggestionRequest, filter: ((String) -> Bool)?,
        parallelAbove: Int, edgesChecked: Bool, vouching: inout Bool
    ) -> [Suggestion]? {
        vouching = false
        // A scan that does not answer vouches for nothing.
        var vouches = false
        guard
            let graph = suggestionGraph(
                scanning: bytes, for: request, filter: filter, parallelAbove: parallelAbove, edgesChecked: edgesChecked,
                vouching: &vouches),
            let suggestions = complete(graph.suggestions(for: request, filter: filter), for: request)
        else { return nil }
        vouching = vouches
        return suggestions
    }

    /// `suggestions` from a scan's small graph, or nil when they may differ from a full
    /// load's: a list cut at the limit may have left out a place the small graph does not
    /// know, unless its last frecency score is above zero (every such place scores zero).
    private static func complete(_ suggestions: [Suggestion], for request: SuggestionRequest) -> [Suggestion]? {
        if request.successorsOnly || request.limit == 0 { return suggestions }
        guard let limit = request.limit, suggestions.count == limit else { return nil }
        if let last = suggestions.last, last.source == .frecency, !(last.score > 0) { return nil }
        return suggestions
    }

    /// The small graph described at the top of this file, or nil. `parallelAbove` is
    /// the size of the edge lines from which two threads check them (tests lower it).
    static func suggestionGraph(
        scanning bytes: UnsafeRawBufferPointer, for request: SuggestionRequest, filter: ((String) -> Bool)? = nil,
        parallelAbove: Int = parallelScanBytes, edgesChecked: Bool = false, vouching: inout Bool
    ) -> RouteGraph? {
        // The header lines between the edges and the records, read first from the end:
        // the last place (the default from-place) whose edges are then found while the
        // edges are checked, and where the edges end (so that two threads can share them).
        guard let header = headerFromTail(bytes) else { return nil }
        let edgesEnd = header.edgesEnd
        var key: [UInt8] = []
        var fromKey: [UInt8] = []
        // The last place's key: its record is kept whole, since the spelling a full load
        // shows for it (and filters) is the header's, which wins over the record's.
        var lastKey: [UInt8] = []
        if let lastName = header.lastName { foldKey(lastName, into: &lastKey) }
        if let from = request.from {
            fromKey = Array(placeKey(from).utf8)
        } else {
            fromKey = lastKey
        }

        // The records start after the header lines (found from the tail, checked there).
        var reader = JSONReader(bytes)
        reader.rewind(to: header.recordsStart)
        let lastName = header.lastName

        // Pass 1: check every edge line, and keep the from-place's edges. A checked file's
        // edge lines are skimmed instead, and its records read meanwhile (they do not
        // depend on the edges until they are chosen from, below).
        var collector = SuccessorCollector(bytes: bytes, fromKey: fromKey)
        var secondHalf = collector
        var records = RecordList()
        // The `successors` block's lines (the last place's edges, copied), to compare
        // with those found among the edges.
        var copied = SuccessorCollector(bytes: bytes, fromKey: edgesChecked ? [] : lastKey)
        if edgesChecked, !lastKey.isEmpty, fromKey == lastKey, let block = successorsFromTail(bytes) {
            // The stamp vouches that the block is exactly the from-place's edge lines:
            // they are read there, with the records, and the other edge lines not at all.
            guard records.read(from: reader, namesChecked: true, successors: &collector),
                records.successorLines == block
            else { return nil }
        } else if edgesChecked {
            var recordsHold = false
            // Reading a record's byte costs about three times skimming a line's (measured
            // with callgrind at 10k edges: 4.9 and 1.3 instructions).
            let edgesHold = skimEdgeLines(
                bytes, endingAt: edgesEnd, parallelAbove: parallelAbove, &collector, &secondHalf,
                meanwhile: { recordsHold = records.read(from: reader, namesChecked: true, successors: &copied) },
                meanwhileWeight: 3 * (bytes.count - header.recordsStart))
            guard edgesHold, recordsHold else { return nil }
        } else {
            guard scanEdgeLines(bytes, endingAt: edgesEnd, parallelAbove: parallelAbove, &collector, &secondHalf) else {
                return nil
            }
        }
        collector.successors += secondHalf.successors
        collector.lines += secondHalf.lines
        guard collector.isConsistent, secondHalf.isConsistent else { return nil }
        let successors = collector.successors
        var successorKeys = ByteStringSet(expected: successors.count)
        var successorEnds = KeyEnds()
        for successor in successors {
            successorKeys.insert(successor.destination)
            successorEnds.insert(successor.destination)
        }

        // Pass 2: the place records. The small graph gets the records of the from-place,
        // the last place and the successors, and of the others only the best `limit` by frecency (the
        // order of `suggestions`' second tier) that pass the filter: the second tier can
        // show no other. Each key must have one record, spelled as it is displayed, so
        // a record is exactly the place a full load would make of it.
        var graph = RouteGraph()
        // One record per key: checked here, unless the file was checked before (a stamped
        // file was written by the writer or checked by this scan).
        var seen = ByteStringSet(expected: edgesChecked ? 0 : bytes.count / 800)
        var best = FrecencyShortList(room: request.successorsOnly ? 0 : request.limit)
        /// Takes one record into the small graph or the short list; false if the file
        /// cannot be answered from.
        func take(_ name: UnsafeRawBufferPointer, visits: Int64, time: Int64?) -> Bool {
            guard RouteGraph.foldKey(name, into: &key), !key.isEmpty, edgesChecked || seen.insert(key) else { return false }
            if key == fromKey || key == lastKey || successorKeys.contains(key) {
                let index = graph.intern(display: String(decoding: name, as: UTF8.self), key: String(decoding: key, as: UTF8.self))
                graph.addStatistics(visits: visits, lastVisitedAt: time, to: index)
            } else {
                let score = frecency(
                    visits: Int(clamping: visits), lastVisitedAt: time, now: request.now, halfLife: request.halfLife)
                best.consider(
                    score: score, time: time, key: key, name: offset(of: name, in: bytes)..<offset(of: name, in: bytes) + name.count,
                    visits: visits, in: bytes, filter: filter)
            }
            return true
        }
        if edgesChecked {
            // A checked file's names fold to keys that are not empty and are all
            // different, so a record needs folding only if it may be one the small graph
            // keeps whole (told by its first and last bytes) or may enter the short list.
            for index in 0..<records.count {
                let name = records.name(index, in: bytes)
                let time = records.time(index)
                let visits = records.visits(index)
                let score = frecency(
                    visits: Int(clamping: visits), lastVisitedAt: time, now: request.now, halfLife: request.halfLife)
                // (A record's key is never empty, so it cannot be an empty key.)
                if fromKey.isEmpty || !mayHaveKey(name, fromKey), lastKey.isEmpty || !mayHaveKey(name, lastKey),
                    !successorEnds.mayHold(name), !best.mayTake(score: score, time: time)
                {
                    continue
                }
                guard take(name, visits: visits, time: time) else { return nil }
            }
        } else {
            guard records.read(from: reader, namesChecked: false, successors: &copied), copied.isConsistent else {
                return nil
            }
            vouching =
                records.successorLines == nil
                || (!lastKey.isEmpty && fromKey == lastKey
                    && copiesSuccessors(records.successorLines, copied.lines, collector.lines, in: bytes))
            for index in 0..<records.count {
                guard take(records.name(index, in: bytes), visits: records.visits(index), time: records.time(index))
                else { return nil }
            }
        }
        for entry in best.entries {
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[entry.name]), as: UTF8.self)
            let index = graph.intern(display: name, key: String(decoding: entry.key, as: UTF8.self))
            graph.addStatistics(visits: entry.visits, lastVisitedAt: entry.time, to: index)
        }
        // Its spelling wins, as in a full load (which reads it last).
        if let lastName { graph.lastPlace = graph.internSpelling(lastName, key: &key) }

        // The successors' edges. Their destinations must have records (above).
        for successor in successors {
            guard let to = graph.placeIndex[String(decoding: successor.destination, as: UTF8.self)],
                let from = graph.internSpelling(successor.origin, key: &key, keepingName: true)
            else { return nil }
            graph.strengthen(from: from, to: to, by: Int(clamping: successor.weight), at: successor.time)
        }
        return graph
    }

    /// Whether a file's `successors` block (its lines at `block`, nil for none, of which
    /// `copied` left the last place) holds exactly the edge lines `leaving` the last
    /// place, in the same order, byte for byte; true for a file without the block. The
    /// spans come from `SuccessorCollector`s keyed by the last place, `leaving` from a
    /// scan of the edges from it (none for another from-place: then only a file
    /// without the block can be vouched for).
    static func copiesSuccessors(
        _ block: Range<Int>?, _ copied: [EdgeLine.Span], _ leaving: [EdgeLine.Span], in bytes: UnsafeRawBufferPointer
    ) -> Bool {
        guard let block else { return true }
        guard copied.count == leaving.count else { return false }
        // Every line of the block left the last place: their lengths and separators
        // (`,\n    `) add up to the block.
        var length = max(copied.count - 1, 0) * 6
        for (line, edge) in zip(copied, leaving) {
            guard line.count == edge.count,
                Platform.bytesEqual(
                    bytes.baseAddress.map { $0 + Int(line.start) }, bytes.baseAddress.map { $0 + Int(edge.start) },
                    count: Int(line.count))
            else { return false }
            length += Int(line.count)
        }
        return length == block.count
    }

    /// The place spelled `bytes` (created if new), whose shown spelling becomes this one
    /// unless `keepingName`; nil for a name that is empty once trimmed. `key` is scratch.
    mutating func internSpelling(
        _ bytes: UnsafeRawBufferPointer, key: inout [UInt8], keepingName: Bool = false
    ) -> Int? {
        let isNormal = RouteGraph.foldKey(bytes, into: &key)
        guard !key.isEmpty else { return nil }
        let keyText = String(decoding: key, as: UTF8.self)
        if keepingName, let index = placeIndex[keyText] { return index }
        let spelling = String(decoding: bytes, as: UTF8.self)
        return intern(display: isNormal ? spelling : Self.normalize(spelling).display, key: keyText)
    }

    /// Whether the place spelled `bytes` has the folded key `key`. Most names are told
    /// apart by their first or last byte (`mayHaveKey`), an answer without a call.
    /// `scratch` is reused between calls.
    @inline(__always)
    static func keyMatches(_ bytes: UnsafeRawBufferPointer, _ key: [UInt8], scratch: inout [UInt8]) -> Bool {
        mayHaveKey(bytes, key) && foldedKeyMatches(bytes, key, scratch: &scratch)
    }

    /// False if the place spelled `bytes` cannot have the folded key `key`, told by the
    /// first and the last two bytes: a plain ASCII character (not a space) folds to
    /// itself lower-cased; first, it is the key's first byte whatever follows (marks fold
    /// to nothing), and last, the key's last byte, and the one before it too when that
    /// is also plain ASCII (nothing can come between them). (An empty key is left to the
    /// fold.)
    @inline(__always)
    static func mayHaveKey(_ bytes: UnsafeRawBufferPointer, _ key: [UInt8]) -> Bool {
        if let first = bytes.first, let keyFirst = key.first, let last = bytes.last, let keyLast = key.last {
            if isPlain(first), lowered(first) != keyFirst { return false }
            if isPlain(last) {
                if lowered(last) != keyLast { return false }
                if bytes.count >= 2, isPlain(bytes[bytes.count - 2]) {
                    guard key.count >= 2, lowered(bytes[bytes.count - 2]) == key[key.count - 2] else { return false }
                }
            }
        }
        return true
    }

    /// Whether `byte` is a plain ASCII character other than a space or control, which
    /// folds to itself lower-cased.
    @inline(__always)
    static func isPlain(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x80
    }

    /// A plain ASCII character lower-cased.
    @inline(__always)
    static func lowered(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// `keyMatches` without the first-byte test: folded and compared piece by piece, so a
    /// name that differs is usually rejected early; unusual whitespace (leading,
    /// trailing, runs, tabs, non-ASCII) is left to the full fold.
    @inline(never)
    static func foldedKeyMatches(_ bytes: UnsafeRawBufferPointer, _ key: [UInt8], scratch: inout [UInt8]) -> Bool {
        let count = bytes.count
        let keyCount = key.count
        var index = 0
        var keyIndex = 0
        var hasBegun = false
        while index < count {
            let byte = bytes[index]
            if byte > 0x20 && byte < 0x80 {
                guard keyIndex < keyCount, key[keyIndex] == (byte &- 0x41 < 26 ? byte | 0x20 : byte) else { return false }
                index += 1
                keyIndex += 1
                hasBegun = true
            } else if byte == 0x20 && hasBegun && index + 1 < count && bytes[index + 1] > 0x20 && bytes[index + 1] < 0x80 {
                // One space between two plain characters is one space in the key.
                guard keyIndex < keyCount, key[keyIndex] == 0x20 else { return false }
                index += 1
                keyIndex += 1
            } else if byte >= 0x80 {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                guard index + length <= count else { break }
                var scalar = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                for offset in 1..<length { scalar = scalar << 6 | UInt32(bytes[index + offset] & 0x3F) }
                if TextFolding.isUnicodeWhitespace(scalar) { break }
                scratch.removeAll(keepingCapacity: true)
                UnicodeFolding.appendFolded(scalar, to: &scratch)
                guard keyIndex + scratch.count <= keyCount else { return false }
                for folded in scratch {
                    guard key[keyIndex] == folded else { return false }
                    keyIndex += 1
                }
                index += length
                hasBegun = true
            } else {
                break
            }
        }
        if index == count { return keyIndex == keyCount }
        foldKey(bytes, into: &scratch)
        return scratch == key
    }

    /// The eight bytes of `word` (little-endian) lower-cased, if they are printable ASCII
    /// (0x20…0x7E) without a space as the first or last byte or two spaces in a row; nil
    /// otherwise. Such bytes are their own key and their own display spelling, but for
    /// case, when a name has begun and no space is pending.
    @inline(__always)
    static func plainASCIIWordLowered(_ word: UInt64) -> UInt64? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        // A byte below 0x20, or 0x7F and above (0x7F + 1 sets the high bit).
        let outside = (word &- ones &* 0x20) | (word &+ ones) | word
        guard outside & high == 0 else { return nil }
        let spaces = ~((word ^ (ones &* 0x20)) &+ (ones &* 0x7F)) & high  // exact: no byte ≥ 0x80 here
        guard spaces & 0x8000_0000_0000_0080 == 0, spaces & (spaces >> 8) == 0 else { return nil }
        // Upper case: ≥ 'A' and not ≥ '['; adding 0x20 to those bytes lowers them.
        let upper = (word &+ ones &* (0x80 - 0x41)) & ~(word &+ ones &* (0x80 - 0x5B)) & high
        return word | (upper >> 2)
    }

    /// Writes the key of the place spelled `bytes` (valid UTF-8) into `key`, exactly as
    /// `placeKey(_:)` would, and returns whether `bytes` is already its own display
    /// spelling (trimmed, whitespace runs one space).
    @discardableResult
    static func foldKey(_ bytes: UnsafeRawBufferPointer, into key: inout [UInt8]) -> Bool {
        key.removeAll(keepingCapacity: true)
        // Raw output: at most seven bytes per scalar (`FoldedScalar`), and no array
        // appends in the loop (they were most of a fold's cost).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count * 7 + 8) { output in
            guard let out = output.baseAddress else { return true }
            var written = 0
            var pendingSpace = false
            var isUnchanged = true
            // Whether the display spelling has begun (a mark can fold to nothing, so the
            // key may still be empty).
            var hasBegun = false
            var index = 0
            let count = bytes.count
            let base = bytes.baseAddress
            // Where the next try of eight bytes at a time may start: after a failed one,
            // eight bytes go one by one (names with an accent in every word).
            var wordFrom = 0
            while index < count {
                // Eight plain ASCII bytes at a time when they are their own key, but for
                // case: printable, with no space first or last and no two spaces together.
                if index >= wordFrom, index + 8 <= count, !pendingSpace, hasBegun, let base {
                    if let lowered = Self.plainASCIIWordLowered(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                        UnsafeMutableRawPointer(out + written).storeBytes(of: lowered, as: UInt64.self)
                        written += 8
                        index += 8
                        continue
                    }
                    wordFrom = index + 8
                }
                let byte = bytes[index]
                var scalar: UInt32
                if byte < 0x80 {
                    if byte > 0x20 {
                        // Plain ASCII: the common case.
                        if pendingSpace {
                            out[written] = 0x20
                            written += 1
                            pendingSpace = false
                        }
                        out[written] = byte &- 0x41 < 26 ? byte | 0x20 : byte
                        written += 1
                        hasBegun = true
                        index += 1
                        continue
                    }
                    scalar = UInt32(byte)
                    index += 1
                } else {
                    // Lead byte's length; the reader has validated the sequence.
                    let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                    scalar = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                    for offset in 1..<length where index + offset < count {
                        scalar = scalar << 6 | UInt32(bytes[index + offset] & 0x3F)
                    }
                    index += length
                }
                let isSpace =
                    scalar < 0x80
                    ? (scalar == 0x20 || (scalar >= 0x09 && scalar <= 0x0D)) : TextFolding.isUnicodeWhitespace(scalar)
                if isSpace {
                    if scalar != 0x20 || pendingSpace || !hasBegun { isUnchanged = false }
                    if hasBegun { pendingSpace = true }
                    continue
                }
                hasBegun = true
                if pendingSpace {
                    out[written] = 0x20
                    written += 1
                    pendingSpace = false
                }
                let folded: FoldedScalar
                if scalar < 0x80 {
                    folded = FoldedScalar(encoding: scalar)
                } else {
                    let tables = FoldingTables.shared
                    folded = tables.folded(tables.entry(scalar), scalar)
                }
                var bits = folded.rawValue
                for _ in 0..<folded.count {
                    out[written] = UInt8(truncatingIfNeeded: bits)
                    written += 1
                    bits >>= 8
                }
            }
            if pendingSpace { isUnchanged = false }
            key.append(contentsOf: UnsafeBufferPointer(start: out, count: written))
            return isUnchanged
        }
    }
}

/// The edges leaving the from-place, kept as the edge lines are checked.
struct SuccessorCollector: EdgeLineSkimmer {
    /// One edge: its destination's key, its origin's spelling, time and weight.
    struct Successor {
        var destination: [UInt8]
        var origin: UnsafeRawBufferPointer
        var time: Int64?
        var weight: Int64
    }

    let bytes: UnsafeRawBufferPointer
    let fromKey: [UInt8]
    var successors: [Successor] = []
    /// Where every line leaving the from-place is, in file order (also those that
    /// `successors` leaves out), to compare with the file's `successors` block.
    var lines: [EdgeLine.Span] = []
    /// False if a checked line could not be read again (never expected).
    var isConsistent = true
    private var key: [UInt8] = []

    init(bytes: UnsafeRawBufferPointer, fromKey: [UInt8]) {
        self.bytes = bytes
        self.fromKey = fromKey
    }

    @inline(__always)
    func mayWant(originEndingWith last: UInt8, after before: UInt8) -> Bool {
        // `keyMatches`' rule for the last two bytes, before the origin's start is looked
        // for. A name in a checked file holds no quote: one before the last byte opens
        // a one-byte origin.
        guard let keyLast = fromKey.last else { return false }
        guard RouteGraph.isPlain(last) else { return true }
        guard RouteGraph.lowered(last) == keyLast else { return false }
        guard RouteGraph.isPlain(before), before != UInt8(ascii: "\"") else { return true }
        return fromKey.count >= 2 && RouteGraph.lowered(before) == fromKey[fromKey.count - 2]
    }

    @inline(__always)
    mutating func wants(origin: UnsafeRawBufferPointer) -> Bool {
        !fromKey.isEmpty && RouteGraph.keyMatches(origin, fromKey, scratch: &key)
    }

    @inline(__always)
    mutating func visit(_ index: Int, _ line: EdgeLine) {
        guard !fromKey.isEmpty else { return }
        let origin = line.origin(in: bytes)
        guard RouteGraph.keyMatches(origin, fromKey, scratch: &key) else { return }
        guard let edge = RouteGraph.values(of: line, in: bytes) else {
            isConsistent = false
            return
        }
        lines.append(EdgeLine.Span(start: line.start, count: Int32(truncatingIfNeeded: edge.end) - line.start))
        RouteGraph.foldKey(line.destination(in: bytes), into: &key)
        // A full load drops an edge to an empty name; one to the from-place itself is
        // never suggested.
        guard !key.isEmpty, key != fromKey else { return }
        successors.append(Successor(destination: key, origin: origin, time: edge.time, weight: edge.weight))
    }
}

/// The place records of a graph file, read without folding: where each name is, its
/// visits and its time, in arrays of integers (whose metadata the standard library has
/// ready). For a checked (stamped) file they are read on one thread while the edges are
/// skimmed on another.
struct RecordList {
    /// One record: where its name is in the file, its visits, and its time
    /// (`Int64.min` for none). One array of them, so that a record costs one append.
    private struct Record {
        var nameStart: Int32
        var nameCount: Int32
        var visits: Int64
        var time: Int64
    }

    private var records: [Record] = []

    var count: Int { records.count }

    func name(_ index: Int, in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let start = Int(records[index].nameStart)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<start + Int(records[index].nameCount)])
    }

    func visits(_ index: Int) -> Int64 {
        records[index].visits
    }

    func time(_ index: Int) -> Int64? {
        records[index].time == .min ? nil : records[index].time
    }

    /// Where the file's `successors` lines are, once `read` has reached them (see
    /// `RouteGraph.readFileEnd`): nil when the file has no such block.
    private(set) var successorLines: Range<Int>? = nil

    /// Reads the records from `reader`'s position (the first record) to the end of the
    /// file, and the `successors` lines after them, if any, with `successors`; false
    /// when they are not in the writer's shape. With `namesChecked` (a stamped file)
    /// names are read up to their closing quote, else checked as plain.
    mutating func read(from reader: JSONReader, namesChecked: Bool, successors: inout SuccessorCollector) -> Bool {
        var reader = reader
        let bytes = reader.bytes
        // A record takes at least 50 bytes as written (with its time and separator).
        records.reserveCapacity((bytes.count - reader.offset) / 50 + 1)
        while true {
            var time = Int64.min
            if reader.skipLiteral("{\"lastVisitedAt\":") {
                guard let value = reader.plainNonNegativeInteger(), reader.skipLiteral(",\"name\":\"") else { return false }
                time = value
            } else {
                guard reader.skipLiteral("{\"name\":\"") else { return false }
            }
            guard let name = namesChecked ? reader.checkedPlainStringBody() : reader.plainStringBody(),
                reader.skipLiteral(",\"visits\":"),
                let visits = reader.plainNonNegativeInteger(), reader.skipLiteral("}")
            else { return false }
            records.append(
                Record(
                    nameStart: Int32(truncatingIfNeeded: RouteGraph.offset(of: name, in: bytes)),
                    nameCount: Int32(truncatingIfNeeded: name.count), visits: visits, time: time))
            if reader.skipLiteral(",\n    ") { continue }
            guard let end = RouteGraph.readFileEnd(&reader, &successors) else { return false }
            successorLines = end
            return true
        }
    }
}

/// The first and last bytes of a set of folded keys, and the byte before the last, to
/// tell most names that have none of those keys without folding them
/// (`RouteGraph.mayHaveKey`'s rule for many keys).
struct KeyEnds {
    /// One bit per (first byte, last byte) pair.
    private var pairs: [UInt64] = []
    /// One bit per hash of (first, next to last, last byte); a key of one byte counts
    /// with 0 before its last, which no name it could match has there.
    private var triples: [UInt64] = []

    mutating func insert(_ key: [UInt8]) {
        guard let first = key.first, let last = key.last else { return }
        if pairs.isEmpty {
            pairs = [UInt64](repeating: 0, count: 1024)
            triples = [UInt64](repeating: 0, count: 512)
        }
        let pair = Int(first) << 8 | Int(last)
        pairs[pair >> 6] |= 1 << UInt64(pair & 63)
        let triple = Self.triple(first, key.count >= 2 ? key[key.count - 2] : 0, last)
        triples[triple >> 6] |= 1 << UInt64(triple & 63)
    }

    /// False if the place spelled `bytes` cannot have any of the keys.
    @inline(__always)
    func mayHold(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !pairs.isEmpty else { return false }
        guard let first = bytes.first, let last = bytes.last, RouteGraph.isPlain(first), RouteGraph.isPlain(last)
        else { return true }
        let pair = Int(RouteGraph.lowered(first)) << 8 | Int(RouteGraph.lowered(last))
        guard pairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0 else { return false }
        guard bytes.count >= 2, RouteGraph.isPlain(bytes[bytes.count - 2]) else { return true }
        let triple = Self.triple(RouteGraph.lowered(first), RouteGraph.lowered(bytes[bytes.count - 2]), RouteGraph.lowered(last))
        return triples[triple >> 6] & (1 << UInt64(triple & 63)) != 0
    }

    /// A 15-bit hash of three bytes.
    @inline(__always)
    private static func triple(_ first: UInt8, _ beforeLast: UInt8, _ last: UInt8) -> Int {
        Int(((UInt32(first) << 16 | UInt32(beforeLast) << 8 | UInt32(last)) &* 0x9E37_79B1) >> 17)
    }
}

/// The best place records for the frecency tier, met one at a time: at most `room` of
/// them, in `suggestions`' order (score, then the later visit, then the folded key and
/// the spelling, byte for byte), kept sorted by insertion; all of them when `room` is
/// nil. The filter is asked only about a record that would be kept.
struct FrecencyShortList {
    struct Entry {
        var score: Double
        var time: Int64?
        var key: [UInt8]
        /// The spelling's bytes in the file.
        var name: Range<Int>
        var visits: Int64
    }

    let room: Int?
    private(set) var entries: [Entry] = []

    init(room: Int?) {
        self.room = room
    }

    /// False if a record with this score and time cannot be kept, whatever its key
    /// and spelling (which only break ties).
    @inline(__always)
    func mayTake(score: Double, time: Int64?) -> Bool {
        guard let room else { return true }
        guard room > 0 else { return false }
        guard entries.count == room, let worst = entries.last else { return true }
        if score != worst.score { return score > worst.score }
        return (time ?? .min) >= (worst.time ?? .min)
    }

    mutating func consider(
        score: Double, time: Int64?, key: [UInt8], name: Range<Int>, visits: Int64, in bytes: UnsafeRawBufferPointer,
        filter: ((String) -> Bool)?
    ) {
        if let room {
            guard room > 0 else { return }
            if entries.count == room, let worst = entries.last,
                !Self.ranksBefore(score, time, key, name, worst, in: bytes)
            {
                return
            }
        }
        if let filter, !filter(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[name]), as: UTF8.self)) { return }
        let entry = Entry(score: score, time: time, key: key, name: name, visits: visits)
        if room == nil {
            entries.append(entry)
            return
        }
        var position = entries.count
        while position > 0, Self.ranksBefore(score, time, key, name, entries[position - 1], in: bytes) { position -= 1 }
        entries.insert(entry, at: position)
        if let room, entries.count > room { entries.removeLast() }
    }

    private static func ranksBefore(
        _ score: Double, _ time: Int64?, _ key: [UInt8], _ name: Range<Int>, _ other: Entry, in bytes: UnsafeRawBufferPointer
    ) -> Bool {
        if score != other.score { return score > other.score }
        let time = time ?? .min
        let otherTime = other.time ?? .min
        if time != otherTime { return time > otherTime }
        if key != other.key { return key.lexicographicallyPrecedes(other.key) }
        return bytes[name].lexicographicallyPrecedes(bytes[other.name])
    }
}
