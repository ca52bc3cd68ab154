/// One row of a gazetteer, split into fields in place: byte ranges into the line, no
/// copies. The scanner reuses one `PlaceRow` for every line, so reading a 200 MB dump
/// allocates nothing per row.
public final class PlaceRow {
    /// The schema the row is split by.
    public let schema: GazetteerSchema
    /// The file name in messages.
    public let path: String
    /// The row's bytes, without the newline (and without a trailing carriage return).
    public private(set) var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// The line number, from 1.
    public private(set) var line = 0
    /// Where the line starts in the file.
    public private(set) var offset = 0
    /// Latitude and longitude, parsed and range-checked by `split`.
    public private(set) var coordinate = Coordinate(latitude: 0, longitude: 0)

    /// For each column, the field it holds (`PlaceField.rawValue`) or -1.
    private let fieldOfColumn: UnsafeMutablePointer<Int>
    private let columnCount: Int
    /// Field ranges, `2 * PlaceField.rawValue` start and end; -1 when absent.
    private let ranges: UnsafeMutablePointer<Int>
    private static let fieldCount = PlaceField.allCases.count

    /// A row splitter for `schema`.
    public init(schema: GazetteerSchema, path: String) {
        self.schema = schema
        self.path = path
        var map = [Int](repeating: -1, count: schema.columnCount)
        for field in PlaceField.allCases {
            if let c = schema.column(field), c < map.count { map[c] = field.rawValue }
        }
        columnCount = map.count
        fieldOfColumn = .allocate(capacity: max(map.count, 1))
        fieldOfColumn.initialize(from: map, count: map.count)
        ranges = .allocate(capacity: 2 * Self.fieldCount)
        ranges.initialize(repeating: -1, count: 2 * Self.fieldCount)
    }

    deinit {
        ranges.deallocate()
        fieldOfColumn.deallocate()
    }

    /// Splits `line` (without its newline) at tabs and checks its column count,
    /// coordinates and name.
    public func split(_ line: UnsafeBufferPointer<UInt8>, number: Int, offset: Int) throws(GazetteerError) {
        var count = line.count
        if count > 0 && line[count - 1] == 0x0D { count -= 1 }
        bytes = UnsafeBufferPointer(rebasing: line[0..<count])
        self.line = number
        self.offset = offset
        let base = line.baseAddress!
        let columns = columnCount
        // Tabs found eight bytes at a time (memchr's call overhead dominated on fields of
        // a few bytes): a zero byte of `word ^ tabs` marks a tab, found exactly (no
        // borrow) by the classic `~(((x & 7F…) + 7F…) | x | 7F…)`.
        var column = 0
        var start = 0
        var i = 0
        let raw = UnsafeRawPointer(base)
        let tabs: UInt64 = 0x0909_0909_0909_0909
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while i + 8 <= count {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ tabs
            var found = ~(((x & low) &+ low) | x | low)
            while found != 0 {
                let end = i + found.trailingZeroBitCount / 8
                found &= found - 1
                record(column, start, end, columns)
                column += 1
                start = end + 1
            }
            i += 8
        }
        while i < count {
            if base[i] == 0x09 {
                record(column, start, i, columns)
                column += 1
                start = i + 1
            }
            i += 1
        }
        record(column, start, count, columns)
        column += 1
        if column != columns {
            throw .wrongColumnCount(path: path, line: number, expected: columns, found: column)
        }
        if field(.name).isEmpty {
            throw .badField(path: path, line: number, column: "name", value: "", expected: "a name")
        }
        guard let lat = Self.parseDecimal(field(.latitude)), lat >= -90, lat <= 90 else {
            throw .badField(
                path: path, line: number, column: "latitude", value: string(.latitude),
                expected: "a number from -90 to 90")
        }
        guard let lon = Self.parseDecimal(field(.longitude)), lon >= -180, lon <= 180 else {
            throw .badField(
                path: path, line: number, column: "longitude", value: string(.longitude),
                expected: "a number from -180 to 180")
        }
        coordinate = Coordinate(latitude: lat, longitude: lon)
    }

    @inline(__always)
    private func record(_ column: Int, _ start: Int, _ end: Int, _ columns: Int) {
        guard column < columns else { return }
        let f = fieldOfColumn[column]
        if f >= 0 {
            ranges[2 * f] = start
            ranges[2 * f + 1] = end
        }
    }

