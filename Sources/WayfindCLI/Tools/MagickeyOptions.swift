import WayfindCore

/// The options magickey-suggest and magickey-find share: the gazetteer, the location
/// bias and the filters, with their flag specs and their checks.
package struct MagickeyOptions {
    /// `--places FILE`, or nil for the embedded gazetteer.
    package var placesPath: String? = nil
    package var bias = LocationBias(location: nil, radius: nil)
    package var filters = PlaceFilters()
    package var json = false
    /// The `--category` names as typed.
    var categoryNames: [String] = []

    /// The flags both tools have, read as typed values.
    enum Flags {
        static let location = Flag<Coordinate?>(
            FlagSpec(
                "location", value: .required(name: "LAT,LON"),
                help: "rank places near this point higher (latitude first, as in 48.21,16.37)",
                manHelp:
                    "Rank places near LAT,LON higher: decimal degrees, latitude first (48.21,16.37 is Vienna), as map apps and geo: URIs write a point. ArcGIS's x,y order (longitude first, the order of --extent and of the JSON output) is written as ArcGIS's JSON point: '{\"x\":16.37,\"y\":48.21}'. A point far from any place whose swapped reading lies in a city gets a note on standard error. Nothing is excluded; see RANKING."
            )
        ) { values throws(UsageError) in
            guard let last = values.last, let text = last else { return nil }
            return try MagickeyOptions.location(text)
        }
        static let distance = Flag(
            "distance", value: "METERS", help: "the distance scale of --location's bias (default \(Int(LocationBias.defaultNearDistance)))",
            manHelp:
                "The distance scale in metres of --location's bias (default \(Int(LocationBias.defaultNearDistance))): a place this far counts 2^\(Int(RankKey.distanceWeight)) times less than one next door, as RANKING says; beyond about 3000 km distance no longer counts.",
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
                    "Only places in these countries: ISO 3166-1 alpha-2 codes (FR), alpha-3 codes (FRA) or English names (France, Ivory Coast, Côte d'Ivoire), in any case, with or without accents and apostrophes, separated by commas; repeatable. An unknown country is an error, with the closest known name when there is one.",
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
            help: "only places of these categories (capital, city, region, country, ...)",
            manHelp:
                "Only places of these categories, separated by commas; repeatable. The embedded gazetteer has capital, admin seat, city, section, region and country (plurals and admin_seat work too); another name is an error there. With --places, the file's own categories are accepted (a GeoNames dump's are capital, admin seat, city, section and the lower-case feature codes of other features).",
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
        categoryNames = categories
        if placesPath == nil { try Self.checkEmbeddedCategories(categories) }
        filters = PlaceFilters(
            countries: try parsed.value(of: Flags.country), extent: try parsed.value(of: Flags.extent), categories: categories)
    }

    /// Refuses a `--category` the embedded gazetteer does not have, naming those it has;
    /// `parameter` names the value in the message.
    static func checkEmbeddedCategories(_ names: [String], parameter: String = "--category") throws(UsageError) {
        let known = PlaceCategory.embeddedCategories.map(PlaceCategory.displayName).map { $0.lowercased() }
        let knownNames = PlaceFilters(categories: known).categories
        // A name is known when what it filters on (itself, and its singular) includes a
        // known category.
        for name in names where PlaceFilters(categories: [name]).categories.allSatisfy({ !knownNames.contains($0) }) {
            let typed = String(decoding: PlaceCategory.normalized(name), as: UTF8.self)
            throw UsageError(
                "unknown \(parameter) \(MessageValue.quoted(typed)) (the embedded gazetteer has \(known.joined(separator: ", ")))"
                    + Spelling.hint(for: typed, in: known))
        }
    }

    /// What is probably a mistake but not certainly one, for standard error once an
    /// answer is given, so that an odd answer is not a mystery (and bad input still gets
    /// its one line): a `--location` given longitude first (`swappedLocationNote`), and
    /// each `--category` that no place of a `--places` gazetteer has, with the closest it
    /// has (the embedded gazetteer's are checked as flags, in `init`).
    func whatLooksWrong(in geocoder: Geocoder) throws(ToolError) -> [String] {
        var notes: [String] = []
        if let location = bias.location, let note = Self.swappedLocationNote(location) { notes.append(note) }
        guard placesPath != nil, !categoryNames.isEmpty else { return notes }
        let known: [String]
        do {
            guard let categories = try geocoder.categories() else { return notes }
            known = categories
        } catch {
            throw ToolError(error.description)
        }
        let folded = Set(known.map(PlaceCategory.normalized))
        for name in categoryNames where !PlaceCategory.singulars(name).contains(where: folded.contains) {
            let shown = known.map(PlaceCategory.displayName).map { $0.lowercased() }
            let listed = shown.count <= 12 ? shown.joined(separator: ", ") : shown.prefix(12).joined(separator: ", ") + ", …"
            notes.append(
                "no place of \(MessageValue.quoted(placesPath!)) has --category \(MessageValue.quoted(name)) (its categories: \(listed.isEmpty ? "none" : listed))"
                    + Spelling.hint(for: name, in: shown))
        }
        return notes
    }

    /// The point `--location` (or the flag `flag`) names: `LAT,LON`, or ArcGIS's JSON
    /// point `{"x":LON,"y":LAT}`.
    static func location(_ text: String, flag: String = "location") throws(UsageError) -> Coordinate {
        let expected = "LAT,LON in decimal degrees, latitude first, e.g. 48.21,16.37, or {\"x\":16.37,\"y\":48.21}"
        if text.drop(while: { $0 == " " }).first == "{", let (x, y) = jsonPoint(text), abs(y) <= 90, abs(x) <= 180 {
            return Coordinate(latitude: y, longitude: x)
        }
        guard let parts = numbers(text), parts.count == 2 else { throw UsageError.invalid(flag, text, expected: expected) }
        let (latitude, longitude) = (parts[0], parts[1])
        guard abs(latitude) <= 90, abs(longitude) <= 180 else {
            if abs(latitude) <= 180 && abs(longitude) <= 90 {
                let typed = text.split(separator: ",").map { $0.trimmingCharacters(in: " ") }
                throw UsageError(
                    "invalid --\(flag) \(MessageValue.quoted(text)): latitude \(typed[0]) is beyond ±90; --\(flag) is LAT,LON, latitude first (did you mean \(typed[1]),\(typed[0])?)"
                )
            }
            throw UsageError.invalid(flag, text, expected: expected)
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The `x` and `y` of ArcGIS's JSON point (`{"x":16.37,"y":48.21,"spatialReference":…}`).
    static func jsonPoint(_ text: String) -> (x: Double, y: Double)? {
        guard let numbers = jsonNumbers(text, keys: ["x", "y"]), let x = numbers["x"], let y = numbers["y"] else { return nil }
        return (x, y)
    }

    /// The members named `keys` of the JSON object `text`, each a number (other members
    /// are skipped); nil when `text` is not one object or such a member is not a number.
    static func jsonNumbers(_ text: String, keys: Set<String>) -> [String: Double]? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw -> [String: Double]? in
            var reader = JSONReader(raw)
            var found: [String: Double] = [:]
            do throws(JSONError) {
                try reader.beginObject()
                while let key = try reader.nextKey() {
                    reader.skipWhitespace()
                    let start = reader.offset
                    let kind = try reader.peekKind()
                    try reader.skipValue()
                    guard keys.contains(key) else { continue }
                    guard kind == .number else { return nil }
                    found[key] = PlaceRow.parseDecimal(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[start..<reader.offset]))
                }
                try reader.finish()
            } catch {
                return nil
            }
            return found
        }
    }

    /// A note when `--location` seems to be given longitude first: the point as given is
    /// far from every place of the embedded gazetteer (`swapCheckLonely`), and swapped it
    /// lies in a city (`swapCheckNear` of a place of `swapCheckPopulation` or more):
    /// `16.37,48.21` is the desert of Yemen, `48.21,16.37` Vienna. Both readings near
    /// places is a real point: nothing is said.
    static func swappedLocationNote(_ location: Coordinate) -> String? {
        let swapped = Coordinate(latitude: location.longitude, longitude: location.latitude)
        guard abs(swapped.latitude) <= 90, let index = try? EmbeddedGazetteer.index(),
            let near = nearestRow(index, to: swapped, within: swapCheckNear, population: swapCheckPopulation),
            nearestRow(index, to: location, within: swapCheckLonely, population: 0) == nil
        else { return nil }
        let label =
            (try? Geocoder.installedEmbedded().find(
                magicKey: MagicKey.place(fingerprint: index.fingerprint, offset: index.offset(ofRow: near), line: index.line(ofRow: near))
                    .encoded
            ).first?.place.label) ?? "a city"
        func degrees(_ value: Double) -> String { String((value * 10_000).rounded() / 10_000) }
        return
            "--location \(degrees(location.latitude)),\(degrees(location.longitude)) is latitude \(degrees(location.latitude)), longitude \(degrees(location.longitude)), far from any place; latitude first, \(degrees(swapped.latitude)),\(degrees(swapped.longitude)) is \(label)"
    }

    /// Within this many metres of no place: a point in no town (25 km).
    static let swapCheckLonely = 25_000.0
    /// Within this many metres of a city: a point in it (10 km).
    static let swapCheckNear = 10_000.0
    /// The population that makes a place a city for the check (100,000).
    static let swapCheckPopulation = 100_000

    /// A row of `index` of at least `population` within `radius` metres of `point`, the
    /// nearest; nil when there is none. (A pass over the rows, with a cheap bound first:
    /// the embedded gazetteer's 34,000 take a fraction of a millisecond.)
    static func nearestRow(_ index: PlacesIndex, to point: Coordinate, within radius: Double, population: Int) -> Int? {
        let degrees = radius / 111_000 + 0.01
        let longitudeDegrees = min(360, degrees / max(0.01, Platform.cos(point.latitude * .pi / 180)))
        var best: (row: Int, distance: Double)? = nil
        for row in 0..<index.rowCount where index.population(ofRow: row) >= population {
            let c = index.coordinate(ofRow: row)
            guard abs(c.latitude - point.latitude) <= degrees else { continue }
            let dx = abs(c.longitude - point.longitude)
            guard min(dx, 360 - dx) <= longitudeDegrees else { continue }
            let d = point.distance(to: c)
            if d <= radius && d < (best?.distance ?? .infinity) { best = (row, d) }
        }
        return best?.row
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
        return Geocoder.file(placesPath, access: context.gazetteerAccess(tool: tool))
    }

    /// `body`'s answer from `geocoder`; when the `--places` file's cached index turns out
    /// damaged (a disk error, a copy cut short, an edit), the index is deleted, a note
    /// says so, and `body` runs again over a new one (`geocoder` becomes the new one).
    func rebuildingDamagedIndex<T>(
        _ geocoder: inout Geocoder, context: ToolContext, tool: String, errors: ErrorReporter,
        _ body: (Geocoder) throws(GeocoderError) -> T
    ) throws(ToolError) -> T {
        do {
            return try body(geocoder)
        } catch  where error.isDamagedIndex && geocoder.cachedIndexPath != nil {
            let cache = geocoder.cachedIndexPath!
            errors.report("the index \(MessageValue.plain(cache)) is damaged; making it again")
            try? Platform.removeFile(cache)
            geocoder = try self.geocoder(context: context, tool: tool)
            do { return try body(geocoder) } catch { throw ToolError(error.description) }
        } catch {
            throw ToolError(error.description)
        }
    }

    /// The lines `--version` adds: the gazetteer and its licence.
    static func versionLines() -> [String] {
        var lines = ["Embedded gazetteer: places from GeoNames (places.tsv)."]
        if let index = try? EmbeddedGazetteer.index() {
            lines = [
                "Embedded gazetteer: \(index.rowCount) places from GeoNames (places.tsv, fingerprint \(GazetteerFingerprint.hex(index.fingerprint)))."
            ]
        }
        lines.append(EmbeddedGazetteer.attribution)
        return lines
    }

    /// How many towns, countries and regions the embedded gazetteer holds, as its index
    /// counts them (zeros when it cannot be read).
    static var embeddedCounts: (towns: Int, countries: Int, regions: Int) {
        guard let index = try? EmbeddedGazetteer.index() else { return (0, 0, 0) }
        var counts = [Int](repeating: 0, count: index.categories.count)
        for r in 0..<index.rowCount { counts[index.categoryIndex(ofRow: r)] += 1 }
        let count = { (name: String) in index.categories.firstIndex(of: name).map { counts[$0] } ?? 0 }
        let countries = count("country"), regions = count("region")
        return (index.rowCount - countries - regions, countries, regions)
    }

    /// The man page sections both tools share.
    static let gazetteerSection = ManSection(
        "GAZETTEER",
        """
        The embedded gazetteer holds \(embeddedCounts.towns) places of GeoNames' cities15000 \
        set (population 15,000 or more, or seats of government), \(embeddedCounts.countries) countries and \
        \(embeddedCounts.regions) first-level regions: name, every alternate name GeoNames has in any \
        script (for Rome, Roma, Rom, Rzym and 44 more in Latin, Cyrillic, Arabic, \
        Japanese and other scripts; a country's names in every CLDR language), region, \
        country, coordinates, population and category (capital, admin_seat, section, \
        city, region or country). A country or region is placed at its capital or seat, \
        with the extent of its towns, and its population (for a region, its towns' sum). \
        It is part of the binary; no file is read. Lower-case machine romanisations of \
        names in other scripts (rm, loma for Rome) are left out, and old names, \
        descriptions and other places' names are kept apart as rare \
        (Sources/WayfindPlacesData/README.md in the source says what is kept and why).

        --places FILE reads another gazetteer in one streaming pass over its bytes: a TSV \
        file with a header row (columns found by name; only name, latitude and longitude \
        are required; a category column makes its values collections, such as coffee, named \
        by their plurals too: coffees, stops, cities; a byte order mark before the header, \
        as spreadsheets save UTF-8, is skipped), or a \
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
        on standard error (and a percentage on a terminal): about a minute and a quarter \
        and 1.1 GB of memory for a 12-million-row GeoNames allCountries dump, whose index is \
        about 0.44 times its size (words, rows by importance, each country and region's \
        rows, and a grid of one-degree cells for one-word queries near a --location). It is kept in ${XDG_CACHE_HOME:-$HOME/.cache}/wayfind/ \
        (places-HASH.index, one per file, named by its device and inode) and used by later \
        runs, which then read only the rows that can be results. A file whose size, \
        modification or change time or sampled content changed is indexed again; a cache \
        file that is cut short, damaged or of another version is rebuilt. Writing an index \
        removes the indexes of files that are gone, replaced or changed, so the folder \
        holds one index per file in use: wayfind --list-cache lists them, wayfind \
        --clear-cache removes them (wayfind(1)). When the cache cannot be written (a read-only \
        home), the file is searched whole, with a one-line note. Results and magicKeys are \
        the same either way, and a key stays valid as long as the file is unchanged. \
        Standard input and smaller files are always searched whole.

        A --category that no place of a --places file has is named on standard error, \
        with the file's categories and the closest of them.

        Contains data from GeoNames (geonames.org), licensed under CC BY 4.0.
        """)
}

