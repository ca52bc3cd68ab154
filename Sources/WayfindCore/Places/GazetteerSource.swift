/// Where a geocoder's places are, and how each request reads them: the one type
/// `Geocoder` asks, so that a request names what it wants once, not how per source.
///
///     IndexedGazetteer    in memory with its index: the embedded gazetteer, bytes given,
///                         or a `--places` file mapped with its cached index
///     ScannedGazetteer    a file (or standard input) read in one pass per request, when
///                         no index can be kept (`PlacesIndexCache`)
///
/// Errors are the gazetteer's (`GazetteerError`) or a request's (`GeocoderError`);
/// `Geocoder.reporting` makes them one line each.
protocol GazetteerSource: AnyObject {
    /// The gazetteer as messages name it: `the embedded gazetteer`, `--places FILE`.
    var name: String { get }
    /// Whether this is the embedded gazetteer (whose categories are known).
    var isEmbedded: Bool { get }
    /// Where its cached index is, when it is a `--places` file searched through one.
    var cachePath: String? { get }

    /// Runs `search`.
    func search(_ search: PlaceSearch) throws -> SearchResult
    /// The places `key` stands for (`Geocoder.find(magicKey:)`); nil when the key is of
    /// another gazetteer.
    func find(_ key: MagicKey, filters: PlaceFilters, limit: Int?) throws -> [FoundPlace]?
    /// The categories of its places, in the order first seen; nil when it cannot be read
    /// twice (standard input).
    func categories() throws -> [String]?
    /// The places nearest `point`, nearest first (`Geocoder.reverse`).
    func nearest(_ point: Coordinate, within reach: Double, filters: PlaceFilters, limit: Int) throws -> [FoundPlace]
    /// The places whose label folds to `label` (its first part, the place's name, is
    /// `name`), most important first, only the first unless `all`; nil when the source
    /// has no quicker way than a search for the name (`Geocoder.place(labelled:…)`).
    func places(labelled label: [UInt8], name: String, filters: PlaceFilters, all: Bool) throws -> [FoundPlace]?
}
