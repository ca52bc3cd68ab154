/// Reads a GTFS `stops.txt` (a transit feed's stops and stations) as a gazetteer: its
/// CSV is turned into our TSV as it streams by, and the scanner reads that.
///
///     stop_id,stop_name,stop_lat,stop_lon,location_type
///     BEATTY_AIRPORT,Nye County Airport (Demo),36.868446,-116.784582,
///     FUR_CREEK_RES,"Furnace Creek Resort, ""Demo""",36.425288,-117.133162,1
///
/// becomes
///
///     id<TAB>name<TAB>latitude<TAB>longitude<TAB>category
///     BEATTY_AIRPORT<TAB>Nye County Airport (Demo)<TAB>36.868446<TAB>-116.784582<TAB>stop
///     FUR_CREEK_RES<TAB>Furnace Creek Resort, "Demo"<TAB>36.425288<TAB>-117.133162<TAB>station
///
/// - The file is told by its header: a CSV header naming `stop_id`, `stop_name`,
///   `stop_lat` or `stop_lon` (in any order, after an optional UTF-8 byte order mark) is a
///   stops.txt, and then `stop_name`, `stop_lat` and `stop_lon` are required.
/// - `location_type` empty or 0 is a stop, 1 a station (category `stop`, `station`);
///   2, 3 and 4 (entrances, generic nodes, boarding areas) are left out; anything else
///   is an error.
/// - A feed names no region or country: they stay empty, and the population is 0.
/// - Each CSV line gives one TSV line: a record spanning lines (a newline inside quotes)
///   is followed by empty lines, and a left-out record is an empty line, so line numbers
///   in messages are the file's, and one file always gives the same bytes, hence the
///   same magicKeys, however it is read. A tab or newline inside a field becomes a space;
///   spaces around a field are dropped. A row with fewer fields than the header has the
///   missing ones empty.
package struct GTFSStops {
    /// The file name in messages.
    let path: String
    /// The longest record accepted, in bytes.
    let rowLimit: Int
    /// For each output column (`outputColumns`), the input column, once the header is read.
    private var columns: [Int]? = nil
    /// The `location_type` column, if any.
    private var locationTypeColumn: Int? = nil
    /// The line the next record starts on, from 1.
    private var line = 1
    /// The bytes of a record that began in an earlier block.
    private var pending: [UInt8] = []
    private var fields: [[UInt8]] = []
    private var fieldCount = 0

    /// The columns of stops.txt read, in the order of the TSV's columns.
    static let inputColumns = ["stop_id", "stop_name", "stop_lat", "stop_lon"]
    /// The TSV header written (the category column follows these).
    static let header = Array("id\tname\tlatitude\tlongitude\tcategory\n".utf8)
    /// The columns a stops.txt must have.
    static let requiredColumns = ["stop_name", "stop_lat", "stop_lon"]

    /// A reader of the stops.txt `path`, refusing records longer than `rowLimit` bytes.
    package init(path: String, rowLimit: Int) {
        self.path = path
        self.rowLimit = rowLimit
    }

    /// Whether `firstLine` (without its newline) is the header of a stops.txt.
    package static func isHeader(_ firstLine: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let names = headerNames(firstLine) else { return false }
        return names.contains { inputColumns.contains($0) }
    }

    /// The header's column names, trimmed and in lower case; nil when it is not CSV.
    private static func headerNames(_ line: UnsafeBufferPointer<UInt8>) -> [String]? {
        var fields: [[UInt8]] = []
        var count = 0
        let bytes = withoutByteOrderMark(line)
        guard bytes.count > 0, case .record = CSVReader.record(in: bytes, from: 0, isFinal: true, fields: &fields, fieldCount: &count)
        else { return nil }
        return fields[..<count].map { String(decoding: trimmed($0[...]), as: UTF8.self).lowercased() }
    }

    /// `bytes` without a leading UTF-8 byte order mark.
    private static func withoutByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            return UnsafeBufferPointer(rebasing: bytes[3...])
        }
        return bytes
    }

    /// `field` without leading and trailing spaces.
    private static func trimmed(_ field: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var f = field
        while f.first == 0x20 { f.removeFirst() }
        while f.last == 0x20 { f.removeLast() }
        return f
    }

    /// The TSV lines for the records that `block` completes (the file's first block
    /// first, each block ending at a newline); with `isFinal`, for all that is left.
    package mutating func transcode(_ block: UnsafeBufferPointer<UInt8>, isFinal: Bool) throws(GazetteerError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(block.count + 64)
        if pending.isEmpty {
            pending = try transcode(records: block, isFinal: isFinal, into: &output)
        } else {
            var bytes = pending
            bytes.append(contentsOf: block)
            pending = try bytes.withUnsafeBufferPointer { (b) throws(GazetteerError) in
                try transcode(records: b, isFinal: isFinal, into: &output)
            }
        }
        if pending.count > rowLimit { throw .rowTooLong(path: path, limit: rowLimit) }
        return output
    }

    /// Transcodes the whole records of `bytes` into `output`; returns the bytes of an
    /// unfinished last record.
    private mutating func transcode(records bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool, into output: inout [UInt8])
        throws(GazetteerError)
        -> [UInt8]
    {
        var start = 0
        var input = bytes
        if columns == nil, line == 1 {
            input = Self.withoutByteOrderMark(bytes)
        }
        while start < input.count {
            switch CSVReader.record(in: input, from: start, isFinal: isFinal, fields: &fields, fieldCount: &fieldCount) {
            case .incomplete:
                return Array(input[start...])
            case .malformed(let problem, let lines):
                throw .badCSV(path: path, line: line + lines, problem: problem.description)
            case .record(let end, let lines):
                try append(into: &output)
                if lines > 1 { output.append(contentsOf: repeatElement(0x0A, count: lines - 1)) }
                line += lines
                start = end
            }
        }
        return []
    }

    /// Appends the TSV line of the record in `fields` (the header, a row, or an empty line).
    private mutating func append(into output: inout [UInt8]) throws(GazetteerError) {
        guard let columns else {
            let names = fields[..<fieldCount].map { String(decoding: Self.trimmed($0[...]), as: UTF8.self).lowercased() }
            let missing = Self.requiredColumns.filter { !names.contains($0) }
            if !missing.isEmpty { throw .missingColumns(path: path, format: "GTFS stops.txt", columns: missing) }
            self.columns = Self.inputColumns.map { names.firstIndex(of: $0) ?? -1 }
            locationTypeColumn = names.firstIndex(of: "location_type")
            output.append(contentsOf: Self.header)
            return
        }
        // A blank line.
        if fieldCount == 1 && fields[0].isEmpty {
            output.append(0x0A)
            return
        }
        var category = "stop"
        if let c = locationTypeColumn, c < fieldCount {
            let type = Self.trimmed(fields[c][...])
            switch type.count == 1 ? type.first! : (type.isEmpty ? 0x30 : 0) {
            case 0x30: category = "stop"
            case 0x31: category = "station"
            case 0x32, 0x33, 0x34:
                output.append(0x0A)
                return
            default:
                throw .badField(
                    path: path, line: line, column: "location_type", value: String(decoding: type, as: UTF8.self),
                    expected: "0, 1, 2, 3, 4 or empty")
            }
        }
        for column in columns {
            if column >= 0 && column < fieldCount {
                for b in Self.trimmed(fields[column][...]) { output.append(b == 0x09 || b == 0x0A || b == 0x0D ? 0x20 : b) }
            }
            output.append(0x09)
        }
        output.append(contentsOf: category.utf8)
        output.append(0x0A)
    }
}
