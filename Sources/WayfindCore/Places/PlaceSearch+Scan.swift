/// Searching a gazetteer file in one pass, when it has no index: standard input, a small
/// file, a stops.txt, or a file whose index cannot be kept (`PlacesIndexCache`).
extension PlaceSearch {
    /// Searches the file open as `descriptor` in one pass. `names` fills the region and
    /// country names of a GeoNames dump.
    ///
    /// Every row is split and checked (`GazetteerScanner`); only the rows that may hold
    /// the query (its rarest byte where a query word may start, or in their region's and
    /// country's names) are ranked, by `rank`, as the index path ranks them.
    package func search(scanning descriptor: FileDescriptor, path: String, names: RegionNames?) throws(GazetteerError) -> SearchResult {
        var result = SearchResult()
        // The first look takes the pieces as words of their own, as the index and the
        // ranking do: `heart's` is `heart` and `s`, which Sacred Heart holds, not the
        // letters `heart's` in a row (so `st.louis` is `st louis`).
        let pieceWords = pieces.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
        var scanner = GazetteerScanner(path: path, matcher: isEmpty ? nil : LineMatcher(MatchQuery(pieceWords, mode: .all)))
        scanner.names = names
        scanner.collectsCategories = !isEmpty
        var best: [(RankKey, FoundPlace)] = []
        try scanner.scan(descriptor) { row, isCandidate throws(GazetteerError) in
            guard !isEmpty, isCandidate else { return true }
            let category = row.category
            guard filters.accepts(countryCode: row.countryCode, coordinate: row.coordinate, category: category) else { return true }
            let importance = placeImportance(population: row.population, category: category)
            // The best key the row could have, before it is matched: most rows of a large
            // file cannot enter.
            let bound = RankKey.bound(
                coverage: pieces.count, importance: importance, mayBeWhole: true, mayBeOwn: true,
                distance: bias.distance(to: row.coordinate), bias: bias, short: isOneShortWord, order: row.offset)
            guard Self.qualifies(bound, best, limit: limit),
                let (key, match) = rank(row, names: names, importance: importance, coordinate: row.coordinate, order: row.offset),
                Self.qualifies(key, best, limit: limit)
            else { return true }
            Self.insert(found(row, names: names, key: key, match: match), key: key, into: &best, limit: limit)
            return true
        }
        result.places = best.map(\.1)
        result.fingerprint = scanner.fingerprint.value
        result.collections = collections(among: scanner.categories)
        return result
    }
}
