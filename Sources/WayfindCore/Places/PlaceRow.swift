/// One row of a gazetteer, split into fields in place: byte ranges into the line, no
/// copies. The scanner reuses one `PlaceRow` for every line, so reading a 200 MB dump
/// allocates nothing per row.
package final class PlaceRow {
    /// The schema the row is split by.
    package let schema: GazetteerSchema
    /// The file name in messages.
    package let path: String
    /// The row's bytes, without the newline (and without a trailing carriage return).
    package private(set) var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// The line number, from 1.
    package private(set) var line = 0
    /// Where the line starts in the file.
    package private(set) var offset = 0
    /// Latitude and longitude, parsed and range-checked by `split`.
    package private(set) var coordinate = Coordinate(latitude: 0, longitude: 0)

    /// For each `PlaceField.rawValue`, its column, or -1.
    private let columnOfField: UnsafeMutablePointer<Int>
    /// The `PlaceField.rawValue`s of the schema's `textFields`.
    private let checkedTextFields: UnsafeMutablePointer<Int>
    private let checkedTextFieldCount: Int
    /// Where each column of the row starts (`locateColumns`): column `c` is
    /// `columnStarts[c] ..< columnStarts[c + 1] - 1` of `bytes`.
    package let columnStarts: UnsafeMutablePointer<Int>
    private let columnCount: Int
    /// The fields printed as text, which must be valid UTF-8 (an id, a country code and a
    /// category are printed with invalid bytes replaced).
    private static let textFields: [PlaceField] = [.name, .admin1Name, .countryName]

    /// A row splitter for `schema`.
    package init(schema: GazetteerSchema, path: String) {
        self.schema = schema
        self.path = path
        columnCount = schema.columnCount
        let columns = PlaceField.allCases.map { field in schema.column(field).flatMap { $0 < schema.columnCount ? $0 : nil } ?? -1 }
        columnOfField = .allocate(capacity: columns.count)
        columnOfField.initialize(from: columns, count: columns.count)
        let text = Self.textFields.filter { columns[$0.rawValue] >= 0 }.map(\.rawValue)
        checkedTextFieldCount = text.count
        checkedTextFields = .allocate(capacity: max(text.count, 1))
        checkedTextFields.initialize(from: text, count: text.count)
        columnStarts = .allocate(capacity: schema.columnCount + 9)
    }

    deinit {
        columnOfField.deallocate()
        checkedTextFields.deallocate()
        columnStarts.deallocate()
    }

    /// Splits `line` (without its newline; a trailing carriage return is dropped) at tabs,
    /// makes it the current row, and checks it.
    ///
    /// The check is the one rule for a gazetteer row, the same on every path (suggest's
    /// scan, find's, the embedded gazetteer), and every row of a file meets it or the run
    /// stops at it: the right number of columns, a name, a latitude from -90 to 90, a
    /// longitude from -180 to 180, and valid UTF-8 in the fields printed as text. A row
    /// that no query matches is checked too, so that what one run accepts, every run
    /// accepts: a key magickey-suggest prints, magickey-find resolves.
    package func split(_ line: UnsafeBufferPointer<UInt8>, number: Int, offset: Int) throws(GazetteerError) {
        var count = line.count
        if count > 0 && line[count - 1] == 0x0D { count -= 1 }
        bytes = UnsafeBufferPointer(rebasing: line[0..<count])
        self.line = number
        self.offset = offset
        try locateColumns(bytes, number: number, into: columnStarts)
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
        for k in 0..<checkedTextFieldCount {
            let field = PlaceField(rawValue: checkedTextFields[k])!
            if !Self.isValidUTF8(self.field(field)) { throw .invalidUTF8(path: path, line: number, column: field.columnName) }
        }
    }

    /// Whether `bytes` are valid UTF-8: one pass, ASCII a byte at a time (names are short).
    @inline(__always)
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard var p = bytes.baseAddress else { return true }
        let end = p + bytes.count
        while p < end {
            if p.pointee < 0x80 {
                p += 1
                continue
            }
            let (value, length) = UTF8Decoding.decode(p, end: end)
            if value == UTF8Decoding.invalid { return false }
            p += length
        }
        return true
    }

    /// Checks the column count of `line`, and records where each column starts, so that a caller can look at a few columns without splitting
    /// the row: column `c` is `starts[c] ..< starts[c + 1] - 1`. `starts` must have room
    /// for `columnStartsCapacity` entries.
    ///
    /// Tabs are found eight bytes at a time, and the first two of each eight are stored
    /// without asking whether there are any (a store past the last real tab is overwritten
    /// by the next, or lands beyond the columns): whether a group of eight bytes holds a
    /// tab is a coin toss the branch predictor loses, and this is the scan's hottest loop.
    @inline(__always)
    package func locateColumns(
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
    package var columnStartsCapacity: Int { columnCount + 9 }

    /// The bytes of `field`; empty when the schema has no such column.
    @inline(__always)
    package func field(_ field: PlaceField) -> UnsafeBufferPointer<UInt8> {
        let c = columnOfField[field.rawValue]
        guard c >= 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(rebasing: bytes[columnStarts[c]..<(columnStarts[c + 1] - 1)])
    }

    /// `field` as a string (invalid UTF-8 repaired; `split` refuses it in the text fields).
    package func string(_ field: PlaceField) -> String {
        String(decoding: self.field(field), as: UTF8.self)
    }

    /// The population, 0 when empty or not a number.
    package var population: Int { Self.parsePopulation(field(.population)) }

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
    package var category: String {
        if schema.column(.category) != nil { return string(.category) }
        if schema.column(.featureCode) != nil { return PlaceCategory.fromFeatureCode(field(.featureCode)) }
        return ""
    }

    /// The country code, upper case.
    package var countryCode: String { string(.countryCode).uppercased() }

    /// Parses `-12.345`, `7`, `+0.5`: a sign, digits, an optional fraction. Nil for
    /// anything else, including an empty field. Every row's coordinates pass through here,
    /// so it reads through a pointer with wrapping arithmetic (15 whole and 12 fraction
    /// digits cannot overflow).
    @inline(__always)
    package static func parseDecimal(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        guard var p = b.baseAddress else { return nil }
        let end = p + b.count
        var negative = false
        if p < end && (p.pointee == 0x2D || p.pointee == 0x2B) {
            negative = p.pointee == 0x2D
            p += 1
        }
        var whole: Int64 = 0
        var digits = 0
        while p < end, digits < 15 {
            let d = p.pointee &- 0x30
            if d > 9 { break }
            whole = whole &* 10 &+ Int64(d)
            p += 1
            digits &+= 1
        }
        var fraction: Int64 = 0
        var scale: Int64 = 1
        if p < end && p.pointee == 0x2E {
            p += 1
            while p < end {
                let d = p.pointee &- 0x30
                if d > 9 { break }
                if scale < 1_000_000_000_000 {
                    fraction = fraction &* 10 &+ Int64(d)
                    scale &*= 10
                }
                digits &+= 1
                p += 1
            }
        }
        guard digits > 0, p == end else { return nil }
        let value = Double(whole) + Double(fraction) / Double(scale)
        return negative ? -value : value
    }
}

extension PlaceRow {
    /// What the row's qualifiers depend on, as one key: its country and admin-1 codes and,
    /// where the schema has them, their names. Rows of one region share it, so what is
    /// worked out from the qualifiers is worked out once per region (a dump has millions
    /// of rows and a few thousand regions).
    var qualifierKey: [UInt8] {
        var key = Array(field(.countryCode))
        key.append(0x09)
        key += field(.admin1Code)
        for name in [PlaceField.admin1Name, .countryName] where schema.column(name) != nil {
            key.append(0x09)
            key += field(name)
        }
        return key
    }
}
