/// Reverse geocoding: the places nearest a point, nearest first.
///
/// A point's places are found through the index's location grid (`PlacesIndex`, cells of
/// one degree): the cells are read in square rings around the point's cell, ring 0 the
/// cell itself, ring 1 the eight around it, and so on. A cell is read only when the
/// nearest point it can hold (`LocationBias.distanceLowerBound`) is within reach: within
/// the distance asked for, and nearer than the last of the places kept once `limit` are
/// kept. The walk stops after a ring none of whose cells is within reach: every place
/// outside the rings read is at least as far as some cell of the last ring (a shortest
/// path out of the rectangle of rings crosses its edge, which that ring's cells hold,
/// even over a pole). Near Paris that is ring 1, nine cells; in mid-Pacific with no
/// distance given, a few thousand cells, most of them empty and skipped by their count.
///
/// Areas (categories `region` and `country`) are placed at their capital or seat, a
/// point that says nothing about where the area is: they are left out unless a category
/// filter names them, so that the point of Paris is Paris, not France.
///
/// A gazetteer without an index (a small file, standard input) is read whole, once; the
/// order is the same: nearer first, then more important (`placeImportance`), then file
/// order, which is the order of the index's rows.
extension Geocoder {
    /// The places nearest `point`, nearest first: at most `limit`, each at most
    /// `distance` metres away (nil: any distance), passing `filters`. Regions and
    /// countries are left out unless `filters` names their category. The distance of
    /// each is `point.distance(to: found.place.coordinate)`.
    public func reverse(
        _ point: Coordinate, within distance: Double? = nil, filters: PlaceFilters = PlaceFilters(), limit: Int = 1
    ) throws(GeocoderError) -> [FoundPlace] {
        guard limit > 0, abs(point.latitude) <= 90, point.longitude.isFinite else { return [] }
        let reach = distance ?? .infinity
        return try Self.reporting {
            switch source {
            case .indexed(let tsv, let index, let path):
                guard let (schema, _) = schema else { throw GazetteerError.unknownFormat(path: path) }
                let rows = Self.nearestRows(index, to: point, within: reach, filters: filters, limit: limit)
                let row = PlaceRow(schema: schema, path: path)
                return try rows.map { r in
                    try PlaceSearch.split(row, tsv: tsv, offset: index.offset(ofRow: r), line: index.line(ofRow: r))
                    return FoundPlace(
                        place: Place(row: row, names: index), rank: Self.reverseKey(point, index.coordinate(ofRow: r), order: r), score: 100
                    )
                }
            case .file(let path, let access):
                return try reverseScanning(point, path: path, access: access, within: reach, filters: filters, limit: limit)
            }
        }
    }

    /// Whether reverse geocoding considers places of `category`: not areas, unless the
    /// filters ask for them by name.
    static func reverseConsiders(_ category: String, filters: PlaceFilters) -> Bool {
        !PlaceCategory.isArea(category) || filters.categories.contains(PlaceCategory.normalized(category))
    }

    /// The order of reverse geocoding's places: distance in metres, then `order` (an index
    /// row, whose number orders by importance, or a scan's key of the same order).
    static func reverseKey(_ point: Coordinate, _ coordinate: Coordinate, order: Int) -> RankKey {
        RankKey(coverage: 0, tier: 0, score: -point.distance(to: coordinate), order: order)
    }

