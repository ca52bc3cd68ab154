import WayfindCore

/// `magickey-cgi`: the geocoder as a CGI program, speaking ArcGIS's World Geocoding
/// Service REST protocol (`…/GeocodeServer/suggest`, `findAddressCandidates`,
/// `reverseGeocode`), one request per process, behind any web server.

/// The magickey-cgi tool: its flag table and `run`.
///
/// What a request may do is small on purpose: it names no file (the gazetteer is the
/// server's `--places` or `MAGICKEY_PLACES`), writes nothing (a `--places` file's index
/// is used only if already in the cache: `GazetteerAccess.readOnly`), reads a
/// body of at most `CGIRequest.maximumBodySize` bytes, and is refused with a 4xx status
/// for anything `CGIRequest` does not understand.
package enum MagickeyCGI {
    /// The environment variable that names the gazetteer when the server passes no
    /// argument (a request's headers arrive as `HTTP_*` variables, never as this).
    package static let placesVariable = "MAGICKEY_PLACES"

    /// The flag table.
    package static let spec = ToolSpec(
        name: "magickey-cgi",
        summary: "answer ArcGIS geocoding requests (suggest, findAddressCandidates, reverseGeocode) as a CGI program",
        usage: ["[--places FILE]"],
        description: """
            Answer one HTTP request, as a web server runs a CGI program: from \
            REQUEST_METHOD, PATH_INFO, QUERY_STRING and, for a POST, a form on standard \
            input (CONTENT_TYPE application/x-www-form-urlencoded, CONTENT_LENGTH bytes), \
            write the response's Status and Content-Type headers and its JSON body on \
            standard output. The paths and parameters are those of ArcGIS's World \
            Geocoding Service, so that its clients (geopy's ArcGIS geocoder, ArcGIS's \
            JavaScript API, a search box written for it) work with an offline gazetteer: \
            magickey-suggest(1) and magickey-find(1) behind a web server. See ENDPOINTS.
            """,
        flags: [MagickeyOptions.Flags.places.spec, StandardFlags.help(), StandardFlags.version, StandardFlags.generate],
        positionalCompletion: .none,
        manSections: [
            ManSection(
                "ENDPOINTS",
                """
                The operation is the last part of the path after the program \
                (PATH_INFO), after an optional .../GeocodeServer; parameter names are \
                case-insensitive, by GET or by POST:

                GeocodeServer (the empty path): the service's description.

                suggest: text (required), location, category, countryCode, searchExtent, \
                maxSuggestions (default 5, at most 15): magickey-suggest's suggestions, \
                {"suggestions":[{"text":…,"magicKey":…,"isCollection":false}]}.

                findAddressCandidates: SingleLine, magicKey (one of them required; both: \
                the key, with the text for a key of another gazetteer), location, \
                distance (the bias's scale in metres), maxLocations (default 50 for a \
                text, at most 50), outFields ('*' or a list of Match_addr, PlaceName, \
                Type, Region, Country, CntryName, Population, Id; default none), \
                category, countryCode, searchExtent: magickey-find's candidates.

                reverseGeocode: location (required), distance (metres; default any): the \
                nearest place, as magickey-find --reverse, in ArcGIS's shape, \
                {"address":{"Match_addr":…,"LongLabel":…,…},"location":{"x":…,"y":…}}; \
                none within distance is ArcGIS's error object 'Unable to find address for \
                the specified location.' with status 200, as ArcGIS answers.

                A location is x,y (longitude first, as ArcGIS) or a JSON point \
                {"x":2.35,"y":48.85}; searchExtent is xmin,ymin,xmax,ymax or a JSON \
                envelope; countryCode is ISO codes or names separated by commas. f is json \
                (the default) or pjson (indented). token, forStorage, langCode, \
                preferredLabelValues, featureTypes, locationType and returnIntersection \
                are accepted and change nothing; outSR must be 4326; sourceCountry is \
                countryCode.
                """),
            ManSection(
                "SAFETY",
                """
                A request never names a file and never writes one. Anything not \
                understood is refused with ArcGIS's error object, \
                {"error":{"code":400,"message":"Unable to complete operation.","details":["…"]}}, \
                and its HTTP status: 400 for an unknown or repeated parameter, a bad value or \
                a body that is not a form; 404 for another path; 405 for a method other \
                than GET, HEAD or POST; 413 for a body over \(CGIRequest.maximumBodySize / 1024) KiB \
                (not read); 500 when the gazetteer cannot be searched. A value may be \
                \(CGIRequest.maximumValueSize / 1024) KiB long, a request carry \(CGIRequest.maximumParameters) \
                parameters.

                With --places FILE (or \(placesVariable)=FILE in the environment the \
                server gives), FILE's index is used only if it is already in the cache \
                (see GAZETTEER in magickey-suggest(1)); a FILE of 4 MiB or more without one \
                is refused with status 500, as searching it whole would take seconds per \
                request. Build it once as the server's user, with the cache folder the \
                server gives (XDG_CACHE_HOME), for example: \
                'sudo -u www-data XDG_CACHE_HOME=/var/cache/wayfind magickey-suggest \
                --places FILE x'. Smaller files are read whole for each request.

                A web server that passes a query string without '=' as arguments (Apache's \
                ISINDEX queries) cannot smuggle flags in: such arguments are refused (400).
                """),
            ManSection(
                "EXAMPLES",
                """
                lighttpd, answering at /arcgis/rest/services/World/GeocodeServer as \
                ArcGIS's service does (the README's "As a web service" has the whole file):

                  server.modules += ("mod_alias", "mod_cgi", "mod_setenv")
                  alias.url += ("/arcgis/rest/services/World/GeocodeServer" => "/usr/local/bin/magickey-cgi")
                  $HTTP["url"] =~ "^/arcgis/rest/services/World/GeocodeServer" { cgi.assign = ("" => "") }

                By hand, as a server would run it:

                  REQUEST_METHOD=GET PATH_INFO=/suggest QUERY_STRING='text=par' magickey-cgi
                """),
            ManSection(
                "EXIT STATUS",
                "0 when a response was written (whatever its HTTP status), 2 when the program was not run as a CGI program or its flags are wrong."
            ),
            ManSection("SEE ALSO", "magickey-suggest(1), magickey-find(1), lighttpd(8)"),
        ]
    )

    /// Runs magickey-cgi with `arguments` (without argv[0]) in `context`.
    package static func run(_ arguments: [String], context: ToolContext) -> ExitStatus {
        let env = context.environment
        // Apache passes a query string without `=` as arguments (RFC 3875, 4.4): they are
        // the request's words, not the server's flags.
        if let query = env["QUERY_STRING"], !query.contains("="), !arguments.isEmpty,
            arguments == query.split(separator: "+").map({ (try? CGIRequest.decode(ArraySlice($0.utf8))) ?? "" })
        {
            let output = OutputBuffer(context.standardOutput, lineBuffered: false)
            respond(.failure(CGIRequestError(status: 400, "a query string without parameters")), head: false, to: output)
            output.flush()
            return .success
        }
        return runTool(spec, arguments: arguments, context: context, extraVersionLines: MagickeyOptions.versionLines()) {
            parsed, output, _ in
            guard let method = env["REQUEST_METHOD"] else {
                throw UsageError("REQUEST_METHOD is not set: magickey-cgi answers a request a web server hands it (see EXAMPLES)")
            }
            let placesPath = try parsed.value(of: MagickeyOptions.Flags.places) ?? env[placesVariable].flatMap { $0.isEmpty ? nil : $0 }
            if placesPath == "-" { throw UsageError("--places - does not go with magickey-cgi, whose standard input is the request") }
            let answer: Result<Response, CGIRequestError>
            do throws(CGIRequestError) {
                let body = try readBody(method: method, length: env["CONTENT_LENGTH"], from: context.standardInput)
                let request = try CGIRequest.parse(
                    method: method, pathInfo: env["PATH_INFO"], queryString: env["QUERY_STRING"], contentType: env["CONTENT_TYPE"],
                    body: body)
                answer = .success(
                    try MagickeyCGI.answer(
                        request,
                        geocoder: { () throws(CGIRequestError) in
                            try geocoder(placesPath: placesPath, context: context)
                        }))
            } catch {
                answer = .failure(error)
            }
            respond(answer, head: method == "HEAD", to: output)
            return .success
        }
    }

    /// A response: its HTTP status and JSON body.
    struct Response {
        var status = 200
        var json: JSONText
        var pretty = false
    }

    /// The body of a POST: CONTENT_LENGTH bytes of standard input, none for GET or HEAD.
    static func readBody(method: String, length: String?, from input: FileDescriptor) throws(CGIRequestError) -> [UInt8] {
        guard method == "POST" else { return [] }
        guard let length, let count = Int(length), count >= 0 else {
            throw CGIRequestError(status: 400, "a POST needs its CONTENT_LENGTH")
        }
        guard count <= CGIRequest.maximumBodySize else {
            throw CGIRequestError(status: 413, "the body is larger than \(CGIRequest.maximumBodySize) bytes")
        }
        var body = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = body.withUnsafeMutableBytes { (try? input.read(into: $0.baseAddress! + filled, count: count - filled)) ?? 0 }
            if n <= 0 { throw CGIRequestError(status: 400, "the body is shorter than its CONTENT_LENGTH") }
            filled += n
        }
        return body
    }

    /// The geocoder of the server's gazetteer: the embedded one, or FILE through the
    /// index already kept for it (a large FILE without one is refused, see SAFETY).
    static func geocoder(placesPath: String?, context: ToolContext) throws(CGIRequestError) -> Geocoder {
        guard let placesPath else {
            do { return try Geocoder.installedEmbedded() } catch { throw CGIRequestError(status: 500, error.description) }
        }
        var access = context.gazetteerAccess(tool: spec.name)
        access.readOnly = true
        let geocoder = Geocoder.file(placesPath, access: access)
        if geocoder.cachedIndexPath == nil, let size = FileStatus.of(placesPath)?.size, size >= PlacesIndexCache.minimumIndexedSize {
            throw CGIRequestError(
                status: 500,
                "the gazetteer has no index in the cache; build it as the server's user: magickey-suggest --places FILE x (see magickey-cgi(1), SAFETY)"
            )
        }
        return geocoder
    }

    /// Writes the headers and, unless for HEAD, the body.
    static func respond(_ answer: Result<Response, CGIRequestError>, head: Bool, to output: OutputBuffer) {
        var response: Response
        switch answer {
        case .success(let r): response = r
        case .failure(let error):
            var json = JSONText()
            json.raw(String(ArcGISError.json(code: error.status, message: error.message).dropLast()))
            response = Response(status: error.status, json: json)
        }
        let reasons = [
            200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 413: "Content Too Large",
            500: "Internal Server Error",
        ]
        var headers = "Status: \(response.status) \(reasons[response.status] ?? "Error")\r\n"
        headers += "Content-Type: application/json; charset=utf-8\r\n"
        if response.status == 405 { headers += "Allow: GET, HEAD, POST\r\n" }
        // A geocoding service is called from other sites' pages, as ArcGIS's is.
        headers += "Access-Control-Allow-Origin: *\r\nX-Content-Type-Options: nosniff\r\n\r\n"
        output.write(headers)
        guard !head else { return }
        let body = response.pretty ? JSONPretty.indent(response.json.bytes) : response.json.bytes
        body.withUnsafeBufferPointer { output.write($0) }
        output.write("\n")
    }
}
