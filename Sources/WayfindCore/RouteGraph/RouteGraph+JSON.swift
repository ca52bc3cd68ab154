/// The route graph file: reading and writing it as JSON.
///
/// The layout is a superset of what the seed's `Codable` struct produces, so files move
/// freely both ways:
///
///     {
///       "edges": [
///         {"destination":"Airport","lastVisitedAt":1700000000,"origin":"City Center","weight":12}
///       ],
///       "lastVisitedAt": 1700000000,
///       "lastVisitedLocation": "Airport",
///       "places": [
///         {"hours":[0,0,0,0,0,0,0,0,2,1,0,0,0,0,0,0,0,5,4,0,0,0,0,0],"lastVisitedAt":1700000000,"name":"Airport","visits":12}
///       ],
///       "version": 1
///     }
///
/// - The seed's keys keep their names and types: `edges` (`origin`, `destination`,
///   `weight`) and `lastVisitedLocation` (string, absent or null). Ours are additions:
///   `version`, `lastVisitedAt` (top and edges) and `places` (visits, last visit and
///   visits by local hour of day of each place; a file without it, the seed's, gets
///   visits estimated from its edges; a record without `hours`, its visits spread evenly
///   over the day).
/// - No `version` is the seed's format (0); a newer version than `currentVersion` is
///   refused even when the rest does not parse ("upgrade", not "syntax error").
/// - Unknown keys of any type are validated and ignored (`successors`, which earlier
///   versions wrote, is one); those of the top-level object are written back, those
///   inside an edge or a place record are not (man 5 routegraph). A missing `edges` is none, a missing `weight` 1; edges whose
///   places fold together are merged (weights added, the later time kept), edges with an
///   empty place name dropped; anything else unexpected is an error with its position and
///   a path such as `edges[3].weight`.
/// - A place shows the spelling the file names it with last, `lastVisitedLocation`'s last.
/// - Writing sorts keys, writes one edge per line in the order learned and one place per
///   line in the graph's order (its records', then first visits'); nil values are omitted,
///   which the seed's decoder reads as nil.
extension RouteGraph {
    /// Reads a graph from the bytes of a graph file.
    public init(json bytes: UnsafeRawBufferPointer) throws(RouteGraphDecodingError) {
        self.init(contents: try Self.contents(of: bytes), in: bytes)
    }

    /// Reads a graph from the bytes of a graph file.
    public init(json bytes: [UInt8]) throws(RouteGraphDecodingError) {
        self = try bytes.withUnsafeBytes { buffer in Result { () throws(RouteGraphDecodingError) in try RouteGraph(json: buffer) } }.get()
    }

    /// The contents of a graph file (see `GraphFileContents`), or why it is not one.
    static func contents(of bytes: UnsafeRawBufferPointer, edges: GraphFileContents.EdgeSelection = .every)
        throws(RouteGraphDecodingError) -> GraphFileContents
    {
        let contents: GraphFileContents
        do {
            contents = try GraphFileContents.read(bytes, edges: edges)
        } catch {
            if let found = GraphFileContents.peekVersion(bytes), found > Self.currentVersion {
                throw .unsupportedVersion(found: found, supported: Self.currentVersion)
            }
            throw .invalid(error)
        }
        if contents.version > Self.currentVersion {
            throw .unsupportedVersion(found: contents.version, supported: Self.currentVersion)
        }
        guard contents.members.contains(where: { [.edges, .places, .lastVisitedLocation, .version].contains($0.key) }) else {
            throw .notAGraph
        }
        return contents
    }

