/// One visit recorded by patching the graph file instead of rewriting it.
///
/// A visit changes at most five things in a saved graph: the edge from the last place
/// (one line, or a new line at the end of `edges`), the visited place's record (one
/// line of `places`, or a new line at its end), `lastVisitedAt` and
/// `lastVisitedLocation`, and the `successors` block, which becomes a copy of the lines
/// that leave the visited place (found while the edge lines are read). Parsing 100,000
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
///   corrupt file is never copied), every place record has visits, and no place has two
///   records or a record spelled otherwise than displayed;
/// - the visited place has exactly one record, or it is new: no record and no line
///   names it; and wherever the visited or the last place is named, it is spelled as
///   it would be written (a new spelling changes every line that names the place);
/// - a new edge joins two places that already lie on edges, or leads from one to a new
///   place while the last record is of a place on an edge (`json()` writes the records
///   of places on edges first, so the new place's record then goes last); otherwise
///   the `places` array would be reordered;
/// - `--max-places` cannot drop anything: the file names no more places than the limit.
///
/// Anything the patch leaves alone is left as it was, so even a file written by other
/// means loads afterwards exactly as if it had been loaded, visited and saved.
///
/// A file stamped as checked (see `GraphFile.checkedStamp`) has its edge lines located
/// by their quotes rather than checked again (`locateEdgeLines`); the rest is as above.
extension RouteGraph {
    /// The patch that records a visit to `place` at `time` in the graph file `bytes`, as
    /// `visit(_:at:selfLoops:newTrip:)` then `prune(maxPlaces:)` would (0: no limit);
    /// `tripGap` starts a new trip after a longer pause, as in routegraph-visit. Nil when
    /// the file must be loaded instead (see the top of this file).
    /// `edgesChecked`: the file carries a stamp of its current identity.
    public static func visitPatch(
        _ bytes: UnsafeRawBufferPointer, place: String, at time: Int64, selfLoops: Bool = false,
        newTrip: Bool = false, tripGap: Int64? = nil, maxPlaces: Int = 0, edgesChecked: Bool = false
    ) -> FilePatch? {
        visitPatch(
            bytes, place: place, at: time, selfLoops: selfLoops, newTrip: newTrip, tripGap: tripGap, maxPlaces: maxPlaces,
            parallelAbove: parallelScanBytes, edgesChecked: edgesChecked)
    }

