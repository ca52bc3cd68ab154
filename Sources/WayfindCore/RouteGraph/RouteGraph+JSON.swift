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
///         {"lastVisitedAt":1700000000,"name":"Airport","visits":12}
///       ],
///       "successors": [],
///       "version": 1
///     }
///
/// - The seed's keys keep their names and types: `edges` (array of `origin`,
///   `destination`, `weight`) and `lastVisitedLocation` (string, or absent or null).
/// - Ours are additions: `version`, `lastVisitedAt` at the top and on each edge,
///   `places`, the visit count and last visit of each place, for frecency, and
///   `successors`, a copy of the edge lines that leave the last place (written with
///   `lastVisitedLocation`, ignored when read) so that a suggestion from it reads only
///   the end of a stamped file. A file without `places` (the seed's) gets estimates
///   from its edges: a place's visits are the weights of the edges into it, its last
///   visit the latest of their times.
/// - A file without `version` is the seed's format (version 0); a version newer than
///   `currentVersion` is refused, even when the rest does not parse, so an old program
///   says "upgrade" rather than "syntax error" about a newer file.
/// - Unknown keys of any type are skipped (validated, then ignored) for forward
///   compatibility.
/// - Reading is lenient where nothing is lost: a missing `edges` is no edges, a missing
///   `weight` is 1, edges whose places fold together are merged (weights added, the
///   later time kept), and edges with an empty place name are dropped. Anything else
///   unexpected (a string weight, a negative weight, a missing `origin`) is an error
///   with its position and a path such as `edges[3].weight`.
/// - Writing sorts keys, writes one edge per line in the order learned, and always
///   writes the current version; `lastVisitedLocation` and times are omitted when nil,
///   which the seed's decoder reads as nil.
extension RouteGraph {
    /// Reads a graph from the bytes of a graph file.
    public init(json bytes: UnsafeRawBufferPointer) throws(RouteGraphDecodingError) {
        do {
            self = try Self.read(bytes)
        } catch {
            if let found = Self.peekVersion(bytes), found > Self.currentVersion {
                throw .unsupportedVersion(found: found, supported: Self.currentVersion)
            }
            throw .invalid(error)
        }
        if version > Self.currentVersion {
            throw .unsupportedVersion(found: Int64(version), supported: Self.currentVersion)
        }
    }

