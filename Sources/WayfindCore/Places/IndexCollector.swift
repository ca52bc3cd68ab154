/// A row a candidate source offers, with what the index's postings tell of it before it
/// is read.
struct RowCandidate {
    /// The row number.
    var row: Int
    /// Whether the name matched may be the row's own: a query word's posting for it is
    /// an own word (`PlacesIndex.notOwnName` clear).
    var mayBeOwn = true
    /// Whether the query may spell a name of the row whole (`PostingsUnion.wholeRows`).
    var mayBeWhole = true
    /// Whether every query word may be in a name (none is in qualifiers only, by the
    /// postings), so that all of them may be in one.
    var mayCoverAll = true
    /// Whether a query word may begin the name matched (`PlaceMatch.atStart`); for one
    /// word in the row's own name, whether it begins it (`PlacesIndex.startsOwnName`).
    var mayStart = true
    /// Whether the row may not hold the query's words at all (a grid signature's guess):
    /// then its line is read even where the index would be exact.
    var unverified = false
}

/// The one collector of an index search: every source offers it rows, and it ranks them
/// (`PlaceSearch.rank`), keeps the best `limit`, and tells the source when no later row
/// can enter.
///
/// Rows come in importance order from every source but the grid (`ordered`), so the
/// best key a row could have (`RankKey.bound`) bounds every later one's: once it cannot
/// enter the list, the walk stops; once a name begun (not spelled whole) cannot, only the
/// rows the query may spell whole are read on. A row's line is read only when its key
/// depends on it: for one query word that is one word, the postings tell whether a row
/// holds it in its own name, so such a row's key is known without its line, unless the
/// word may spell a name whole.
struct IndexCollector {
    let search: PlaceSearch
    let index: PlacesIndex
    let tsv: UnsafeBufferPointer<UInt8>
    let row: PlaceRow
    /// Per category: its importance factor, and whether it is an area's.
    let factors: [Double]
    let areas: [Bool]
    /// Whether the query is one word of one piece: a posting then tells exactly whether
    /// the row's own name holds it, so a match begun in it needs no line read.
    let indexIsExact: Bool
    /// Whether the query has words typed in capitals, which may be codes (`DEU`).
    let mayBeCode: Bool
    /// Whether some piece is a whole word of the index: a qualifier it spells whole
    /// counts as a word of the name (`PlaceMatch.rankCoverage`).
    let wholeWordPieces: Bool
    /// The best rows so far, best first, with their matches.
    var best: [(RankKey, (row: Int, match: PlaceMatch))] = []
    /// Whether a name begun may still enter; once not, only whole names are read.
    var prefixesMayEnter = true
    /// How many lines were read (a grid walk hands over to the postings past a budget).
    var linesRead = 0
    /// Rows up to this one were offered by an earlier source (a prefix list) and are
    /// skipped by the next.
    var consideredThrough = -1
    /// The grid cells a grid walk read whole (their rows are skipped after it), and how
    /// far from the location every other row is at least (metres).
    var walkedCells: [Bool]? = nil
    var minimumDistance: Double? = nil

    init(search: PlaceSearch, index: PlacesIndex, tsv: UnsafeBufferPointer<UInt8>, row: PlaceRow) {
        self.search = search
        self.index = index
        self.tsv = tsv
        self.row = row
        factors = index.categories.map { PlaceCategory.importanceFactor($0) }
        areas = index.categories.map { PlaceCategory.isArea($0) }
        indexIsExact = search.matcher.query.words.count == 1 && search.pieces.count == 1
        mayBeCode = search.placeMatcher.capitals.contains(true)
        wholeWordPieces = search.pieces.count > 1 && search.pieces.contains { index.words(withPrefix: $0).exact != nil }
    }

    /// Whether `key` could enter the list, and beats the search's floor if it has one.
    func qualifies(_ key: RankKey) -> Bool {
        PlaceSearch.qualifies(key, best, limit: search.limit) && (search.floor.map { key < $0 } ?? true)
    }

    /// Whether a key must beat another to enter: the list is full, or the search has a
    /// floor. Until then every match enters, and no bound can stop a walk.
    var isBounded: Bool { best.count == search.limit || search.floor != nil }

    /// Row `r`'s importance, as its population and category give it.
    @inline(__always) func importance(ofRow r: Int) -> Double {
        placeImportance(population: index.population(ofRow: r), factor: factors[index.categoryIndex(ofRow: r)])
    }

    /// The best key row `r`, of `importance`, could have from `distance` (nil: anywhere).
    /// Rows come in importance order from every source but the grid, and a grid cell's
    /// in importance order too, so no later row's is better from as far. `whole`:
    /// whether its name may be spelled whole.
    @inline(__always) func bestKey(ofRow r: Int, importance: Double, whole: Bool, from distance: Double?) -> RankKey {
        RankKey.bound(
            coverage: search.pieces.count, importance: importance, mayBeWhole: whole, mayBeOwn: true, mayBeCode: mayBeCode,
            distance: distance, bias: search.bias, short: search.isOneShortWord, order: r)
    }

