/// A graph file as read by the one reader of the format: every edge (or, for a
/// suggestion, those leaving one place), every place record and the header values, with
/// where each lies in the file, and names as spans of its bytes rather than strings.
///
/// Every path that reads a graph file starts here: a full load (`RouteGraph(contents:)`)
/// interns every name; a suggestion (`RouteGraph+Scan`) keeps only the edges leaving its
/// from-place (`EdgeSelection`) and folds the records; a visit (`RouteGraph+Scan`) finds
/// the few lines it changes. Reading checks every byte with `JSONReader` whatever the
/// path, so a file the full load would refuse is refused by all of them, with the same
/// message.
///
/// The layout `RouteGraph.json()` writes is read with byte comparisons against the same
/// literals the writer uses (`GraphFileFormat`); anything else (other key orders,
/// whitespace, escapes, unknown keys) is read by the general, validating path, which also
/// produces every error. The fast path only decides how quickly a line is read, never what
/// it means.
struct GraphFileContents {
    /// A name: its bytes in the file (`start` ≥ 0) or, for a name with escapes, its decoded
    /// bytes, `decodedNames.names[-start - 1]`.
    struct Name: Equatable {
        var start: Int32
        var count: Int32
    }

    /// One element of `edges`.
    struct Edge {
        var origin: Name
        var destination: Name
        /// 1 when the file has none.
        var weight: Int64
        /// `lastVisitedAt`; `Int64.min` for none (not an optional: a smaller entry).
        var timeValue: Int64
        /// The element, from its `{` to just after its `}`.
        var element: Range<Int32>

        /// When the edge was last travelled, if the file says.
        var time: Int64? { timeValue == .min ? nil : timeValue }
    }

    /// One element of `places`.
    struct Record {
        var name: Name
        var visits: Int64
        var timeValue: Int64
        var element: Range<Int32>
        /// Its visits by hour; none (all zeros) when it has no `hours`.
        var hours = HourCounts()

        /// When the place was last visited, if the file says.
        var time: Int64? { timeValue == .min ? nil : timeValue }
    }

    /// The top-level keys the format knows (`successors`: of earlier versions, dropped).
    enum Key: String {
        case edges, places, lastVisitedLocation, lastVisitedAt, version, successors
        case other

        /// The key spelled `bytes`.
        init(_ bytes: UnsafeRawBufferPointer) {
            self = Key(rawValue: String(decoding: bytes, as: UTF8.self)) ?? .other
        }
    }

    /// One member of the top-level object: its key, where the key's opening quote is, and
    /// where its value lies.
    struct Member {
        var key: Key
        var start: Int32
        var value: Range<Int32>
    }

    /// Which edges a read keeps: every one (for a full load or a visit), or, for a
    /// suggestion, only those leaving one place, the from-place. The others are checked
    /// as they are read, counted and dropped: a suggestion needs no other edge, and
    /// storing and looking through every edge made it 1.08 times as long at 10,000 edges
    /// and 1.20 times at 100,000, against targets of 1.1 and 1.0 times `zoxide query`
    /// (bench/routegraph.sh).
    enum EdgeSelection: Equatable {
        case every
        /// The edges leaving the place of this key (`RouteGraph.placeKey`).
        case leaving(key: [UInt8])
        /// The edges leaving the place `lastVisitedLocation` names, when the writer's
        /// layout tells it before the edges are read (`LayoutTail.lastPlace`); else every
        /// edge.
        case leavingLastPlace
    }

    /// The edges a suggestion reads first: those leaving its from-place; but every edge
    /// for a filtered list that may end short and with places of zero score, which only
    /// every edge tells (see `RouteGraph.scannedSuggestions`): a query that few places
    /// match, as a completion's word is.
    /// And every edge for a request the scan leaves to the full load.
    static func edges(for request: SuggestionRequest, filtered: Bool) -> EdgeSelection {
        if !RouteGraph.scanMayAnswer(request) { return .every }
        if filtered && !request.positiveOnly && !request.successorsOnly && request.limit != 0 { return .every }
        return request.from.map { .leaving(key: Array(RouteGraph.placeKey($0).utf8)) } ?? .leavingLastPlace
    }

