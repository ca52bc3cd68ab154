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
///       "version": 1
///     }
///
/// - The seed's keys keep their names and types: `edges` (array of `origin`,
///   `destination`, `weight`) and `lastVisitedLocation` (string, or absent or null).
/// - Ours are additions: `version`, `lastVisitedAt` at the top and on each edge.
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

    /// The graph as the bytes of a graph file, ending with a newline.
    public func json() -> [UInt8] {
        var writer = JSONWriter(wrapDepth: 2, capacity: 128 + links.count * 96)
        writer.beginObject()
        writer.key("edges")
        writer.beginArray()
        for link in links {
            writer.beginObject()
            writer.key("destination")
            writer.string(placeTable[link.destination].name)
            if let time = link.lastVisitedAt {
                writer.key("lastVisitedAt")
                writer.integer(time)
            }
            writer.key("origin")
            writer.string(placeTable[link.origin].name)
            writer.key("weight")
            writer.integer(Int64(link.weight))
            writer.endObject()
        }
        writer.endArray()
        if let lastVisitedAt {
            writer.key("lastVisitedAt")
            writer.integer(lastVisitedAt)
        }
        if let lastVisitedLocation {
            writer.key("lastVisitedLocation")
            writer.string(lastVisitedLocation)
        }
        writer.key("version")
        writer.integer(Int64(Self.currentVersion))
        writer.endObject()
        writer.finish()
        return writer.bytes
    }

    // MARK: Reading

    /// Place lookups while reading: most names repeat exactly, so the exact spelling is
    /// looked up first and folded only the first time it is seen.
    private struct SpellingCache {
        var entries: [UTF8Key: (index: Int, display: String)] = [:]

        mutating func place(named name: String, in graph: inout RouteGraph) -> Int? {
            if let entry = entries[UTF8Key(name)] {
                // A later spelling of the same place may have changed the display name.
                if !UTF8Key.sameBytes(graph.placeTable[entry.index].name, entry.display) {
                    graph.placeTable[entry.index].name = entry.display
                }
                return entry.index
            }
            let (display, key) = RouteGraph.normalize(name)
            guard !key.isEmpty else { return nil }
            let index = graph.intern(display: display, key: key)
            entries[UTF8Key(name)] = (index, display)
            return index
        }
    }

    private static func read(_ bytes: UnsafeRawBufferPointer) throws(JSONError) -> RouteGraph {
        var graph = RouteGraph()
        var reader = JSONReader(bytes)
        var cache = SpellingCache()
        var lastName: String?
        var version: Int64 = 0
        try within("the top level", &reader) { (reader) throws(JSONError) in try reader.beginObject() }
        while let key = try reader.nextKey() {
            switch key {
            case "edges":
                try readEdges(&reader, into: &graph, cache: &cache)
            case "lastVisitedLocation":
                lastName = try within(key, &reader) { (reader) throws(JSONError) in
                    try reader.readNullIfPresent() ? nil : try reader.readString()
                }
            case "lastVisitedAt":
                graph.lastVisitedAt = try within(key, &reader) { (reader) throws(JSONError) in
                    try reader.readNullIfPresent() ? nil : try reader.readInt64()
                }
            case "version":
                let start = reader.offset
                version = try within(key, &reader) { (reader) throws(JSONError) in try reader.readInt64() }
                if version < 0 { throw reader.error("version: must not be negative", at: start) }
            default:
                try reader.skipValue()
            }
        }
        try reader.finish()
        // The last place is read last so that its spelling wins, whatever the key order.
        if let lastName {
            graph.lastPlace = cache.place(named: lastName, in: &graph)
        }
        if graph.lastPlace == nil { graph.lastVisitedAt = nil }
        graph.version = Int(clamping: version)
        return graph
    }

    private static func readEdges(
        _ reader: inout JSONReader, into graph: inout RouteGraph, cache: inout SpellingCache
    ) throws(JSONError) {
        try within("edges", &reader) { (reader) throws(JSONError) in try reader.beginArray() }
        var position = 0
        while try reader.nextElement() {
            func path() -> String { "edges[\(position)]" }
            let start = reader.offset
            try within(path(), &reader) { (reader) throws(JSONError) in try reader.beginObject() }
            var origin: String?
            var destination: String?
            var weight: Int64 = 1
            var time: Int64?
            while let key = try reader.nextKey() {
                switch key {
                case "origin":
                    origin = try within(path(), key: key, &reader) { (reader) throws(JSONError) in try reader.readString() }
                case "destination":
                    destination = try within(path(), key: key, &reader) { (reader) throws(JSONError) in
                        try reader.readString()
                    }
                case "weight":
                    let valueStart = reader.offset
                    weight = try within(path(), key: key, &reader) { (reader) throws(JSONError) in try reader.readInt64() }
                    if weight < 0 { throw reader.error("\(path()).weight: must not be negative", at: valueStart) }
                case "lastVisitedAt":
                    time = try within(path(), key: key, &reader) { (reader) throws(JSONError) in
                        try reader.readNullIfPresent() ? nil : try reader.readInt64()
                    }
                default:
                    try reader.skipValue()
                }
            }
            guard let origin else { throw reader.error("\(path()): missing \"origin\"", at: start) }
            guard let destination else { throw reader.error("\(path()): missing \"destination\"", at: start) }
            if let from = cache.place(named: origin, in: &graph), let to = cache.place(named: destination, in: &graph) {
                graph.strengthen(from: from, to: to, by: Int(clamping: weight), at: time)
            }
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
