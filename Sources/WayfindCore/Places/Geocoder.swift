/// An offline geocoder: the suggest → magicKey → find flow of ArcGIS's geocoding service
/// over a gazetteer, as magickey-suggest and magickey-find run it.
///
///     let geocoder = try Geocoder.embedded()   // WayfindPlaces; or Geocoder(tsv: bytes)
///     let first = try geocoder.suggest("sao pau", near: Coordinate(latitude: -23, longitude: -46))[0]
///     let place = try geocoder.find(magicKey: first.magicKey)[0].place   // São Paulo, with its coordinate
///
/// Suggestions match as smartgrep does (every query word starts a different word of the
/// name, alternate names, region or country; case and accents ignored) and rank as the
/// tools' man pages describe. A magicKey names its gazetteer (by fingerprint) and its row,
/// so finding one reads one row.
///
/// A geocoder is `Sendable`: a server can share one among all its tasks. Every request
/// builds its own matcher and scratch state; what a geocoder holds is never changed after
/// `init` (`@unchecked` because that includes its `GazetteerSource`, whose raw pointers to
/// the gazetteer's bytes and index are only read, and freed when no request can be running).
public final class Geocoder: @unchecked Sendable {
    /// A suggestion: what a search box shows, and the key that finds it.
    public struct Suggestion: Sendable, Equatable {
        /// The label (`Kraków, Małopolskie, Poland`) or a collection's name (`Capital`).
        public var text: String
        /// The opaque key `find(magicKey:)` resolves.
        public var magicKey: String
        /// Whether the suggestion is a category of places rather than one place.
        public var isCollection: Bool
        /// The alternate name the text matched when it did not match the place's own name
        /// (`Roma` for `Rome, Lazio, Italy`); nil otherwise.
        public var matched: String? = nil
        /// Whether a route graph predicted the place (`suggest(_:history:…)`): the user
        /// went there before; false for the geocoder's matches alone.
        public var predicted = false
    }

    /// Where the places are, and how a request reads them.
    let gazetteer: any GazetteerSource

    /// Whether this is the embedded gazetteer (whose categories are known).
    package var isEmbedded: Bool { gazetteer.isEmbedded }

    init(_ gazetteer: any GazetteerSource) { self.gazetteer = gazetteer }