    /// The edges, in file order (all `edges` arrays, should there be several); only
    /// those leaving `keptOrigin` when that is set.
    var edges: [Edge] = []
    /// Nil when `edges` holds every edge; else the key of the place whose leaving edges
    /// alone it holds.
    var keptOrigin: [UInt8]? = nil
    /// How many edges the file has, kept or not.
    var edgeCount = 0
    /// Where the file's last edge begins, kept or not; `Int32.min` when it has none.
    var lastEdgeStart = Int32.min
    /// Where the file's last edge ends, kept or not; `Int32.min` when it has none.
    var lastEdgeEnd = Int32.min
    /// The place records, in file order.
    var records: [Record] = []
    /// The top-level members, in file order.
    var members: [Member] = []
    /// `lastVisitedLocation`, nil when missing or null.
    var lastName: Name?
    /// `lastVisitedAt`, nil when missing or null.
    var lastVisitedAt: Int64?
    /// `version`, 0 when missing (the seed's format).
    var version: Int64 = 0
    /// The bytes of names that had escapes, decoded.
    var decodedNames = DecodedNames()
    /// How many edges and records were not in the writer's layout, and were read by the
    /// general path: none for a file `json()` wrote without escapes (tests check it, so
    /// that a new key cannot make every line take the slow path unnoticed).
    var elementsReadByGeneralPath = 0
    /// How many of those did not even begin as the writer begins an edge or a record: the
    /// lines of another program's layout, not those the writer writes with escapes.
    var elementsInOtherLayouts = 0

    /// Whether the file has a `places` array (the seed's format has none).
    var hasRecords: Bool { members.contains { $0.key == .places } }

    /// The bytes of `name`; `bytes` are the file's, and both must outlive the result.
    /// (Inline and unchecked: the read made the span, and a visit asks for 20,000 of them.)
    @inline(__always)
    func bytes(of name: Name, in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        if name.start >= 0 {
            return UnsafeRawBufferPointer(start: bytes.baseAddress! + Int(name.start), count: Int(name.count))
        }
        return UnsafeRawBufferPointer(decodedNames.names[Int(-name.start - 1)])
    }

