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
        return try Self.reporting { try gazetteer.nearest(point, within: reach, filters: filters, limit: limit) }
    }

    /// Whether reverse geocoding considers places of `category`: not areas, unless the
    /// filters ask for them by name.
    static func reverseConsiders(_ category: String, filters: PlaceFilters) -> Bool {
        !PlaceCategory.isArea(category) || filters.categories.contains(PlaceCategory.normalized(category))
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
        func threshold() -> Double { best.count == limit ? best.last!.0.distance : reach }
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
                    let key = RankKey.nearest(distance: point.distance(to: coordinate), order: r)
                    guard key.distance <= reach, PlaceSearch.qualifies(key, best, limit: limit),
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
}
