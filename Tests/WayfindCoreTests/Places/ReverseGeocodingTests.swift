import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// `Geocoder.reverse`: the grid walk finds what reading every row finds, and the scan of
/// a file without an index finds the same.
@Suite struct ReverseGeocodingTests {
    static let geocoder = Geocoder(IndexedGazetteer(tsv: TestGazetteer.tsv, index: try! TestGazetteer.index(), path: "(gazetteer)"))

    /// The rows a reverse query must find, by reading every row: within reach, not an
    /// area unless named, through the filters; nearest first, then by row number.
    static func bruteForce(_ point: Coordinate, within reach: Double?, filters: PlaceFilters, limit: Int) throws -> [Int] {
        let index = try TestGazetteer.index()
        var rows: [(Double, Int)] = []
        for r in 0..<index.rowCount {
            let category = index.categories[index.categoryIndex(ofRow: r)]
            let coordinate = index.coordinate(ofRow: r)
            guard Geocoder.reverseConsiders(category, filters: filters),
                filters.accepts(packedCountry: index.countryCode(ofRow: r), coordinate: coordinate, category: category)
            else { continue }
            let d = point.distance(to: coordinate)
            if d <= (reach ?? .infinity) { rows.append((d, r)) }
        }
        rows.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        return rows.prefix(limit).map { index.offset(ofRow: $0.1) }
    }

    @Test func randomPointsFindWhatReadingEveryRowFinds() throws {
        var random = SplitMix64(seed: 48)
        let index = try TestGazetteer.index()
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        for trial in 0..<300 {
            let point: Coordinate
            if trial % 2 == 0 {
                // Near a place, where the grid's cells are full.
                let c = index.coordinate(ofRow: Int(random.next() % UInt64(index.rowCount)))
                point = Coordinate(latitude: max(-90, min(90, c.latitude + uniform() * 4 - 2)), longitude: c.longitude + uniform() * 4 - 2)
            } else {
                // Anywhere on the Earth, the poles and the ±180° meridian too.
                let edges = [
                    Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 45),
                    Coordinate(latitude: 65, longitude: 180),
                ]
                point = trial % 31 == 1 ? edges[trial % 3] : Coordinate(latitude: uniform() * 180 - 90, longitude: uniform() * 360 - 180)
            }
            let limit = 1 + Int(random.next() % 5)
            let reach: Double? = random.next() % 3 == 0 ? nil : 1000 * Double(1 + random.next() % 3000)
            var filters = PlaceFilters()
            switch random.next() % 6 {
            case 0: filters = PlaceFilters(countries: ["FR", "US", "JP"])
            case 1: filters = PlaceFilters(categories: ["capitals"])
            case 2: filters = PlaceFilters(extent: Extent(minLongitude: -10, minLatitude: 35, maxLongitude: 30, maxLatitude: 60))
            case 3: filters = PlaceFilters(categories: ["country", "city"])
            default: break
            }
            let found = try Self.geocoder.reverse(point, within: reach, filters: filters, limit: limit).map(\.place.offset)
            let expected = try Self.bruteForce(point, within: reach, filters: filters, limit: limit)
            #expect(found == expected, "point \(point) within \(String(describing: reach)) limit \(limit) filters \(filters)")
        }
    }

    @Test func thePointOfParisIsParisNotFrance() throws {
        let found = try Self.geocoder.reverse(Coordinate(latitude: 48.8534, longitude: 2.3488), limit: 3)
        #expect(found.map(\.place.label).first == "Paris, Île-de-France, France")
        #expect(!found.contains { PlaceCategory.isArea($0.place.category) })
        let countries = try Self.geocoder.reverse(
            Coordinate(latitude: 48.8534, longitude: 2.3488), filters: PlaceFilters(categories: ["countries"]))
        #expect(countries.map(\.place.label) == ["France"])
    }

    @Test func nothingWithinReachIsNothing() throws {
        #expect(try Self.geocoder.reverse(Coordinate(latitude: 0, longitude: -150), within: 100_000).isEmpty)
        #expect(try Self.geocoder.reverse(Coordinate(latitude: 48.85, longitude: 2.35), limit: 0).isEmpty)
        #expect(try Self.geocoder.reverse(Coordinate(latitude: 91, longitude: 0)).isEmpty)
        #expect(try Self.geocoder.reverse(Coordinate(latitude: 0, longitude: .nan)).isEmpty)
    }

    /// Rings 0 to 180 around any cell hold every cell of the grid once.
    @Test(arguments: [(0, 0), (179, 359), (90, 180), (1, 358), (138, 2)])
    func ringsCoverTheGridOnce(row: Int, column: Int) {
        var seen = [Int](repeating: 0, count: PlacesIndex.gridCellCount)
        for ring in 0...180 {
            for cell in Geocoder.ringCells(ring, row: row, column: column) { seen[cell] += 1 }
        }
        #expect(seen.allSatisfy { $0 == 1 })
        #expect(Geocoder.ringCells(181, row: 90, column: 0).isEmpty)
    }

    /// A file searched without an index (scanned) gives the places its index gives.
    @Test func theScanOfAFileFindsWhatItsIndexFinds() throws {
        let dump = PlacesIndexDifferentialTests.dump
        let indexed = PlacesIndexDifferentialTests.indexed
        let viaIndex = Geocoder(IndexedGazetteer(tsv: indexed.tsv, index: indexed.index, path: dump.path))
        let scanned = Geocoder(ScannedGazetteer(path: dump.path, access: GazetteerAccess(cacheFolder: nil)))
        var random = SplitMix64(seed: 4848)
        for trial in 0..<40 {
            let point = Coordinate(
                latitude: Double(random.next() % 140) - 60 + 0.37, longitude: Double(random.next() % 360) - 180 + 0.11)
            let filters = trial % 4 == 0 ? PlaceFilters(countries: ["DE", "BR"]) : PlaceFilters()
            let limit = 1 + trial % 4
            let reach: Double? = trial % 3 == 0 ? 500_000 : nil
            let a = try viaIndex.reverse(point, within: reach, filters: filters, limit: limit).map {
                "\($0.place.label) @\($0.place.offset)"
            }
            let b = try scanned.reverse(point, within: reach, filters: filters, limit: limit).map {
                "\($0.place.label) @\($0.place.offset)"
            }
            #expect(a == b, "point \(point)")
        }
    }
}