    /// Reads a graph from the bytes of a graph file.
    public init(json bytes: [UInt8]) throws(RouteGraphDecodingError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(RouteGraphDecodingError) -> RouteGraph in try RouteGraph(json: buffer) }
        }
        self = try result.get()
    }

    /// Whether `json()` writes every name without an escape (no quote, backslash or
    /// control character), as the fast paths read names: only such a file may carry the
    /// checked stamp (see `GraphFile.checkedStamp`).
    var namesAreWrittenPlain: Bool {
        placeTable.allSatisfy { place in
            place.name.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        }
    }

    /// The graph as the bytes of a graph file, ending with a newline.
    ///
    /// Each place's name is escaped and quoted once, then copied into every edge that
    /// names it; the rest of an edge line is fixed text and two integers.
    public func json() -> [UInt8] {
        let referenced = placesInFileOrder()
        var quoted = [[UInt8]](repeating: [], count: placeTable.count)
        var nameBytes = 0
        for index in referenced {
            var writer = JSONWriter()
            writer.string(placeTable[index].name)
            quoted[index] = writer.bytes
            nameBytes += writer.bytes.count
        }
        var writer = JSONWriter(wrapDepth: 2, capacity: 256 + links.count * 80 + nameBytes * 4)
        func write(_ link: Link) {
            writer.beginObject()
            writer.key("destination")
            writer.rawValue(quoted[link.destination])
            if let time = link.lastVisitedAt {
                writer.key("lastVisitedAt")
                writer.integer(time)
            }
            writer.key("origin")
            writer.rawValue(quoted[link.origin])
            writer.key("weight")
            writer.integer(Int64(link.weight))
            writer.endObject()
        }
        writer.beginObject()
        writer.key("edges")
        writer.beginArray()
        for link in links { write(link) }
        writer.endArray()
        if let lastVisitedAt {
            writer.key("lastVisitedAt")
            writer.integer(lastVisitedAt)
        }
        if let lastPlace {
            writer.key("lastVisitedLocation")
            writer.rawValue(quoted[lastPlace])
        }
        writer.key("places")
        writer.beginArray()
        for index in referenced {
            let place = placeTable[index]
            guard place.visits > 0 || place.lastVisitedAt != nil else { continue }
            writer.beginObject()
            if let time = place.lastVisitedAt {
                writer.key("lastVisitedAt")
                writer.integer(time)
            }
            writer.key("name")
            writer.rawValue(quoted[index])
            writer.key("visits")
            writer.integer(Int64(place.visits))
            writer.endObject()
        }
        writer.endArray()
        // A copy of the edges leaving the last place, in file order, so that suggesting
        // from it reads the end of the file only (see `successorsFromTail`).
        if let lastPlace {
            writer.key("successors")
            writer.beginArray()
            for link in links where link.origin == lastPlace { write(link) }
            writer.endArray()
        }
        writer.key("version")
        writer.integer(Int64(Self.currentVersion))
        writer.endObject()
        writer.finish()
        return writer.bytes
    }

    /// Adds read statistics to a place; two spellings of one place add their visits
    /// and keep the later time.
    @inline(__always)
    mutating func addStatistics(visits: Int64, lastVisitedAt time: Int64?, to index: Int) {
        let (sum, overflow) = placeTable[index].visits.addingReportingOverflow(Int(clamping: visits))
        placeTable[index].visits = overflow ? .max : sum
        if let time { placeTable[index].lastVisitedAt = max(placeTable[index].lastVisitedAt ?? time, time) }
    }

    /// The referenced places in the order a reader of the saved file meets them: by
    /// edge, destination before origin (the keys are sorted), then the rest. Writing the
    /// `places` array in this order makes a save of a freshly read graph byte-identical.
    private func placesInFileOrder() -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(placeTable.count)
        var seen = [Bool](repeating: false, count: placeTable.count)
        for link in links {
            for index in [link.destination, link.origin] where !seen[index] {
                seen[index] = true
                order.append(index)
            }
        }
        for index in referencedPlaces() where !seen[index] { order.append(index) }
        return order
    }

    // MARK: Reading

    /// The keys the reader acts on, recognized from their bytes without making strings.
    private enum Key {
        case edges, places, lastVisitedLocation, lastVisitedAt, version
        case origin, destination, weight, name, visits
        case other

        init(_ bytes: UnsafeRawBufferPointer) {
            func matches(_ text: StaticString) -> Bool {
                bytes.count == text.utf8CodeUnitCount
                    && Platform.bytesEqual(bytes.baseAddress, text.utf8Start, count: bytes.count)
            }
            switch bytes.count {
            case 4: self = matches("name") ? .name : .other
            case 5: self = matches("edges") ? .edges : .other
            case 6:
                self =
                    matches("origin")
                    ? .origin
                    : matches("weight")
                        ? .weight
                        : matches("places")
                            ? .places
                            : matches("visits") ? .visits : .other
            case 7: self = matches("version") ? .version : .other
            case 11: self = matches("destination") ? .destination : .other
            case 13: self = matches("lastVisitedAt") ? .lastVisitedAt : .other
            case 19: self = matches("lastVisitedLocation") ? .lastVisitedLocation : .other
            default: self = .other
            }
        }

        var text: String {
            switch self {
            case .edges: "edges"
            case .places: "places"
            case .lastVisitedLocation: "lastVisitedLocation"
            case .lastVisitedAt: "lastVisitedAt"
            case .version: "version"
            case .origin: "origin"
            case .destination: "destination"
            case .weight: "weight"
            case .name: "name"
            case .visits: "visits"
            case .other: "?"
            }
        }
    }

    private static func read(_ bytes: UnsafeRawBufferPointer) throws(JSONError) -> RouteGraph {
        var graph = RouteGraph()
        var reader = JSONReader(bytes)
        // About one new spelling per 500 bytes of a typical file; the table grows if not.
        let spellings = SpellingTable(expectedSpellings: bytes.count / 500)
        graph.linkIndex.reserveCapacity(bytes.count / 100)
        var lastName: [UInt8]?
        var version: Int64 = 0
        var sawPlaces = false
        try within("the top level", &reader) { (reader) throws(JSONError) in try reader.beginObject() }
        while let key = try reader.nextKeyBytes(Key.init) {
            switch key {
            case .edges:
                try readEdges(&reader, into: &graph, spellings: spellings)
            case .places:
                sawPlaces = true
                try readPlaces(&reader, into: &graph, spellings: spellings)
            case .lastVisitedLocation:
                lastName = try within(key.text, &reader) { (reader) throws(JSONError) in
                    try reader.readNullIfPresent() ? nil : try reader.readStringBytes { Array($0) }
                }
            case .lastVisitedAt:
                graph.lastVisitedAt = try within(key.text, &reader) { (reader) throws(JSONError) in
                    try reader.readNullIfPresent() ? nil : try reader.readInt64()
                }
            case .version:
                let start = reader.offset
                version = try within(key.text, &reader) { (reader) throws(JSONError) in try reader.readInt64() }
                if version < 0 { throw reader.error("version: must not be negative", at: start) }
            default:
                try reader.skipValue()
            }
        }
        try reader.finish()
        // The last place is read last so that its spelling wins, whatever the key order.
        if let lastName {
            graph.lastPlace = lastName.withUnsafeBytes { spellings.place(spelled: $0, in: &graph) }
        }
        if graph.lastPlace == nil { graph.lastVisitedAt = nil }
        if !sawPlaces { graph.estimateStatisticsFromEdges() }
        graph.version = Int(clamping: version)
        return graph
    }

    private static func readEdges(
        _ reader: inout JSONReader, into graph: inout RouteGraph, spellings: SpellingTable
    ) throws(JSONError) {
        try within("edges", &reader) { (reader) throws(JSONError) in try reader.beginArray() }
        var position = 0
        while try reader.nextElement() {
            func path() -> String { "edges[\(position)]" }
            let start = reader.offset
            // The shape this writer produces, read with byte comparisons; anything else
            // (other key orders, whitespace, escapes, errors) goes the validating way.
            if reader.skipLiteral(#"{"destination":""#), let destinationBytes = reader.plainStringBody() {
                var time: Int64? = nil
                var shapeHolds = true
                if reader.skipLiteral(#","lastVisitedAt":"#) {
                    time = reader.plainNonNegativeInteger()
                    shapeHolds = time != nil
                }
                if shapeHolds, reader.skipLiteral(#","origin":""#), let originBytes = reader.plainStringBody(),
                    reader.skipLiteral(#","weight":"#), let weight = reader.plainNonNegativeInteger(),
                    reader.skipLiteral("}")
                {
                    if let to = spellings.place(spelled: destinationBytes, in: &graph),
                        let from = spellings.place(spelled: originBytes, in: &graph)
                    {
                        graph.strengthen(from: from, to: to, by: Int(clamping: weight), at: time)
                    }
                    position += 1
                    continue
                }
            }
            reader.rewind(to: start)
            try within(path(), &reader) { (reader) throws(JSONError) in try reader.beginObject() }
            var origin: Int?? = nil
            var destination: Int?? = nil
            var weight: Int64 = 1
            var time: Int64?
            while let key = try reader.nextKeyBytes(Key.init) {
                switch key {
                case .origin:
                    origin = try within(path(), key: key.text, &reader) { (reader) throws(JSONError) in
                        try reader.readStringBytes { spellings.place(spelled: $0, in: &graph) }
                    }
                case .destination:
                    destination = try within(path(), key: key.text, &reader) { (reader) throws(JSONError) in
                        try reader.readStringBytes { spellings.place(spelled: $0, in: &graph) }
                    }
                case .weight:
                    let valueStart = reader.offset
                    weight = try within(path(), key: key.text, &reader) { (reader) throws(JSONError) in
                        try reader.readInt64()
                    }
                    if weight < 0 { throw reader.error("\(path()).weight: must not be negative", at: valueStart) }
                case .lastVisitedAt:
                    time = try within(path(), key: key.text, &reader) { (reader) throws(JSONError) in
                        try reader.readNullIfPresent() ? nil : try reader.readInt64()
                    }
                default:
                    try reader.skipValue()
                }
            }
            guard let origin else { throw reader.error("\(path()): missing \"origin\"", at: start) }
            guard let destination else { throw reader.error("\(path()): missing \"destination\"", at: start) }
            if let from = origin, let to = destination {
                graph.strengthen(from: from, to: to, by: Int(clamping: weight), at: time)
            }
            position += 1
        }
    }

    private static func readPlaces(
        _ reader: inout JSONReader, into graph: inout RouteGraph, spellings: SpellingTable
    ) throws(JSONError) {
        try within("places", &reader) { (reader) throws(JSONError) in try reader.beginArray() }
        var position = 0
        while try reader.nextElement() {
            func path() -> String { "places[\(position)]" }
            let start = reader.offset
            // The shape this writer produces first, as for edges.
            if reader.skipLiteral(#"{"lastVisitedAt":"#), let time = reader.plainNonNegativeInteger(),
                reader.skipLiteral(#","name":""#), let nameBytes = reader.plainStringBody(),
                reader.skipLiteral(#","visits":"#), let visits = reader.plainNonNegativeInteger(),
                reader.skipLiteral("}")
            {
                if let index = spellings.place(spelled: nameBytes, in: &graph) {
                    graph.addStatistics(visits: visits, lastVisitedAt: time, to: index)
                }
                position += 1
                continue
            }
            reader.rewind(to: start)
            try within(path(), &reader) { (reader) throws(JSONError) in try reader.beginObject() }
            var place: Int?? = nil
            var visits: Int64 = 0
            var time: Int64?
            while let key = try reader.nextKeyBytes(Key.init) {
                switch key {
                case .name:
                    place = try within(path(), key: key.text, &reader) { (reader) throws(JSONError) in
                        try reader.readStringBytes { spellings.place(spelled: $0, in: &graph) }
                    }
                case .visits:
                    let valueStart = reader.offset
                    visits = try within(path(), key: key.text, &reader) { (reader) throws(JSONError) in
                        try reader.readInt64()
                    }
                    if visits < 0 { throw reader.error("\(path()).visits: must not be negative", at: valueStart) }
                case .lastVisitedAt:
                    time = try within(path(), key: key.text, &reader) { (reader) throws(JSONError) in
                        try reader.readNullIfPresent() ? nil : try reader.readInt64()
                    }
                default:
                    try reader.skipValue()
                }
            }
            guard let place else { throw reader.error("\(path()): missing \"name\"", at: start) }
            if let index = place { graph.addStatistics(visits: visits, lastVisitedAt: time, to: index) }
            position += 1
        }
    }

    /// Runs one read, prefixing a type error's message with where in the file it was.
    @inline(__always)
    private static func within<T>(
        _ path: @autoclosure () -> String, key: String? = nil, _ reader: inout JSONReader,
        _ body: (inout JSONReader) throws(JSONError) -> T
    ) throws(JSONError) -> T {
        do {
            return try body(&reader)
        } catch {
            var error = error
            error.message = (key.map { "\(path()).\($0)" } ?? path()) + ": " + error.message
            throw error
        }
    }

    /// The top-level `version` of a document that may not otherwise be a valid graph,
    /// if it is valid JSON with an integer version.
    private static func peekVersion(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        var reader = JSONReader(bytes)
        var version: Int64?
        do {
            try reader.beginObject()
            while let key = try reader.nextKey() {
                if key == "version", try reader.peekKind() == .number {
                    version = try reader.readInt64()
                } else {
                    try reader.skipValue()
                }
            }
            try reader.finish()
        } catch {
            return nil
        }
        return version
    }
}
