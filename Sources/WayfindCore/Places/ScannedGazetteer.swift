/// A gazetteer file (or `-`, standard input) read in one pass per request: when no index
/// can be kept (`PlacesIndexCache`). Every row is split and checked as it goes by
/// (`GazetteerScanner`); a request keeps only its best rows.
final class ScannedGazetteer: GazetteerSource, @unchecked Sendable {
    let path: String
    let access: GazetteerAccess
    /// Names for the codes of a GeoNames dump: the embedded index, when installed.
    let names: PlacesIndex?

    init(path: String, access: GazetteerAccess, names: PlacesIndex? = try? EmbeddedGazetteer.index()) {
        (self.path, self.access, self.names) = (path, access, names)
    }

    var isEmbedded: Bool { false }
    var cachePath: String? { nil }
    var name: String { "--places \(MessageValue.plain(path))" }

    /// Runs `body` over the file open (not standard input, which stays open).
    private func reading<T>(_ body: (FileDescriptor) throws -> T) throws -> T {
        if path == "-" { return try body(access.standardInput) }
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.openForReading(path)
        } catch {
            throw GeocoderError("cannot read gazetteer \(MessageValue.plain(path)): \(error.description.lowercasedFirst())")
        }
        defer { descriptor.close() }
        return try body(descriptor)
    }

    func search(_ search: PlaceSearch) throws -> SearchResult {
        try reading { try search.search(scanning: $0, path: path == "-" ? "(standard input)" : path, names: names) }
    }

    func categories() throws -> [String]? {
        guard path != "-" else { return nil }
        var scanner = GazetteerScanner(path: path, matcher: nil)
        scanner.collectsCategories = true
        try reading { try scanner.scan($0) { _, _ in true } }
        return scanner.categories
    }

    func find(_ key: MagicKey, filters: PlaceFilters, limit: Int?) throws -> [FoundPlace]? {
        var scanner = GazetteerScanner(path: path, matcher: nil)
        var best: [(RankKey, FoundPlace)] = []
        switch key {
        case .place(_, let offset, _):
            try reading {
                try scanner.scan($0) { row, _ throws(GazetteerError) in
                    if row.offset == offset {
                        best = [(.found(order: 0), FoundPlace(place: Place(row: row, names: names), rank: .found(order: 0), score: 100))]
                    }
                    return true
                }
            }
        case .collection(_, let category, let location):
            let limit = limit ?? Geocoder.defaultCollectionPlaces
            try reading {
                try scanner.scan($0) { row, _ throws(GazetteerError) in
                    guard row.category == category,
                        filters.accepts(countryCode: row.countryCode, coordinate: row.coordinate, category: category)
                    else { return true }
                    let k = Geocoder.collectionKey(
                        coordinate: row.coordinate, location: location, population: row.population, category: category, order: row.offset)
                    if PlaceSearch.qualifies(k, best, limit: limit) {
                        let found = FoundPlace(place: Place(row: row, names: names), rank: k, score: 100)
                        PlaceSearch.insert(found, key: k, into: &best, limit: limit)
                    }
                    return true
                }
            }
        }
        guard scanner.fingerprint.value == key.fingerprint else { return nil }
        return best.map(\.1)
    }

    /// The nearest places, in the index's order: nearer first, then more important, then
    /// file order.
    func nearest(_ point: Coordinate, within reach: Double, filters: PlaceFilters, limit: Int) throws -> [FoundPlace] {
        var scanner = GazetteerScanner(path: path, matcher: nil)
        var best: [(key: RankKey, importance: Double, place: FoundPlace)] = []
        func precedes(_ a: (RankKey, Double, Int), _ b: (RankKey, Double, Int)) -> Bool {
            if a.0.score != b.0.score { return a.0.score > b.0.score }
            if a.1 != b.1 { return a.1 > b.1 }
            return a.2 < b.2
        }
        try reading {
            try scanner.scan($0) { row, _ throws(GazetteerError) in
                guard Geocoder.reverseConsiders(row.category, filters: filters),
                    filters.accepts(countryCode: row.countryCode, coordinate: row.coordinate, category: row.category)
                else { return true }
                let key = RankKey.nearest(distance: point.distance(to: row.coordinate), order: row.offset)
                guard key.distance <= reach else { return true }
                let importance = placeImportance(population: row.population, category: row.category)
                let entry = (key, importance, row.offset)
                if best.count == limit, let last = best.last, !precedes(entry, (last.key, last.importance, last.place.place.offset)) {
                    return true
                }
                let at = best.firstIndex { !precedes(($0.key, $0.importance, $0.place.place.offset), entry) } ?? best.count
                best.insert((key, importance, FoundPlace(place: Place(row: row, names: names), rank: key, score: 100)), at: at)
                if best.count > limit { best.removeLast() }
                return true
            }
        }
        return best.map(\.place)
    }

    /// None quicker than a search for the name: a scan reads every row anyway.
    func places(labelled label: [UInt8], name: String, filters: PlaceFilters, all: Bool) -> [FoundPlace]? { nil }
}
