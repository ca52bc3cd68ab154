/// A gazetteer in memory with its index: the embedded one, bytes a program gave
/// (`Geocoder(tsv:)`), or a `--places` file mapped with its cached index. Every request
/// reads the rows the index points it to (`PlaceSearch+Index.swift`, the location grid).
///
/// `@unchecked Sendable`: it holds raw pointers to the gazetteer's bytes and index, only
/// read after `init`, and freed in `deinit`, when no request can be running.
final class IndexedGazetteer: GazetteerSource, @unchecked Sendable {
    let tsv: UnsafeBufferPointer<UInt8>
    let index: PlacesIndex
    let path: String
    /// The columns of the TSV, read once from its first line (nil: an unknown format,
    /// reported by each request).
    let schema: (schema: GazetteerSchema, hasHeader: Bool)?
    /// The bytes `Geocoder(tsv:)` copied (the index, then the TSV), freed with this.
    private let storage: UnsafeMutableBufferPointer<UInt8>?
    /// The mapped file and index of a `--places` file.
    private let mapped: PlacesIndexCache.IndexedFile?

    init(
        tsv: UnsafeBufferPointer<UInt8>, index: PlacesIndex, path: String, storage: UnsafeMutableBufferPointer<UInt8>? = nil,
        mapped: PlacesIndexCache.IndexedFile? = nil
    ) {
        (self.tsv, self.index, self.path, self.storage, self.mapped) = (tsv, index, path, storage, mapped)
        schema = GazetteerSchema.detect(firstLine: PlaceSearch.firstLine(tsv)).map { ($0.schema, $0.isHeader) }
    }

    deinit { storage?.deallocate() }

    var isEmbedded: Bool { path == EmbeddedGazetteer.path }
    var cachePath: String? { mapped?.cachePath }
    var name: String {
        if isEmbedded { return "the embedded gazetteer" }
        return mapped != nil ? "--places \(MessageValue.plain(path))" : "this gazetteer"
    }

    /// The columns, or the error every request of an unknown format gets.
    private func columns() throws(GazetteerError) -> (schema: GazetteerSchema, hasHeader: Bool) {
        guard let schema else { throw .unknownFormat(path: path) }
        return schema
    }

    func search(_ search: PlaceSearch) throws -> SearchResult {
        try search.search(index: index, tsv: tsv, path: path, schema: schema?.schema)
    }

    func categories() -> [String]? { index.categories }

    func find(_ key: MagicKey, filters: PlaceFilters, limit: Int?) throws -> [FoundPlace]? {
        guard key.fingerprint == index.fingerprint else { return nil }
        let (schema, hasHeader) = try columns()
        let row = PlaceRow(schema: schema, path: path)
        switch key {
        case .place(_, let offset, let line):
            guard offset >= (hasHeader ? 1 : 0), offset < tsv.count, offset == 0 || tsv[offset - 1] == 0x0A else {
                throw GeocoderError("magicKey names no row of \(isEmbedded ? "the embedded gazetteer" : "this gazetteer")")
            }
            try PlaceSearch.split(row, tsv: tsv, offset: offset, line: line)
            return [FoundPlace(place: Place(row: row, names: index), rank: .found(order: 0), score: 100)]
        case .collection(_, let category, let location):
            guard let c = index.categories.firstIndex(of: category) else { return [] }
            var best: [(RankKey, Int)] = []
            let limit = limit ?? Geocoder.defaultCollectionPlaces
            for r in 0..<index.rowCount where index.categoryIndex(ofRow: r) == c {
                let coordinate = index.coordinate(ofRow: r)
                guard filters.accepts(packedCountry: index.countryCode(ofRow: r), coordinate: coordinate, category: category) else {
                    continue
                }
                let key = Geocoder.collectionKey(
                    coordinate: coordinate, location: location, population: index.population(ofRow: r), category: category, order: r)
                PlaceSearch.insert(r, key: key, into: &best, limit: limit)
            }
            return try best.map { (key, r) in try place(ofRow: r, row: row, rank: key) }
        }
    }

    func nearest(_ point: Coordinate, within reach: Double, filters: PlaceFilters, limit: Int) throws -> [FoundPlace] {
        let row = PlaceRow(schema: try columns().schema, path: path)
        return try Geocoder.nearestRows(index, to: point, within: reach, filters: filters, limit: limit).map { r in
            try place(ofRow: r, row: row, rank: .nearest(distance: point.distance(to: index.coordinate(ofRow: r)), order: r))
        }
    }

    func places(labelled label: [UInt8], name: String, filters: PlaceFilters, all: Bool) throws -> [FoundPlace]? {
        try PlaceSearch.places(
            labelled: label, name: name, index: index, tsv: tsv, schema: try columns().schema, path: path, filters: filters, all: all)
    }

    /// The place of index row `r`, read into `row`, ranked `rank`.
    private func place(ofRow r: Int, row: PlaceRow, rank: RankKey) throws(GazetteerError) -> FoundPlace {
        try PlaceSearch.split(row, tsv: tsv, offset: index.offset(ofRow: r), line: index.line(ofRow: r))
        return FoundPlace(place: Place(row: row, names: index), rank: rank, score: 100)
    }
}
