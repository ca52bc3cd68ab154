/// The options magickey-suggest and magickey-find share: the gazetteer, the location
/// bias and the filters, with their flag specs and their checks.
public struct MagickeyOptions {
    /// `--places FILE`, or nil for the embedded gazetteer.
    public var placesPath: String? = nil
    public var bias = LocationBias(location: nil, radius: nil)
    public var filters = PlaceFilters()
    public var json = false

    /// The flags both tools have.
    static let sharedFlags: [FlagSpec] = [
        FlagSpec(
            "location", value: .required(name: "LAT,LON"),
            help: "rank places near this point higher (decimal degrees)",
            manHelp:
                "Rank places near LAT,LON (decimal degrees, e.g. 41.88,-87.63) higher. Nothing is excluded; see RANKING."),
        FlagSpec(
            "distance", value: .required(name: "METERS"),
            help: "the radius of --location's bias (default 50000)",
            manHelp:
                "The radius in metres around --location inside which places rank first (default 50000). Beyond it, bands of doubling width rank nearer places first."
        ),
        FlagSpec(
            "extent", value: .required(name: "MINLON,MINLAT,MAXLON,MAXLAT"),
            help: "only places inside this rectangle"),
        FlagSpec(
            "country", value: .required(name: "CC[,CC]"),
            help: "only places in these countries (ISO 3166-1 alpha-2 codes)"),
        FlagSpec(
            "category", value: .required(name: "NAME[,NAME]"),
            help: "only places of these categories (capital, admin seat, city, section, ...)"),
        FlagSpec(
            "places", value: .required(name: "FILE"),
            help: "use this gazetteer (our TSV or a GeoNames dump) instead of the embedded one",
            manHelp:
                "Use the gazetteer in FILE instead of the embedded one: a TSV file with a header row naming at least name, latitude and longitude columns, or a GeoNames dump (cities500.txt, allCountries.txt: 19 columns, no header). The format is detected from the first line. See GAZETTEER.",
            completion: .file),
        FlagSpec("json", help: "print ArcGIS's JSON shape instead of TSV"),
    ]