    /// `visitPatch`, checking the edge lines on two threads from `parallelAbove` bytes
    /// of them (tests lower it).
    static func visitPatch(
        _ bytes: UnsafeRawBufferPointer, place: String, at time: Int64, selfLoops: Bool, newTrip: Bool, tripGap: Int64?,
        maxPlaces: Int, parallelAbove: Int, edgesChecked: Bool = false
    ) -> FilePatch? {
        let (display, placeKeyText) = normalize(place)
        let hereKey = Array(placeKeyText.utf8)
        let hereName = Array(display.utf8)
        guard !hereKey.isEmpty, isPlain(hereName) else { return nil }

        // The last place, from the header lines found from the end, so that the edge
        // lines are searched for both places while they are checked: spelled as it will
        // be written (its own display spelling).
        guard let tail = headerFromTail(bytes) else { return nil }
        var lastKey: [UInt8]? = nil
        var lastName: [UInt8]? = nil
        if let name = tail.lastName {
            var key: [UInt8] = []
            guard foldKey(name, into: &key), !key.isEmpty else { return nil }
            lastKey = key
            lastName = Array(name)
        }
        var firstHalf = PlaceFinder(bytes: bytes, hereKey: hereKey, hereName: hereName, lastKey: lastKey, lastName: lastName)
        firstHalf.lines.reserveCapacity(bytes.count / 120)
        var secondHalf = firstHalf
        let edgesHold =
            edgesChecked
            ? locateEdgeLines(bytes, endingAt: tail.edgesEnd, parallelAbove: parallelAbove, &firstHalf, &secondHalf)
            : scanEdgeLines(bytes, endingAt: tail.edgesEnd, parallelAbove: parallelAbove, &firstHalf, &secondHalf)
        guard edgesHold, !firstHalf.isMisspelled, !secondHalf.isMisspelled else { return nil }
        let lines = firstHalf.lines + secondHalf.lines
        // The edge last place → this place, if any: at most one.
        guard firstHalf.edges.count + secondHalf.edges.count <= 1 else { return nil }
        let edgeIndex = firstHalf.edges.first ?? secondHalf.edges.first.map { $0 + firstHalf.lines.count }
        // The lines that leave the visited place, the new `successors` block.
        let leavingHere = firstHalf.leavingHere + secondHalf.leavingHere.map { $0 + firstHalf.lines.count }
        let hereIsOnEdge = firstHalf.hereIsOnEdge || secondHalf.hereIsOnEdge
        let lastIsOnEdge = firstHalf.lastIsOnEdge || secondHalf.lastIsOnEdge
        var reader = JSONReader(bytes)
        reader.rewind(to: tail.edgesEnd)

        // `--max-places` needs the number of places a load would know: at most one per
        // distinct spelling in the records and on edges, plus the last place. They are
        // counted only when that bound could pass the limit: the names on the second
        // half of the edges on another thread while this one reads the records, then
        // the first half here, and the two sets joined.
        final class SpellingCount: @unchecked Sendable {
            var spellings: ByteStringSet
            init(expected: Int) { spellings = ByteStringSet(expected: expected) }
        }
        // Sized for the edge names only when they will be counted: a set sized for
        // them costs zeroed pages (and their faults) that a small visit never uses.
        let edgeNamesCounted = maxPlaces > 0 && 2 * lines.count + 1 > maxPlaces
        let firstCount = SpellingCount(expected: edgeNamesCounted ? 1024 : 0)
        let secondCount = SpellingCount(expected: edgeNamesCounted ? 1024 : 0)
        let countEdgeNames = { (range: Range<Int>, count: SpellingCount) in
            for line in lines[range] {
                count.spellings.insert(line.destination(in: bytes))
                count.spellings.insert(line.origin(in: bytes))
            }
        }
        let middle = lines.count / 2
        var counting: BackgroundWork? = nil
        if edgeNamesCounted {
            let work = BackgroundWork { countEdgeNames(middle..<lines.count, secondCount) }
            if work.start() { counting = work } else { countEdgeNames(middle..<lines.count, secondCount) }
        }
        defer { counting?.join() }
        let edgesEnd = tail.edgesEnd
        guard reader.skipLiteral("\n  ],\n") else { return nil }
        var lastAt: Int64? = nil
        if reader.skipLiteral("  \"lastVisitedAt\": ") {
            guard let value = reader.plainNonNegativeInteger(), reader.skipLiteral(",\n") else { return nil }
            lastAt = value
        }
        // The same header lines as found from the end (the edges ended where they did).
        if reader.skipLiteral("  \"lastVisitedLocation\": \"") {
            guard reader.plainStringBody() != nil, reader.skipLiteral(",\n") else { return nil }
        }
        guard reader.skipLiteral("  \"places\": [\n    ") else { return nil }
        let placesStart = reader.offset
        var scratch: [UInt8] = []
        if lastKey == nil { lastAt = nil }
        let startsTrip = newTrip || (tripGap.map { gap in lastAt.map { time - $0 > gap } ?? false } ?? false)
        let makesEdge = lastKey != nil && !startsTrip && (lastKey! != hereKey || selfLoops)

        // The places: the visited one's record, and that every record has visits.
        var hereRecord: (range: Range<Int>, visits: Int64, time: Int64?)? = nil
        var records: [EdgeLine.Span] = []
        // In a file not stamped as checked, also what a stamp vouches for (see
        // `GraphFile.checkedStamp`): one record per place, spelled as it is displayed, so
        // that the patched file may carry the stamp. A file with more is rewritten whole.
        var seen = ByteStringSet(expected: edgesChecked ? 0 : (bytes.count - placesStart) / 48)
        var key: [UInt8] = []
        while true {
            let start = reader.offset
            var recordTime: Int64? = nil
            if reader.skipLiteral("{\"lastVisitedAt\":") {
                guard let value = reader.plainNonNegativeInteger(), reader.skipLiteral(",\"name\":\"") else { return nil }
                recordTime = value
            } else {
                guard reader.skipLiteral("{\"name\":\"") else { return nil }
            }
            guard let name = edgesChecked ? reader.checkedPlainStringBody() : reader.plainStringBody(),
                reader.skipLiteral(",\"visits\":"), let visits = reader.plainNonNegativeInteger(), visits > 0,
                reader.skipLiteral("}")
            else { return nil }
            if !edgesChecked {
                guard foldKey(name, into: &key), !key.isEmpty, seen.insert(key) else { return nil }
            }
            records.append(
                EdgeLine.Span(start: Int32(truncatingIfNeeded: offset(of: name, in: bytes)), count: Int32(truncatingIfNeeded: name.count)))
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
        // The end: the old `successors` block, if any, is checked and replaced below.
        var ignored = SuccessorCollector(bytes: bytes, fromKey: [])
        guard let lastRecord = records.last, readFileEnd(&reader, &ignored) != nil else { return nil }
        let lastRecordName = lastRecord.bytes(in: bytes)
        // A new place's record goes after those of the places on edges, which `json()`
        // writes first: at the end when the last record is on an edge (checked below).
        let isNewPlace = hereRecord == nil
        var lastRecordIsOnEdge = false

        // A new place's record goes last only if the last record is of a place on an edge.
        if isNewPlace && makesEdge {
            for line in lines
            where sameBytes(line.destination(in: bytes), lastRecordName) || sameBytes(line.origin(in: bytes), lastRecordName) {
                lastRecordIsOnEdge = true
                break
            }
        }
        if isNewPlace {
            // A place no line names: its edge, if any, goes last, and its record after
            // the records of places on edges. An edge from a place that was on none
            // would move that place's record, so such a visit is left to a full load.
            guard !hereIsOnEdge, !makesEdge || (lastIsOnEdge && lastRecordIsOnEdge) else { return nil }
        } else if makesEdge && edgeIndex == nil && !(hereIsOnEdge && lastIsOnEdge) {
            return nil
        }
        if maxPlaces > 0 && records.count + 1 + 2 * lines.count > maxPlaces {
            // The first half of the edge names, and the second unless it is being counted
            // already (when the records take the bound past the limit), then the records.
            if counting == nil && !(2 * lines.count + 1 > maxPlaces) {
                countEdgeNames(middle..<lines.count, secondCount)
            }
            countEdgeNames(0..<middle, firstCount)
            for record in records { firstCount.spellings.insert(record.bytes(in: bytes)) }
            counting?.join()
            counting = nil
            firstCount.spellings.formUnion(secondCount.spellings)
            if firstCount.spellings.count + 1 > maxPlaces { return nil }
        }

        // The new file.
        var patch = FilePatch()
        // The new or changed edge line, if it leaves the visited place (a self-loop).
        var changedLine: [UInt8]? = nil
        var addedLine: [UInt8]? = nil
        if makesEdge, let lastName {
            if let edgeIndex {
                guard let edge = values(of: lines[edgeIndex], in: bytes) else { return nil }
                patch.keep(0..<Int(lines[edgeIndex].start))
                let line = edgeLine(
                    destination: hereName, time: max(edge.time ?? time, time), origin: lastName,
                    weight: edge.weight == .max ? .max : edge.weight + 1)
                patch.add(line)
                patch.keep(edge.end..<edgesEnd)
                changedLine = line
            } else {
                patch.keep(0..<edgesEnd)
                let line = edgeLine(destination: hereName, time: time, origin: lastName, weight: 1)
                patch.add(Array(",\n    ".utf8) + line)
                if lastKey == hereKey { addedLine = line }
            }
        } else {
            patch.keep(0..<edgesEnd)
        }
        // The `successors` block: the edge lines leaving the visited place, as changed.
        var leaving: [[UInt8]] = []
        for index in leavingHere {
            if index == edgeIndex, let changedLine {
                leaving.append(changedLine)
            } else {
                guard let edge = values(of: lines[index], in: bytes) else { return nil }
                leaving.append(Array(UnsafeRawBufferPointer(rebasing: bytes[Int(lines[index].start)..<edge.end])))
            }
        }
        if let addedLine { leaving.append(addedLine) }
        let successors =
            leaving.isEmpty
            ? Array("],\n".utf8)
            : Array("\n    ".utf8) + Array(leaving.joined(separator: Array(",\n    ".utf8))) + Array("\n  ],\n".utf8)
        var header = Array("\n  ],\n  \"lastVisitedAt\": ".utf8)
        appendInteger(time, to: &header)
        header += Array(",\n  \"lastVisitedLocation\": \"".utf8) + hereName + Array("\",\n  \"places\": [\n    ".utf8)
        patch.add(header)
        var record = Array("{\"lastVisitedAt\":".utf8)
        appendInteger(max(hereRecord?.time ?? time, time), to: &record)
        record += Array(",\"name\":\"".utf8) + hereName + Array("\",\"visits\":".utf8)
        appendInteger(hereRecord.map { $0.visits == .max ? .max : $0.visits + 1 } ?? 1, to: &record)
        record.append(UInt8(ascii: "}"))
        if let hereRecord {
            patch.keep(placesStart..<hereRecord.range.lowerBound)
            patch.add(record)
            patch.keep(hereRecord.range.upperBound..<placesEnd)
        } else {
            patch.keep(placesStart..<placesEnd)
            patch.add(Array(",\n    ".utf8) + record)
        }
        patch.add(Array("\n  ],\n  \"successors\": [".utf8) + successors + Array("  \"version\": 1\n}\n".utf8))
        return patch
    }

    /// Whether `name` is the visited place and whether it is the last place; nil when it
    /// is one of them spelled otherwise than `hereName` or `lastName`.
    @inline(__always)
    fileprivate static func identify(
        _ name: UnsafeRawBufferPointer, here hereKey: [UInt8], _ hereName: [UInt8], last lastKey: [UInt8]?,
        _ lastName: [UInt8]?, scratch: inout [UInt8]
    ) -> (isHere: Bool, isLast: Bool)? {
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

    /// One edge line as `json()` writes it (without indentation or separator).
    private static func edgeLine(destination: [UInt8], time: Int64, origin: [UInt8], weight: Int64) -> [UInt8] {
        var line = Array("{\"destination\":\"".utf8) + destination + Array("\",\"lastVisitedAt\":".utf8)
        appendInteger(time, to: &line)
        line += Array(",\"origin\":\"".utf8) + origin + Array("\",\"weight\":".utf8)
        appendInteger(weight, to: &line)
        line.append(UInt8(ascii: "}"))
        return line
    }

    /// Whether `name` can be written without escapes (the reader's plain strings).
    private static func isPlain(_ name: [UInt8]) -> Bool {
        !name.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }

    private static func sameBytes(_ a: UnsafeRawBufferPointer, _ b: [UInt8]) -> Bool {
        a.count == b.count && b.withUnsafeBytes { Platform.bytesEqual(a.baseAddress, $0.baseAddress, count: a.count) }
    }

    private static func sameBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        a.count == b.count && Platform.bytesEqual(a.baseAddress, b.baseAddress, count: a.count)
    }

    static func offset(of part: UnsafeRawBufferPointer, in whole: UnsafeRawBufferPointer) -> Int {
        guard let base = whole.baseAddress, let start = part.baseAddress else { return 0 }
        return start - base
    }

    private static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        bytes += Array(String(value).utf8)
    }
}

