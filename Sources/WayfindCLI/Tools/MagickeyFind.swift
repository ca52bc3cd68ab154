import WayfindCore

/// `magickey-find`: the place (or a collection's places) behind a magicKey, with
/// coordinates, in TSV or ArcGIS findAddressCandidates' JSON.

/// The magickey-find tool: its flag table and `run`.
package enum MagickeyFind {
    /// The most places --max-locations allows.
    package static let maximumLocations = 50

    /// The flag table.
    package static let spec = ToolSpec(
        name: "magickey-find",
        summary: "find the place behind a magicKey from magickey-suggest",
        usage: ["[OPTIONS] KEY...", "[OPTIONS] < KEYS", "[OPTIONS] --text TEXT", "[OPTIONS] --reverse LAT,LON"],
        description: """
            Print the place each magicKey names (or, for a collection, its places nearest \
            the location it was suggested for), one per line: label, latitude, longitude, \
            score (0-100), category, country code, region, population and id, \
            tab-separated. Keys come from the arguments or from standard input, one per \
            line; a line may also be a whole line of magickey-suggest's output or of \
            its --json output, so \
            'magickey-suggest paris | head -1 | magickey-find' works. With --text, find \
            without a key: the best places for the text, ranked as magickey-suggest ranks. \
            With --reverse, the places nearest a point (see REVERSE). \
            With --graph, each place found is recorded as a visit in a route graph, so \
            that magickey-suggest --graph predicts it.
            """,
        flags: [text.spec, reverse.spec, within.spec, maxLocations.spec] + MagickeyOptions.Flags.table + [
            graph.spec, at.spec,
            MagickeyOptions.Flags.json.spec,
            StandardFlags.help(),
            StandardFlags.version,
            StandardFlags.generate,
        ],
        positionalCompletion: .none,
        jsonErrorsFlag: MagickeyOptions.Flags.json.spec.long,
        manSections: [
            ManSection(
                "KEYS",
                """
                A magicKey carries a format version, a fingerprint of the gazetteer it came \
                from, and the place's row (or the collection's category and location), so \
                finding it reads one row, without searching. A string that is not a \
                magicKey, or a truncated one, is refused: 'not a magicKey'. A key from a \
                different gazetteer (another --places file, or an older build) is resolved \
                by its suggestion text when the input line carries it, as ArcGIS falls back \
                to SingleLine; otherwise, or when that text names no place of this \
                gazetteer, it is an error naming the gazetteer mismatch. Keys on standard \
                input are answered as each line arrives, each answer flushed, in bounded \
                memory (a line may be 1 MiB long); a line that is not UTF-8 is reported with \
                its number, and the next is answered.
                """),
            ManSection(
                "OUTPUT",
                """
                TSV columns: label, latitude, longitude, score, category, country code, \
                region, population, id. With --json, ArcGIS findAddressCandidates' shape, \
                one object per key on one line, with ArcGIS's attributes: Match_addr, \
                PlaceName, Type, Region, Country (the ISO 3166-1 alpha-3 code, as ArcGIS \
                gives it: POL), CntryName, Population and Id:

                  {"spatialReference":{"wkid":4326,"latestWkid":4326},"candidates":[{"address":"Paris, Île-de-France, France","location":{"x":2.3488,"y":48.85341},"score":100,"attributes":{…},"extent":{…}}]}

                A country or region (category country or region) is located at its capital \
                or seat, and its extent is the gazetteer's (the extent column: around its \
                towns); a town's extent is a square around it by its size.

                A place that --text found by one of its alternate names says which, in a \
                "matched" member before "attributes" ("matched":"Roma" for 'roma'). \
                The score is 100 for a key and for a --text query that spells the whole \
                name; for a prefix, the share of the name typed (at least 50), of the \
                name with its region and country when the query needs them to match \
                ('roma' finds Iaşi, Romania at 50, not as if 'roma' spelled most of Iaşi).
                """),
            ManSection(
                "REVERSE",
                """
                --reverse LAT,LON prints the places nearest the point, nearest first (one \
                unless --max-locations says more), as TSV with one more column: the \
                distance in metres, rounded; with --json, in findAddressCandidates' shape \
                with a Distance attribute. --within METERS leaves out places farther away \
                (default: any distance); nothing within it is exit status 1. --country, \
                --category and --extent filter as they do for keys. Countries and regions \
                are placed at their capital or seat, which says little about where a point \
                is: they are left out unless --category names them ('--category country' \
                gives the country whose capital is nearest). The gazetteer's location grid \
                is read from the point's cell outwards, so a point costs about the same with \
                a 12-million-row --places file as with the embedded gazetteer.

                  magickey-find --reverse 48.85,2.35
                  Paris, Île-de-France, France	48.85341	2.34880	100	capital	FR	Île-de-France	2138551	2988507	389
                """),
            ManSection(
                "VISITS",
                """
                With --graph FILE, the place each key (or --text) resolves to is recorded as \
                a visit in the route graph FILE, by its label ('Paris, Île-de-France, \
                France'), in the order found, at --at TIME or now: the same visit as \
                'routegraph-visit --graph FILE LABEL', with its lock, backup and atomic save \
                (see routegraph-visit(1) and routegraph(5)). Only the first place of a \
                request is recorded, and nothing for a collection's key (a list, not a \
                choice). Keys on standard input are recorded line by line, as they are \
                found, so a search box's process records each choice when it is made. Search Airport, then City Center, and 'magickey-suggest --graph \
                FILE' offers City Center after Airport next time. A damaged FILE is left \
                unchanged (status 2, after the places are printed).
                """),
            MagickeyOptions.gazetteerSection,
            ManSection(
                "EXIT STATUS",
                """
                0 if a place was printed, 1 if none was, 2 if an error occurred (a bad key \
                is reported and the other keys are still found). \
                With --json, an error is also printed on standard output as ArcGIS's error \
                object, one line: {"error":{"code":400,"message":"Unable to complete \
                operation.","details":["MESSAGE"]}}, code 400 for a request that cannot be \
                right (a bad flag or key), 500 for a failure on our side (an unreadable \
                gazetteer); a bad key's error object takes the place of its candidates. With \
                no key and a terminal on standard input, the usage is printed (exit 2) \
                instead of waiting for input.
                """),
            ManSection(
                "EXAMPLES",
                """
                The first suggestion's coordinates:

                  magickey-suggest 'sao paulo' | head -1 | magickey-find

                The five capitals nearest Vienna:

                  magickey-suggest --location 48.21,16.37 capitals | head -1 | magickey-find

                Find without a key, as JSON:

                  magickey-find --json --text 'krakow'

                Find, and remember the visit for magickey-suggest --graph:

                  magickey-find --graph ~/places.json --text 'boston'
                """),
            ManSection("SEE ALSO", "magickey-suggest(1), smartgrep(1), routegraph-visit(1), routegraph(5)"),
        ]
    )

    /// One thing to find: a key, perhaps with the suggestion text it came with, a text,
    /// or a point to reverse-geocode.
    struct Request {
        var key: String?
        var text: String?
        var point: Coordinate? = nil

        /// Whether the key is a collection's (its places are a list, not a choice).
        var isCollection: Bool {
            guard let key, case .collection? = try? MagicKey.decode(key) else { return false }
            return true
        }
    }

    static let text = Flag(
        "text", short: "t", value: "TEXT", help: "find the best places for TEXT instead of a key")
    static let reverse = Flag<Coordinate?>(
        FlagSpec(
            "reverse", value: .required(name: "LAT,LON"), help: "print the places nearest this point instead (latitude first)",
            manHelp:
                "Print the places nearest LAT,LON (decimal degrees, latitude first, or ArcGIS's JSON point '{\"x\":2.35,\"y\":48.85}') instead of finding keys. See REVERSE."
        )
    ) { values throws(UsageError) in
        guard let last = values.last, let text = last else { return nil }
        return try MagickeyOptions.location(text, flag: "reverse")
    }
    static let within = Flag(
        "within", value: "METERS", help: "with --reverse: only places at most METERS away", expected: "metres, a number > 0"
    ) { text -> Double? in
        guard let d = MagickeyOptions.numbers(text), d.count == 1, d[0] > 0 else { return nil }
        return d[0]
    }

    static let maxLocations = Flag(
        "max-locations", short: "n", value: "N",
        help: "print at most N places per key (default 1, or 5 for a collection; at most 50)",
        expected: "a number from 1 to \(maximumLocations)"
    ) { Int($0).flatMap { (1...maximumLocations).contains($0) ? $0 : nil } }

    static let graph = Flag(
        "graph", value: "FILE", help: "record each place found as a visit in this route graph",
        manHelp: "Record the place each key or --text resolves to as a visit in the route graph FILE (routegraph(5)). See VISITS.",
        completion: .file, expected: "a file name"
    ) { $0.isEmpty ? nil : $0 }
    static let at = Flag.at(
        help: "with --graph: the time of the visits (Unix seconds or ISO 8601)",
        manHelp:
            "With --graph: record the visits at TIME instead of now, as routegraph-visit --at: Unix seconds or ISO 8601 such as 2024-05-01T18:00:00+02:00."
    )

    /// Runs magickey-find with `arguments` (without argv[0]) in `context`.
    package static func run(_ arguments: [String], context: ToolContext) -> ExitStatus {
        runTool(spec, arguments: arguments, context: context, extraVersionLines: MagickeyOptions.versionLines()) {
            parsed, output, errors in
            let options = try MagickeyOptions(parsed)
            let maxLocations = try parsed.value(of: Self.maxLocations)
            let graphPath = try parsed.value(of: Self.graph)
            let at = try parsed.value(of: Self.at)
            if graphPath == nil && at != nil { throw UsageError("--at goes with --graph") }
            let time = at ?? context.now()
            // A folder missing from the path named is an error, as routegraph-visit's, before
            // anything is found.
            let graphFile = try graphPath.map { (path) throws(ToolError) in
                try GraphLocation.file(explicit: path, learned: nil, environment: context.environment)
            }
            var visits: [VisitRequest.Visit] = []
            var requests: [Request] = []
            let text = try parsed.value(of: Self.text)
            let point = try parsed.value(of: Self.reverse)
            let within = try parsed.value(of: Self.within)
            if within != nil && point == nil { throw UsageError("--within goes with --reverse") }
            if let point {
                if text != nil || !parsed.positionals.isEmpty { throw UsageError("give either --reverse, --text or keys, not two of them") }
                if options.bias.location != nil { throw UsageError("--location does not go with --reverse, which gives the point") }
                requests = [Request(key: nil, text: nil, point: point)]
            } else if let text {
                requests = [Request(key: nil, text: text)]
                if !parsed.positionals.isEmpty { throw UsageError("give either --text or keys, not both") }
            } else if !parsed.positionals.isEmpty {
                requests = parsed.positionals.map { Request(key: $0, text: nil) }
            } else if context.inputIsTerminal {
                throw UsageError("no key given, and standard input is a terminal")
            }
            var geocoder = try options.geocoder(context: context, tool: spec.name)
            var notes = try options.whatLooksWrong(in: geocoder)
            var printed = 0
            var failed = false
            /// Finds and prints one request's places.
            func answer(_ request: Request) {
                do throws(ToolError) {
                    let found = try options.rebuildingDamagedIndex(&geocoder, context: context, tool: spec.name, errors: errors) {
                        (geocoder) throws(GeocoderError) in
                        try find(request, in: geocoder, options: options, maxLocations: maxLocations, within: within)
                    }
                    printed += found.count
                    write(found, json: options.json, terminal: context.outputIsTerminal, from: request.point, to: output)
                    for note in notes { errors.report(note) }
                    notes = []
                    if graphPath != nil, let first = found.first, !request.isCollection {
                        visits.append(VisitRequest.Visit(place: first.place.label, time: time))
                    }
                } catch {
                    // With --json, the failed request's line is an error object.
                    if options.json { output.write(ArcGISError.json(code: 400, message: error.message)) }
                    errors.report(error.message)
                    failed = true
                }
            }
            /// Records the visits found so far in the graph.
            func recordVisits() throws(ToolError) {
                guard let graphPath, !visits.isEmpty else { return }
                let request = VisitRequest(visits: visits, maxPlaces: RouteGraphVisit.defaultMaximumPlaces, timeZone: context.timeZone)
                visits = []
                do throws(GraphFileError) {
                    try graphFile?.record(request)
                } catch {
                    throw ToolError(error.description)
                }
            }
            if text != nil || point != nil || !parsed.positionals.isEmpty {
                for request in requests where !output.isClosed { answer(request) }
            } else {
                // Keys are answered as they arrive (each answer flushed), in bounded memory.
                var lines = InputLines(context.standardInput)
                while !output.isClosed, let line = try lines.next() {
                    guard case .text(let text) = line else {
                        errors.report(lines.invalidMessage)
                        failed = true
                        continue
                    }
                    do throws(ToolError) {
                        for request in try Self.requests(in: text) { answer(request) }
                    } catch {
                        if options.json { output.write(ArcGISError.json(code: 400, message: error.message)) }
                        errors.report(error.message)
                        failed = true
                    }
                    output.flush()
                    // A search box's process records each choice as it is made.
                    try recordVisits()
                }
            }
            try recordVisits()
            if failed { return .error }
            return printed > 0 ? .success : .nothingFound
        }
    }

    /// The places for one request: a key (with its suggestion text, if any), a text, or
    /// a point (the places nearest it, within `within` metres).
    static func find(
        _ request: Request, in geocoder: Geocoder, options: MagickeyOptions, maxLocations: Int?, within: Double? = nil
    ) throws(GeocoderError) -> [FoundPlace] {
        if let point = request.point {
            return try geocoder.reverse(point, within: within, filters: options.filters, limit: maxLocations ?? 1)
        }
        if let key = request.key {
            return try geocoder.find(
                magicKey: key, text: request.text, near: options.bias.location, distance: options.bias.radius,
                filters: options.filters, limit: maxLocations)
        }
        return try geocoder.find(
            text: request.text ?? "", near: options.bias.location, distance: options.bias.radius, filters: options.filters,
            limit: maxLocations ?? 1)
    }

    /// The keys of one line of standard input, by its shape: a line with a tab is a line
    /// of magickey-suggest's output (text, key, isCollection), a line starting with `{` is
    /// a line of its --json output (JSON escapes tabs, so it has none), a blank line has
    /// none, and any other line is a key (its first word). The shape of the whole input
    /// is not guessed from its first byte: a place may be named `{Brace}`.
    static func requests(in line: String) throws(ToolError) -> [Request] {
        if line.allSatisfy(\.isWhitespace) { return [] }
        if line.utf8.contains(0x09) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return [Request(key: fields[1].trimmingCharacters(in: " "), text: String(fields[0]))]
        }
        if line.drop(while: \.isWhitespace).first == "{" { return try parseSuggestJSON(line) }
        return [Request(key: line.split(separator: " ").first.map(String.init) ?? line, text: nil)]
    }

    /// The suggestions of one line of magickey-suggest's --json output (`{"suggestions":[…]}`).
    static func parseSuggestJSON(_ line: String) throws(ToolError) -> [Request] {
        let bytes = Array(line.utf8)
        let result: Result<[Request], JSONError> = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> [Request] in try parseSuggestDocument(raw) }
        }
        switch result {
        case .success(let found): return found
        case .failure(let error): throw ToolError("standard input is not magickey-suggest's JSON: \(error)")
        }
    }

    private static func parseSuggestDocument(_ raw: UnsafeRawBufferPointer) throws(JSONError) -> [Request] {
        var requests: [Request] = []
        var reader = JSONReader(raw)
        try reader.beginObject()
        while let key = try reader.nextKey() {
            guard key == "suggestions" else {
                try reader.skipValue()
                continue
            }
            try reader.beginArray()
            while try reader.nextElement() {
                var request = Request()
                try reader.beginObject()
                while let field = try reader.nextKey() {
                    switch field {
                    case "magicKey": request.key = try reader.readString()
                    case "text": request.text = try reader.readString()
                    default: try reader.skipValue()
                    }
                }
                if request.key != nil { requests.append(request) }
            }
        }
        try reader.finish()
        return requests
    }

    /// Prints places as TSV or JSON; places found near `point` (`--reverse`) with their
    /// distance from it.
    static func write(_ found: [FoundPlace], json: Bool, terminal: Bool = false, from point: Coordinate? = nil, to output: OutputBuffer) {
        if json {
            var j = candidatesJSON(found, from: point)
            j.raw("\n")
            j.bytes.withUnsafeBufferPointer { output.write($0) }
            output.endRecord()
            return
        }
        for f in found {
            let p = f.place
            let fields = [
                p.label, formatDegrees(p.coordinate.latitude), formatDegrees(p.coordinate.longitude),
                String(f.score), p.category, p.countryCode, p.region, String(p.population), p.id,
            ] + (point.map { [String(Int($0.distance(to: p.coordinate).rounded()))] } ?? [])
            // A --places file's fields may hold escape sequences: a terminal is shown them
            // escaped, as ls does, a pipe gets them as they are.
            output.write((terminal ? fields.map(MessageValue.escapingControlCharacters) : fields).joined(separator: "\t") + "\n")
            output.endRecord()
        }
    }

    /// The attributes a candidate has, in order (ArcGIS's names where it has them).
    static let attributeNames = ["Match_addr", "PlaceName", "Type", "Region", "Country", "CntryName", "Population", "Id", "Distance"]

    /// ArcGIS findAddressCandidates' JSON for `found`, on one line without a newline:
    /// with the attributes `fields` names (lower-cased; nil: all), and a Distance from
    /// `point` when given.
    static func candidatesJSON(_ found: [FoundPlace], from point: Coordinate? = nil, fields: Set<String>? = nil) -> JSONText {
        var j = JSONText()
        j.raw("{\"spatialReference\":{\"wkid\":4326,\"latestWkid\":4326},\"candidates\":[")
        for (i, f) in found.enumerated() {
            let p = f.place
            if i > 0 { j.raw(",") }
            j.raw("{")
            j.key("address"); j.string(p.label)
            j.raw(",\"location\":{\"x\":\(formatDegrees(p.coordinate.longitude)),\"y\":\(formatDegrees(p.coordinate.latitude))}")
            j.raw(",\"score\":\(f.score),")
            if let matched = f.matched {
                j.key("matched")
                j.string(matched)
                j.raw(",")
            }
            j.raw("\"attributes\":{")
            var first = true
            /// Writes one attribute, if asked for.
            func attribute(_ name: String, _ value: () -> Void) {
                guard fields?.contains(name.lowercased()) ?? true else { return }
                if !first { j.raw(",") }
                first = false
                j.key(name)
                value()
            }
            attribute("Match_addr") { j.string(p.label) }
            attribute("PlaceName") { j.string(p.name) }
            attribute("Type") { j.string(p.category) }
            attribute("Region") { j.string(p.region) }
            attribute("Country") { j.string(Country.alpha3(p.countryCode) ?? p.countryCode) }
            attribute("CntryName") { j.string(p.country) }
            attribute("Population") { j.raw(String(p.population)) }
            attribute("Id") { j.string(p.id) }
            if let point { attribute("Distance") { j.raw(String(Int(point.distance(to: p.coordinate).rounded()))) } }
            let e = p.shownExtent
            j.raw(
                "},\"extent\":{\"xmin\":\(formatDegrees(e.minLongitude)),\"ymin\":\(formatDegrees(e.minLatitude)),\"xmax\":\(formatDegrees(e.maxLongitude)),\"ymax\":\(formatDegrees(e.maxLatitude))}}"
            )
        }
        j.raw("]}")
        return j
    }
}
