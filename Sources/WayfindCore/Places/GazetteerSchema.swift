/// Which column of a gazetteer holds what: read from our TSV's header, or GeoNames' fixed
/// 19-column layout.
///
/// Two formats are accepted and told apart by the first line:
///
///     geonameid<TAB>name<TAB>…<TAB>latitude<TAB>longitude<TAB>…    a header: our TSV
///     2988507<TAB>Paris<TAB>Paris<TAB>…  (19 columns, an id first)   a GeoNames dump
///
/// In our TSV, columns are found by name, in any order, and only `name`, `latitude` and
/// `longitude` are required (`lat`, `lon`, `lng` also work). A user TSV may add any other
/// columns; a `category` column makes its values collections (`coffee`).

/// A field the tools read from a row.
package enum PlaceField: Int, CaseIterable, Sendable {
    case id, name, asciiName, alternateNames, latitude, longitude, featureCode, category
    case countryCode, countryName, admin1Code, admin1Name, population
    /// Alternate names a place is rarely meant by (old names, other places' names): only
    /// typed whole, or when nothing better matches, do they find it (see `PlaceMatch`).
    case rareAlternateNames
    /// The codes that name the place when typed in capitals (`DE`, `DEU`, `CA`).
    case codes
    /// `MINLON,MINLAT,MAXLON,MAXLAT`: the area a place covers (a country, a region).
    case extent

    /// The header names that denote the field in our TSV.
    var headerNames: [String] {
        switch self {
        case .id: ["geonameid", "id"]
        case .name: ["name"]
        case .asciiName: ["asciiname"]
        case .alternateNames: ["alternatenames"]
        case .latitude: ["latitude", "lat"]
        case .longitude: ["longitude", "lon", "lng"]
        case .featureCode: ["feature_code"]
        case .category: ["category"]
        case .countryCode: ["country_code"]
        case .countryName: ["country_name", "country"]
        case .admin1Code: ["admin1_code"]
        case .admin1Name: ["admin1_name", "region"]
        case .population: ["population"]
        case .rareAlternateNames: ["rare_alternatenames"]
        case .codes: ["codes"]
        case .extent: ["extent"]
        }
    }

    /// The column's name in error messages.
    var columnName: String { headerNames[0] }
}

/// The layout of one gazetteer file.
package struct GazetteerSchema: Sendable, Equatable {
    /// The two formats.
    package enum Format: Sendable, Equatable {
        /// Our TSV: a header row, columns by name.
        case tsv
        /// A GeoNames dump (cities500.txt, allCountries.txt): 19 columns, no header.
        case geonames
    }

    /// The columns of a GeoNames dump (geonames.org/export, "geoname" table).
    package static let geonamesColumnCount = 19

    /// The format.
    package var format: Format
    /// How many columns every row has.
    package var columnCount: Int
    /// For each `PlaceField.rawValue`, its column index, or -1.
    package var columns: [Int]

    /// The column of `field`, or nil.
    package func column(_ field: PlaceField) -> Int? {
        let c = columns[field.rawValue]
        return c >= 0 ? c : nil
    }

    /// GeoNames' fixed layout.
    package static let geonames: GazetteerSchema = {
        var columns = [Int](repeating: -1, count: PlaceField.allCases.count)
        columns[PlaceField.id.rawValue] = 0
        columns[PlaceField.name.rawValue] = 1
        columns[PlaceField.asciiName.rawValue] = 2
        columns[PlaceField.alternateNames.rawValue] = 3
        columns[PlaceField.latitude.rawValue] = 4
        columns[PlaceField.longitude.rawValue] = 5
        columns[PlaceField.featureCode.rawValue] = 7
        columns[PlaceField.countryCode.rawValue] = 8
        columns[PlaceField.admin1Code.rawValue] = 10
        columns[PlaceField.population.rawValue] = 14
        return GazetteerSchema(format: .geonames, columnCount: geonamesColumnCount, columns: columns)
    }()

    /// The schema announced by `firstLine`, or nil when it is neither format.
    ///
    /// `isHeader` tells whether the first line is a header (to skip) or already a row.
    package static func detect(firstLine: UnsafeBufferPointer<UInt8>) -> (schema: GazetteerSchema, isHeader: Bool)? {
        let fields = firstLine.split(separator: 0x09, omittingEmptySubsequences: false)
        // A header: its cells are names; find ours among them (case-insensitive). A byte
        // order mark before the first (as spreadsheets save UTF-8) is not part of it.
        let bom = firstLine.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let names = fields.enumerated().map { i, field in
            String(decoding: field.dropFirst(i == 0 ? bom : 0), as: UTF8.self).lowercased().trimmingSpaces()
        }
        var columns = [Int](repeating: -1, count: PlaceField.allCases.count)
        for field in PlaceField.allCases {
            if let index = names.firstIndex(where: { field.headerNames.contains($0) }) {
                columns[field.rawValue] = index
            }
        }
        if columns[PlaceField.name.rawValue] >= 0 && columns[PlaceField.latitude.rawValue] >= 0
            && columns[PlaceField.longitude.rawValue] >= 0
        {
            return (GazetteerSchema(format: .tsv, columnCount: fields.count, columns: columns), true)
        }
        // A GeoNames row: 19 columns, an integer id first.
        if fields.count == geonamesColumnCount, let id = fields.first, !id.isEmpty,
            id.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        {
            return (geonames, false)
        }
        return nil
    }
}

extension String {
    /// The string without leading and trailing spaces and carriage returns.
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\r" { s.removeLast() }
        return String(s)
    }
}
