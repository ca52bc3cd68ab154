import WayfindCore

/// magickey-cgi's endpoints: each request's parameters read as the command line's flags
/// are (the same parsers, so `countryCode=france` works as `--country france` does), the
/// geocoder asked, and the answer in ArcGIS's JSON.
extension MagickeyCGI {
    /// The response to `request`; `geocoder` is made only for an operation that searches.
    static func answer(_ request: CGIRequest, geocoder: () throws(CGIRequestError) -> Geocoder) throws(CGIRequestError) -> Response {
        let pretty: Bool
        switch request.value("f")?.lowercased() {
        case nil, "json": pretty = false
        case "pjson": pretty = true
        case let other?: throw CGIRequestError(status: 400, "f must be json or pjson, not \(MessageValue.quoted(other))")
        }
        if let sr = request.value("outSR"), sr.filter(\.isNumber) != "4326" {
            throw CGIRequestError(status: 400, "outSR must be 4326 (WGS84), not \(MessageValue.quoted(sr))")
        }
        var response: Response
        switch request.operation {
        case .service: response = Response(json: serviceDescription())
        case .suggest: response = try suggest(request, geocoder: geocoder())
        case .findAddressCandidates: response = try findAddressCandidates(request, geocoder: geocoder())
        case .reverseGeocode: response = try reverseGeocode(request, geocoder: geocoder())
        }
        response.pretty = pretty
        return response
    }

    static func suggest(_ request: CGIRequest, geocoder: Geocoder) throws(CGIRequestError) -> Response {
        guard let text = request.value("text") else { throw CGIRequestError(status: 400, "text is required") }
        let limit = min(try count(request, "maxSuggestions") ?? MagickeySuggest.defaultSuggestions, MagickeySuggest.maximumSuggestions)
        let filters = try filters(request, geocoder: geocoder)
        let location = try point(request, "location")
        let suggestions = try searching { () throws(GeocoderError) in
            try geocoder.suggest(text, near: location, filters: filters, limit: limit)
        }
        return Response(json: MagickeySuggest.suggestionsJSON(suggestions))
    }

    static func findAddressCandidates(_ request: CGIRequest, geocoder: Geocoder) throws(CGIRequestError) -> Response {
        let text = request.value("SingleLine")
        let key = request.value("magicKey")
        guard text != nil || key != nil else { throw CGIRequestError(status: 400, "SingleLine or magicKey is required") }
        let limit = try count(request, "maxLocations").map { min($0, MagickeyFind.maximumLocations) }
        let filters = try filters(request, geocoder: geocoder)
        let location = try point(request, "location")
        let distance = try metres(request, "distance")
        var fields: Set<String> = []
        if let out = request.value("outFields") {
            let names = out.split(separator: ",").map { $0.trimmingCharacters(in: " ").lowercased() }
            fields = names.contains("*") ? Set(MagickeyFind.attributeNames.map { $0.lowercased() }) : Set(names)
        }
        let found: [FoundPlace]
        if let key {
            // A bad key is the request's fault (400), as on the command line.
            do {
                found = try geocoder.find(magicKey: key, text: text, near: location, distance: distance, filters: filters, limit: limit)
            } catch  where !error.isDamagedIndex {
                throw CGIRequestError(status: 400, error.description)
            } catch {
                throw CGIRequestError(status: 500, error.description)
            }
        } else {
            found = try searching { () throws(GeocoderError) in
                try geocoder.find(
                    text: text ?? "", near: location, distance: distance, filters: filters, limit: limit ?? MagickeyFind.maximumLocations)
            }
        }
        return Response(json: MagickeyFind.candidatesJSON(found, fields: fields))
    }

