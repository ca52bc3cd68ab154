/// The gazetteer inside the binary: places.tsv (GeoNames places, countries and regions)
/// and its index.
///
/// The bytes live in the `WayfindPlacesData` target, which the core does not link: an app
/// that does not geocode does not carry 14 MB it never reads. wayfind's `main.swift` hands
/// them over with `install` before running a tool that reads them.
///
/// Contains data from GeoNames (geonames.org), licensed under CC BY 4.0.
public enum EmbeddedGazetteer {
    /// The installed bytes; set once, at start-up, before any reader runs.
    nonisolated(unsafe) private static var installed: (tsv: UnsafeBufferPointer<UInt8>, index: UnsafeBufferPointer<UInt8>)?

    /// Makes the embedded bytes available (called through `EmbeddedPlaces.install`).
    package static func install(tsv: UnsafeBufferPointer<UInt8>, index: UnsafeBufferPointer<UInt8>) {
        installed = (tsv, index)
    }

    /// The attribution CC BY 4.0 requires, printed by `--version` and in the man pages.
    public static let attribution = "Contains data from GeoNames (geonames.org), licensed under CC BY 4.0."

    /// The bytes of places.tsv.
    package static var tsv: UnsafeBufferPointer<UInt8> {
        installed?.tsv ?? UnsafeBufferPointer(start: nil, count: 0)
    }

    /// The bytes of places.index.
    package static var indexBytes: UnsafeBufferPointer<UInt8> {
        installed?.index ?? UnsafeBufferPointer(start: nil, count: 0)
    }

    /// The index, checked against the TSV's size (the fingerprint test is in the unit
    /// tests: hashing megabytes on every run would cost more than a search).
    package static func index() throws(GazetteerError) -> PlacesIndex {
        guard let index = PlacesIndex(indexBytes), index.tsvSize == tsv.count else { throw .staleIndex }
        return index
    }

    /// The name shown in messages.
    package static let path = "(embedded gazetteer)"
}
