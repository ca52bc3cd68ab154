/// Fuzz target `index`: a damaged places index never crashes a search.
///
/// A cached index (`PlacesIndexCache`) is a file in the user's cache folder: a disk error,
/// an interrupted copy or a hand edit can change any of its bytes, and a search reads
/// offsets, counts and row numbers from it. Whatever the bytes, loading it either refuses
/// it (`PlacesIndex.init` returns nil) or every search through it returns places or
/// throws `GazetteerError.damagedIndex`: never a trap, never a read outside the index or
/// the gazetteer (the address sanitizer sees those).
///
/// An input is a list of edits to the index of a small gazetteer (the first rows of the
/// embedded places.tsv), then queries:
///
///     4 bytes: an offset into the index (little-endian, modulo its size), 1 byte: the new
///     byte; repeated while the input lasts, up to a line `\n#\n`, after which each line is
///     a query (with an optional `<TAB>LAT,LON`).
///
/// Edits near the header and the section boundaries are what a damaged file has; the
/// seed corpus aims a few at each section.

import Glibc
import WayfindPlacesData

private func fail(_ message: String) -> Never {
    fputs("index fuzz: \(message)\n", stderr)
    abort()
}

/// The gazetteer: the embedded places.tsv's first rows, and its index, built once.
private let gazetteer: (tsv: [UInt8], index: [UInt8]) = {
    let all = UnsafeBufferPointer(start: wayfind_places_tsv(), count: wayfind_places_tsv_count())
    var end = 0
    var lines = 0
    while end < all.count && lines < 600 {
        if all[end] == 0x0A { lines += 1 }
        end += 1
    }
    let tsv = Array(all[..<end])
    let index = try! tsv.withUnsafeBufferPointer { try PlacesIndex.build(tsv: $0) }
    return (tsv, index)
}()

private let standardQueries = ["s", "sa", "san", "paris", "new y", "san jose", "m", "東", "x", "tokyo", "paris tx"]
private let locations = [nil, Coordinate(latitude: 41.88, longitude: -87.63), Coordinate(latitude: 35.68, longitude: 139.69)]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIndex(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    var index = gazetteer.index
    var queries: [(String, Coordinate?)] = []
    var i = 0
    while i + 5 <= input.count {
        if input[i] == 0x0A && input[i + 1] == 0x23 && input[i + 2] == 0x0A {
            i += 3
            break
        }
        let offset = Int(input[i]) | Int(input[i + 1]) << 8 | Int(input[i + 2]) << 16 | Int(input[i + 3]) << 24
        index[offset % index.count] = input[i + 4]
        i += 5
    }
    if i < input.count {
        for line in input[i...].split(separator: 0x0A) {
            let parts = line.split(separator: 0x09, maxSplits: 1, omittingEmptySubsequences: false)
            guard let text = String(validating: parts[0], as: UTF8.self) else { continue }
            var location: Coordinate? = nil
            if parts.count > 1, let point = String(validating: parts[1], as: UTF8.self) {
                let numbers = point.split(separator: ",").compactMap { Double($0) }
                if numbers.count == 2 { location = Coordinate(latitude: numbers[0], longitude: numbers[1]) }
            }
            queries.append((text, location))
        }
    }
    if queries.isEmpty { queries = standardQueries.flatMap { q in locations.map { (q, $0) } } }
    // In memory aligned as a mapping is (the index is read as 32-bit words).
    let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: index.count, alignment: 16)
    defer { storage.deallocate() }
    storage.copyBytes(from: index)
    guard let loaded = PlacesIndex(UnsafeBufferPointer(storage.bindMemory(to: UInt8.self))) else { return 0 }
    gazetteer.tsv.withUnsafeBufferPointer { tsv in
        for (text, location) in queries {
            let search = PlaceSearch(text: text, bias: LocationBias(location: location, radius: nil), filters: PlaceFilters(), limit: 5)
            do throws(GazetteerError) {
                let result = try search.search(index: loaded, tsv: tsv, path: "places.tsv")
                for found in result.places where found.place.offset >= tsv.count { fail("a place outside the gazetteer") }
            } catch .damagedIndex {
                continue
            } catch {
                fail("\(text): \(error)")
            }
        }
        // A label lookup and a collection read the index too.
        _ = try? PlaceSearch.places(
            labelled: TextFolding.fold("Tokyo, Tokyo, Japan"), name: "Tokyo", index: loaded, tsv: tsv,
            schema: GazetteerSchema.detect(firstLine: PlaceSearch.firstLine(tsv))!.schema, path: "places.tsv", filters: PlaceFilters(),
            all: true)
    }
    return 0
}