    /// Reads the shared options.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        placesPath = parsed.lastValue("places")
        json = parsed.has("json")
        var location: Coordinate? = nil
        if let text = parsed.lastValue("location") {
            let parts = Self.numbers(text)
            guard let parts, parts.count == 2, abs(parts[0]) <= 90, abs(parts[1]) <= 180 else {
                throw UsageError("invalid --location \(MessageValue.quoted(text)) (expected LAT,LON in decimal degrees, e.g. 48.85,2.35)")
            }
            location = Coordinate(latitude: parts[0], longitude: parts[1])
        }
        var radius: Double? = nil
        if let text = parsed.lastValue("distance") {
            guard let d = Self.numbers(text), d.count == 1, d[0] > 0 else {
                throw UsageError("invalid --distance \(MessageValue.quoted(text)) (expected metres, a number > 0)")
            }
            radius = d[0]
        }
        bias = LocationBias(location: location, radius: radius)
        if let text = parsed.lastValue("extent") {
            guard let e = Self.numbers(text), e.count == 4, e[0] <= e[2], e[1] <= e[3],
                abs(e[1]) <= 90, abs(e[3]) <= 90, abs(e[0]) <= 180, abs(e[2]) <= 180
            else {
                throw UsageError("invalid --extent \(MessageValue.quoted(text)) (expected MINLON,MINLAT,MAXLON,MAXLAT, e.g. -5,41,10,51)")
            }
            filters.extent = Extent(minLongitude: e[0], minLatitude: e[1], maxLongitude: e[2], maxLatitude: e[3])
        }
        for text in parsed.values("country") {
            for code in text.split(separator: ",") {
                let c = code.trimmingCharacters(in: " ").uppercased()
                guard c.count == 2, c.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                    throw UsageError("invalid --country \(MessageValue.quoted(text)) (expected two-letter codes such as FR,US)")
                }
                filters.countries.append(c)
            }
        }
        for text in parsed.values("category") {
            for name in text.split(separator: ",") where !name.isEmpty {
                var normalized = PlaceCategory.normalized(String(name))
                // `capitals` means `capital`.
                if normalized.last == UInt8(ascii: "s") && normalized.count > 3
                    && !["city"].contains(String(decoding: normalized, as: UTF8.self))
                {
                    filters.categories.append(Array(normalized.dropLast()))
                }
                filters.categories.append(normalized)
                normalized.removeAll()
            }
        }
    }

    /// Comma-separated decimal numbers, or nil.
    static func numbers(_ text: String) -> [Double]? {
        var out: [Double] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            var bytes = Array(part.trimmingCharacters(in: " ").utf8)
            guard let v = bytes.withUnsafeMutableBufferPointer({ PlaceRow.parseDecimal(UnsafeBufferPointer($0)) }) else { return nil }
            out.append(v)
        }
        return out
    }

    /// Opens `--places` for a scan; the caller closes it.
    static func open(_ path: String, context: ToolContext) throws(ToolError) -> FileDescriptor {
        if path == "-" { return context.standardInput }
        do {
            return try FileDescriptor.openForReading(path)
        } catch {
            throw ToolError("cannot read gazetteer \(MessageValue.plain(path)): \(error.description.lowercasedFirst())")
        }
    }

    /// The lines `--version` adds: the gazetteer and its licence.
    static func versionLines() -> [String] {
        var lines = ["Embedded gazetteer: 34,006 places from GeoNames (places.tsv)."]
        if let index = try? EmbeddedGazetteer.index() {
            lines = [
                "Embedded gazetteer: \(index.rowCount) places from GeoNames (places.tsv, fingerprint \(GazetteerFingerprint.hex(index.fingerprint)))."
            ]
        }
        lines.append(EmbeddedGazetteer.attribution)
        return lines
    }

    /// The man page sections both tools share.
    static let gazetteerSection = ManSection(
        "GAZETTEER",
        """
        The embedded gazetteer holds the 34,006 places of GeoNames' cities15000 set (population \
        15,000 or more, or seats of government): name, alternate names, region, country, \
        coordinates, population and category (capital, admin_seat, section or city). It is \
        part of the binary; no file is read.

        --places FILE reads another gazetteer in one streaming pass over its bytes: a TSV \
        file with a header row (columns found by name; only name, latitude and longitude \
        are required; a category column makes its values collections, such as coffee), or a \
        GeoNames dump with 19 columns and no header, whose region and country names are \
        taken from the embedded gazetteer. Every row is checked, whatever the query, and \
        the first broken row stops the run with its line number: a row with the wrong \
        number of columns, an empty name, a latitude or longitude that is not a number in \
        range, or a name, region or country that is not UTF-8. So magickey-find, given the \
        same file, finds every key magickey-suggest prints for it. A row may be at most 1 \
        MiB long (GeoNames rows are at most about 10 KB): a longer line, or input without \
        newlines, stops the run.

        Contains data from GeoNames (geonames.org), licensed under CC BY 4.0.
        """)
}

extension Substring {
    /// The text without leading and trailing `characters`.
    func trimmingCharacters(in characters: String) -> String {
        var s = self
        while let c = s.first, characters.contains(c) { s.removeFirst() }
        while let c = s.last, characters.contains(c) { s.removeLast() }
        return String(s)
    }
}

/// Writes JSON text: strings escaped per RFC 8259, numbers as given.
struct JSONText {
    var bytes: [UInt8] = []

    mutating func raw(_ text: String) { bytes += Array(text.utf8) }

    mutating func string(_ text: String) {
        bytes.append(0x22)
        for b in text.utf8 {
            switch b {
            case 0x22: bytes += [0x5C, 0x22]
            case 0x5C: bytes += [0x5C, 0x5C]
            case 0x0A: bytes += [0x5C, 0x6E]
            case 0x09: bytes += [0x5C, 0x74]
            case 0x0D: bytes += [0x5C, 0x72]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: bytes.append(b)
            }
        }
        bytes.append(0x22)
    }

    mutating func key(_ name: String) {
        string(name)
        bytes.append(0x3A)
    }
}

/// Degrees with five decimals (about a metre), as places.tsv stores them: `-87.65005`.
func formatDegrees(_ value: Double) -> String {
    let scaled = Int64((abs(value) * 100_000).rounded())
    let whole = scaled / 100_000
    let fraction = String(scaled % 100_000)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    return "\(sign)\(whole).\(String(repeating: "0", count: 5 - fraction.count))\(fraction)"
}