    static func reverseGeocode(_ request: CGIRequest, geocoder: Geocoder) throws(CGIRequestError) -> Response {
        guard let point = try point(request, "location") else { throw CGIRequestError(status: 400, "location is required") }
        let within = try metres(request, "distance")
        let found = try searching { () throws(GeocoderError) in try geocoder.reverse(point, within: within) }
        guard let place = found.first?.place else {
            // ArcGIS answers a point with nothing near with its error object, status 200;
            // clients (geopy) read that as no result.
            var json = JSONText()
            json.raw(String(ArcGISError.json(code: 400, message: "Unable to find address for the specified location.").dropLast()))
            return Response(json: json)
        }
        var j = JSONText()
        j.raw("{\"address\":{")
        let fields: [(String, String)] = [
            ("Match_addr", place.label), ("LongLabel", place.label), ("ShortLabel", place.name), ("Addr_type", "Locality"),
            ("Type", place.category), ("PlaceName", place.name), ("City", place.name), ("Region", place.region),
            ("CntryName", place.country), ("CountryCode", Country.alpha3(place.countryCode) ?? place.countryCode),
        ]
        for (i, (name, value)) in fields.enumerated() {
            if i > 0 { j.raw(",") }
            j.key(name)
            j.string(value)
        }
        j.raw(",\"Distance\":\(Int(point.distance(to: place.coordinate).rounded()))}")
        j.raw(",\"location\":{\"x\":\(formatDegrees(place.coordinate.longitude)),\"y\":\(formatDegrees(place.coordinate.latitude))")
        j.raw(",\"spatialReference\":{\"wkid\":4326,\"latestWkid\":4326}}}")
        return Response(json: j)
    }

    /// The description at `…/GeocodeServer`, as ArcGIS's clients read it to learn what
    /// the service can do.
    static func serviceDescription() -> JSONText {
        var j = JSONText()
        j.raw("{\"currentVersion\":11.1,")
        j.key("serviceDescription")
        j.string("wayfind's offline geocoder: places of a gazetteer by name (suggest, findAddressCandidates) and by point (reverseGeocode)")
        j.raw(",\"addressFields\":[],\"singleLineAddressField\":{\"name\":\"SingleLine\",\"type\":\"esriFieldTypeString\",")
        j.raw("\"alias\":\"Single Line Input\",\"required\":false,\"length\":\(CGIRequest.maximumValueSize)},\"candidateFields\":[")
        for (i, name) in MagickeyFind.attributeNames.enumerated() {
            if i > 0 { j.raw(",") }
            let type = name == "Population" || name == "Distance" ? "esriFieldTypeInteger" : "esriFieldTypeString"
            j.raw("{\"name\":\"\(name)\",\"type\":\"\(type)\",\"alias\":\"\(name)\",\"required\":false}")
        }
        j.raw("],\"spatialReference\":{\"wkid\":4326,\"latestWkid\":4326},")
        j.raw("\"locatorProperties\":{\"MaxResultSize\":\(MagickeyFind.maximumLocations),\"MaxBatchSize\":0,\"SuggestedBatchSize\":0,")
        j.raw("\"UICLILocale\":\"en\"},\"capabilities\":\"Geocode,ReverseGeocode,Suggest\"}")
        return j
    }

    // MARK: Parameters

    /// `body`'s answer; a gazetteer that cannot be searched is our failure (500).
    static func searching<T>(_ body: () throws(GeocoderError) -> T) throws(CGIRequestError) -> T {
        do { return try body() } catch { throw CGIRequestError(status: 500, error.description) }
    }

    /// A whole number of 1 or more, or nil when absent.
    static func count(_ request: CGIRequest, _ name: String) throws(CGIRequestError) -> Int? {
        guard let text = request.value(name) else { return nil }
        guard let n = Int(text[...].trimmingCharacters(in: " ")), n >= 1 else {
            throw CGIRequestError(status: 400, "\(name) must be a whole number of 1 or more, not \(MessageValue.quoted(text))")
        }
        return n
    }

    /// A distance in metres, more than 0, or nil when absent.
    static func metres(_ request: CGIRequest, _ name: String) throws(CGIRequestError) -> Double? {
        guard let text = request.value(name) else { return nil }
        guard let d = MagickeyOptions.numbers(text), d.count == 1, d[0] > 0, d[0].isFinite else {
            throw CGIRequestError(status: 400, "\(name) must be metres, a number more than 0, not \(MessageValue.quoted(text))")
        }
        return d[0]
    }

