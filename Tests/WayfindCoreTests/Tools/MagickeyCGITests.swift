import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// magickey-cgi's request parser, and the tool run in-process as a web server runs it:
/// its headers, ArcGIS's JSON, and a refusal with the right status for what it does not
/// understand.
@Suite struct MagickeyCGITests {
    /// A response split into its status, headers and JSON body.
    struct Response {
        var status: Int
        var headers: [String]
        var body: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        var details: [String] { ((json["error"] as? [String: Any])?["details"] as? [String]) ?? [] }
    }

    /// Runs magickey-cgi with the CGI variables a server sets, and `body` on standard input.
    static func request(
        _ path: String, method: String = "GET", query: String? = nil, body: String? = nil, contentType: String? = nil,
        arguments: [String] = [], environment: [String: String] = [:]
    ) -> (result: RunResult, response: Response) {
        var env = environment
        env["REQUEST_METHOD"] = method
        env["PATH_INFO"] = path
        env["GATEWAY_INTERFACE"] = "CGI/1.1"
        if let query { env["QUERY_STRING"] = query }
        if let body {
            env["CONTENT_LENGTH"] = String(body.utf8.count)
            env["CONTENT_TYPE"] = contentType ?? "application/x-www-form-urlencoded"
        }
        let result = runInProcess(MagickeyCGI.run, arguments, input: Data((body ?? "").utf8), environment: env)
        let parts = result.out.components(separatedBy: "\r\n\r\n")
        let headers = parts[0].components(separatedBy: "\r\n")
        let status = Int(headers.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (result, Response(status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n")))
    }

    // MARK: The parser

    @Test(arguments: [
        ("a=1&b=two+words", [("a", "1"), ("b", "two words")]),
        ("text=S%C3%A3o%20Paulo", [("text", "São Paulo")]),
        ("a=1&&b=&c", [("a", "1"), ("b", ""), ("c", "")]),
        ("x=%2B%26%3D", [("x", "+&=")]),
        ("", []),
    ])
    func formsDecodeAsBrowsersEncodeThem(form: String, fields: [(String, String)]) throws {
        let decoded = try CGIRequest.formFields(Array(form.utf8))
        #expect(decoded.map(\.0) == fields.map(\.0))
        #expect(decoded.map(\.1) == fields.map(\.1))
    }

    @Test(arguments: ["a=%G1", "a=%4", "a=%", "a=%FF", "a=%00", "=value", "a=%C3", "a=b%0Bc"])
    func badFormsAreRefused(form: String) {
        #expect(throws: CGIRequestError.self) { try CGIRequest.formFields(Array(form.utf8)) }
    }

    @Test func tooManyOrTooLongParametersAreRefused() {
        let many = (0...CGIRequest.maximumParameters).map { "p\($0)=1" }.joined(separator: "&")
        #expect(throws: CGIRequestError.self) { try CGIRequest.formFields(Array(many.utf8)) }
        let long = "text=" + String(repeating: "a", count: CGIRequest.maximumValueSize + 1)
        #expect(throws: CGIRequestError.self) { try CGIRequest.formFields(Array(long.utf8)) }
    }

    @Test(arguments: [
        ("", CGIRequest.Operation.service), ("/", .service), ("/GeocodeServer", .service), ("/suggest", .suggest),
        ("/GeocodeServer/findAddressCandidates", .findAddressCandidates),
        ("/arcgis/rest/services/World/GeocodeServer/reverseGeocode", .reverseGeocode), ("//suggest/", .suggest),
    ])
    func pathsNameOperationsAsArcGISDoes(path: String, operation: CGIRequest.Operation) throws {
        #expect(try CGIRequest.operation(path) == operation)
    }

    @Test(arguments: ["/find", "/suggest/more", "/other/suggest", "/GeocodeServer/GeocodeServer/x", "/SUGGEST"])
    func otherPathsAreNotFound(path: String) {
        #expect(
            throws: CGIRequestError(
                status: 404, "no operation at \(MessageValue.quoted(path)) (suggest, findAddressCandidates or reverseGeocode)")
        ) {
            try CGIRequest.operation(path)
        }
    }

    @Test func parametersAreCaseInsensitiveOnceAndKnown() throws {
        let post = try CGIRequest.parse(
            method: "POST", pathInfo: "/findAddressCandidates", queryString: "f=pjson",
            contentType: "application/x-www-form-urlencoded; charset=UTF-8", body: Array("SingleLine=paris".utf8))
        #expect(post.value("singleLine") == "paris")
        #expect(post.value("F") == "pjson")
        func status(_ query: String, method: String = "GET", type: String? = nil, body: String = "") -> Int? {
            do {
                _ = try CGIRequest.parse(
                    method: method, pathInfo: "/suggest", queryString: query, contentType: type, body: Array(body.utf8))
                return nil
            } catch { return error.status }
        }
        #expect(status("text=a&TEXT=b") == 400)
        #expect(status("text=a&singleLine=b") == 400)
        #expect(status("text=a", method: "PUT") == 405)
        #expect(status("", method: "POST", type: "text/plain", body: "text=a") == 400)
        #expect(status("", method: "POST", type: "multipart/form-data; boundary=x", body: "text=a") == 400)
        #expect(status("text=a&token=x&forStorage=false&langCode=fr&outSR=4326") == nil)
    }

    // MARK: The tool

    @Test func suggestAnswersArcGISsShapeWithHeaders() {
        let (result, response) = Self.request("/suggest", query: "text=par&maxSuggestions=2")
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(response.headers.first == "Status: 200 OK")
        #expect(response.headers.contains("Content-Type: application/json; charset=utf-8"))
        let suggestions = response.json["suggestions"] as? [[String: Any]] ?? []
        #expect(suggestions.count == 2)
        #expect(suggestions.first?["text"] as? String == "Paris, Île-de-France, France")
        #expect(suggestions.first?["isCollection"] as? Bool == false)
    }

    /// The round trip a search box makes: a suggestion's magicKey, by POST, finds its place.
    @Test func aSuggestedKeyFindsItsPlaceByPost() throws {
        let suggested = Self.request("/suggest", query: "text=krakow").response.json["suggestions"] as? [[String: Any]]
        let key = try #require(suggested?.first?["magicKey"] as? String)
        let (_, response) = Self.request(
            "/findAddressCandidates", method: "POST", body: "magicKey=\(key)&outFields=PlaceName,Country&f=json")
        #expect(response.status == 200)
        let candidate = try #require((response.json["candidates"] as? [[String: Any]])?.first)
        #expect(candidate["address"] as? String == "Kraków, Małopolskie, Poland")
        #expect((candidate["location"] as? [String: Double])?["y"] == 50.06143)
        #expect(candidate["attributes"] as? [String: String] == ["PlaceName": "Kraków", "Country": "POL"])
    }

    @Test func findWithTextHonoursMaxLocationsAndPrettyJSON() throws {
        let compact = Self.request("/findAddressCandidates", query: "SingleLine=springfield&maxLocations=3&outFields=*").response
        let pretty = Self.request("/findAddressCandidates", query: "SingleLine=springfield&maxLocations=3&outFields=*&f=pjson").response
        #expect((compact.json["candidates"] as? [Any])?.count == 3)
        #expect(pretty.body.contains("\n  \"candidates\": [\n"))
        #expect(NSDictionary(dictionary: pretty.json) == NSDictionary(dictionary: compact.json))
        #expect(!compact.body.contains("\n  "))
    }

    @Test func reverseGeocodeGivesTheNearestPlaceOrArcGISsNotFound() throws {
        let (_, paris) = Self.request("/reverseGeocode", query: "location=2.35,48.85")
        #expect(paris.status == 200)
        let address = try #require(paris.json["address"] as? [String: Any])
        #expect(address["LongLabel"] as? String == "Paris, Île-de-France, France")
        #expect(address["Distance"] as? Int == 389)
        let json = Self.request("/reverseGeocode", query: #"location={"x":2.35,"y":48.85,"spatialReference":{"wkid":4326}}"#).response
        #expect(json.body == paris.body)
        let (_, sea) = Self.request("/reverseGeocode", query: "location=-150,0&distance=1000")
        #expect(sea.status == 200)
        #expect(sea.details == ["Unable to find address for the specified location."])
    }

    @Test func theServiceDescribesItself() {
        let (_, response) = Self.request("", query: "f=json")
        #expect(response.status == 200)
        #expect(response.json["capabilities"] as? String == "Geocode,ReverseGeocode,Suggest")
        #expect((response.json["singleLineAddressField"] as? [String: Any])?["name"] as? String == "SingleLine")
    }

    @Test func headGetsTheHeadersWithoutTheBody() {
        let (result, response) = Self.request("/suggest", method: "HEAD", query: "text=par")
        #expect(response.status == 200)
        #expect(result.out.hasSuffix("\r\n\r\n"))
    }

    @Test(arguments: [
        ("/suggest", "", 400, "text is required"),
        ("/suggest", "text=par&maxSuggestions=0", 400, "maxSuggestions must be a whole number of 1 or more, not '0'"),
        ("/suggest", "text=par&location=200,1", 400, "location must be x,y (longitude first)"),
        ("/suggest", "text=par&countryCode=Frnace", 400, "unknown country 'Frnace' in countryCode"),
        ("/suggest", "text=par&sourceCountry=Frnace", 400, "unknown country 'Frnace' in sourceCountry"),
        ("/suggest", "text=par&category=captial", 400, "unknown category 'captial'"),
        ("/suggest", "text=par&searchExtent=10,0,0,10", 400, "searchExtent must be"),
        ("/suggest", "text=par&f=html", 400, "f must be json or pjson"),
        ("/suggest", "text=par&outSR=102100", 400, "outSR must be 4326"),
        ("/suggest", "text=par&places=/etc/passwd", 400, "unknown parameter 'places'"),
        ("/findAddressCandidates", "maxLocations=2", 400, "SingleLine or magicKey is required"),
        ("/findAddressCandidates", "magicKey=nonsense", 400, "not a magicKey: 'nonsense'"),
        ("/reverseGeocode", "location=2,48&distance=-1", 400, "distance must be metres"),
        ("/reverseGeocode", "", 400, "location is required"),
        ("/geocode", "text=par", 404, "no operation at '/geocode'"),
    ])
    func badRequestsAreArcGISErrorsWithTheirStatus(path: String, query: String, status: Int, detail: String) throws {
        let (result, response) = Self.request(path, query: query)
        #expect(result.status == 0)
        #expect(response.status == status, "\(response.body)")
        #expect(response.details.first?.contains(detail) == true, "\(response.details)")
        #expect((response.json["error"] as? [String: Any])?["code"] as? Int == status)
    }

    @Test func filtersAndLocationNarrowSuggestions() {
        let (_, response) = Self.request(
            "/suggest",
            query:
                "text=springfield&location=-71.06,42.36&countryCode=usa&searchExtent=%7B%22xmin%22:-80,%22ymin%22:35,%22xmax%22:-60,%22ymax%22:50%7D"
        )
        let texts = (response.json["suggestions"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        #expect(texts.first == "Springfield, Massachusetts, United States")
    }

    @Test func aBodyOverTheCapIsRefusedUnread() {
        var env = ["CONTENT_LENGTH": String(CGIRequest.maximumBodySize + 1), "CONTENT_TYPE": "application/x-www-form-urlencoded"]
        env["REQUEST_METHOD"] = "POST"
        env["PATH_INFO"] = "/suggest"
        let result = runInProcess(MagickeyCGI.run, [], input: Data("text=par".utf8), environment: env)
        #expect(result.out.hasPrefix("Status: 413 "))
        let short = runInProcess(
            MagickeyCGI.run, [], input: Data("text=par".utf8),
            environment: [
                "REQUEST_METHOD": "POST", "PATH_INFO": "/suggest", "CONTENT_LENGTH": "100",
                "CONTENT_TYPE": "application/x-www-form-urlencoded",
            ])
        #expect(short.out.hasPrefix("Status: 400 "))
        #expect(short.out.contains("shorter than its CONTENT_LENGTH"))
        let none = runInProcess(MagickeyCGI.run, [], environment: ["REQUEST_METHOD": "POST", "PATH_INFO": "/suggest"])
        #expect(none.out.hasPrefix("Status: 400 "))
    }

    /// Apache hands a query string without `=` to the program as its arguments: they
    /// cannot name a gazetteer.
    @Test func argumentsThatAreTheQueryStringAreRefused() {
        let (result, response) = Self.request("/suggest", query: "--places+/etc/passwd", arguments: ["--places", "/etc/passwd"])
        #expect(response.status == 400)
        #expect(response.details == ["a query string without parameters"])
        #expect(result.stderr == "")
    }

    @Test func withoutAWebServerItIsAUsageError() {
        let result = runInProcess(MagickeyCGI.run, [])
        #expect(result.status == 2)
        #expect(result.out == "")
        #expect(result.stderr.hasPrefix("magickey-cgi: REQUEST_METHOD is not set"))
        #expect(runInProcess(MagickeyCGI.run, ["--places", "-"], environment: ["REQUEST_METHOD": "GET"]).status == 2)
    }

    /// The server's gazetteer, by flag or by variable; a large one without an index is
    /// refused rather than searched whole, and nothing is written to make one.
    @Test func aPlacesFileIsTheServersAndItsIndexIsNeverWritten() throws {
        let small = try TestFiles.write(Data("name\tlatitude\tlongitude\nBean There\t10\t20\n".utf8), name: "small.tsv")
        let home = try TestFiles.directory()
        let byFlag = Self.request("/suggest", query: "text=bean", arguments: ["--places", small], environment: ["HOME": home.path]).response
        #expect((byFlag.json["suggestions"] as? [[String: Any]])?.first?["text"] as? String == "Bean There")
        let byVariable = Self.request("/suggest", query: "text=bean", environment: ["HOME": home.path, "MAGICKEY_PLACES": small]).response
        #expect(byVariable.body == byFlag.body)
        var big = "name\tlatitude\tlongitude\n"
        while big.utf8.count < PlacesIndexCache.minimumIndexedSize { big += "Town \(big.utf8.count)\t10\t20\n" }
        let large = try TestFiles.write(Data(big.utf8), name: "large.tsv")
        let (_, refused) = Self.request("/suggest", query: "text=town", arguments: ["--places", large], environment: ["HOME": home.path])
        #expect(refused.status == 500)
        #expect(refused.details.first?.hasPrefix("the gazetteer has no index in the cache") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty)
        // Built beforehand by magickey-suggest, it is used.
        #expect(runInProcess(MagickeySuggest.run, ["--places", large, "town"], environment: ["HOME": home.path]).status == 0)
        let (_, served) = Self.request("/suggest", query: "text=town", arguments: ["--places", large], environment: ["HOME": home.path])
        #expect(served.status == 200)
    }
}
