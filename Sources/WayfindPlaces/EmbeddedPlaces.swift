import WayfindCore
import WayfindPlacesData

/// The gazetteer the magickey tools embed: 34,006 places from GeoNames (cities of 15,000
/// people or more, and seats of government) with every alternate name, 14 MB. A separate
/// library, so that an app that does not geocode does not carry it.
///
/// Contains data from GeoNames (geonames.org), licensed under CC BY 4.0: an app that
/// shows its places must credit GeoNames (`EmbeddedGazetteer.attribution`).
public enum EmbeddedPlaces {
    /// Makes the embedded bytes available to `WayfindCore` (idempotent, and safe to call
    /// from many threads at once).
    public static func install() { _ = installed }

    /// The installation, done once: a static `let` is initialized exactly once, whatever
    /// the threads asking, so tasks calling `Geocoder.embedded()` together do not race.
    private static let installed: Void = {
        EmbeddedGazetteer.install(
            tsv: UnsafeBufferPointer(start: wayfind_places_tsv(), count: wayfind_places_tsv_count()),
            index: UnsafeBufferPointer(start: wayfind_places_index(), count: wayfind_places_index_count()))
    }()
}

extension Geocoder {
    /// The geocoder over the embedded gazetteer.
    public static func embedded() throws(GeocoderError) -> Geocoder {
        EmbeddedPlaces.install()
        return try installedEmbedded()
    }
}
