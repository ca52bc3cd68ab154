import Foundation
import Testing
import WayfindPlacesData
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// Gazetteers for the Places tests: the embedded one, and small files written to a
/// temporary folder.
enum PlacesTestSupport {
    /// The repository's copy of places.tsv (the file the binary embeds).
    static let placesTSV = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/WayfindPlacesData/places.tsv").path

    /// Writes `text` to a new temporary file and returns its path.
    static func temporaryFile(_ text: String, name: String = "gazetteer.tsv") throws -> String {
        try temporaryFile(Data(text.utf8), name: name)
    }

    static func temporaryFile(_ data: Data, name: String) throws -> String {
        try TestFiles.write(data, name: name)
    }

    /// Searches the embedded gazetteer.
    static func suggest(_ text: String, near location: Coordinate? = nil, filters: PlaceFilters = PlaceFilters(), limit: Int = 5) throws
        -> SearchResult
    {
        let search = PlaceSearch(text: text, bias: LocationBias(location: location, radius: nil), filters: filters, limit: limit)
        return try search.search(index: TestGazetteer.index(), tsv: TestGazetteer.tsv)
    }

    /// Searches the embedded gazetteer as the tools do (`Geocoder.search`): every spelling
    /// of the text (`st` is also `saint`), and its qualified forms when nothing matched.
    static func geocode(_ text: String, near location: Coordinate? = nil, limit: Int = 5) throws -> SearchResult {
        let geocoder = Geocoder(IndexedGazetteer(tsv: TestGazetteer.tsv, index: try TestGazetteer.index(), path: "(gazetteer)"))
        return try geocoder.search(
            text: text, lastWordComplete: true, bias: LocationBias(location: location, radius: nil), filters: PlaceFilters(), limit: limit)
    }

    /// Searches a file by scanning it.
    static func suggest(_ text: String, inFile path: String, near location: Coordinate? = nil, limit: Int = 5) throws -> SearchResult {
        let search = PlaceSearch(text: text, bias: LocationBias(location: location, radius: nil), filters: PlaceFilters(), limit: limit)
        let descriptor = try FileDescriptor.openForReading(path)
        defer { descriptor.close() }
        return try search.search(scanning: descriptor, path: path, names: TestGazetteer.index())
    }

    /// A GeoNames dump line (19 columns) for a place.
    static func geonamesLine(
        id: Int, name: String, lat: String, lon: String, code: String = "PPL", country: String, admin1: String, population: Int
    ) -> String {
        [
            String(id), name, name, "", lat, lon, "P", code, country, "", admin1, "", "", "", String(population), "", "100", "Europe/Paris",
            "2024-01-01",
        ]
        .joined(separator: "\t")
    }
}

/// The embedded gazetteer, installed on first use (wayfind installs it in `main.swift`).
enum TestGazetteer {
    private static let installed: Bool = {
        EmbeddedGazetteer.install(
            tsv: UnsafeBufferPointer(start: wayfind_places_tsv(), count: wayfind_places_tsv_count()),
            index: UnsafeBufferPointer(start: wayfind_places_index(), count: wayfind_places_index_count()))
        return true
    }()

    /// Installs the embedded gazetteer, for tools run in-process.
    static func install() { _ = installed }

    static var tsv: UnsafeBufferPointer<UInt8> {
        _ = installed
        return EmbeddedGazetteer.tsv
    }

    static var indexBytes: UnsafeBufferPointer<UInt8> {
        _ = installed
        return EmbeddedGazetteer.indexBytes
    }

    static func index() throws(GazetteerError) -> PlacesIndex {
        _ = installed
        return try EmbeddedGazetteer.index()
    }
}