    /// The graph a file's contents describe; `bytes` are the file's.
    init(contents: GraphFileContents, in bytes: UnsafeRawBufferPointer) {
        precondition(contents.keptOrigin == nil, "a graph is built from every edge")
        self.init()
        // Edges name each place again and again: a spelling met before, still its place's
        // display spelling, is that place without folding it to its key again.
        var known: [SpellingKey: Int] = [:]
        func interned(_ name: UnsafeRawBufferPointer) -> Int? {
            if let index = known[SpellingKey(bytes: name)],
                placeTable[index].name.utf8.withContiguousStorageIfAvailable({ Platform.bytesEqual(UnsafeRawBufferPointer($0), name) })
                    == true
            {
                return index
            }
            let index = intern(spelling: name)
            if let index { known[SpellingKey(bytes: name)] = index }
            return index
        }
        // Places are numbered as the records list them (so a save writes them back in
        // the same order), then as edges name them; spellings then apply in file order.
        for record in contents.records { _ = interned(contents.bytes(of: record.name, in: bytes)) }
        var edgeIndex = 0
        var recordIndex = 0
        while edgeIndex < contents.edges.count || recordIndex < contents.records.count {
            if recordIndex == contents.records.count
                || (edgeIndex < contents.edges.count
                    && contents.edges[edgeIndex].element.lowerBound < contents.records[recordIndex].element.lowerBound)
            {
                let edge = contents.edges[edgeIndex]
                edgeIndex += 1
                if let to = interned(contents.bytes(of: edge.destination, in: bytes)),
                    let from = interned(contents.bytes(of: edge.origin, in: bytes))
                {
                    strengthen(from: from, to: to, by: Int(clamping: edge.weight), at: edge.time)
                }
            } else {
                let record = contents.records[recordIndex]
                recordIndex += 1
                if let index = interned(contents.bytes(of: record.name, in: bytes)) {
                    addRecord(record, to: index)
                }
            }
        }
        // The last place is read last so that its spelling wins, whatever the key order.
        if let name = contents.lastName { lastPlace = interned(contents.bytes(of: name, in: bytes)) }
        lastVisitedAt = lastPlace == nil ? nil : contents.lastVisitedAt
        if !contents.hasRecords { estimateStatisticsFromEdges() }
        version = Int(clamping: contents.version)
        otherMembers = contents.members.filter { $0.key == .other }.map { Array(bytes[Int($0.start)..<Int($0.value.upperBound)]) }
            .sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// The graph as the bytes of a graph file, ending with a newline.
    public func json() -> [UInt8] {
        json(places: referencedPlaces())
    }

    /// The graph as the bytes of a graph file, with the records of `places` in that order.
    func json(places: [Int]) -> [UInt8] {
        typealias F = GraphFileFormat
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + links.count * 120 + placeTable.count * 64)
        var others = otherMembers[...]
        /// Writes the other members whose keys sort before `key`.
        func othersBefore(_ key: StaticString) {
            let quoted = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
            while let member = others.first, member.dropFirst().lexicographicallyPrecedes(quoted) {
                bytes += [0x20, 0x20] + others.removeFirst() + [0x2C, 0x0A]
            }
        }
        F.append(F.documentStart, to: &bytes)
        othersBefore("edges\"")
        F.append(F.edgesStart, to: &bytes)
        for (index, link) in links.enumerated() {
            F.append(index == 0 ? F.firstElement : F.elementSeparator, to: &bytes)
            F.appendEdge(
                destination: placeTable[link.destination].name, time: link.lastVisitedAt, origin: placeTable[link.origin].name,
                weight: link.weight, to: &bytes)
        }
        F.append(links.isEmpty ? F.emptyListEnd : F.listEnd, to: &bytes)
        if let lastPlace {
            othersBefore("lastVisitedAt\"")
            if let lastVisitedAt {
                F.append(F.headerTime, to: &bytes)
                JSONWriter.appendInteger(lastVisitedAt, to: &bytes)
                F.append(F.memberEnd, to: &bytes)
            }
            othersBefore("lastVisitedLocation\"")
            F.append(F.headerLocation, to: &bytes)
            JSONWriter.appendQuoted(placeTable[lastPlace].name, to: &bytes)
            F.append(F.memberEnd, to: &bytes)
        }
        othersBefore("places\"")
        F.append(F.placesStart, to: &bytes)
        var isFirst = true
        for index in places {
            let place = placeTable[index]
            guard place.visits > 0 || place.lastVisitedAt != nil else { continue }
            F.append(isFirst ? F.firstElement : F.elementSeparator, to: &bytes)
            isFirst = false
            F.appendRecord(name: place.name, visits: place.visits, time: place.lastVisitedAt, hours: place.hours, to: &bytes)
        }
        F.append(isFirst ? F.emptyListEnd : F.listEnd, to: &bytes)
        othersBefore("version\"")
        F.append(F.versionKey, to: &bytes)
        JSONWriter.appendInteger(Int64(Self.currentVersion), to: &bytes)
        for member in others { bytes += [0x2C, 0x0A, 0x20, 0x20] + member }
        F.append(F.documentEnd, to: &bytes)
        return bytes
    }

    /// Adds what a place record of a file says (visits, last visit, visits by hour) to the
    /// place `index`: every reader of records calls this.
    mutating func addRecord(_ record: GraphFileContents.Record, to index: Int) {
        addStatistics(visits: record.visits, lastVisitedAt: record.time, to: index)
        placeTable[index].hours.add(record.hours)
    }

    /// Adds read statistics to a place; two spellings of one place add their visits
    /// and keep the later time.
    @inline(__always)
    mutating func addStatistics(visits: Int64, lastVisitedAt time: Int64?, to index: Int) {
        let (sum, overflow) = placeTable[index].visits.addingReportingOverflow(Int(clamping: visits))
        placeTable[index].visits = overflow ? .max : sum
        if let time { placeTable[index].lastVisitedAt = max(placeTable[index].lastVisitedAt ?? time, time) }
    }
}