    /// The first row whose best key cannot enter the list, nor any later row's (a binary
    /// search: the best key only falls row by row); the row count if every row may. An
    /// ordered walk stops there, so a source need offer no row past it.
    func rowLimit() -> Int {
        guard isBounded else { return index.rowCount }
        var (low, high) = (0, index.rowCount)
        while low < high {
            let r = (low + high) / 2
            if qualifies(bestKey(ofRow: r, importance: importance(ofRow: r), whole: true, from: minimumDistance)) {
                low = r + 1
            } else {
                high = r
            }
        }
        return low
    }

    /// Ranks `candidate`; false when no later row of an ordered walk can enter (the walk
    /// stops). `ordered`: the rows come in importance order.
    mutating func consider(_ candidate: RowCandidate, ordered: Bool = true) throws(GazetteerError) -> Bool {
        let r = candidate.row
        guard r < index.rowCount else { throw .damagedIndex(path: row.path) }
        let importance = importance(ofRow: r)
        let pieces = search.pieces.count
        let bias = search.bias
        if ordered && isBounded {
            if !qualifies(bestKey(ofRow: r, importance: importance, whole: true, from: minimumDistance)) { return false }
            if prefixesMayEnter && !qualifies(bestKey(ofRow: r, importance: importance, whole: false, from: minimumDistance)) {
                prefixesMayEnter = false
            }
        }
        if !prefixesMayEnter && !candidate.mayBeWhole { return true }
        if let walkedCells, walkedCells[index.gridCell(ofRow: r)] { return true }
        let coordinate = index.coordinate(ofRow: r)
        if !search.filters.isEmpty {
            let category = index.categories[index.categoryIndex(ofRow: r)]
            guard search.filters.accepts(packedCountry: index.countryCode(ofRow: r), coordinate: coordinate, category: category) else {
                return true
            }
        }
        let distance = bias.distance(to: coordinate)
        let coverage = candidate.mayCoverAll || wholeWordPieces ? pieces : max(1, pieces - 1)
        guard
            qualifies(
                RankKey.bound(
                    coverage: coverage, importance: importance, mayBeWhole: candidate.mayBeWhole, mayBeOwn: candidate.mayBeOwn,
                    mayBeCode: mayBeCode, mayStart: candidate.mayStart, distance: distance, bias: bias, short: search.isOneShortWord, order: r))
        else { return true }
        // One word in the row's own name, not spelled whole: the key without the line.
        // (Not when a word was typed in full: whether it only begins a word takes the line;
        // nor when the query has accents or another script: an alternate name begun as
        // typed ranks with the own name, `PlaceMatch.beginsAsTyped`.)
        if indexIsExact && candidate.mayBeOwn && !candidate.mayBeWhole && !candidate.unverified && !search.hasFinishedPiece
            && !search.placeMatcher.typedBeyondASCII
        {
            let match = PlaceMatch(coverage: 1, kind: .own, whole: false, atStart: candidate.mayStart, alternate: nil)
            let key = RankKey(
                match: match, importance: importance, area: areas[index.categoryIndex(ofRow: r)], distance: distance, bias: bias,
                order: r)
            if qualifies(key) { PlaceSearch.insert((r, match), key: key, into: &best, limit: search.limit) }
            return true
        }
        linesRead += 1
        try PlaceSearch.split(row, tsv: tsv, offset: index.offset(ofRow: r), line: index.line(ofRow: r))
        guard let (key, match) = search.rank(row, names: index, importance: importance, coordinate: coordinate, order: r),
            qualifies(key)
        else { return true }
        PlaceSearch.insert((r, match), key: key, into: &best, limit: search.limit)
        return true
    }

    /// The places found, best first, into `result`.
    func finish(_ result: SearchResult) throws(GazetteerError) -> SearchResult {
        var result = result
        for (key, (r, match)) in best {
            try PlaceSearch.split(row, tsv: tsv, offset: index.offset(ofRow: r), line: index.line(ofRow: r))
            result.places.append(search.found(row, names: index, key: key, match: match))
        }
        return result
    }
}

/// A source of candidate rows for an index search (`PlaceSearch.search(index:…)`, which
/// picks them): the prefix lists, the postings of the query's words united, the postings
/// of the words it may spell whole, the location grid.
protocol CandidateSource {
    /// Offers `collector` its rows until it has none left or the collector stops it;
    /// whether what the collector holds is then final (no other source need run).
    mutating func feed(_ collector: inout IndexCollector) throws(GazetteerError) -> Bool
}
