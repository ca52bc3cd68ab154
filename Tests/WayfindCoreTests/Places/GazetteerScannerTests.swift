import Foundation
import Testing

@testable import WayfindCLI
@testable import WayfindCore

@Suite struct GazetteerScannerTests {
    func rows(_ path: String) throws -> [Place] {
        var scanner = GazetteerScanner(path: path, matcher: nil)
        let descriptor = try FileDescriptor.openForReading(path)
        defer { descriptor.close() }
        var places: [Place] = []
        try scanner.scan(descriptor) { row, _ throws(GazetteerError) in
            places.append(try Place(row: row, names: TestGazetteer.index()))
            return true
        }
        return places
    }

    @Test func aUserTSVNeedsOnlyNameLatitudeAndLongitudeInAnyOrder() throws {
        let path = try PlacesTestSupport.temporaryFile("lon\tname\tcategory\tlat\n2.35\tCafé de Flore\tcoffee\t48.854\n")
        let places = try rows(path)
        #expect(places.count == 1)
        #expect(places[0].name == "Café de Flore")
        #expect(places[0].category == "coffee")
        #expect(places[0].coordinate == Coordinate(latitude: 48.854, longitude: 2.35))
        #expect(places[0].id == "2")
    }

    @Test func aGeoNamesDumpIsDetectedAndGetsRegionAndCountryNames() throws {
        let line = PlacesTestSupport.geonamesLine(
            id: 2_988_507, name: "Paris", lat: "48.85341", lon: "2.3488", code: "PPLC", country: "FR", admin1: "11", population: 2_138_551)
        let path = try PlacesTestSupport.temporaryFile(line + "\n", name: "cities500.txt")
        let places = try rows(path)
        #expect(places.map(\.label) == ["Paris, Île-de-France, France"])
        #expect(places[0].category == "capital")
        #expect(places[0].id == "2988507")
    }

