import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCore

/// The dump scan judges rows on their raw columns before matching them (`DumpRowFilter`);
/// these tests check that it never drops a row that matching every row in full would keep.
@Suite struct DumpRowFilterTests {
    /// A GeoNames-format dump of every sixth place of places.tsv, twice over with fresh ids
    /// (as bench/magickey.sh builds its 200 MB one), so that the top N fills and rows are
    /// ruled out by rank.
    static let dumpPath: String = {
        let text = try! String(contentsOfFile: PlacesTestSupport.placesTSV, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().filter { !$0.isEmpty }
        lines = lines.enumerated().filter { $0.offset % 6 == 0 }.map(\.element)
        var dump = ""
        for round in 0..<2 {
            for line in lines {
                let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                let id = (Int(f[0]) ?? 0) + round * 20_000_000
                let code = f[6].isEmpty ? "PPL" : f[6]
                dump +=
                    [String(id), f[1], f[2], f[3], f[4], f[5], "P", code, f[8], "", f[10], "", "", "", f[12], "", "0", f[13], "2024-01-01"]
                    .joined(separator: "\t") + "\n"
            }
        }
        return try! PlacesTestSupport.temporaryFile(dump, name: "dump.txt")
    }()

    /// What a search of the dump prints, with or without the row checks.
    func suggestions(_ text: String, near location: Coordinate?, limit: Int, prefilter: Bool) throws -> [String] {
        let search = PlaceSearch(text: text, bias: LocationBias(location: location, radius: nil), filters: PlaceFilters(), limit: limit)
        search.prefiltersDumpRows = prefilter
        let descriptor = try FileDescriptor.openForReading(Self.dumpPath)
        defer { descriptor.close() }
        let result = try search.search(scanning: descriptor, path: Self.dumpPath, names: TestGazetteer.index())
        return result.collections.map { "collection \($0)" } + result.places.map { "\($0.place.label) @\($0.place.offset) \($0.score)" }
    }

    static let queries: [(String, Coordinate?, Int)] = [
        ("springfield", nil, 5), ("springfield", Coordinate(latitude: 42.1, longitude: -72.6), 5),
        ("paris", nil, 15), ("paris", Coordinate(latitude: 33.66, longitude: -95.55), 5), ("paris tx", nil, 5),
        ("sao paulo", nil, 15), ("s", nil, 5), ("s", Coordinate(latitude: 48.85, longitude: 2.35), 15), ("zurich", nil, 5),
        ("krakow", nil, 5), ("tx", nil, 15), ("us", nil, 5), ("new york", nil, 5), ("texas", nil, 15), ("brazil", nil, 5),
        ("capital", nil, 5), ("北京", nil, 5), ("san jose", nil, 15), ("e a", nil, 5), ("zzqx", nil, 5),
    ]

    @Test(arguments: queries)
    func theRowChecksDropNoRowThatMatchingEveryRowKeeps(query: (String, Coordinate?, Int)) throws {
        let (text, location, limit) = query
        let expected = try suggestions(text, near: location, limit: limit, prefilter: false)
        let actual = try suggestions(text, near: location, limit: limit, prefilter: true)
        #expect(
            actual == expected,
            "query '\(text)':\nexpected:\n\(expected.joined(separator: "\n"))\nactual:\n\(actual.joined(separator: "\n"))")
    }

    @Test func locatedColumnsStartWhereSplittingAtTabsSaysTheyDo() throws {
        var random = SplitMix64(seed: 4)
        let alphabet = Array("ab\tc\t\té,\t".utf8)
        let row = PlaceRow(schema: GazetteerSchema.geonames, path: "dump")
        let starts = UnsafeMutablePointer<Int>.allocate(capacity: row.columnStartsCapacity)
        defer { starts.deallocate() }
        for _ in 0..<2_000 {
            var line = (0..<Int.random(in: 0..<60, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            // Most lines get exactly the 18 tabs of a GeoNames row.
            if Bool.random(using: &random) {
                line.removeAll { $0 == 0x09 }
                for _ in 0..<18 { line.insert(0x09, at: Int.random(in: 0...line.count, using: &random)) }
            }
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
            try line.withUnsafeBufferPointer { buffer in
                if fields.count != GazetteerSchema.geonamesColumnCount {
                    #expect(throws: GazetteerError.wrongColumnCount(path: "dump", line: 7, expected: 19, found: fields.count)) {
                        try row.locateColumns(buffer, number: 7, into: starts)
                    }
                    return
                }
                try row.locateColumns(buffer, number: 7, into: starts)
                var start = 0
                for (c, field) in fields.enumerated() {
                    #expect(starts[c] == start, "column \(c) of \(line)")
                    #expect(starts[c + 1] - 1 - starts[c] == field.count, "column \(c) of \(line)")
                    start += field.count + 1
                }
            }
        }
    }

    @Test(arguments: [
        ("paulo", "BR", "27", true), ("sao", "BR", "27", true), ("paulo", "BR", "21", false), ("tx", "US", "TX", true),
        ("texas", "US", "TX", true), ("brazil", "BR", "21", true), ("br", "BR", "21", true), ("zz", "US", "TX", false),
        ("ab", "XX", "ABC", true),
    ])
    func aRegionHoldsAWordThroughItsCodesOrNames(word: String, country: String, admin1: String, holds: Bool) throws {
        let cache = RegionWordCache(words: [Array(word.utf8)], names: try TestGazetteer.index())
        var country = Array(country.utf8)
        var admin1 = Array(admin1.utf8)
        let answer = country.withUnsafeMutableBufferPointer { c in
            admin1.withUnsafeMutableBufferPointer { a in
                // Twice: computed, then looked up.
                [
                    cache.holdsWord(country: UnsafeBufferPointer(c), admin1: UnsafeBufferPointer(a)),
                    cache.holdsWord(country: UnsafeBufferPointer(c), admin1: UnsafeBufferPointer(a)),
                ]
            }
        }
        #expect(answer == [holds, holds])
    }

    @Test(arguments: [
        ("s", "Beijing", false), ("s", "S", true), ("s", "'s-Hertogenbosch", false), ("sao paulo", "São Paulo", true),
        ("sao paulo", "Paulo", true), ("paris tx", "Paris", true), ("paris tx", "Parma", false), ("北京", "北京市", false),
        ("北京", "北京", true),
    ])
    func aNameMayBeSpelledOnlyIfEveryLetterIsTheQuerys(query: String, name: String, mayBe: Bool) {
        let filter = DumpRowFilter(
            matcher: LineMatcher(MatchQuery(query, mode: .all)), names: nil, bias: LocationBias(location: nil, radius: nil))
        var bytes = Array(name.utf8)
        #expect(bytes.withUnsafeMutableBufferPointer { filter.mayBeSpelled(UnsafeBufferPointer($0)) } == mayBe)
    }
}
