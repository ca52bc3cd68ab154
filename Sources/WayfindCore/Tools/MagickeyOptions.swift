/// The options magickey-suggest and magickey-find share: the gazetteer, the location
/// bias and the filters, with their flag specs and their checks.
package struct MagickeyOptions {
    /// `--places FILE`, or nil for the embedded gazetteer.
    package var placesPath: String? = nil
    package var bias = LocationBias(location: nil, radius: nil)
    package var filters = PlaceFilters()
    package var json = false

    /// The flags both tools have, read as typed values.
    enum Flags {
        static let location = Flag(
            "location", value: "LAT,LON", help: "rank places near this point higher (decimal degrees)",
            manHelp: "Rank places near LAT,LON (decimal degrees, e.g. 41.88,-87.63) higher. Nothing is excluded; see RANKING.",
            expected: "LAT,LON in decimal degrees, e.g. 48.85,2.35"
        ) { text -> Coordinate? in
            guard let parts = MagickeyOptions.numbers(text), parts.count == 2, abs(parts[0]) <= 90, abs(parts[1]) <= 180 else { return nil }
            return Coordinate(latitude: parts[0], longitude: parts[1])
        }
        static let distance = Flag(
            "distance", value: "METERS", help: "the radius of --location's bias (default 50000)",
            manHelp:
                "The radius in metres around --location inside which places rank first (default 50000). Beyond it, bands of doubling width rank nearer places first, up to about 3000 km, beyond which distance no longer counts.",
            expected: "metres, a number > 0"
        ) { text -> Double? in
            guard let d = MagickeyOptions.numbers(text), d.count == 1, d[0] > 0 else { return nil }
            return d[0]
        }
        static let extent = Flag(
            "extent", value: "MINLON,MINLAT,MAXLON,MAXLAT", help: "only places inside this rectangle",
            expected: "MINLON,MINLAT,MAXLON,MAXLAT, e.g. -5,41,10,51"
        ) { text -> Extent? in
            guard let e = MagickeyOptions.numbers(text), e.count == 4, e[0] <= e[2], e[1] <= e[3],
                abs(e[1]) <= 90, abs(e[3]) <= 90, abs(e[0]) <= 180, abs(e[2]) <= 180
            else { return nil }
            return Extent(minLongitude: e[0], minLatitude: e[1], maxLongitude: e[2], maxLatitude: e[3])
        }
        static let country = Flag<[String]>(
            FlagSpec(
                "country", value: .required(name: "COUNTRY[,COUNTRY]"),
                help: "only places in these countries (ISO codes such as FR or FRA, or names)",
                manHelp:
                    "Only places in these countries: ISO 3166-1 alpha-2 codes (FR), alpha-3 codes (FRA) or English names (France, Ivory Coast), in any case, separated by commas; repeatable. An unknown country is an error, with the closest known name when there is one.",
                // Completion offers the codes and the names of one word (a shell splits
                // its word lists at blanks).
                completion: .choices(Country.table.map(\.alpha2) + Country.table.flatMap(\.names).filter { !$0.contains(" ") })
            )
        ) { values throws(UsageError) in
            var codes: [String] = []
            for case let text? in values { codes += try Country.codes(text) }
            return codes
        }
        static let category = Flag(
            "category", values: "NAME[,NAME]",
            help: "only places of these categories (capital, admin seat, city, section, ...)",
            manHelp:
                "Only places of these categories, separated by commas; repeatable. The embedded gazetteer has capital, admin seat, city and section (plurals and admin_seat work too); another name is an error there. With --places, the file's own categories are accepted (a GeoNames dump's are those four and the lower-case feature codes of other features).",
            completion: .choices(PlaceCategory.populatedPlaceCategories), expected: "category names separated by commas"
        ) { text -> [String]? in text.split(separator: ",").map(String.init) }
        static let places = Flag(
            "places", value: "FILE", help: "use this gazetteer (our TSV, a GeoNames dump or a GTFS stops.txt) instead of the embedded one",
            manHelp:
                "Use the gazetteer in FILE instead of the embedded one: a TSV file with a header row naming at least name, latitude and longitude columns, a GeoNames dump (cities500.txt, allCountries.txt: 19 columns, no header), or a GTFS feed's stops.txt (CSV naming stop_name, stop_lat and stop_lon columns: its stops and stations). The format is detected from the first line. See GAZETTEER.",
            completion: .file)
        static let json = Flag("json", help: "print ArcGIS's JSON shape instead of TSV (errors too)")

        /// The table entries, in --help order, without `--json` (each tool puts it last).
        static let table = [location.spec, distance.spec, extent.spec, country.spec, category.spec, places.spec]
    }

    /// Reads the shared options.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        placesPath = try parsed.value(of: Flags.places)
        json = try parsed.value(of: Flags.json)
        bias = LocationBias(location: try parsed.value(of: Flags.location), radius: try parsed.value(of: Flags.distance))
        let categories = Array(try parsed.value(of: Flags.category).joined())
        if placesPath == nil { try Self.checkEmbeddedCategories(categories) }
        filters = PlaceFilters(
            countries: try parsed.value(of: Flags.country), extent: try parsed.value(of: Flags.extent), categories: categories)
    }

    /// Refuses a `--category` the embedded gazetteer does not have, naming those it has.
    static func checkEmbeddedCategories(_ names: [String]) throws(UsageError) {
        let known = PlaceCategory.populatedPlaceCategories.map(PlaceCategory.displayName).map { $0.lowercased() }
        let knownNames = PlaceFilters(categories: known).categories
        // A name is known when what it filters on (itself, and its singular) includes a
        // known category.
        for name in names where PlaceFilters(categories: [name]).categories.allSatisfy({ !knownNames.contains($0) }) {
            let typed = String(decoding: PlaceCategory.normalized(name), as: UTF8.self)
            throw UsageError(
                "unknown --category \(MessageValue.quoted(typed)) (the embedded gazetteer has \(known.joined(separator: ", ")))"
                    + Spelling.hint(for: typed, in: known))
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

    /// The geocoder the options name: the embedded gazetteer or the `--places` file (whose
    /// index notes begin with `tool`).
    func geocoder(context: ToolContext, tool: String = "wayfind") throws(ToolError) -> Geocoder {
        guard let placesPath else {
            do { return try Geocoder.installedEmbedded() } catch { throw ToolError(error.description) }
        }
        return Geocoder.file(placesPath, context: context, tool: tool)
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
        15,000 or more, or seats of government): name, every alternate name GeoNames has \
        in any script (244,494 in all; for Rome, Roma, Rom, Rzym and 44 more in Latin, \
        Cyrillic, Arabic, Japanese and other scripts), region, country, coordinates, \
        population and category \
        (capital, admin_seat, section or city). It is part of the \
        binary; no file is read. Lower-case machine romanisations of names in other \
        scripts (rm, loma for Rome) are left out (Sources/WayfindPlacesData/README.md in \
        the source says what is kept and why).

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

        A GTFS stops.txt (a transit feed's stops, as in the route graph's bus stop \
        example) is CSV with RFC 4180 quoting: a header naming stop_id, stop_name, \
        stop_lat or stop_lon, in any order, after an optional byte order mark, makes it \
        one, and then stop_name, stop_lat and stop_lon are required. Quoted fields may \
        hold commas, doubled quotes and newlines (a newline or tab in a field is read as \
        a space); lines may end in CRLF. Stops (location_type empty or 0, category stop) \
        and stations (1, category station, ranked above stops) are read; entrances, \
        generic nodes and boarding areas (2, 3, 4) are left out, and any other \
        location_type is an error. A feed has no region, country or population: labels are \
        the stop names. Line numbers in messages are the file's.

        The first use of a --places FILE of 4 MiB or more builds an index of it, with a note \
        on standard error (and a percentage on a terminal): about two minutes and a half and \
        1.3 GB of memory for a 12-million-row GeoNames allCountries dump, whose index is \
        about 0.54 times its size (words, rows by importance, and a grid of one-degree \
        cells for short queries, and second words begun, near a --location). It is kept in ${XDG_CACHE_HOME:-$HOME/.cache}/wayfind/ \
        (places-HASH.index, one per file, named by its device and inode) and used by later \
        runs, which then read only the rows that can be results. A file whose size, \
        modification time or sampled content changed is indexed again; a cache file that \
        is cut short or damaged is rebuilt. When the cache cannot be written (a read-only \
        home), the file is searched whole, with a one-line note. Results and magicKeys are \
        the same either way, and a key stays valid as long as the file is unchanged. \
        Standard input and smaller files are always searched whole. Delete the folder to \
        free the space.

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

/// Degrees with five decimals (about a metre), as places.tsv stores them: `-87.65005`.
func formatDegrees(_ value: Double) -> String {
    let scaled = Int64((abs(value) * 100_000).rounded())
    let whole = scaled / 100_000
    let fraction = String(scaled % 100_000)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    return "\(sign)\(whole).\(String(repeating: "0", count: 5 - fraction.count))\(fraction)"
}