/// The visit patch's pass over the edge lines, on one half of them: every line kept,
/// and where the visited place and the last place are named (see `identify`).
private struct PlaceFinder: EdgeLineVisitor {
    let bytes: UnsafeRawBufferPointer
    let hereKey: [UInt8]
    let hereName: [UInt8]
    let lastKey: [UInt8]?
    let lastName: [UInt8]?
    var lines: [EdgeLine] = []
    /// Indexes in `lines` of the edges last place → visited place.
    var edges: [Int] = []
    /// Indexes in `lines` of the edges that leave the visited place.
    var leavingHere: [Int] = []
    var hereIsOnEdge = false
    var lastIsOnEdge = false
    /// Whether one of the two places is named with another spelling somewhere.
    var isMisspelled = false
    private var scratch: [UInt8] = []

    init(bytes: UnsafeRawBufferPointer, hereKey: [UInt8], hereName: [UInt8], lastKey: [UInt8]?, lastName: [UInt8]?) {
        self.bytes = bytes
        self.hereKey = hereKey
        self.hereName = hereName
        self.lastKey = lastKey
        self.lastName = lastName
    }

    @inline(__always)
    mutating func visit(_ index: Int, _ line: EdgeLine) {
        lines.append(line)
        guard
            let to = RouteGraph.identify(
                line.destination(in: bytes), here: hereKey, hereName, last: lastKey, lastName, scratch: &scratch),
            let from = RouteGraph.identify(line.origin(in: bytes), here: hereKey, hereName, last: lastKey, lastName, scratch: &scratch)
        else {
            isMisspelled = true
            return
        }
        hereIsOnEdge = hereIsOnEdge || to.isHere || from.isHere
        lastIsOnEdge = lastIsOnEdge || to.isLast || from.isLast
        if from.isLast && to.isHere { edges.append(lines.count - 1) }
        if from.isHere { leavingHere.append(lines.count - 1) }
    }
}