    /// A geocoder over a gazetteer in memory: TSV with a header row naming at least
    /// `name`, `latitude` and `longitude` columns (see `man magickey-suggest`, GAZETTEER).
    /// The bytes are copied and indexed once; every row is checked.
    public convenience init(tsv: some Collection<UInt8>) throws(GeocoderError) {
        let text = Array(tsv)
        let indexBytes: [UInt8]
        do {
            indexBytes = try text.withUnsafeBufferPointer { (bytes) throws(GazetteerError) in try PlacesIndex.build(tsv: bytes) }
        } catch {
            throw GeocoderError(error.description)
        }
        // The index first: it is read as 32-bit words, and an allocation is aligned.
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: indexBytes.count + text.count)
        _ = storage.initialize(from: indexBytes + text)
        let tsvPart = UnsafeBufferPointer(rebasing: storage[indexBytes.count...])
        guard let index = PlacesIndex(UnsafeBufferPointer(rebasing: storage[..<indexBytes.count])) else {
            storage.deallocate()
            throw GeocoderError("the gazetteer could not be indexed")
        }
        self.init(IndexedGazetteer(tsv: tsvPart, index: index, path: "(gazetteer)", storage: storage))
    }

    /// The geocoder over the embedded gazetteer (installed by the magickey tools and by
    /// `WayfindPlaces`).
    package static func installedEmbedded() throws(GeocoderError) -> Geocoder {
        do {
            return Geocoder(
                IndexedGazetteer(tsv: EmbeddedGazetteer.tsv, index: try EmbeddedGazetteer.index(), path: EmbeddedGazetteer.path))
        } catch {
            throw GeocoderError(error.description)
        }
    }

    /// A geocoder over the gazetteer file at `path` (`-`: standard input): through its
    /// index, built on first use and kept in the cache (`PlacesIndexCache`, whose notes
    /// begin with `tool`), or read again for every request when no index can be kept
    /// (magickey's `--places`; `access.readOnly`: only an index already in the cache).
    package static func file(_ path: String, access: GazetteerAccess) -> Geocoder {
        let names = try? EmbeddedGazetteer.index()
        // (Without the embedded names, in a build whose embedded index does not match its
        // gazetteer, an index made now would lack a dump's country and region names, and
        // be kept: the file is searched whole instead.)
        if names != nil, let indexed = try? PlacesIndexCache.open(path, access: access, names: names) {
            return Geocoder(IndexedGazetteer(tsv: indexed.tsv, index: indexed.index, path: path, mapped: indexed))
        }
        return Geocoder(ScannedGazetteer(path: path, access: access, names: names))
    }

    // MARK: Suggest

    /// Up to `limit` suggestions for the partial text `text`, best first: the collections
    /// the text names (`capitals`), then places.
    ///
    /// - Parameters:
    ///   - near: rank places near this point first (nothing is excluded).
    ///   - distance: the distance scale of that bias in metres (`LocationBias.defaultNearDistance`).
    ///   - filters: exclude places by country, extent or category.
    public func suggest(
        _ text: String, near location: Coordinate? = nil, distance: Double? = nil, filters: PlaceFilters = PlaceFilters(),
        limit: Int = 5
    ) throws(GeocoderError) -> [Suggestion] {
        let bias = LocationBias(location: location, radius: distance)
        let result = try search(
            text: text, lastWordComplete: SearchText.endsWithFinishedWord(text), bias: bias, filters: filters, limit: limit)
        let places = result.places.map { found in
            let key = MagicKey.place(fingerprint: result.fingerprint, offset: found.place.offset, line: found.place.line)
            return Suggestion(text: found.place.label, magicKey: key.encoded, isCollection: false, matched: found.matched)
        }
        return Self.suggestions(
            text, collections: result.collections, places: places, fingerprint: result.fingerprint, location: location, limit: limit)
    }

    /// The suggestions for `text`: the collections it names and the places found, at most
    /// `limit`. A collection the text spells whole (`capitals`) comes first, one it only
    /// begins (`cap`) after the first place: Cape Town is more likely meant than the
    /// capitals.
    static func suggestions(
        _ text: String, collections: [String], places: [Suggestion], fingerprint: UInt64, location: Coordinate?, limit: Int
    ) -> [Suggestion] {
        var first: [Suggestion] = []
        var after: [Suggestion] = []
        for category in collections {
            let key = MagicKey.collection(fingerprint: fingerprint, category: category, location: location)
            let suggestion = Suggestion(text: PlaceCategory.displayName(category), magicKey: key.encoded, isCollection: true)
            if PlaceCategory.spelledWhole(by: text, category: category) { first.append(suggestion) } else { after.append(suggestion) }
        }
        return Array((first + places.prefix(1) + after + places.dropFirst()).prefix(limit))
    }

    // MARK: Find

    /// The places a magicKey stands for: one place, or a collection's places nearest where
    /// it was suggested (at most `limit`, default 5). A key from another gazetteer is found
    /// by `text`, its suggestion's text, when given (ranked with `near` and `distance` as
    /// `find(text:)` ranks); otherwise it is an error.
    public func find(
        magicKey: String, text: String? = nil, near location: Coordinate? = nil, distance: Double? = nil,
        filters: PlaceFilters = PlaceFilters(), limit: Int? = nil
    ) throws(GeocoderError) -> [FoundPlace] {
        let fallback = Fallback(text: text, location: location, distance: distance, filters: filters, limit: limit)
        let key: MagicKey
        do { key = try MagicKey.decode(magicKey) } catch { throw GeocoderError(error.description) }
        return try Self.reporting {
            try gazetteer.find(key, filters: filters, limit: limit) ?? mismatch(magicKey, fallback)
        }
    }

    /// The best places for `text`, ranked as suggestions are.
    public func find(
        text: String, near location: Coordinate? = nil, distance: Double? = nil, filters: PlaceFilters = PlaceFilters(), limit: Int = 1
    ) throws(GeocoderError) -> [FoundPlace] {
        try search(
            text: text, lastWordComplete: true, bias: LocationBias(location: location, radius: distance), filters: filters,
            limit: limit
        ).places
    }

    /// The categories of the gazetteer's places (`capital`, `coffee`), in the order first
    /// seen; nil for standard input, which cannot be read twice.
    package func categories() throws(GeocoderError) -> [String]? {
        try Self.reporting { try gazetteer.categories() }
    }

    /// Where the `--places` file's cached index is, if it is searched through one.
    package var cachedIndexPath: String? { gazetteer.cachePath }

    /// The most places a collection's key finds when no limit is given.
    public static let defaultCollectionPlaces = 5

    // MARK: Internals

    /// Searches for `text` (`searchVariants`), and when that finds nothing, for the words
    /// before a country or region it ends with, in that area (`searchQualified`).
    func search(text: String, lastWordComplete: Bool, bias: LocationBias, filters: PlaceFilters, limit: Int)
        throws(GeocoderError) -> SearchResult
    {
        let typed = SearchText.ordinaryWidths(text)
        // A comma ends a word: `austin,tx` is typed for `austin, tx`.
        var spaced = ""
        for (i, c) in zip(typed.indices, typed) {
            spaced.append(c)
            if c == ",", typed.index(after: i) < typed.endIndex, !typed[typed.index(after: i)].isWhitespace { spaced.append(" ") }
        }
        let text = spaced
        let result = try searchVariants(text: text, lastWordComplete: lastWordComplete, bias: bias, filters: filters, limit: limit)
        guard result.places.isEmpty,
            var qualified = try searchQualified(text: text, lastWordComplete: lastWordComplete, bias: bias, filters: filters, limit: limit)
        else { return result }
        qualified.collections = result.collections
        return qualified
    }

    /// Searches for `text` and for each of its other spellings (`SearchText.queryVariants`:
    /// `st petersburg` is also `saint petersburg`), the places of all merged by rank.
    ///
    /// The longest spellings go first: longer words name fewer places by chance (`st l`
    /// begins United States and a million `L…` names, `saint l` names Saint-Louis), so the
    /// list fills with the better matches, and its last key bars the rest from what the
    /// later searches read (`PlaceSearch.floor`). The order changes no answer: a place
    /// that a later spelling ranks higher than before beats that key.
    func searchVariants(text: String, lastWordComplete: Bool, bias: LocationBias, filters: PlaceFilters, limit: Int)
        throws(GeocoderError) -> SearchResult
    {
        let variants = SearchText.queryVariants(text, lastWordComplete: lastWordComplete)
        guard variants.count > 1 else { return try search(PlaceSearch(text: text, bias: bias, filters: filters, limit: limit)) }
        let order = variants.indices.sorted {
            variants[$0].count != variants[$1].count ? variants[$0].count > variants[$1].count : $0 < $1
        }
        var result = SearchResult()
        var places: [FoundPlace] = []
        for i in order {
            let search = PlaceSearch(text: i == 0 ? text : variants[i], bias: bias, filters: filters, limit: limit)
            if places.count == limit, let last = places.last { search.floor = last.rank }
            let found = try self.search(search)
            if i == 0 { result = found }
            for place in found.places {
                if let index = places.firstIndex(where: { $0.place.offset == place.place.offset }) {
                    if place.rank < places[index].rank { places[index] = place }
                } else {
                    places.append(place)
                }
            }
            places.sort { $0.rank < $1.rank }
            if places.count > limit { places.removeLast(places.count - limit) }
        }
        result.places = places
        return result
    }

    /// Runs `search` over the gazetteer.
    func search(_ search: PlaceSearch) throws(GeocoderError) -> SearchResult {
        try Self.reporting { try gazetteer.search(search) }
    }

    /// `body`'s result, any error it throws as a `GeocoderError` with the same message.
    static func reporting<T>(_ body: () throws -> T) throws(GeocoderError) -> T {
        do {
            return try body()
        } catch let error as GazetteerError {
            var failure = GeocoderError(error.description)
            if case .damagedIndex = error { failure.isDamagedIndex = true }
            throw failure
        } catch let error as GeocoderError {
            throw error
        } catch {
            throw GeocoderError("\(error)")
        }
    }

    /// How a key of another gazetteer is found instead.
    private struct Fallback {
        var text: String?
        var location: Coordinate?
        var distance: Double?
        var filters: PlaceFilters
        var limit: Int?
    }

    private func mismatch(_ key: String, _ fallback: Fallback) throws(GeocoderError) -> [FoundPlace] {
        // A label's commas separate its parts: `Paris, Île-de-France, France` is three
        // groups of query words.
        let which = gazetteer.name
        if let text = fallback.text, !text.isEmpty {
            // The suggestion's text is a label: the place of that label, else the best
            // places its words find.
            if let place = try place(labelled: text, near: fallback.location, filters: fallback.filters) {
                var found = place
                found.score = 100
                return [found]
            }
            let found = try find(
                text: String(text.map { $0 == "," ? " " : $0 }), near: fallback.location, distance: fallback.distance,
                filters: fallback.filters, limit: fallback.limit ?? 1)
            guard found.isEmpty else { return found }
            // Silence here would look like a place that is gone: say where the key is from.
            throw GeocoderError(
                "magicKey \(MessageValue.quoted(key)) belongs to a different gazetteer than \(which), where its text \(MessageValue.quoted(text)) names no place; use --places with the file it came from"
            )
        }
        throw GeocoderError(
            "magicKey \(MessageValue.quoted(key)) belongs to a different gazetteer than \(which); give it with its suggestion text, or use --places with the file it came from"
        )
    }

    /// Nearest first when the key has a location (distance in metres as the order),
    /// otherwise most important first.
    static func collectionKey(coordinate: Coordinate, location: Coordinate?, population: Int, category: String, order: Int) -> RankKey {
        if let location { return .nearest(distance: location.distance(to: coordinate), order: order) }
        return .important(placeImportance(population: population, category: category), order: order)
    }
}

/// Why a geocoder request failed: one lowercase line, as the tools print it.
public struct GeocoderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The message.
    public var description: String
    /// Whether the gazetteer's index turned out damaged (a cached one is then rebuilt).
    package var isDamagedIndex = false
    init(_ description: String) { self.description = description }
}