    /// A file cut short while it is read (another program rewrote it) is reported as
    /// changed, not as the broken row the cut leaves.
    @Test func aFileCutShortWhileReadIsReportedAsChanged() throws {
        var text = "name\tlatitude\tlongitude\n"
        for i in 0..<40_000 { text += "Place \(i)\t\(i % 90).5\t\(i % 180).25\n" }
        let path = try PlacesTestSupport.temporaryFile(text, name: "cut-short.tsv")
        var scanner = GazetteerScanner(path: path, matcher: nil)
        let descriptor = try FileDescriptor.openForReading(path)
        defer { descriptor.close() }
        var cut = false
        #expect(throws: GazetteerError.cannotRead(path: path, reason: "changed while being read")) {
            try scanner.scan(descriptor) { _, _ throws(GazetteerError) in
                if !cut {
                    cut = true
                    // Cut in the middle of a row, past the first read.
                    truncate(path, off_t(text.utf8.count * 2 / 3 + 3))
                }
                return true
            }
        }
    }

    @Test func aBrokenRowIsReportedWithItsLineNumber() throws {
        let path = try PlacesTestSupport.temporaryFile("name\tlatitude\tlongitude\nA\t1\t2\nB\t1\nC\t3\t4\n")
        #expect(throws: GazetteerError.wrongColumnCount(path: path, line: 3, expected: 3, found: 2)) { try rows(path) }
    }

    @Test func aBadLatitudeIsReportedWithItsLineNumberAndValue() throws {
        let path = try PlacesTestSupport.temporaryFile("name\tlatitude\tlongitude\nA\t1\t2\nB\tninety\t2\n")
        #expect(
            throws: GazetteerError.badField(path: path, line: 3, column: "latitude", value: "ninety", expected: "a number from -90 to 90")
        ) { try rows(path) }
    }

    @Test func aNameThatIsNotUTF8IsReportedWithItsLineNumber() throws {
        var data = Data("name\tlatitude\tlongitude\nA\t1\t2\n".utf8)
        data += Data([0x42, 0xFF, 0x09, 0x31, 0x09, 0x32, 0x0A])
        let path = try PlacesTestSupport.temporaryFile(data, name: "bad.tsv")
        #expect(throws: GazetteerError.invalidUTF8(path: path, line: 3, column: "name")) { try rows(path) }
    }

    /// Broken rows that the query `alpha` cannot match, and what stops the run at them.
    static let brokenRowsAQueryDoesNotMatch: [(rows: [UInt8], error: @Sendable (String) -> GazetteerError)] = [
        (Array("Beta\tx\t2\n".utf8), { .badField(path: $0, line: 3, column: "latitude", value: "x", expected: "a number from -90 to 90") }),
        (
            Array("Beta\t1\t181\n".utf8),
            { .badField(path: $0, line: 3, column: "longitude", value: "181", expected: "a number from -180 to 180") }
        ),
        (Array("\t1\t2\n".utf8), { .badField(path: $0, line: 3, column: "name", value: "", expected: "a name") }),
        ([0x42, 0xFF, 0x09, 0x31, 0x09, 0x32, 0x0A], { .invalidUTF8(path: $0, line: 3, column: "name") }),
        (Array("Beta\t1\n".utf8), { .wrongColumnCount(path: $0, line: 3, expected: 3, found: 2) }),
    ]

    @Test(arguments: brokenRowsAQueryDoesNotMatch.indices)
    func aBrokenRowStopsASearchThatCannotMatchIt(index: Int) throws {
        let (rows, error) = Self.brokenRowsAQueryDoesNotMatch[index]
        let path = try PlacesTestSupport.temporaryFile(
            Data("name\tlatitude\tlongitude\nAlpha\t1\t2\n".utf8) + Data(rows), name: "broken.tsv")
        #expect(throws: error(path)) { try PlacesTestSupport.suggest("alpha", inFile: path) }
    }

    @Test(arguments: [false, true])
    func aBrokenDumpRowStopsASearchThatCannotMatchIt(withLocation: Bool) throws {
        let good = PlacesTestSupport.geonamesLine(
            id: 1, name: "Alpha", lat: "48.85341", lon: "2.3488", code: "PPLC", country: "FR", admin1: "11", population: 2_000_000)
        let bad = PlacesTestSupport.geonamesLine(
            id: 2, name: "Beta", lat: "91", lon: "2.3488", code: "PPL", country: "FR", admin1: "11", population: 10)
        let path = try PlacesTestSupport.temporaryFile(good + "\n" + bad + "\n", name: "cities500.txt")
        let location = withLocation ? Coordinate(latitude: 48, longitude: 2) : nil
        #expect(
            throws: GazetteerError.badField(path: path, line: 2, column: "latitude", value: "91", expected: "a number from -90 to 90")
        ) { try PlacesTestSupport.suggest("alpha", inFile: path, near: location, limit: 1) }
    }

    @Test func aRowLongerThanTheLimitStopsTheScan() throws {
        let path = try PlacesTestSupport.temporaryFile(
            "name\tlatitude\tlongitude\nA\t1\t2\n" + String(repeating: "b", count: 100) + "\t1\t2\n")
        var scanner = GazetteerScanner(path: path, matcher: nil)
        scanner.rowLimit = 64
        let descriptor = try FileDescriptor.openForReading(path)
        defer { descriptor.close() }
        #expect(throws: GazetteerError.rowTooLong(path: path, limit: 64)) { try scanner.scan(descriptor) { _, _ in true } }
    }

    @Test func aDumpOffersACollectionOnlyWhenARowHasItsCategory() throws {
        func collections(_ query: String, codes: [String]) throws -> [String] {
            let lines = codes.enumerated().map { i, code in
                PlacesTestSupport.geonamesLine(
                    id: i + 1, name: "Place \(i)", lat: "48", lon: "2", code: code, country: "FR", admin1: "11", population: 100)
            }
            let path = try PlacesTestSupport.temporaryFile(lines.joined(separator: "\n") + "\n", name: "cities500.txt")
            return try PlacesTestSupport.suggest(query, inFile: path).collections
        }
        #expect(try collections("capitals", codes: ["PPL", "PPLA"]) == [])
        #expect(try collections("capitals", codes: ["PPL", "PPLC"]) == ["capital"])
        #expect(try collections("city", codes: ["PPLA", "PPLX"]) == [])
        #expect(try collections("city", codes: ["PPLA", "PPLX", "PPL"]) == ["city"])
    }

    @Test func aFileInNeitherFormatIsRefused() throws {
        let path = try PlacesTestSupport.temporaryFile("hello world\n")
        #expect(throws: GazetteerError.unknownFormat(path: path)) { try rows(path) }
    }

    @Test func theFingerprintOfAFileReadInBlocksIsTheFingerprintOfItsBytes() throws {
        var big = ""
        for i in 0..<30_000 { big += "Place \(i)\t\(i % 90)\t\(i % 180)\n" }
        let path = try PlacesTestSupport.temporaryFile("name\tlatitude\tlongitude\n" + big)
        var scanner = GazetteerScanner(path: path, matcher: nil)
        let descriptor = try FileDescriptor.openForReading(path)
        try scanner.scan(descriptor) { _, _ in true }
        descriptor.close()
        let bytes = try #require(try FileSystem.readFile(at: path))
        #expect(scanner.fingerprint.value == bytes.withUnsafeBufferPointer { GazetteerFingerprint.of($0) })
    }
}