/// The layout of a graph file as written: the one writer of its lines, and the literals
/// that the reader's fast path (`GraphFileContents`) compares the file's bytes with.
///
///     {                                    documentStart
///       "edges": [                         edgesStart (firstElement before the first line)
///         {"destination":"B","lastVisitedAt":1700000000,"origin":"A","weight":1},
///         …                                (elementSeparator between lines)
///       ],                                 listEnd (emptyListEnd: "[],")
///       "lastVisitedAt": 1700000000,       header, with a last place only
///       "lastVisitedLocation": "B",
///       "places": [                        placesStart
///         {"hours":[0,…,1,…,0],"lastVisitedAt":1700000000,"name":"B","visits":1}
///       ],
///       "version": 1                       versionKey, then `RouteGraph.currentVersion`
///     }                                    documentEnd
///
/// Members this version does not know go where their keys sort, each on a line of
/// its own: `  "key": value,`.
///
/// (Literals are computed properties: a stored static costs a lazy-initialization check
/// at every use.)
enum GraphFileFormat {
    static var documentStart: StaticString { "{\n" }
    static var edgesStart: StaticString { "  \"edges\": [" }
    static var firstElement: StaticString { "\n    " }
    static var elementSeparator: StaticString { ",\n    " }
    static var listEnd: StaticString { "\n  ],\n" }
    static var emptyListEnd: StaticString { "],\n" }
    static var headerTime: StaticString { "  \"lastVisitedAt\": " }
    static var headerLocation: StaticString { "  \"lastVisitedLocation\": " }
    static var memberEnd: StaticString { ",\n" }
    static var placesStart: StaticString { "  \"places\": [" }
    static var versionKey: StaticString { "  \"version\": " }
    static var documentEnd: StaticString { "\n}\n" }

    // The literals before a name end with its opening quote (the name's closing quote is
    // written by `appendName` and read with the name).
    static var edgeDestination: StaticString { "{\"destination\":\"" }
    static var edgeTime: StaticString { ",\"lastVisitedAt\":" }
    static var edgeOrigin: StaticString { ",\"origin\":\"" }
    static var edgeWeight: StaticString { ",\"weight\":" }
    static var recordTime: StaticString { "{\"lastVisitedAt\":" }
    static var recordHours: StaticString { "{\"hours\":[" }
    static var recordHoursEnd: StaticString { "],\"lastVisitedAt\":" }
    static var recordHoursEndNoTime: StaticString { "],\"name\":\"" }
    static var recordName: StaticString { ",\"name\":\"" }
    static var recordNameFirst: StaticString { "{\"name\":\"" }
    static var recordVisits: StaticString { ",\"visits\":" }
    static var objectEnd: StaticString { "}" }

    /// Appends the bytes of `literal`.
    @inline(__always)
    static func append(_ literal: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends one edge line (without its separator).
    static func appendEdge(destination: String, time: Int64?, origin: String, weight: Int, to bytes: inout [UInt8]) {
        append(edgeDestination, to: &bytes)
        appendName(destination, to: &bytes)
        if let time {
            append(edgeTime, to: &bytes)
            JSONWriter.appendInteger(time, to: &bytes)
        }
        append(edgeOrigin, to: &bytes)
        appendName(origin, to: &bytes)
        append(edgeWeight, to: &bytes)
        JSONWriter.appendInteger(Int64(weight), to: &bytes)
        append(objectEnd, to: &bytes)
    }

    /// Appends one place record (without its separator); `hours` only when some visits
    /// are known by hour.
    static func appendRecord(name: String, visits: Int, time: Int64?, hours: HourCounts, to bytes: inout [UInt8]) {
        if !hours.isEmpty {
            append(recordHours, to: &bytes)
            for hour in 0..<HourCounts.hoursPerDay {
                if hour > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONWriter.appendInteger(Int64(hours[hour]), to: &bytes)
            }
        }
        if let time {
            append(hours.isEmpty ? recordTime : recordHoursEnd, to: &bytes)
            JSONWriter.appendInteger(time, to: &bytes)
            append(recordName, to: &bytes)
        } else {
            append(hours.isEmpty ? recordNameFirst : recordHoursEndNoTime, to: &bytes)
        }
        appendName(name, to: &bytes)
        append(recordVisits, to: &bytes)
        JSONWriter.appendInteger(Int64(visits), to: &bytes)
        append(objectEnd, to: &bytes)
    }

    /// Appends a name after the literal that ends with its opening quote: escaped, then
    /// its closing quote.
    private static func appendName(_ text: String, to bytes: inout [UInt8]) {
        JSONWriter.appendEscaped(text, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }
}

/// A name's bytes as a file spells them, as a dictionary key (`RouteGraph(contents:in:)`);
/// they must outlive the key.
private struct SpellingKey: Hashable {
    let bytes: UnsafeRawBufferPointer

    func hash(into hasher: inout Hasher) { hasher.combine(bytes: bytes) }

    static func == (lhs: SpellingKey, rhs: SpellingKey) -> Bool { Platform.bytesEqual(lhs.bytes, rhs.bytes) }
}
