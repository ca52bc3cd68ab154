import WayfindCore

/// One request to magickey-cgi, as the web server hands it over (RFC 3875): the method,
/// the path after the program's (`PATH_INFO`), the query string and, for a POST, a form
/// body. Parsing is pure (no I/O), so the fuzz target and the tests call it directly.
///
///     GET  …/GeocodeServer/suggest?text=par&maxSuggestions=3&f=json
///     POST …/GeocodeServer/findAddressCandidates    singleLine=paris&f=pjson
///
/// Everything that is not understood is refused with its HTTP status, never guessed at:
/// another method, another path, a body that is not a form, a parameter this service
/// does not know or given twice, a value that is not UTF-8 text. Names of parameters are
/// case-insensitive, as ArcGIS's (`SingleLine` and `singleLine`).
package struct CGIRequest: Equatable, Sendable {
    /// What is asked: the endpoints of ArcGIS's World Geocoding Service.
    package enum Operation: String, Sendable, CaseIterable {
        /// `…/GeocodeServer`: the service's description.
        case service = "GeocodeServer"
        case suggest
        case findAddressCandidates
        case reverseGeocode
    }

    /// `GET` (or `HEAD`, answered without a body) or `POST`.
    package var method: String
    package var operation: Operation
    /// The parameters, by lower-cased name.
    package var parameters: [String: String]

    /// The value of parameter `name` (any case), nil when absent; an empty value is absent
    /// too, as ArcGIS reads `maxLocations=` as not given.
    package func value(_ name: String) -> String? {
        guard let v = parameters[name.lowercased()], !v.isEmpty else { return nil }
        return v
    }

    /// The largest body read (64 KiB): a form of the longest text and every parameter
    /// fits many times; more is refused unread (413).
    package static let maximumBodySize = 64 << 10
    /// The most parameters a request may carry.
    static let maximumParameters = 32
    /// The longest value, in bytes after decoding (8 KiB).
    static let maximumValueSize = 8 << 10

    /// The parameters each operation takes (lower-cased). Those ArcGIS clients send that
    /// change nothing here are accepted and ignored: `token`, `forStorage`, `langCode`,
    /// `outSR` (checked to be WGS84), `featureTypes`, `locationType`,
    /// `preferredLabelValues`, `returnIntersection`, `sourceCountry` (read as `countryCode`).
    static let known: [Operation: Set<String>] = {
        let common: Set = ["f", "token", "forstorage", "langcode", "outsr"]
        return [
            .service: common,
            .suggest: common.union([
                "text", "location", "category", "countrycode", "sourcecountry", "searchextent", "maxsuggestions", "preferredlabelvalues",
            ]),
            .findAddressCandidates: common.union([
                "singleline", "magickey", "location", "distance", "maxlocations", "outfields", "category", "countrycode", "sourcecountry",
                "searchextent", "preferredlabelvalues", "locationtype",
            ]),
            .reverseGeocode: common.union([
                "location", "distance", "featuretypes", "locationtype", "preferredlabelvalues", "returnintersection",
            ]),
        ]
    }()

    /// Reads a request from the CGI variables and the body (already cut to
    /// `CONTENT_LENGTH`, at most `maximumBodySize` bytes; ignored unless POST).
    package static func parse(
        method: String?, pathInfo: String?, queryString: String?, contentType: String?, body: [UInt8]
    ) throws(CGIRequestError) -> CGIRequest {
        guard let method, ["GET", "HEAD", "POST"].contains(method) else {
            throw CGIRequestError(status: 405, "method \(MessageValue.quoted(method ?? "")) is not allowed (GET, HEAD or POST)")
        }
        let operation = try Self.operation(pathInfo ?? "")
        var parameters: [String: String] = [:]
        var fields = try formFields(Array((queryString ?? "").utf8))
        if method == "POST" {
            let type = (contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: " ").lowercased() } ?? ""
            guard type == "application/x-www-form-urlencoded" || (type.isEmpty && body.isEmpty) else {
                throw CGIRequestError(
                    status: 400, "the body must be a form (application/x-www-form-urlencoded), not \(MessageValue.quoted(type))")
            }
            fields += try formFields(body)
        }
        guard fields.count <= maximumParameters else { throw CGIRequestError(status: 400, "more than \(maximumParameters) parameters") }
        let allowed = known[operation]!
        for (name, value) in fields {
            let key = name.lowercased()
            guard allowed.contains(key) else {
                throw CGIRequestError(status: 400, "unknown parameter \(MessageValue.quoted(name)) for \(operation.rawValue)")
            }
            guard parameters[key] == nil else {
                throw CGIRequestError(status: 400, "parameter \(MessageValue.quoted(name)) is given twice")
            }
            parameters[key] = value
        }
        return CGIRequest(method: method, operation: operation, parameters: parameters)
    }

    /// The operation a path names: its last segment, after an optional
    /// `…/GeocodeServer` (`/suggest`, `/GeocodeServer/suggest`,
    /// `/arcgis/rest/services/World/GeocodeServer/suggest`); the empty path, `/` or one
    /// ending in `GeocodeServer` is the service itself.
    static func operation(_ path: String) throws(CGIRequestError) -> Operation {
        var segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let last = segments.popLast() else { return .service }
        if last == Operation.service.rawValue { return .service }
        guard let operation = Operation(rawValue: last), operation != .service,
            segments.last.map({ $0 == Operation.service.rawValue }) ?? true
        else {
            throw CGIRequestError(
                status: 404, "no operation at \(MessageValue.quoted(path)) (suggest, findAddressCandidates or reverseGeocode)")
        }
        return operation
    }

    /// The fields of a form (`a=1&b=two+words`): `+` is a space, `%XX` a byte, and each
    /// name and value must then be UTF-8 without control characters. A field without
    /// `=` is a name with an empty value, and empty fields (`a=1&&b=2`) are skipped.
    package static func formFields(_ bytes: [UInt8]) throws(CGIRequestError) -> [(String, String)] {
        var fields: [(String, String)] = []
        for field in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if fields.count == maximumParameters { throw CGIRequestError(status: 400, "more than \(maximumParameters) parameters") }
            let equals = field.firstIndex(of: UInt8(ascii: "=")) ?? field.endIndex
            let name = try decode(field[field.startIndex..<equals])
            let value = equals == field.endIndex ? "" : try decode(field[(equals + 1)...])
            guard !name.isEmpty else { throw CGIRequestError(status: 400, "a parameter has no name") }
            fields.append((name, value))
        }
        return fields
    }

    /// One name or value of a form, decoded.
    static func decode(_ encoded: ArraySlice<UInt8>) throws(CGIRequestError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var i = encoded.startIndex
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while i < encoded.endIndex {
            let b = encoded[i]
            if b == UInt8(ascii: "%") {
                guard encoded.endIndex - i >= 3, let high = hex(encoded[i + 1]), let low = hex(encoded[i + 2])
                else { throw CGIRequestError(status: 400, "a parameter has a bad %-escape") }
                bytes.append(high << 4 | low)
                i += 3
            } else {
                bytes.append(b == UInt8(ascii: "+") ? 0x20 : b)
                i += 1
            }
        }
        guard bytes.count <= maximumValueSize else {
            throw CGIRequestError(status: 400, "a parameter is longer than \(maximumValueSize) bytes")
        }
        // Tabs and newlines are spaces to a search; other control characters are no text.
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }),
            let text = String(validating: bytes, as: UTF8.self)
        else { throw CGIRequestError(status: 400, "a parameter is not UTF-8 text") }
        return text
    }
}

/// Why a request was refused: the HTTP status and a message for ArcGIS's error object.
package struct CGIRequestError: Error, Equatable, Sendable {
    /// 400, or 404 (no such operation), 405 (method), 413 (body too large), 500 (ours).
    package var status: Int
    package var message: String

    package init(status: Int, _ message: String) {
        self.status = status
        self.message = message
    }
}
