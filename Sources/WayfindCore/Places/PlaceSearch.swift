/// Finds the places a query names, in a gazetteer: the embedded one through its index, or
/// a file by scanning it once. Both paths share the matcher, filters and `RankKey`, so a
/// query gets the same answer from the embedded gazetteer as from places.tsv given with
/// `--places` (a unit test checks this).

/// A place found, with its rank.
public struct FoundPlace: Sendable {
    /// The place.
    public var place: Place
    package var rank: RankKey
    /// How well the text matched, 0–100 (100: every name word matched whole), as
    /// ArcGIS's candidates score; see `matchScore`.
    public var score: Int
}

/// What a search returns: the best places, best first, and the collections the query names.
package struct SearchResult: Sendable {
    package var places: [FoundPlace] = []
    /// Categories the query names, in the gazetteer's order.
    package var collections: [String] = []
    /// The fingerprint of the gazetteer searched.
    package var fingerprint: UInt64 = 0
}

/// One search: the compiled query, the bias and the filters.
package final class PlaceSearch {
    let matcher: LineMatcher
    /// The folded query words, for whole-name checks.
    let queryWords: Set<[UInt8]>
    let queryLetters: Int
    package let bias: LocationBias
    package let filters: PlaceFilters
    /// How many places to return.
    package let limit: Int
    private var text: [UInt8] = []
    /// Whether a dump's rows are judged on their raw columns before matching (always, but
    /// for the tests that compare with matching every row in full).
    var prefiltersDumpRows = true

    /// A search for `text`.
    package init(text: String, bias: LocationBias, filters: PlaceFilters, limit: Int) {
        let query = MatchQuery(text, mode: .all)
        matcher = LineMatcher(query)
        queryWords = Set(query.words.flatMap { SearchText.words($0.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }) })
        queryLetters = query.words.reduce(0) { $0 + $1.count }
        self.bias = bias
        self.filters = filters
        self.limit = limit
    }

    /// Whether the query has no words (nothing to suggest).
    package var isEmpty: Bool { matcher.query.words.isEmpty }

    // MARK: Row checks shared by both paths

    /// Whether `row` matches the query (its searchable text).
    func matches(_ row: PlaceRow, names: RegionNames?) -> Bool {
        text.removeAll(keepingCapacity: true)
        SearchText.append(row, names: names, to: &text)
        return text.withUnsafeBufferPointer { matcher.matches($0) }
    }

    /// 0 when the query spells the row's name or an alternate name (see `RankKey`), else 1.
    func tier(_ row: PlaceRow) -> Int {
        var forms = [row.field(.name), row.field(.asciiName)]
        for part in row.field(.alternateNames).split(separator: 0x2C) { forms.append(UnsafeBufferPointer(rebasing: part)) }
        for form in forms where !form.isEmpty {
            let words = SearchText.words(form)
            if !words.isEmpty && words.allSatisfy({ queryWords.contains($0) }) { return 0 }
        }
        return 1
    }

    /// Keeps the best `limit` entries of `best`, sorted.
    static func insert<T>(_ item: T, key: RankKey, into best: inout [(RankKey, T)], limit: Int) {
        if best.count == limit, let last = best.last, !(key < last.0) { return }
        let at = best.firstIndex { key < $0.0 } ?? best.count
        best.insert((key, item), at: at)
        if best.count > limit { best.removeLast() }
    }

    /// Whether `key` could enter `best`.
    static func qualifies<T>(_ key: RankKey, _ best: [(RankKey, T)], limit: Int) -> Bool {
        best.count < limit || key < best.last!.0
    }

    // MARK: The embedded gazetteer

    /// Searches the embedded gazetteer through `index`.
    package func search(index: PlacesIndex, tsv: UnsafeBufferPointer<UInt8>) throws(GazetteerError) -> SearchResult {
        var result = SearchResult(fingerprint: index.fingerprint)
        guard !isEmpty else { return result }
        for category in index.categories where PlaceCategory.queryNames(matcher, category: category) {
            if filters.categories.isEmpty || filters.categories.contains(PlaceCategory.normalized(category)) {
                result.collections.append(category)
            }
        }
        let wordsPerRow = (index.rowCount + 63) / 64
        var candidates = [UInt64](repeating: ~0, count: wordsPerRow)
        var exactRows = [UInt64](repeating: 0, count: wordsPerRow)
        var pieceCount = 0
        for word in matcher.query.words {
            for piece in SearchText.words(String(decoding: word, as: UTF8.self)) {
                pieceCount += 1
                var these = [UInt64](repeating: 0, count: wordsPerRow)
                let (range, exact) = index.words(withPrefix: piece)
                for w in range {
                    for row in index.postings(ofWord: w) { these[Int(row) >> 6] |= 1 << UInt64(row & 63) }
                }
                if let exact {
                    for row in index.postings(ofWord: exact) { exactRows[Int(row) >> 6] |= 1 << UInt64(row & 63) }
                }
                for i in 0..<wordsPerRow { candidates[i] &= these[i] }
            }
        }
        // One query word that is one word: the index answer is exact, no row need be read
        // unless it could spell the whole name.
        let indexIsExact = matcher.query.words.count == 1 && pieceCount == 1
        let schema = GazetteerSchema.detect(firstLine: Self.firstLine(tsv))!.schema
        let row = PlaceRow(schema: schema, path: EmbeddedGazetteer.path)
        var best: [(RankKey, Int)] = []
        // Per category, computed once: its importance factor and whether filters pass it.
        let factors = index.categories.map { PlaceCategory.importanceFactor($0) }
        let hasFilters = !filters.countries.isEmpty || filters.extent != nil || !filters.categories.isEmpty
        for chunk in 0..<wordsPerRow {
            var bits = candidates[chunk]
            while bits != 0 {
                let r = chunk * 64 + bits.trailingZeroBitCount
                bits &= bits - 1
                if r >= index.rowCount { break }
                let coordinate = index.coordinate(ofRow: r)
                let c = index.categoryIndex(ofRow: r)
                if hasFilters {
                    guard filters.accepts(packedCountry: index.countryCode(ofRow: r), coordinate: coordinate, category: index.categories[c])
                    else { continue }
                }
                var key = RankKey(
                    tier: 1, band: bias.band(of: coordinate),
                    importance: Double(index.population(ofRow: r) + 1) * factors[c], order: r)
                // A whole-name match needs a query word that is a whole word of the row.
                let mayBeWhole = exactRows[chunk] & (1 << UInt64(r & 63)) != 0
                if !mayBeWhole {
                    guard Self.qualifies(key, best, limit: limit) else { continue }
                    if !indexIsExact {
                        try Self.split(row, tsv: tsv, offset: index.offset(ofRow: r), line: r + 2)
                        if !matches(row, names: nil) { continue }
                    }
                    Self.insert(r, key: key, into: &best, limit: limit)
                    continue
                }
                var probe = key
                probe.tier = 0
                guard Self.qualifies(probe, best, limit: limit) else { continue }
                try Self.split(row, tsv: tsv, offset: index.offset(ofRow: r), line: r + 2)
                if !indexIsExact && !matches(row, names: nil) { continue }
                key.tier = tier(row)
                if Self.qualifies(key, best, limit: limit) { Self.insert(r, key: key, into: &best, limit: limit) }
            }
        }
        for (key, r) in best {
            try Self.split(row, tsv: tsv, offset: index.offset(ofRow: r), line: r + 2)
            let place = Place(row: row, names: nil)
            result.places.append(
                FoundPlace(place: place, rank: key, score: matchScore(tier: key.tier, queryLetters: queryLetters, name: place.name)))
        }
        return result
    }

    /// The first line of `bytes`.
    static func firstLine(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let end = Platform.findByte(0x0A, in: bytes.baseAddress!, count: bytes.count) ?? bytes.baseAddress! + bytes.count
        return UnsafeBufferPointer(start: bytes.baseAddress!, count: end - bytes.baseAddress!)
    }

    /// Splits the line of `tsv` starting at `offset` into `row`.
    static func split(_ row: PlaceRow, tsv: UnsafeBufferPointer<UInt8>, offset: Int, line: Int) throws(GazetteerError) {
        let start = tsv.baseAddress! + offset
        let end = Platform.findByte(0x0A, in: start, count: tsv.count - offset) ?? tsv.baseAddress! + tsv.count
        try row.split(UnsafeBufferPointer(start: start, count: end - start), number: line, offset: offset)
    }

    // MARK: A gazetteer file

    /// Searches the file open as `descriptor` in one pass. `names` fills the region and
    /// country names of a GeoNames dump.
    package func search(scanning descriptor: FileDescriptor, path: String, names: RegionNames?) throws(GazetteerError) -> SearchResult {
        var result = SearchResult()
        var scanner = GazetteerScanner(path: path, matcher: isEmpty ? nil : matcher)
        // A dump's rows are judged on their raw columns first (see `DumpRowFilter`).
        let filter = isEmpty || !prefiltersDumpRows ? nil : DumpRowFilter(matcher: matcher, names: names, bias: bias)
        scanner.rowFilter = filter
        if !isEmpty && !prefiltersDumpRows { scanner.splitEveryRow = true }
        var best: [(RankKey, FoundPlace)] = []
        var categories: [String] = []
        var lastCategoryBytes: [UInt8] = [0xFF]
        let wantsCollections = !isEmpty
        try scanner.scan(descriptor) { row, isCandidate throws(GazetteerError) in
            if wantsCollections && (filter == nil || row.schema.format != .geonames) {
                let raw = row.schema.column(.category) != nil ? row.field(.category) : row.field(.featureCode)
                if !raw.elementsEqual(lastCategoryBytes) {
                    lastCategoryBytes = Array(raw)
                    let category = row.category
                    if !categories.contains(category) { categories.append(category) }
                }
            }
            guard !isEmpty else { return true }
            guard isCandidate || !prefiltersDumpRows else { return true }
            let category = row.category
            guard filters.accepts(countryCode: row.countryCode, coordinate: row.coordinate, category: category),
                matches(row, names: names)
            else { return true }
            let key = RankKey(
                tier: tier(row), band: bias.band(of: row.coordinate),
                importance: placeImportance(population: row.population, category: category), order: row.offset)
            if Self.qualifies(key, best, limit: limit) {
                let place = Place(row: row, names: names)
                let found = FoundPlace(
                    place: place, rank: key, score: matchScore(tier: key.tier, queryLetters: queryLetters, name: place.name))
                Self.insert(found, key: key, into: &best, limit: limit)
                if best.count == limit { filter?.threshold = best.last!.0 }
            }
            return true
        }
        result.places = best.map(\.1)
        result.fingerprint = scanner.fingerprint.value
        // A dump's categories come from feature codes, not from bytes a query can hit.
        if scanner.schema?.format == .geonames, let filter {
            for category in filter.categories where !categories.contains(category) { categories.append(category) }
        }
        for category in categories where !category.isEmpty && PlaceCategory.queryNames(matcher, category: category) {
            if filters.categories.isEmpty || filters.categories.contains(PlaceCategory.normalized(category)) {
                result.collections.append(category)
            }
        }
        return result
    }
}

extension Place {
    /// The place in `row` (checked by `PlaceRow.split`), with names from `names` where the
    /// row has only codes.
    package init(row: PlaceRow, names: RegionNames?) {
        id = row.schema.column(.id) != nil ? row.string(.id) : String(row.line)
        name = row.string(.name)
        if row.schema.column(.admin1Name) != nil {
            region = row.string(.admin1Name)
        } else if let names {
            region = String(decoding: names.admin1Name(country: row.field(.countryCode), code: row.field(.admin1Code)), as: UTF8.self)
        } else {
            region = ""
        }
        if row.schema.column(.countryName) != nil {
            country = row.string(.countryName)
        } else if let names {
            country = String(decoding: names.countryName(code: row.field(.countryCode)), as: UTF8.self)
        } else {
            country = ""
        }
        countryCode = row.countryCode
        coordinate = row.coordinate
        category = row.category
        population = row.population
        offset = row.offset
        line = row.line
    }
}