    /// The rows of `index` nearest `point` (see the essay above), nearest first.
    static func nearestRows(_ index: PlacesIndex, to point: Coordinate, within reach: Double, filters: PlaceFilters, limit: Int) -> [Int] {
        let bias = LocationBias(location: point, radius: nil)
        let center = bias.location!
        let scale = PlacesIndex.coordinateScale
        let home = PlacesIndex.gridCell(
            latitude: Int32((center.latitude * scale).rounded()), longitude: Int32((center.longitude * scale).rounded()))
        let (homeRow, homeColumn) = (home / PlacesIndex.gridLongitudeCells, home % PlacesIndex.gridLongitudeCells)
        let considered = index.categories.map { reverseConsiders($0, filters: filters) }
        var best: [(RankKey, Int)] = []
        /// How far a place may be and still enter.
        func threshold() -> Double { best.count == limit ? -best.last!.0.score : reach }
        for ring in 0...max(PlacesIndex.gridLatitudeCells, PlacesIndex.gridLongitudeCells / 2) {
            var ringReachable = false
            for cell in ringCells(ring, row: homeRow, column: homeColumn) {
                let (latitudes, longitudes) = PlacesIndex.gridBounds(ofCell: cell)
                let bound = bias.distanceLowerBound(latitudes: latitudes, longitudes: longitudes) ?? 0
                guard bound <= threshold() else { continue }
                ringReachable = true
                let entries = index.gridEntries(ofCell: cell)
                var e = 0
                while e < entries.count {
                    let r = Int(entries[e])
                    e += PlacesIndex.gridEntryWords
                    let category = index.categoryIndex(ofRow: r)
                    guard considered[category] else { continue }
                    let coordinate = index.coordinate(ofRow: r)
                    let key = reverseKey(point, coordinate, order: r)
                    guard -key.score <= reach, PlaceSearch.qualifies(key, best, limit: limit),
                        filters.isEmpty
                            || filters.accepts(
                                packedCountry: index.countryCode(ofRow: r), coordinate: coordinate, category: index.categories[category])
                    else { continue }
                    PlaceSearch.insert(r, key: key, into: &best, limit: limit)
                }
            }
            if !ringReachable { break }
        }
        return best.map(\.1)
    }

    /// The grid cells `ring` cells away from cell (`row`, `column`) in rows or columns
    /// (columns wrap round at ±180°; rows stop at the poles): every cell of a ring ≤ R is
    /// in rings 0...R exactly once. Empty for a ring past the whole grid.
    static func ringCells(_ ring: Int, row: Int, column: Int) -> [Int] {
        let columnsAcross = PlacesIndex.gridLongitudeCells
        /// The columns within `r` of `column`: all when they go round.
        func columns(within r: Int) -> [Int] {
            guard r >= 0 else { return [] }
            if 2 * r + 1 >= columnsAcross { return Array(0..<columnsAcross) }
            return (-r...r).map { (column + $0 + columnsAcross) % columnsAcross }
        }
        let all = columns(within: ring)
        let inner = Set(columns(within: ring - 1))
        let edge = all.filter { !inner.contains($0) }
        var cells: [Int] = []
        for dr in -ring...ring {
            let r = row + dr
            guard r >= 0, r < PlacesIndex.gridLatitudeCells else { continue }
            for c in abs(dr) == ring ? all : edge { cells.append(r * columnsAcross + c) }
        }
        return cells
    }

    /// The places nearest `point` from one pass over a gazetteer file.
    private func reverseScanning(
        _ point: Coordinate, path: String, access: GazetteerAccess, within reach: Double, filters: PlaceFilters, limit: Int
    ) throws -> [FoundPlace] {
        let descriptor = try Self.open(path, access: access)
        defer { if path != "-" { descriptor.close() } }
        var scanner = GazetteerScanner(path: path, matcher: nil)
        // The index's row order: more important first, then file order.
        var best: [(key: RankKey, importance: Double, place: FoundPlace)] = []
        func precedes(_ a: (RankKey, Double, Int), _ b: (RankKey, Double, Int)) -> Bool {
            if a.0.score != b.0.score { return a.0.score > b.0.score }
            if a.1 != b.1 { return a.1 > b.1 }
            return a.2 < b.2
        }
        try scanner.scan(descriptor) { row, _ throws(GazetteerError) in
            guard Self.reverseConsiders(row.category, filters: filters),
                filters.accepts(countryCode: row.countryCode, coordinate: row.coordinate, category: row.category)
            else { return true }
            let key = Self.reverseKey(point, row.coordinate, order: row.offset)
            guard -key.score <= reach else { return true }
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
        return best.map(\.place)
    }
}