/// Degrees with five decimals (about a metre), as places.tsv stores them: `-87.65005`.
func formatDegrees(_ value: Double) -> String {
    let scaled = Int64((abs(value) * 100_000).rounded())
    let whole = scaled / 100_000
    let fraction = String(scaled % 100_000)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    return "\(sign)\(whole).\(String(repeating: "0", count: 5 - fraction.count))\(fraction)"
}

extension Country {
    /// The alpha-2 codes a `--country` value names: the whole value as one name (names
    /// such as `Korea, Republic of` hold commas), or else each comma-separated part.
    /// `parameter` names the value in the message: the flag, or a web request's parameter.
    static func codes(_ text: String, parameter: String = "--country") throws(UsageError) -> [String] {
        if let code = code(text) { return [code] }
        var codes: [String] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let code = code(String(part)) else {
                let typed = part.trimmingCharacters(in: " ")
                let candidates = table.flatMap { [$0.alpha2, $0.alpha3] + $0.names }
                throw UsageError(
                    "unknown country \(MessageValue.quoted(typed)) in \(parameter) (expected ISO 3166-1 codes such as FR or FRA, "
                        + "or English names such as France)" + Spelling.hint(for: typed, in: candidates))
            }
            codes.append(code)
        }
        return codes
    }
}

extension ToolContext {
    /// What a gazetteer file's search takes from the tool's process: its standard input
    /// and error, and the cache folder of its environment.
    func gazetteerAccess(tool: String) -> GazetteerAccess {
        GazetteerAccess(standardInput: standardInput, notes: standardError, cacheFolder: environment.cacheDirectory, tool: tool)
    }
}
