import WayfindPlacesData

/// The gazetteer inside the binary: places.tsv (34,006 GeoNames places) and its index.
///
/// Contains data from GeoNames (geonames.org), licensed under CC BY 4.0.
public enum EmbeddedGazetteer {
    /// The attribution CC BY 4.0 requires, printed by `--version` and in the man pages.
    public static let attribution = "Contains data from GeoNames (geonames.org), licensed under CC BY 4.0."

    /// The bytes of places.tsv.
    public static var tsv: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: wayfind_places_tsv(), count: wayfind_places_tsv_count())
    }

    /// The bytes of places.index.
    public static var indexBytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: wayfind_places_index(), count: wayfind_places_index_count())
    }

    /// The index, checked against the TSV's size (the fingerprint test is in the unit
    /// tests: hashing 4.5 MB on every run would cost a millisecond).
    public static func index() throws(GazetteerError) -> PlacesIndex {
        guard let index = PlacesIndex(indexBytes), index.tsvSize == tsv.count else { throw .staleIndex }
        return index
    }

    /// The name shown in messages.
    public static let path = "(embedded gazetteer)"
}
