/// What can be wrong with a gazetteer file, with the file and line in every message.
package enum GazetteerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read.
    case cannotRead(path: String, reason: String)
    /// The first line is neither a header with name, latitude and longitude columns nor a
    /// 19-column GeoNames row.
    case unknownFormat(path: String)
    /// A row has the wrong number of tab-separated columns.
    case wrongColumnCount(path: String, line: Int, expected: Int, found: Int)
    /// A required field is empty or not what it should be.
    case badField(path: String, line: Int, column: String, value: String, expected: String)
    /// A field is not valid UTF-8.
    case invalidUTF8(path: String, line: Int, column: String)
    /// A CSV file (a GTFS stops.txt) breaks CSV's quoting rules.
    case badCSV(path: String, line: Int, problem: String)
    /// A file's header lacks columns its format requires.
    case missingColumns(path: String, format: String, columns: [String])
    /// A row is longer than the scanner's limit (`GazetteerScanner.maximumRowLength`).
    case rowTooLong(path: String, limit: Int)
    /// The file is too large for an index (4 GiB, or 2³¹ rows): it is scanned instead.
    case tooLargeToIndex(path: String)
    /// An index names a row the file does not have (a damaged index).
    case damagedIndex(path: String)
    /// The embedded index does not belong to the embedded places.tsv (a build problem).
    case staleIndex

    /// A lowercase message naming the file and line.
    package var description: String {
        switch self {
        case .cannotRead(let path, let reason):
            "cannot read gazetteer \(MessageValue.plain(path)): \(reason)"
        case .unknownFormat(let path):
            "\(MessageValue.plain(path)): line 1: not a gazetteer: expected a header row naming name, latitude and longitude columns, a GeoNames dump (19 tab-separated columns), or a GTFS stops.txt"
        case .wrongColumnCount(let path, let line, let expected, let found):
            "\(MessageValue.plain(path)): line \(line): expected \(expected) tab-separated columns, found \(found)"
        case .badField(let path, let line, let column, let value, let expected):
            "\(MessageValue.plain(path)): line \(line): \(column) \(MessageValue.quoted(value)) is not \(expected)"
        case .invalidUTF8(let path, let line, let column):
            "\(MessageValue.plain(path)): line \(line): \(column) is not valid UTF-8"
        case .badCSV(let path, let line, let problem):
            "\(MessageValue.plain(path)): line \(line): not valid CSV: \(problem)"
        case .missingColumns(let path, let format, let columns):
            "\(MessageValue.plain(path)): line 1: a \(format) needs the column\(columns.count == 1 ? "" : "s") \(columns.joined(separator: ", ")), missing from its header"
        case .rowTooLong(let path, let limit):
            "\(MessageValue.plain(path)): \(ReadError.recordTooLong(limit: limit).description)"
        case .tooLargeToIndex(let path):
            "\(MessageValue.plain(path)): too large to index (4 GiB or 2^31 rows at most)"
        case .damagedIndex(let path):
            "\(MessageValue.plain(path)): the index does not match the file (delete it from the cache to rebuild it)"
        case .staleIndex:
            "the embedded gazetteer index does not match places.tsv (run make places-index)"
        }
    }
}
