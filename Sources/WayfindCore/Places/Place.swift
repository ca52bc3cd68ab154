/// One place of a gazetteer, as the tools print it.

/// A latitude and longitude in WGS84 decimal degrees.
public struct Coordinate: Sendable, Equatable {
    /// Degrees north, -90...90.
    public var latitude: Double
    /// Degrees east, -180...180.
    public var longitude: Double

    /// A coordinate.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The mean radius of the Earth in metres (IUGG), for great-circle distances.
    static let earthRadius = 6_371_008.8

    /// The great-circle distance to `other` in metres (haversine; good to 0.5 %).
    public func distance(to other: Coordinate) -> Double {
        let radians = Double.pi / 180
        let dLat = (other.latitude - latitude) * radians
        let dLon = (other.longitude - longitude) * radians
        let a =
            Platform.sinSquared(dLat / 2)
            + Platform.cos(latitude * radians) * Platform.cos(other.latitude * radians)
            * Platform.sinSquared(dLon / 2)
        return 2 * Coordinate.earthRadius * Platform.asin(min(1, a.squareRoot()))
    }
}

/// A rectangle of longitudes and latitudes: `--extent MINLON,MINLAT,MAXLON,MAXLAT`.
public struct Extent: Sendable, Equatable {
    /// The west edge, degrees east.
    public var minLongitude: Double
    /// The south edge, degrees north.
    public var minLatitude: Double
    /// The east edge, degrees east.
    public var maxLongitude: Double
    /// The north edge, degrees north.
    public var maxLatitude: Double

    /// An extent.
    public init(minLongitude: Double, minLatitude: Double, maxLongitude: Double, maxLatitude: Double) {
        self.minLongitude = minLongitude
        self.minLatitude = minLatitude
        self.maxLongitude = maxLongitude
        self.maxLatitude = maxLatitude
    }

    /// Whether the extent holds `point` (edges included).
    public func contains(_ point: Coordinate) -> Bool {
        point.latitude >= minLatitude && point.latitude <= maxLatitude
            && point.longitude >= minLongitude && point.longitude <= maxLongitude
    }
}

/// A place: what a suggestion stands for and what `magickey-find` prints.
public struct Place: Sendable, Equatable {
    /// The id: the GeoNames id, or the line number when the gazetteer has no id column.
    public var id: String
    /// The name with its diacritics: `Kraków`.
    public var name: String
    /// The first-level region (state, province, voivodeship), possibly empty.
    public var region: String
    /// The country's name, possibly empty.
    public var country: String
    /// The ISO 3166-1 alpha-2 country code, upper case, possibly empty.
    public var countryCode: String
    /// Where it is.
    public var coordinate: Coordinate
    /// The category: `capital`, `admin_seat`, `section`, `city`, or a user TSV's value.
    public var category: String
    /// The population, 0 when unknown.
    public var population: Int
    /// Where its row starts in the gazetteer file (part of its magicKey).
    package var offset: Int
    /// The row's line number, from 1.
    package var line: Int
    /// The area the place covers, when the gazetteer says (a country's, a region's).
    public var extent: Extent? = nil

    /// The area to show the place in: its `extent` when the gazetteer gives one, else a
    /// square around it by its size (a large city spans tens of kilometres, a town a few),
    /// as ArcGIS's candidates carry one.
    public var shownExtent: Extent {
        if let extent { return extent }
        let h = population >= 1_000_000 ? 0.25 : population >= 100_000 ? 0.1 : 0.05
        return Extent(
            minLongitude: max(-180, coordinate.longitude - h), minLatitude: max(-90, coordinate.latitude - h),
            maxLongitude: min(180, coordinate.longitude + h), maxLatitude: min(90, coordinate.latitude + h))
    }

    /// `Name, Region, Country`, leaving out empty parts: `Kraków, Małopolskie, Poland`;
    /// `Bayern, Germany` for a region; `France` for a country, whose country is itself.
    public var label: String {
        var parts = [name]
        if !region.isEmpty && region != name { parts.append(region) }
        if !country.isEmpty && (country != name || !region.isEmpty) { parts.append(country) }
        return parts.joined(separator: ", ")
    }
}

extension Extent {
    /// The extent `MINLON,MINLAT,MAXLON,MAXLAT` a gazetteer's `extent` column holds, or nil
    /// when it is empty or not four numbers in range, west to east and south to north.
    init?(column bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return nil }
        var values: [Double] = []
        for part in bytes.split(separator: 0x2C, omittingEmptySubsequences: false) {
            guard let value = PlaceRow.parseDecimal(UnsafeBufferPointer(rebasing: part)) else { return nil }
            values.append(value)
        }
        guard values.count == 4, values[0] <= values[2], values[1] <= values[3], abs(values[0]) <= 180, abs(values[2]) <= 180,
            abs(values[1]) <= 90, abs(values[3]) <= 90
        else { return nil }
        self.init(minLongitude: values[0], minLatitude: values[1], maxLongitude: values[2], maxLatitude: values[3])
    }
}

extension Place {
    /// The place in `row` (checked by `PlaceRow.split`), with names from `names` where the
    /// row has only codes.
    package init(row: PlaceRow, names: RegionNames?) {
        id = row.schema.column(.id) != nil ? row.string(.id) : String(row.line)
        name = row.string(.name)
        if row.schema.column(.admin1Name) != nil {
            region = row.string(.admin1Name)
        } else if let names {
            region = String(decoding: names.admin1Name(country: row.field(.countryCode), code: row.field(.admin1Code)), as: UTF8.self)
        } else {
            region = ""
        }
        if row.schema.column(.countryName) != nil {
            country = row.string(.countryName)
        } else if let names {
            country = String(decoding: names.countryName(code: row.field(.countryCode)), as: UTF8.self)
        } else {
            country = ""
        }
        countryCode = row.countryCode
        coordinate = row.coordinate
        category = row.category
        population = row.population
        offset = row.offset
        line = row.line
        extent = row.schema.column(.extent) != nil ? Extent(column: row.field(.extent)) : nil
    }
}
