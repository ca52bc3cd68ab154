import Foundation
import Testing

@testable import WayfindCLI
@testable import WayfindCore

@Suite struct PlacesIndexTests {
    @Test func theCommittedIndexIsTheOneBuiltFromTheEmbeddedGazetteer() throws {
        let built = try PlacesIndex.build(tsv: TestGazetteer.tsv)
        let committed = Array(TestGazetteer.indexBytes)
        #expect(built.count == committed.count, "run make places-index")
        #expect(built == committed, "run make places-index")
    }

    @Test func theIndexFingerprintIsTheFingerprintOfTheEmbeddedBytes() throws {
        let index = try TestGazetteer.index()
        #expect(index.fingerprint == GazetteerFingerprint.of(TestGazetteer.tsv))
        // A row per line but the header.
        #expect(index.rowCount == TestGazetteer.tsv.filter { $0 == 0x0A }.count - 1)
        #expect(index.categories.sorted() == PlaceCategory.embeddedCategories.sorted())
    }

    @Test func theEmbeddedBytesAreTheRepositorysPlacesFile() throws {
        let file = try #require(try FileSystem.readFile(at: PlacesTestSupport.placesTSV))
        #expect(file == Array(TestGazetteer.tsv))
    }

    @Test(arguments: [
        "paris", "springfield", "sao paulo", "zurich", "krakow", "san jose", "new york", "s", "paris tx", "washington", "saint-etienne",
        "roma", "mo", "lo", "東京", "東", "москва", "st petersburg", "den haag", "ft", "rom lazio", "peking china",
    ])
    func theIndexFindsWhatAScanOfTheSameFileFinds(query: String) throws {
        let indexed = try PlacesTestSupport.suggest(query, limit: 15)
        let scanned = try PlacesTestSupport.suggest(query, inFile: PlacesTestSupport.placesTSV, limit: 15)
        #expect(indexed.places.map(\.place.id) == scanned.places.map(\.place.id))
        // The orders differ (row number, byte offset); the rest of each key is the same.
        #expect(indexed.places.map { "\($0.rank.tier) \($0.rank.ownName)" } == scanned.places.map { "\($0.rank.tier) \($0.rank.ownName)" })
        #expect(indexed.places.map(\.matched) == scanned.places.map(\.matched))
        #expect(indexed.fingerprint == scanned.fingerprint)
    }

    /// A region's words name its area, not each of its rows: `illinois` has postings only
    /// where a name holds it (the region itself, a few alternate names), and its area
    /// holds the state's 213 places;
    /// every row is in one area, once.
    @Test func aRegionsWordsNameItsAreaNotEachOfItsRows() throws {
        let index = try TestGazetteer.index()
        let w = try #require(index.words(withPrefix: Array("illinois".utf8)).exact)
        #expect(index.postings(ofWord: w).count < 10)
        let rows = index.areas(ofWords: w..<w + 1).flatMap { Array(index.rows(inArea: $0)) }
        #expect(rows.count == 213)
        var seen = [Int](repeating: 0, count: index.rowCount)
        for a in 0..<index.areaCount {
            for r in index.rows(inArea: a) { seen[Int(r)] += 1 }
        }
        #expect(seen.allSatisfy { $0 == 1 })
        #expect(index.rows(inArea: index.areaCount).isEmpty)
    }

    @Test func countryAndRegionNamesAreLookedUpByCode() throws {
        let index = try TestGazetteer.index()
        let fr = Array("FR".utf8), us = Array("US".utf8), tx = Array("TX".utf8)
        let country = fr.withUnsafeBufferPointer { String(decoding: index.countryName(code: $0), as: UTF8.self) }
        let region = us.withUnsafeBufferPointer { u in
            tx.withUnsafeBufferPointer { String(decoding: index.admin1Name(country: u, code: $0), as: UTF8.self) }
        }
        #expect(country == "France")
        #expect(region == "Texas")
    }
}