    /// Checks only the column count of `line` (for rows that cannot match): tabs are
    /// counted eight bytes at a time, nothing is recorded or parsed.
    public func checkColumnCount(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(GazetteerError) {
        let base = line.baseAddress!
        let count = line.count
        var tabs = 0
        var i = 0
        let raw = UnsafeRawPointer(base)
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while i + 8 <= count {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x0909_0909_0909_0909
            tabs += (~(((x & low) &+ low) | x | low)).nonzeroBitCount
            i += 8
        }
        while i < count {
            if base[i] == 0x09 { tabs += 1 }
            i += 1
        }
        if tabs + 1 != columnCount {
            throw .wrongColumnCount(path: path, line: number, expected: columnCount, found: tabs + 1)
        }
    }

    /// Checks the column count of `line` as `checkColumnCount` does, and records where
    /// each column starts, so that a caller can look at a few columns without splitting
    /// the row: column `c` is `starts[c] ..< starts[c + 1] - 1`. `starts` must have room
    /// for `columnStartsCapacity` entries.
    ///
    /// Tabs are found eight bytes at a time, and the first two of each eight are stored
    /// without asking whether there are any (a store past the last real tab is overwritten
    /// by the next, or lands beyond the columns): whether a group of eight bytes holds a
    /// tab is a coin toss the branch predictor loses, and this is the scan's hottest loop.
    @inline(__always)
    public func locateColumns(
        _ line: UnsafeBufferPointer<UInt8>, number: Int, into starts: UnsafeMutablePointer<Int>
    ) throws(GazetteerError) {
        let base = line.baseAddress!
        let count = line.count
        let columns = columnCount
        let lastRecorded = columns - 1
        var tabs = 0
        var i = 0
        starts[0] = 0
        let raw = UnsafeRawPointer(base)
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while i + 8 <= count {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x0909_0909_0909_0909
            var found = ~(((x & low) &+ low) | x | low)
            // One bit per tab, at the top of its byte: a multiply sums them (nonzeroBitCount
            // is a dozen instructions on baseline x86-64, which has no popcnt).
            let foundCount = Int(truncatingIfNeeded: ((found >> 7) &* 0x0101_0101_0101_0101) >> 56)
            let slot = starts + min(tabs, lastRecorded) + 1
            let next = i &+ 1
            slot[0] = next &+ found.trailingZeroBitCount >> 3
            found &= found &- 1
            slot[1] = next &+ found.trailingZeroBitCount >> 3
            if foundCount > 2 {
                var k = 2
                while k < foundCount {
                    found &= found &- 1
                    slot[k] = next &+ found.trailingZeroBitCount >> 3
                    k &+= 1
                }
            }
            tabs &+= foundCount
            i &+= 8
        }
        while i < count {
            if base[i] == 0x09 {
                tabs += 1
                if tabs < columns { starts[tabs] = i + 1 }
            }
            i += 1
        }
        if tabs + 1 != columns {
            throw .wrongColumnCount(path: path, line: number, expected: columns, found: tabs + 1)
        }
        starts[columns] = count + 1
    }

    /// The entries `locateColumns` may write: one per column and one past the last, and
    /// room for a group of eight bytes' tabs beyond.
    public var columnStartsCapacity: Int { columnCount + 9 }

    /// The bytes of `field`; empty when the schema has no such column.
    @inline(__always)
    public func field(_ field: PlaceField) -> UnsafeBufferPointer<UInt8> {
        let s = ranges[2 * field.rawValue]
        guard s >= 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(rebasing: bytes[s..<ranges[2 * field.rawValue + 1]])
    }

    /// `field` as a string (invalid UTF-8 repaired; use `validatedString` to refuse it).
    public func string(_ field: PlaceField) -> String {
        String(decoding: self.field(field), as: UTF8.self)
    }

    /// `field` as a string, or an error naming the line when it is not valid UTF-8.
    public func validatedString(_ field: PlaceField) throws(GazetteerError) -> String {
        let b = self.field(field)
        guard let s = String(validating: b, as: UTF8.self) else {
            throw .invalidUTF8(path: path, line: line, column: field.columnName)
        }
        return s
    }

    /// The population, 0 when empty or not a number.
    public var population: Int { Self.parsePopulation(field(.population)) }

    /// A population field's value: its digits, 0 when empty or not a number.
    @inline(__always)
    static func parsePopulation(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var n = 0
        for b in bytes {
            guard b >= 0x30 && b <= 0x39 else { return 0 }
            n = n &* 10 &+ Int(b - 0x30)
        }
        return n
    }

    /// The category: the `category` column, else one derived from a GeoNames feature code
    /// (`PlaceCategory.fromFeatureCode`), else empty.
    public var category: String {
        if schema.column(.category) != nil { return string(.category) }
        if schema.column(.featureCode) != nil { return PlaceCategory.fromFeatureCode(field(.featureCode)) }
        return ""
    }

    /// The country code, upper case.
    public var countryCode: String { string(.countryCode).uppercased() }

    /// Parses `-12.345`, `7`, `+0.5`: a sign, digits, an optional fraction. Nil for
    /// anything else, including an empty field.
    static func parseDecimal(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = b.count
        var negative = false
        if i < n && (b[i] == 0x2D || b[i] == 0x2B) {
            negative = b[i] == 0x2D
            i += 1
        }
        var whole: Int64 = 0
        var digits = 0
        while i < n, b[i] >= 0x30, b[i] <= 0x39, digits < 15 {
            whole = whole * 10 + Int64(b[i] - 0x30)
            i += 1
            digits += 1
        }
        var fraction: Int64 = 0
        var scale: Int64 = 1
        if i < n && b[i] == 0x2E {
            i += 1
            while i < n, b[i] >= 0x30, b[i] <= 0x39 {
                if scale < 1_000_000_000_000 {
                    fraction = fraction * 10 + Int64(b[i] - 0x30)
                    scale *= 10
                }
                digits += 1
                i += 1
            }
        }
        guard digits > 0, i == n else { return nil }
        let value = Double(whole) + Double(fraction) / Double(scale)
        return negative ? -value : value
    }
}