    /// ArcGIS's point: `x,y` (longitude first) or `{"x":…,"y":…}`; nil when absent.
    static func point(_ request: CGIRequest, _ name: String) throws(CGIRequestError) -> Coordinate? {
        guard let text = request.value(name) else { return nil }
        var xy: (x: Double, y: Double)? = nil
        if text.drop(while: { $0 == " " }).first == "{" {
            xy = MagickeyOptions.jsonPoint(text)
        } else if let n = MagickeyOptions.numbers(text), n.count == 2 {
            xy = (n[0], n[1])
        }
        guard let (x, y) = xy, abs(x) <= 180, abs(y) <= 90 else {
            throw CGIRequestError(
                status: 400, "\(name) must be x,y (longitude first) or {\"x\":…,\"y\":…} in range, not \(MessageValue.quoted(text))")
        }
        return Coordinate(latitude: y, longitude: x)
    }

    /// The filters of `category`, `countryCode` (or `sourceCountry`) and `searchExtent`,
    /// read as magickey's `--category`, `--country` and `--extent` are.
    static func filters(_ request: CGIRequest, geocoder: Geocoder) throws(CGIRequestError) -> PlaceFilters {
        do throws(UsageError) {
            var countries: [String] = []
            if let (name, text) = request.value("countryCode").map({ ("countryCode", $0) })
                ?? request.value("sourceCountry").map({ ("sourceCountry", $0) })
            {
                countries = try Country.codes(text, parameter: name)
            }
            let categories = request.value("category").map { $0.split(separator: ",").map { $0.trimmingCharacters(in: " ") } } ?? []
            if geocoder.isEmbedded {
                try MagickeyOptions.checkEmbeddedCategories(categories, parameter: "category")
            }
            return PlaceFilters(countries: countries, extent: try extent(request), categories: categories)
        } catch {
            throw CGIRequestError(status: 400, error.message)
        }
    }

    /// `searchExtent`: `xmin,ymin,xmax,ymax` or a JSON envelope; nil when absent.
    static func extent(_ request: CGIRequest) throws(UsageError) -> Extent? {
        guard let text = request.value("searchExtent") else { return nil }
        var values = MagickeyOptions.numbers(text)
        if text.drop(while: { $0 == " " }).first == "{" {
            values = envelope(text)
        }
        guard let e = values, e.count == 4,
            let extent = try? MagickeyOptions.Flags.extent.read([e.map { String($0) }.joined(separator: ",")])
        else {
            throw UsageError(
                "searchExtent must be xmin,ymin,xmax,ymax or {\"xmin\":…,\"ymin\":…,\"xmax\":…,\"ymax\":…}, not \(MessageValue.quoted(text))"
            )
        }
        return extent
    }

    /// The four numbers of a JSON envelope, in xmin, ymin, xmax, ymax order.
    static func envelope(_ text: String) -> [Double]? {
        let keys = ["xmin", "ymin", "xmax", "ymax"]
        guard let numbers = MagickeyOptions.jsonNumbers(text, keys: Set(keys)) else { return nil }
        let values = keys.compactMap { numbers[$0] }
        return values.count == 4 ? values : nil
    }
}

/// Indents compact JSON for `f=pjson`: two spaces a level, a member a line.
enum JSONPretty {
    static func indent(_ compact: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(compact.count * 2)
        var depth = 0
        var inString = false
        var escaped = false
        func newline() {
            out.append(0x0A)
            out += [UInt8](repeating: 0x20, count: 2 * depth)
        }
        for (i, b) in compact.enumerated() {
            if inString {
                out.append(b)
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch b {
            case UInt8(ascii: "\""):
                inString = true
                out.append(b)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(b)
                let next = i + 1 < compact.count ? compact[i + 1] : 0
                depth += 1
                if next != UInt8(ascii: "}") && next != UInt8(ascii: "]") { newline() }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                let previous = i > 0 ? compact[i - 1] : 0
                if previous != UInt8(ascii: "{") && previous != UInt8(ascii: "[") { newline() }
                out.append(b)
            case UInt8(ascii: ","):
                out.append(b)
                newline()
            case UInt8(ascii: ":"):
                out += [b, 0x20]
            default:
                out.append(b)
            }
        }
        return out
    }
}
