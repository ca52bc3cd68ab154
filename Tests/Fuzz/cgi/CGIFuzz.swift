/// Fuzz target `cgi`: arbitrary requests to magickey-cgi.
///
/// An input is a request: its first byte picks the method (GET, HEAD, POST, or another),
/// then three lines give PATH_INFO, QUERY_STRING and CONTENT_TYPE, and the rest is the
/// body. For each input:
///
/// - `CGIRequest.parse` never traps; a request it accepts names a known operation, and
///   only parameters that operation knows, lower-cased, each at most
///   `CGIRequest.maximumValueSize` bytes of text without control characters other than
///   tab, newline and return; a request it refuses has a 4xx status;
/// - an accepted request is answered (`MagickeyCGI.answer`, over the embedded gazetteer)
///   without trapping, with status 200 and one JSON value (ArcGIS's error object for a
///   point with nothing near), or refused with 400 — never 500, which would be our fault;
/// - indenting the answer for `f=pjson` keeps the same JSON value.
///
/// A broken invariant prints the case and aborts, so libFuzzer keeps the input.

import Glibc
import WayfindPlacesData

private func cgiFuzzFail(_ message: String) -> Never {
    var text = "cgi fuzz: " + message + "\n"
    text.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    abort()
}

private let cgiFuzzGazetteer: Void = {
    EmbeddedGazetteer.install(
        tsv: UnsafeBufferPointer(start: wayfind_places_tsv(), count: wayfind_places_tsv_count()),
        index: UnsafeBufferPointer(start: wayfind_places_index(), count: wayfind_places_index_count()))
}()

/// Whether `bytes` is exactly one JSON value; `skipValue` checks its syntax.
private func cgiFuzzIsOneJSONValue(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { raw in
        var reader = JSONReader(raw)
        do throws(JSONError) {
            try reader.skipValue()
            try reader.finish()
            return true
        } catch {
            return false
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func cgiFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    _ = cgiFuzzGazetteer
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let method = ["GET", "HEAD", "POST", "PUT"][Int(bytes[0] % 4)]
    var lines = bytes.dropFirst().split(separator: 0x0A, maxSplits: 3, omittingEmptySubsequences: false).map(Array.init)
    while lines.count < 4 { lines.append([]) }
    func text(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }
    let body = Array(lines[3].prefix(CGIRequest.maximumBodySize))
    let request: CGIRequest
    do throws(CGIRequestError) {
        request = try CGIRequest.parse(
            method: method, pathInfo: text(lines[0]), queryString: text(lines[1]), contentType: text(lines[2]), body: body)
    } catch {
        guard [400, 404, 405, 413].contains(error.status), !error.message.isEmpty else {
            cgiFuzzFail("refused with status \(error.status): \(error.message)")
        }
        return 0
    }
    let known = CGIRequest.known[request.operation]!
    for (name, value) in request.parameters {
        guard known.contains(name), name == name.lowercased() else { cgiFuzzFail("parameter \(name) accepted for \(request.operation)") }
        guard value.utf8.count <= CGIRequest.maximumValueSize,
            value.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
        else { cgiFuzzFail("value of \(name) accepted: \(value.utf8.prefix(200).map { $0 })") }
    }
    do throws(CGIRequestError) {
        let response = try MagickeyCGI.answer(request) { () throws(CGIRequestError) in
            do throws(GeocoderError) {
                return try Geocoder.installedEmbedded()
            } catch {
                throw CGIRequestError(status: 500, error.description)
            }
        }
        guard response.status == 200, cgiFuzzIsOneJSONValue(response.json.bytes) else {
            cgiFuzzFail("answer \(response.status): \(String(decoding: response.json.bytes.prefix(2000), as: UTF8.self))")
        }
        let pretty: [UInt8] = JSONPretty.indent(response.json.bytes)
        let prettyBare: [UInt8] = pretty.filter { $0 != 0x20 && $0 != 0x0A }
        let compactBare: [UInt8] = response.json.bytes.filter { $0 != 0x20 }
        guard cgiFuzzIsOneJSONValue(pretty), prettyBare == compactBare else {
            cgiFuzzFail("pjson is not the same JSON: \(String(decoding: pretty.prefix(2000), as: UTF8.self))")
        }
    } catch {
        guard error.status == 400 else { cgiFuzzFail("answered \(error.status): \(error.message)") }
    }
    return 0
}