    /// When `bytes` continue at `offset` with four digits each followed by a comma
    /// (`0,3,0,1,`): their values, one per 16-bit lane, the first lowest; else nil.
    @inline(__always)
    static func fourDigitsAndCommas(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64? {
        guard offset + 8 <= bytes.count else { return nil }
        let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        guard word & 0xFF00_FF00_FF00_FF00 == 0x2C00_2C00_2C00_2C00 else { return nil }
        // Each even byte minus "0" is a digit when below 10: adding 0x76 then sets
        // neither bit 7 nor bit 8 of its 16-bit lane.
        let values = (word & 0x00FF_00FF_00FF_00FF) ^ 0x0030_0030_0030_0030
        guard (values &+ 0x0076_0076_0076_0076) & 0x0180_0180_0180_0180 == 0 else { return nil }
        return values
    }

    /// The decoded bytes of names with escapes, each in memory of its own (a class, so
    /// that pointers to them stay valid as long as the contents do).
    final class DecodedNames {
        private(set) var names: [UnsafeMutableRawBufferPointer] = []

        /// Keeps a copy of `bytes`; its index.
        func append(_ bytes: UnsafeRawBufferPointer) -> Int {
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            copy.copyMemory(from: bytes)
            names.append(copy)
            return names.count - 1
        }

        deinit {
            for name in names { name.deallocate() }
        }
    }

    // MARK: Reading

    /// The largest file read: offsets are kept in 32 bits.
    static let maximumSize = Int(Int32.max)

    /// Reads the bytes of a graph file; throws the first problem, with its position and a
    /// path such as `edges[3].weight`.
    static func read(_ bytes: UnsafeRawBufferPointer, edges selection: EdgeSelection = .every) throws(JSONError)
        -> GraphFileContents
    {
        var contents = GraphFileContents()
        switch selection {
        case .every: break
        case .leaving(let key): contents.keptOrigin = key
        case .leavingLastPlace: contents.keptOrigin = LayoutTail(bytes).lastPlace.map { Array(RouteGraph.placeKey($0).utf8) }
        }
        // Room for as many lines as the file could hold (a line takes 50 bytes or more):
        // pages never used are never touched, and the lists never move as they grow. A
        // read that keeps only some edges keeps few, and reserves none.
        if contents.keptOrigin == nil { contents.edges.reserveCapacity(bytes.count / 50) }
        contents.records.reserveCapacity(bytes.count / 50)
        var reader = JSONReader(bytes)
        guard bytes.count <= maximumSize else {
            throw JSONError(message: "the file is larger than 2 GiB", offset: 0, line: 1, column: 1)
        }
        try within("the top level", &reader) { (reader) throws(JSONError) in try reader.beginObject() }
        try contents.readMembers(&reader)
        try reader.finish()
        return contents
    }

    /// Reads the members of the top-level object from the reader's position to its end.
    private mutating func readMembers(_ reader: inout JSONReader) throws(JSONError) {
        let bytes = reader.bytes
        while true {
            let keyStart = Int32(reader.offset)
            guard let key = try reader.nextKeyBytes(Key.init) else { break }
            reader.skipWhitespace()
            let valueStart = Int32(reader.offset)
            switch key {
            case .edges, .places:
                try readList(&reader, edges: key == .edges)
            case .lastVisitedLocation:
                lastName = try Self.within("lastVisitedLocation", &reader) { (reader) throws(JSONError) in
                    try reader.readNullIfPresent() ? nil : try readName(&reader)
                }
            case .lastVisitedAt:
                let time = try Self.within("lastVisitedAt", &reader) { (reader) throws(JSONError) in
                    try reader.readNullIfPresent() ? nil : try reader.readInt64()
                }
                // Int64.min means "no time" here as in every edge and record (`timeValue`).
                lastVisitedAt = time == .min ? nil : time
            case .version:
                let start = reader.offset
                version = try Self.within("version", &reader) { (reader) throws(JSONError) in try reader.readInt64() }
                if version < 0 { throw reader.error("version: must not be negative", at: start) }
            case .other, .successors:
                try reader.skipValue()
            }
            members.append(Member(key: key, start: Self.keyQuote(bytes, keyStart), value: valueStart..<Int32(reader.offset)))
        }
    }

    /// Where the opening quote of a member's key is: only whitespace and a comma come
    /// before it from `keyStart`, where the reader was before the key.
    private static func keyQuote(_ bytes: UnsafeRawBufferPointer, _ keyStart: Int32) -> Int32 {
        Int32(bytes[Int(keyStart)...].firstIndex(of: UInt8(ascii: "\"")) ?? Int(keyStart))
    }

    /// Reads the array of `edges` or of `places`: each element in the writer's layout by
    /// `readWritten…`, and those that follow it with the writer's separator one after the
    /// other; any other element by the general, validating `readElement`.
    private mutating func readList(_ reader: inout JSONReader, edges isEdges: Bool) throws(JSONError) {
        let name = isEdges ? "edges" : "places"
        try Self.within(name, &reader) { (reader) throws(JSONError) in try reader.beginArray() }
        var position = 0
        func readWritten(_ reader: inout JSONReader) -> Bool {
            isEdges ? readWrittenEdge(&reader) : readWrittenRecord(&reader)
        }
        while try reader.nextElement() {
            let start = reader.offset
            if readWritten(&reader) {
                var end = reader.offset
                position += 1
                while reader.skipLiteral(GraphFileFormat.elementSeparator), readWritten(&reader) {
                    end = reader.offset
                    position += 1
                }
                reader.rewind(to: end)
                continue
            }
            reader.rewind(to: start)
            if !Self.beginsAsWritten(reader, edge: isEdges) { elementsInOtherLayouts += 1 }
            try readElement(&reader, isEdge: isEdges, path: "\(name)[\(position)]")
            position += 1
        }
    }

    /// Reads an edge in exactly the layout `GraphFileFormat.appendEdge` writes, without
    /// escapes; false (the position then unspecified) for anything else.
    @inline(__always)
    private mutating func readWrittenEdge(_ reader: inout JSONReader) -> Bool {
        typealias F = GraphFileFormat
        let start = reader.offset
        guard reader.skipLiteral(F.edgeDestination), let destination = reader.plainStringBody()
        else { return false }
        // The numbers are checked here, and their values made only for an edge kept.
        var time: Range<Int>? = nil
        if reader.skipLiteral(F.edgeTime) {
            guard let digits = reader.skipPlainNonNegativeInteger() else { return false }
            time = digits..<reader.offset
        }
        guard reader.skipLiteral(F.edgeOrigin), let origin = reader.plainStringBody(),
            reader.skipLiteral(F.edgeWeight), let weight = reader.skipPlainNonNegativeInteger()
        else { return false }
        let weightEnd = reader.offset
        guard reader.skipLiteral(F.objectEnd) else { return false }
        let element = Int32(start)..<Int32(reader.offset)
        let bytes = reader.bytes
        addEdge(
            Edge(
                origin: Self.span(origin, in: bytes), destination: Self.span(destination, in: bytes),
                weight: JSONReader.plainIntegerValue(bytes, from: weight, to: weightEnd),
                timeValue: time.map { JSONReader.plainIntegerValue(bytes, from: $0.lowerBound, to: $0.upperBound) } ?? .min,
                element: element),
            at: element, origin: origin)
        return true
    }

    /// Whether the element at the reader's position begins as the writer begins an edge
    /// (`isEdge`) or a record.
    private static func beginsAsWritten(_ reader: JSONReader, edge isEdge: Bool) -> Bool {
        typealias F = GraphFileFormat
        var reader = reader
        return isEdge
            ? reader.skipLiteral(F.edgeDestination)
            : reader.skipLiteral(F.recordHours) || reader.skipLiteral(F.recordTime) || reader.skipLiteral(F.recordNameFirst)
    }

    /// Counts an edge read, and keeps it unless only the edges leaving another place are
    /// kept. `origin`: the bytes of its origin's name. (`edge`, at `element` in the file,
    /// is made only when it is kept.)
    @inline(__always)
    private mutating func addEdge(_ edge: @autoclosure () -> Edge, at element: Range<Int32>, origin: UnsafeRawBufferPointer) {
        edgeCount += 1
        (lastEdgeStart, lastEdgeEnd) = (element.lowerBound, element.upperBound)
        if let keptOrigin, !keptOrigin.withUnsafeBytes({ PlaceName.hasKey(origin, $0) }) { return }
        edges.append(edge())
    }

    /// Reads an edge or a place record in any layout, checking every byte.
    private mutating func readElement(_ reader: inout JSONReader, isEdge: Bool, path: @autoclosure () -> String)
        throws(JSONError)
    {
        let start = reader.offset
        elementsReadByGeneralPath += 1
        try Self.within(path(), &reader) { (reader) throws(JSONError) in try reader.beginObject() }
        var origin: Name? = nil
        var destination: Name? = nil
        var name: Name? = nil
        // The weight of an edge (1 when missing) or the visits of a place.
        var count: Int64 = isEdge ? 1 : 0
        var time: Int64?
        var hours: HourCounts? = nil
        while let found = try reader.nextKeyBytes({ ElementKey(rawValue: String(decoding: $0, as: UTF8.self)) }) {
            // Another element's keys are unknown keys here.
            guard let key = found, key == .lastVisitedAt || key.isOfEdges == isEdge else {
                try reader.skipValue()
                continue
            }
            switch key {
            case .origin, .destination, .name:
                let value = try Self.within(path(), key: key.rawValue, &reader) { (reader) throws(JSONError) in
                    try readName(&reader)
                }
                if key == .origin { origin = value } else if key == .destination { destination = value } else { name = value }
            case .weight, .visits:
                let valueStart = reader.offset
                count = try Self.within(path(), key: key.rawValue, &reader) { (reader) throws(JSONError) in try reader.readInt64() }
                if count < 0 { throw reader.error("\(path()).\(key.rawValue): must not be negative", at: valueStart) }
            case .lastVisitedAt:
                time = try Self.within(path(), key: key.rawValue, &reader) { (reader) throws(JSONError) in
                    try reader.readNullIfPresent() ? nil : try reader.readInt64()
                }
            case .hours:
                hours = try Self.within(path(), key: key.rawValue, &reader) { (reader) throws(JSONError) in
                    try Self.readHours(&reader)
                }
            }
        }
        let element = Int32(start)..<Int32(reader.offset)
        func missing(_ key: String) -> JSONError { reader.error("\(path()): missing \"\(key)\"", at: start) }
        if isEdge {
            guard let origin else { throw missing("origin") }
            guard let destination else { throw missing("destination") }
            let edge = Edge(origin: origin, destination: destination, weight: count, timeValue: time ?? .min, element: element)
            addEdge(edge, at: element, origin: bytes(of: origin, in: reader.bytes))
        } else {
            guard let name else { throw missing("name") }
            records.append(
                Record(name: name, visits: count, timeValue: time ?? .min, element: element, hours: hours ?? HourCounts()))
        }
    }

    /// Reads `hours` in any layout: null (none), or an array of 24 integers from 0 to
    /// `UInt32.max`.
    private static func readHours(_ reader: inout JSONReader) throws(JSONError) -> HourCounts? {
        if try reader.readNullIfPresent() { return nil }
        let start = reader.offset
        try reader.beginArray()
        var hours = HourCounts()
        var count = 0
        while try reader.nextElement() {
            let valueStart = reader.offset
            let value = try reader.readInt64()
            guard count < HourCounts.hoursPerDay else {
                throw reader.error("expected \(HourCounts.hoursPerDay) counts, one per hour, found more", at: valueStart)
            }
            guard value >= 0, value <= Int64(UInt32.max) else {
                throw reader.error("a count must be from 0 to \(UInt32.max)", at: valueStart)
            }
            hours.set(hour: count, to: UInt32(value))
            count += 1
        }
        guard count == HourCounts.hoursPerDay else {
            throw reader.error("expected \(HourCounts.hoursPerDay) counts, one per hour, found \(count)", at: start)
        }
        return hours
    }

    /// Reads the `hours` array in exactly the layout `GraphFileFormat.appendRecord`
    /// writes, after its `[`: 24 counts of digits without a leading zero, each at most
    /// `UInt32.max`, with commas between, up to the `]` (left for the literal that
    /// follows, which starts with it); nil for anything else.
    @inline(__always)
    private static func readWrittenHours(_ reader: inout JSONReader) -> HourCounts? {
        var hours = HourCounts()
        let bytes = reader.bytes
        var offset = reader.offset
        var hour = 0
        while hour < HourCounts.hoursPerDay {
            // Most counts are one digit: four of them at once, each followed by a comma
            // (so not the last hour).
            if hour + 4 < HourCounts.hoursPerDay, let four = Self.fourDigitsAndCommas(bytes, at: offset) {
                for lane in 0..<4 { hours.set(hour: hour + lane, to: UInt32(truncatingIfNeeded: four >> (16 * lane)) & 0xFF) }
                hour += 4
                offset += 8
                continue
            }
            let start = offset
            var value: UInt64 = 0
            while offset < bytes.count, bytes[offset] &- UInt8(ascii: "0") < 10, offset - start < 11 {
                value = value &* 10 &+ UInt64(bytes[offset] &- UInt8(ascii: "0"))
                offset += 1
            }
            let digits = offset - start
            guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0"), value <= UInt64(UInt32.max),
                offset < bytes.count, bytes[offset] == (hour == HourCounts.hoursPerDay - 1 ? UInt8(ascii: "]") : UInt8(ascii: ","))
            else { return nil }
            hours.set(hour: hour, to: UInt32(truncatingIfNeeded: value))
            if hour < HourCounts.hoursPerDay - 1 { offset += 1 }
            hour += 1
        }
        reader.rewind(to: offset)
        return hours
    }

    /// Reads a record in exactly the layout `GraphFileFormat.appendRecord` writes, without
    /// escapes; false (the position then unspecified) for anything else.
    @inline(__always)
    private mutating func readWrittenRecord(_ reader: inout JSONReader) -> Bool {
        typealias F = GraphFileFormat
        let start = reader.offset
        var hours = HourCounts()
        var time = Int64.min
        /// `,"lastVisitedAt":N,"name":"` after the literal that starts it.
        func readTime(_ reader: inout JSONReader) -> Bool {
            guard let value = reader.plainNonNegativeInteger(), reader.skipLiteral(F.recordName) else { return false }
            time = value
            return true
        }
        if reader.skipLiteral(F.recordHours) {
            guard let counts = Self.readWrittenHours(&reader) else { return false }
            hours = counts
            if reader.skipLiteral(F.recordHoursEnd) {
                guard readTime(&reader) else { return false }
            } else {
                guard reader.skipLiteral(F.recordHoursEndNoTime) else { return false }
            }
        } else if reader.skipLiteral(F.recordTime) {
            guard readTime(&reader) else { return false }
        } else {
            guard reader.skipLiteral(F.recordNameFirst) else { return false }
        }
        guard let name = reader.plainStringBody(), reader.skipLiteral(F.recordVisits),
            let visits = reader.plainNonNegativeInteger(), reader.skipLiteral(F.objectEnd)
        else { return false }
        records.append(
            Record(
                name: Self.span(name, in: reader.bytes), visits: visits, timeValue: time,
                element: Int32(start)..<Int32(reader.offset), hours: hours))
        return true
    }

    /// Reads a string value as a name: a span of the file, or of `decodedNames` when it
    /// has escapes. A name with a NUL (`\u0000`) is refused, as on input: `-z` output
    /// would cut it.
    private mutating func readName(_ reader: inout JSONReader) throws(JSONError) -> Name {
        let input = reader.bytes
        reader.skipWhitespace()
        let start = reader.offset
        let name = try reader.readStringBytes { bytes -> Name? in
            if let base = bytes.baseAddress, let inputBase = input.baseAddress, base >= inputBase,
                base + bytes.count <= inputBase + input.count
            {
                return Name(start: Int32(base - inputBase), count: Int32(bytes.count))
            }
            if bytes.contains(0) { return nil }
            let start = decodedNames.append(bytes)
            return Name(start: Int32(-start - 1), count: Int32(bytes.count))
        }
        guard let name else { throw reader.error("a place name must not contain a NUL byte", at: start) }
        return name
    }

    private static func span(_ bytes: UnsafeRawBufferPointer, in input: UnsafeRawBufferPointer) -> Name {
        Name(start: Int32(bytes.baseAddress! - input.baseAddress!), count: Int32(bytes.count))
    }

    /// The keys of edges and records.
    private enum ElementKey: String {
        case origin, destination, weight, name, visits, lastVisitedAt, hours

        /// Whether it is a key of edges (else of records, or, `lastVisitedAt`, of both).
        var isOfEdges: Bool { self == .origin || self == .destination || self == .weight }
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

    /// What the end of a file in the writer's layout (`GraphFileFormat`) tells before the
    /// file is read, found by stepping back over the place records, which the writer puts
    /// last. Only a guess, which the read checks: a suggestion compares the place with
    /// what the read found (`keptOrigin`).
    struct LayoutTail {
        /// The place `lastVisitedLocation` names; nil when not found, or when the name
        /// has an escape or is not UTF-8.
        var lastPlace: String?

        init(_ bytes: UnsafeRawBufferPointer) {
            typealias F = GraphFileFormat
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            let location = UnsafeRawBufferPointer(start: F.headerLocation.utf8Start, count: F.headerLocation.utf8CodeUnitCount)
            var end = bytes.count
            // The lines after the header: `}`, `  "version": N`, `  ],`, the records and
            // `  "places": [` (and unknown members, a few at most).
            var otherLines = 0
            while otherLines < 16, let newline = Platform.findLastByte(0x0A, in: base, count: end) {
                let line = UnsafeRawBufferPointer(rebasing: bytes[(newline - base + 1)..<end])
                end = newline - base
                // `    {`: a record; but an edge (`    {"d`) means the header is not there.
                if line.count > 6, line.loadUnaligned(as: UInt32.self) == 0x2020_2020, line[4] == 0x7B {
                    if line[5] == 0x22, line[6] == UInt8(ascii: "d") { return }
                    continue
                }
                otherLines += 1
                guard line.starts(with: location), line.count > location.count + 1, line[location.count] == 0x22 else { continue }
                let name = line[(location.count + 1)...]
                if let quote = name.firstIndex(of: 0x22), !name[..<quote].contains(0x5C) {
                    lastPlace = String(validating: UnsafeRawBufferPointer(rebasing: name[..<quote]), as: UTF8.self)
                }
                return
            }
        }
    }

    /// The top-level `version` of a document that may not otherwise be a valid graph,
    /// if it is valid JSON with an integer version.
    static func peekVersion(_ bytes: UnsafeRawBufferPointer) -> Int64? {
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
