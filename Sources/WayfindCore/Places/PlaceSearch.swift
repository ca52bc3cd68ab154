/// Finds the places a query names, in a gazetteer: through its index (the embedded one's,
/// or a `--places` file's, see `PlacesIndexCache`), or, when no index can be kept, by
/// scanning the file once. Both paths share the row checks, filters and `RankKey`, so a
/// query gets the same answer either way (the differential tests check this).

/// A place found, with its rank.
public struct FoundPlace: Sendable {
    /// The place.
    public var place: Place
    package var rank: RankKey
    /// How well the text matched, 0–100 (100: every name word matched whole), as
    /// ArcGIS's candidates score; see `matchScore`.
    public var score: Int
    /// Why the place matched when the query did not match its own name: the alternate name
    /// it matched (`Roma` for Rome, Italy on `roma`); nil when the own name, region or
    /// country matched, and for places found by key.
    public var matched: String? = nil
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
    /// The folded words of the query as the index splits them (`pieces(of:)`), in order.
    let pieces: [[UInt8]]
    /// The same, for whole-name checks.
    let queryWords: Set<[UInt8]>
    let queryLetters: Int
    /// Whether a byte starts a folded query word: a name whose first letter folds to any
    /// other byte cannot be spelled by the query (`spells` need not split it).
    private let startsQueryWord: [Bool]
    /// The query as typed, lower case, its words separated by single spaces.
    private let typed: String
    /// Whether the query is short (`RankKey.shortQueryLetters`): its whole-name matches
    /// then rank in tier 1.
    let isShort: Bool
    package let bias: LocationBias
    package let filters: PlaceFilters
    /// How many places to return.
    package let limit: Int
    private var text: [UInt8] = []
    /// How the index search unites the posting lists of the query's words: as
    /// `PlacesIndex` describes (nil), or always in bitmaps or always in sorted lists (for
    /// the tests that compare the two).
    var unitesInBitmaps: Bool? = nil
    /// Whether a short query near a location walks the index's grid: as `PlacesIndex`
    /// describes (nil), or always or never (for the tests that compare them).
    var usesGrid: Bool? = nil
    /// How many rows the grid walk reads before it leaves the rest to the postings: as
    /// `gridRowBudget(rows:)` says (nil), or this many (for the tests of the hand-over).
    var gridRowLimit: Int? = nil

    /// How many of the grid's rows a walk reads at most before it leaves the rest to the
    /// postings: an eighth of the rows (1.5 million at 12 M rows, about 4 ms of reading
    /// signatures), and all of a small gazetteer's.
    static func gridRowBudget(rows: Int) -> Int { max(1 << 16, rows / 8) }

    /// What reading a row's line to check it costs (1 to 3 µs, most of it the page), in
    /// postings united in bitmaps: once a grid walk has read lines for as many postings
    /// as the query has, it unites them and tests bits instead (`sant` near Chicago: the
    /// signatures of 7,900 rows pass, most by chance; 976 lines are read, then bits).
    static let postingsPerLine = 200

    /// A search for `text`.
    package init(text: String, bias: LocationBias, filters: PlaceFilters, limit: Int) {
        let query = MatchQuery(text, mode: .all)
        matcher = LineMatcher(query)
        pieces = Self.pieces(of: query)
        queryWords = Set(pieces)
        queryLetters = query.words.reduce(0) { $0 + $1.count }
        var starts = [Bool](repeating: false, count: 256)
        for word in queryWords { if let first = word.first { starts[Int(first)] = true } }
        startsQueryWord = starts
        typed = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        isShort = queryWords.count == 1 && queryWords.allSatisfy {
            String(decoding: $0, as: UTF8.self).unicodeScalars.count <= RankKey.shortQueryLetters
        }
        self.bias = bias
        self.filters = filters
        self.limit = limit
    }

    /// The folded words of `query` as the index splits words (`SearchText.words`):
    /// what the index looks up for it.
    static func pieces(of query: MatchQuery) -> [[UInt8]] {
        query.words.flatMap { SearchText.words(String(decoding: $0, as: UTF8.self)) }
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

    /// Whether the query matches the row's own text: its searchable text without the
    /// alternate names (`RankKey.ownName`).
    func matchesOwnText(_ row: PlaceRow, names: RegionNames?) -> Bool {
        text.removeAll(keepingCapacity: true)
        SearchText.append(row, names: names, alternates: false, to: &text)
        return text.withUnsafeBufferPointer { matcher.matches($0) }
    }

    /// Whether the query words spell `form`, a name or (`alternate`) an alternate name,
    /// whole: every word of it is a query word (see `SearchText.spellingWords`).
    func spells(_ form: UnsafeBufferPointer<UInt8>, alternate: Bool = false) -> Bool {
        guard let p = form.baseAddress, !form.isEmpty else { return false }
        // A name begins with its first word; most alternate names are rejected here.
        let (value, _) = UTF8Decoding.decode(p, end: p + form.count)
        if value != UTF8Decoding.invalid {
            let (scalarClass, folded) = UnicodeFolding.lookup(value)
            if scalarClass != .separator && scalarClass != .mark && folded.rawValue >> 56 > 0
                && !startsQueryWord[Int(folded.rawValue & 0xFF)]
            {
                return false
            }
        }
        let words = SearchText.spellingWords(form, alternate: alternate)
        return !words.isEmpty && words.allSatisfy { queryWords.contains($0) }
    }

    /// The row's alternate names.
    static func alternates(_ row: PlaceRow) -> [UnsafeBufferPointer<UInt8>] {
        row.field(.alternateNames).split(separator: 0x2C).map { UnsafeBufferPointer(rebasing: $0) }
    }

    /// The best key a row of this band and importance can have: a whole-name match of its
    /// own name (tier 0, or tier 1 and weighted for a short query).
    func wholeNameKey(band: Int, importance: Double, order: Int) -> RankKey {
        RankKey(tier: isShort ? 1 : 0, band: band, importance: importance, ownName: true, wholeName: true, order: order)
    }

    /// For a row the query matches: whether the query spells its name whole (tier 0 of
    /// `RankKey`), and with which name: true for its own name or ASCII name, false for an
    /// alternate name only; nil when it spells no name (tier 1).
    func wholeName(_ row: PlaceRow) -> Bool? {
        if spells(row.field(.name)) || spells(row.field(.asciiName)) { return true }
        for form in Self.alternates(row) where spells(form, alternate: true) { return false }
        return nil
    }

    /// The rank key of a row the query matches: `wholeName` for the tier, and for a
    /// prefix match, whether its own text matches (`matchesOwnText`). The one statement of
    /// the rule; the index's fast path reads the same answers from its postings. Nil when
    /// `qualifies` refuses the key with the tier known and the own name assumed: the
    /// own text need not be matched then.
    func rankKey(
        _ row: PlaceRow, names: RegionNames?, band: Int, importance: Double, order: Int, qualifies: (RankKey) -> Bool
    ) -> RankKey? {
        let whole = wholeName(row)
        var key = RankKey(
            tier: whole == nil || isShort ? 1 : 0, band: band, importance: importance, ownName: whole ?? true,
            wholeName: whole != nil, order: order)
        guard qualifies(key) else { return nil }
        if whole == nil { key.ownName = matchesOwnText(row, names: names) }
        return key
    }

    /// Why a row the query matches matched, when not on its own text: the alternate name
    /// the query spells with the most words (`Sankt Petersburg`, not `Petersburg`, for
    /// `sankt petersburg`), else the first that with the own text lets the query match,
    /// else the first that a query word starts.
    func matchedAlternate(_ row: PlaceRow, names: RegionNames?) -> String? {
        let forms = Self.alternates(row)
        // Of spellings with as many words, the one as typed (`Roma`, not `Róma`, for `roma`).
        var spelled: (form: UnsafeBufferPointer<UInt8>, words: Int, asTyped: Bool)? = nil
        for form in forms where spells(form, alternate: true) {
            let words = SearchText.words(form).count
            let asTyped = String(decoding: form, as: UTF8.self).lowercased() == typed
            if words > spelled?.words ?? 0 || (words == spelled!.words && asTyped && !spelled!.asTyped) {
                spelled = (form, words, asTyped)
            }
        }
        if let spelled { return String(decoding: spelled.form, as: UTF8.self) }
        var own: [UInt8] = []
        SearchText.append(row, names: names, alternates: false, to: &own)
        for form in forms {
            var text = own
            text.append(0x09)
            text.append(contentsOf: form)
            if text.withUnsafeBufferPointer({ matcher.matches($0) }) { return String(decoding: form, as: UTF8.self) }
        }
        for form in forms {
            let words = SearchText.words(form)
            if queryWords.contains(where: { q in words.contains { $0.starts(with: q) } }) {
                return String(decoding: form, as: UTF8.self)
            }
        }
        return nil
    }

    /// The found place for a row the query matches, ranked `key`.
    func found(_ row: PlaceRow, names: RegionNames?, key: RankKey) -> FoundPlace {
        let place = Place(row: row, names: names)
        let matched = key.ownName ? nil : matchedAlternate(row, names: names)
        // The name the query spelled (its own, or the alternate it matched), and the
        // region and the country as the label has them when the query needs them (`roma`
        // for Iaşi, Romania): the share typed is of all their letters.
        var spelled = matched ?? place.name
        if !matcher.matches(spelled) {
            if !place.region.isEmpty && place.region != place.name { spelled += " " + place.region }
            if !place.country.isEmpty { spelled += " " + place.country }
        }
        return FoundPlace(
            place: place, rank: key, score: matchScore(tier: key.wholeName ? 0 : 1, queryLetters: queryLetters, name: spelled),
            matched: matched)
    }

    /// Keeps the best `limit` entries of `best`, sorted.
    static func insert<T>(_ item: T, key: RankKey, into best: inout [(RankKey, T)], limit: Int) {
        if best.count == limit, let last = best.last, !(key < last.0) { return }
        let at = best.firstIndex { key < $0.0 } ?? best.count
        best.insert((key, item), at: at)
        if best.count > limit { best.removeLast() }
    }

    /// Whether `key` could enter `best`. (Inline: the index search asks it twice a row.)
    @inline(__always)
    static func qualifies<T>(_ key: RankKey, _ best: [(RankKey, T)], limit: Int) -> Bool {
        best.count < limit || key < best.last!.0
    }

    // MARK: Through an index

    /// Searches the gazetteer `tsv` through its `index` (the embedded one, or a file's).
    /// Candidates come in row order, which is importance order (see `PlacesIndex`), so the
    /// search stops at the first row that could not enter the top N even as a whole-name
    /// match; a one-word query of up to three bytes takes its candidates from the index's
    /// prefix list when it has one, and a short query near a location walks the index's
    /// grid, nearest cells first. `schema`: the TSV's columns, if known (else read from
    /// its first line).
    package func search(
        index: PlacesIndex, tsv: UnsafeBufferPointer<UInt8>, path: String = EmbeddedGazetteer.path, schema: GazetteerSchema? = nil
    ) throws(GazetteerError) -> SearchResult {
        var result = SearchResult(fingerprint: index.fingerprint)
        guard !isEmpty else { return result }
        for category in index.categories where PlaceCategory.queryNames(matcher, category: category) {
            if filters.categories.isEmpty || filters.categories.contains(PlaceCategory.normalized(category)) {
                result.collections.append(category)
            }
        }
        guard let schema = schema ?? GazetteerSchema.detect(firstLine: Self.firstLine(tsv))?.schema else { throw .unknownFormat(path: path) }
        let row = PlaceRow(schema: schema, path: path)
        // One query word that is one word: the index answer is exact, no row need be read
        // unless it could spell the whole name.
        let indexIsExact = matcher.query.words.count == 1 && pieces.count == 1
        /// What the search has found so far, passed to `consider` (a variable the local
        /// function captured was checked for exclusive access at run time, on every row).
        struct Progress {
            var best: [(RankKey, Int)] = []
            /// Whether a prefix match (tier 1) may still enter the results; once not, only
            /// rows that may be whole-name matches are read.
            var prefixesMayEnter = true
            /// The grid cells the grid walk read in full (their rows are skipped after it):
            /// those whose band (`cellBands`) is below this.
            var walkedBelowBand = 0
            var cellBands: [UInt8] = []
            /// How many rows' lines were read (a grid walk unites the postings once they
            /// cost more).
            var linesRead = 0
        }
        var progress = Progress()
        // Per category, computed once: its importance factor.
        let factors = index.categories.map { PlaceCategory.importanceFactor($0) }
        let hasFilters = !filters.isEmpty

        /// Ranks candidate row `r`; false once no row from `r` on can enter the results.
        /// `unverified`: whether the row may not hold the query's words (the grid's
        /// signatures), so that its text is checked even where the index is exact.
        func consider(
            _ r: Int, mayBeOwn: Bool, mayBeWhole: Bool, unverified: Bool = false, _ progress: inout Progress
        ) throws(GazetteerError) -> Bool {
            let c = index.categoryIndex(ofRow: r)
            let importance = Double(index.population(ofRow: r) + 1) * factors[c]
            // Rows come in importance order: the best key this row could have bounds
            // every later row's.
            if progress.prefixesMayEnter && progress.best.count == limit
                && !Self.qualifies(RankKey(tier: 1, band: 0, importance: importance, ownName: true, order: r), progress.best, limit: limit)
            {
                progress.prefixesMayEnter = false
            }
            if !progress.prefixesMayEnter {
                guard Self.qualifies(wholeNameKey(band: 0, importance: importance, order: r), progress.best, limit: limit)
                else { return false }
                guard mayBeWhole else { return true }
            }
            if progress.walkedBelowBand > 0 && Int(progress.cellBands[index.gridCell(ofRow: r)]) < progress.walkedBelowBand {
                return true
            }
            let coordinate = index.coordinate(ofRow: r)
            if hasFilters {
                guard filters.accepts(packedCountry: index.countryCode(ofRow: r), coordinate: coordinate, category: index.categories[c])
                else { return true }
            }
            // The best key the row could have at its least possible distance, before the
            // exact band's trigonometry.
            if bias.location != nil {
                let band = bias.bandLowerBound(of: coordinate)
                let bound =
                    mayBeWhole
                    ? wholeNameKey(band: band, importance: importance, order: r)
                    : RankKey(tier: 1, band: band, importance: importance, ownName: mayBeOwn, order: r)
                guard Self.qualifies(bound, progress.best, limit: limit) else { return true }
            }
            // Without an own word for every piece, only an alternate name can match; with
            // one, for a one-word query the own text matches (`matchesOwnText`).
            var key = RankKey(tier: 1, band: bias.band(of: coordinate), importance: importance, ownName: mayBeOwn, order: r)
            // A whole-name match needs a query word that is a whole word of the row.
            if !mayBeWhole {
                guard Self.qualifies(key, progress.best, limit: limit) else { return true }
                if !indexIsExact || unverified {
                    progress.linesRead += 1
                    try Self.split(row, tsv: tsv, offset: index.offset(ofRow: r), line: index.line(ofRow: r))
                    if !matches(row, names: index) { return true }
                    if mayBeOwn {
                        key.ownName = matchesOwnText(row, names: index)
                        guard Self.qualifies(key, progress.best, limit: limit) else { return true }
                    }
                }
                Self.insert(r, key: key, into: &progress.best, limit: limit)
                return true
            }
            guard Self.qualifies(wholeNameKey(band: key.band, importance: importance, order: r), progress.best, limit: limit)
            else { return true }
            progress.linesRead += 1
            try Self.split(row, tsv: tsv, offset: index.offset(ofRow: r), line: index.line(ofRow: r))
            if (!indexIsExact || unverified) && !matches(row, names: index) { return true }
            guard
                let ranked = rankKey(
                    row, names: index, band: key.band, importance: key.importance, order: r,
                    qualifies: { Self.qualifies($0, progress.best, limit: limit) })
            else { return true }
            if Self.qualifies(ranked, progress.best, limit: limit) { Self.insert(r, key: ranked, into: &progress.best, limit: limit) }
            return true
        }

        let rowMask = ~PlacesIndex.postingFlags
        // A one-piece query spells a name whole only where the posting says so
        // (`PlacesIndex.spellsAName`: `wholeCandidates` for one word, read as the prefix
        // list walks, not all at once).
        let wholeFlag = PlacesIndex.spellsAName
        // Each piece's range of words and exact word.
        let words = pieces.map { index.words(withPrefix: $0) }
        // The rows the query may spell whole (`wholeCandidates`), once read.
        var wholeRead: [UInt32]? = nil
        func wholeRows() -> [UInt32] {
            if let wholeRead { return wholeRead }
            let rows = wholeCandidates(words, index: index)
            wholeRead = rows
            return rows
        }
        // The postings united in bitmaps, once made (`unitedBitmaps`).
        var united: (candidates: [UInt64], own: [UInt64], exact: [UInt64])? = nil
        /// Gives `body` the rows of grid cell `cell` whose signature holds every bit of
        /// `required`, ascending (only within a cell), until it returns false.
        func gridRows(ofCell cell: Int32, holding required: UInt64, _ body: (Int) throws(GazetteerError) -> Bool) throws(GazetteerError) {
            let entries = index.gridEntries(ofCell: Int(cell))
            var e = 0
            while e < entries.count {
                let signature = UInt64(entries[e + 1]) | UInt64(entries[e + 2]) << 32
                let r = Int(entries[e])
                e += PlacesIndex.gridEntryWords
                guard signature & required == required else { continue }
                guard r < index.rowCount else { throw .damagedIndex(path: path) }
                if try !body(r) { return }
            }
        }
        // A short query near a location: the grid's cells, nearest first (see
        // `PlacesIndex`), while the piece has postings enough to be worth it.
        let postingsOfShortQuery = isShort && !words.isEmpty ? index.postingTotal(words[0].range) : 0
        // (A latitude beyond ±90, which only the library can pass, is left to the postings.)
        if isShort, let location = bias.location, abs(location.latitude) <= 90, location.longitude.isFinite, !pieces.isEmpty,
            usesGrid ?? (postingsOfShortQuery > PlacesIndex.gridMinimumPostings)
        {
            let required = pieces.reduce(0) { $0 | PlacesIndex.signature(ofWord: $1) }
            // What a row of the grid whose signature passes holds: its line tells, and the
            // rows the query may spell whole are the exact word's with the flag; once the
            // lines read cost more than uniting the postings would, the bitmaps tell.
            let whole = wholeRows()
            let (cells, cellBands) = gridCells(index)
            let budget = gridRowLimit ?? Self.gridRowBudget(rows: index.rowCount)
            var read = 0
            var next = 0
            var handedOver = false
            while next < cells.count {
                let band = Int(cellBands[Int(cells[next])])
                // Sorted by band: no farther cell can enter.
                if progress.best.count == limit && progress.best.last!.0.band < band { break }
                var end = next
                var rows = 0
                while end < cells.count && Int(cellBands[Int(cells[end])]) == band {
                    rows += index.gridRowCount(ofCell: Int(cells[end]))
                    end += 1
                }
                // A band is walked whole or not at all (the postings skip the whole ones).
                if read + rows > budget {
                    progress.walkedBelowBand = band
                    progress.cellBands = cellBands
                    handedOver = true
                    break
                }
                read += rows
                for cell in cells[next..<end] {
                    try gridRows(ofCell: cell, holding: required) { (r) throws(GazetteerError) in
                        // Rows are ascending in a cell, not across cells.
                        progress.prefixesMayEnter = true
                        if united == nil && progress.linesRead * Self.postingsPerLine > postingsOfShortQuery {
                            united = unitedBitmaps(words, whole: whole, index: index)
                        }
                        if let united {
                            let bit: UInt64 = 1 << UInt64(r & 63)
                            guard united.candidates[r >> 6] & bit != 0 else { return true }
                            return try consider(r, mayBeOwn: united.own[r >> 6] & bit != 0, mayBeWhole: united.exact[r >> 6] & bit != 0, &progress)
                        }
                        return try consider(r, mayBeOwn: true, mayBeWhole: Self.contains(whole, UInt32(r)), unverified: true, &progress)
                    }
                }
                next = end
            }
            if !handedOver { return try finish(result, best: progress.best, row: row, index: index, tsv: tsv) }
            progress.prefixesMayEnter = true
        }
        // Rows up to this one have been considered from a prefix list.
        var consideredThrough = -1
        if pieces.count == 1, let (list, isTruncated) = index.prefixList(pieces[0]) {
            let (_, exact) = index.words(withPrefix: pieces[0])
            let exactRows = exact.map { index.postings(ofWord: $0) } ?? UnsafeBufferPointer(start: nil, count: 0)
            var e = 0
            var stopped = false
            for entry in list {
                let r = Int(entry & rowMask)
                guard r < index.rowCount, r > consideredThrough else { break }
                while e < exactRows.count && Int(exactRows[e] & rowMask) < r { e += 1 }
                let mayBeWhole = e < exactRows.count && Int(exactRows[e] & rowMask) == r && exactRows[e] & wholeFlag == wholeFlag
                consideredThrough = r
                if try !consider(r, mayBeOwn: entry & PlacesIndex.alternateOnly == 0, mayBeWhole: mayBeWhole, &progress) {
                    stopped = true
                    break
                }
            }
            if stopped || !isTruncated { return try finish(result, best: progress.best, row: row, index: index, tsv: tsv) }
            // Past the list, once prefix matches are out of reach, only the rows the query
            // spells whole are left: the exact word's, not the union of every word it starts
            // (8 million postings for `s` at 12 M rows).
            if !progress.prefixesMayEnter {
                for posting in exactRows[e...] where posting & wholeFlag == wholeFlag {
                    let r = Int(posting & rowMask)
                    guard r < index.rowCount else { break }
                    if r <= consideredThrough { continue }
                    if try !consider(r, mayBeOwn: posting & PlacesIndex.alternateOnly == 0, mayBeWhole: true, &progress) { break }
                }
                return try finish(result, best: progress.best, row: row, index: index, tsv: tsv)
            }
        }

        let totals = words.map { index.postingTotal($0.range) }
        // Bitmaps of every row cost their pages whatever the query (7 MB, 5 ms at 12 M
        // rows); a list (`sparseCandidates`), the rarest piece's sort and a lookup per
        // posting of the others, each about what 64 rows of bitmaps cost (at 12 M rows:
        // `paris`, `los angeles` by lists; `san jose`, 36 k and 575 k postings, by bitmaps).
        let fewest = totals.min() ?? 0
        let listCost = fewest * (Int.bitWidth - fewest.leadingZeroBitCount) + 16 * (totals.reduce(0, +) - fewest)
        if !words.isEmpty && !(unitesInBitmaps ?? (united != nil || listCost >= index.rowCount / 4)) {
            for candidate in sparseCandidates(words, totals: totals, whole: wholeRows(), index: index) {
                let r = Int(candidate.row)
                if r <= consideredThrough { continue }
                // Once prefix matches are out of reach, only rows that may be whole are left.
                if !progress.prefixesMayEnter && !candidate.exact { continue }
                if try !consider(r, mayBeOwn: candidate.own, mayBeWhole: candidate.exact, &progress) { break }
            }
            return try finish(result, best: progress.best, row: row, index: index, tsv: tsv)
        }
        /// Considers the rows of `united` (bitmaps of the rows below `end`) after `skipped`,
        /// in row order; true once one stops the walk.
        func walk(
            _ united: (candidates: [UInt64], own: [UInt64], exact: [UInt64]), below end: Int, after skipped: Int, _ progress: inout Progress
        ) throws(GazetteerError) -> Bool {
            for chunk in united.candidates.indices {
                // Once prefix matches are out of reach, only rows that may be whole are left.
                var bits = progress.prefixesMayEnter ? united.candidates[chunk] : united.candidates[chunk] & united.exact[chunk]
                while bits != 0 {
                    let r = chunk * 64 + bits.trailingZeroBitCount
                    bits &= bits - 1
                    if r >= end { return false }
                    if r <= skipped { continue }
                    let bit: UInt64 = 1 << UInt64(r & 63)
                    if try !consider(r, mayBeOwn: united.own[chunk] & bit != 0, mayBeWhole: united.exact[chunk] & bit != 0, &progress) {
                        return true
                    }
                }
            }
            return false
        }
        _ = try walk(united ?? unitedBitmaps(words, whole: wholeRows(), index: index), below: index.rowCount, after: consideredThrough, &progress)
        return try finish(result, best: progress.best, row: row, index: index, tsv: tsv)
    }

    /// The rows the query may spell a name of whole, ascending, from its pieces' exact
    /// words (`words`; see `PlacesIndex.spellsAName` and `inShortName`): one query word,
    /// its postings with `spellsAName`; two different ones, those of either with it and
    /// the rows that hold both with `inShortName` (a name of the two); more, every row of
    /// an exact word. A row the query spells whole is among them (`wholeName`).
    func wholeCandidates(_ words: [(range: Range<Int>, exact: Int?)], index: PlacesIndex) -> [UInt32] {
        let rowMask = ~PlacesIndex.postingFlags
        let rowCount = UInt32(index.rowCount)
        func rows(_ word: Int?, _ flag: UInt32) -> [UInt32] {
            guard let word else { return [] }
            var rows: [UInt32] = []
            for posting in index.postings(ofWord: word) where posting & flag == flag && posting & rowMask < rowCount {
                rows.append(posting & rowMask)
            }
            return rows
        }
        /// The ascending rows in `a` or (`both`: and) `b`.
        func merge(_ a: [UInt32], _ b: [UInt32], both: Bool) -> [UInt32] {
            var out: [UInt32] = []
            var i = 0, j = 0
            while i < a.count || j < b.count {
                if j == b.count || (i < a.count && a[i] < b[j]) {
                    if !both { out.append(a[i]) }
                    i += 1
                } else if i == a.count || b[j] < a[i] {
                    if !both { out.append(b[j]) }
                    j += 1
                } else {
                    out.append(a[i])
                    i += 1
                    j += 1
                }
            }
            return out
        }
        guard let first = words.first else { return [] }
        if queryWords.count == 1 { return rows(first.exact, PlacesIndex.spellsAName) }
        if words.count == 2 && queryWords.count == 2 {
            let (a, b) = (words[0].exact, words[1].exact)
            let spelled = merge(rows(a, PlacesIndex.spellsAName), rows(b, PlacesIndex.spellsAName), both: false)
            return merge(spelled, merge(rows(a, PlacesIndex.inShortName), rows(b, PlacesIndex.inShortName), both: true), both: false)
        }
        return words.reduce([]) { merge($0, rows($1.exact, 0), both: false) }
    }

    /// The grid's cells that hold rows, by the least band a point of theirs can have
    /// (nearest first), and that band of every cell.
    private func gridCells(_ index: PlacesIndex) -> (cells: [Int32], bands: [UInt8]) {
        var bands = [UInt8](repeating: UInt8.max, count: PlacesIndex.gridCellCount)
        var perBand = [Int](repeating: 0, count: 256)
        for cell in 0..<PlacesIndex.gridCellCount where index.gridRowCount(ofCell: cell) > 0 {
            let (latitudes, longitudes) = PlacesIndex.gridBounds(ofCell: cell)
            let band = UInt8(clamping: bias.bandLowerBound(latitudes: latitudes, longitudes: longitudes))
            bands[cell] = band
            perBand[Int(band)] += 1
        }
        var starts = [Int](repeating: 0, count: 257)
        for b in 0..<256 { starts[b + 1] = starts[b] + perBand[b] }
        var cells = [Int32](repeating: 0, count: starts[256])
        for cell in 0..<PlacesIndex.gridCellCount where index.gridRowCount(ofCell: cell) > 0 {
            let b = Int(bands[cell])
            cells[starts[b]] = Int32(cell)
            starts[b] += 1
        }
        return (cells, bands)
    }

    /// Whether the ascending `rows` hold `row`.
    private static func contains(_ rows: [UInt32], _ row: UInt32) -> Bool {
        var low = 0, high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid] < row { low = mid + 1 } else { high = mid }
        }
        return low < rows.count && rows[low] == row
    }

    /// The rows that hold a word of each of the query's pieces (`words`: each piece's
    /// range of words and exact word), as bitmaps of every row: those rows, those whose
    /// own text holds one for each (`own`), and those the query may spell whole
    /// (`exact`: `whole`, the ascending `wholeCandidates`). No pieces: every row. Only
    /// the rows below `end`.
    private func unitedBitmaps(
        _ words: [(range: Range<Int>, exact: Int?)], whole: [UInt32], index: PlacesIndex
    ) -> (candidates: [UInt64], own: [UInt64], exact: [UInt64]) {
        let rowMask = ~PlacesIndex.postingFlags
        let rowCount = UInt32(index.rowCount)
        let wordsPerRow = (Int(rowCount) + 63) / 64
        // The first piece's rows go straight into `candidates` and `ownRows` (the rows whose
        // own text, not only alternate names, holds a word each piece starts); each other
        // piece's postings among the candidates are listed, and become the candidates
        // (two scratch bitmaps cost 3 MB of pages at 12 M rows: a third of `san jose`).
        // (A query of no pieces, punctuation only, leaves every row to the row check.)
        var candidates = [UInt64](repeating: words.isEmpty ? ~0 : 0, count: wordsPerRow)
        var ownRows = [UInt64](repeating: words.isEmpty ? ~0 : 0, count: wordsPerRow)
        var exactRows = [UInt64](repeating: 0, count: wordsPerRow)
        var hits: [UInt32] = []
        var ownHits: [UInt32] = []
        for (piece, (range, _)) in words.enumerated() {
            candidates.withUnsafeMutableBufferPointer { all in
                ownRows.withUnsafeMutableBufferPointer { own in
                    if piece == 0 {
                        for w in range {
                            for posting in index.postings(ofWord: w) {
                                let row = posting & rowMask
                                // Postings ascend: the rest are past the end.
                                guard row < rowCount else { break }
                                let bit: UInt64 = 1 << UInt64(row & 63)
                                all[Int(row) >> 6] |= bit
                                if posting & PlacesIndex.alternateOnly == 0 { own[Int(row) >> 6] |= bit }
                            }
                        }
                        return
                    }
                    hits.removeAll(keepingCapacity: true)
                    ownHits.removeAll(keepingCapacity: true)
                    for w in range {
                        for posting in index.postings(ofWord: w) {
                            let row = posting & rowMask
                            guard row < rowCount else { break }
                            guard all[Int(row) >> 6] & 1 << UInt64(row & 63) != 0 else { continue }
                            hits.append(row)
                            // Own for every piece so far, and for this one.
                            if posting & PlacesIndex.alternateOnly == 0 && own[Int(row) >> 6] & 1 << UInt64(row & 63) != 0 {
                                ownHits.append(row)
                            }
                        }
                    }
                    for i in 0..<wordsPerRow {
                        all[i] = 0
                        own[i] = 0
                    }
                    for row in hits { all[Int(row) >> 6] |= 1 << UInt64(row & 63) }
                    for row in ownHits { own[Int(row) >> 6] |= 1 << UInt64(row & 63) }
                }
            }
        }
        for row in whole where row < rowCount { exactRows[Int(row) >> 6] |= 1 << UInt64(row & 63) }
        return (candidates, ownRows, exactRows)
    }

    /// The rows that hold a word of each of the query's pieces (`words`: each piece's
    /// range of words and exact word; `totals`: their postings), ascending: whether their
    /// own text holds one for each (`own`), and whether the query may spell a name of
    /// theirs whole (`exact`: among `whole`, the ascending `wholeCandidates`), as the
    /// bitmaps of the search compute them. The piece of fewest postings gives the rows,
    /// sorted; the others' postings are looked up in a hash table of them.
    private func sparseCandidates(
        _ words: [(range: Range<Int>, exact: Int?)], totals: [Int], whole: [UInt32], index: PlacesIndex
    ) -> [(row: UInt32, own: Bool, exact: Bool)] {
        guard let first = totals.indices.min(by: { totals[$0] < totals[$1] }) else { return [] }
        let rowMask = ~PlacesIndex.postingFlags
        let rowCount = UInt32(index.rowCount)
        // The first piece's rows, each with its own bit (lowest) set when a posting of an
        // own word holds it.
        var keyed: [UInt32] = []
        keyed.reserveCapacity(totals[first])
        for w in words[first].range {
            for posting in index.postings(ofWord: w) where posting & rowMask < rowCount {
                keyed.append((posting & rowMask) << 1 | (posting & PlacesIndex.alternateOnly == 0 ? 1 : 0))
            }
        }
        keyed.sort()
        var rows: [UInt32] = []
        var own: [Bool] = []
        for key in keyed {
            if rows.last == key >> 1 {
                own[own.count - 1] = own[own.count - 1] || key & 1 == 1
            } else {
                rows.append(key >> 1)
                own.append(key & 1 == 1)
            }
        }
        var alive = [Bool](repeating: true, count: rows.count)
        var exact = [Bool](repeating: false, count: rows.count)
        // Open addressing: slot → row + 1 (0: empty), at most half full.
        let bits = max(4, Int.bitWidth - rows.count.leadingZeroBitCount + 1)
        let slotMask = (1 << bits) - 1
        var slots = [UInt32](repeating: 0, count: 1 << bits)
        var slotRows = [Int32](repeating: 0, count: 1 << bits)
        func slot(_ row: UInt32) -> Int { Int(truncatingIfNeeded: (UInt64(row) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits)) }
        for (i, row) in rows.enumerated() {
            var h = slot(row)
            while slots[h] != 0 { h = (h + 1) & slotMask }
            slots[h] = row + 1
            slotRows[h] = Int32(i)
        }
        func position(_ row: UInt32) -> Int? {
            var h = slot(row)
            while slots[h] != 0 {
                if slots[h] == row + 1 { return Int(slotRows[h]) }
                h = (h + 1) & slotMask
            }
            return nil
        }
        for (piece, (range, _)) in words.enumerated() where piece != first {
            var holds = [Bool](repeating: false, count: rows.count)
            var holdsOwn = [Bool](repeating: false, count: rows.count)
            for w in range {
                for posting in index.postings(ofWord: w) {
                    guard let i = position(posting & rowMask) else { continue }
                    holds[i] = true
                    if posting & PlacesIndex.alternateOnly == 0 { holdsOwn[i] = true }
                }
            }
            for i in rows.indices {
                alive[i] = alive[i] && holds[i]
                own[i] = own[i] && holdsOwn[i]
            }
        }
        for row in whole {
            if let i = position(row) { exact[i] = true }
        }
        return rows.indices.filter { alive[$0] }.map { (rows[$0], own[$0], exact[$0]) }
    }

    /// `result` with the places of `best`.
    private func finish(
        _ result: SearchResult, best: [(RankKey, Int)], row: PlaceRow, index: PlacesIndex, tsv: UnsafeBufferPointer<UInt8>
    ) throws(GazetteerError) -> SearchResult {
        var result = result
        for (key, r) in best {
            try Self.split(row, tsv: tsv, offset: index.offset(ofRow: r), line: index.line(ofRow: r))
            result.places.append(found(row, names: index, key: key))
        }
        return result
    }

    /// The places of the gazetteer `tsv` (of columns `schema`) whose label (`Place.label`)
    /// folds to `label`, through its `index`, most important first (row order); only the
    /// first unless `all`. `name` is the label's first part, the place's name: every row of the label
    /// holds each of its words, so only the rows of its rarest word are read, and of
    /// those only the rows of that name are labelled.
    static func places(
        labelled label: [UInt8], name: String, index: PlacesIndex, tsv: UnsafeBufferPointer<UInt8>, schema: GazetteerSchema,
        path: String, filters: PlaceFilters, all: Bool
    ) throws(GazetteerError) -> [FoundPlace] {
        var rarest: UnsafeBufferPointer<UInt32>? = nil
        // Split as a query is, folded first: `DeKalb` is the index's `dekalb`.
        for word in pieces(of: MatchQuery(name)) {
            guard let w = index.words(withPrefix: word).exact else { return [] }
            let postings = index.postings(ofWord: w)
            if postings.count < rarest?.count ?? .max { rarest = postings }
        }
        guard let rarest else { return [] }
        let row = PlaceRow(schema: schema, path: path)
        var found: [FoundPlace] = []
        for posting in rarest {
            let r = Int(posting & ~PlacesIndex.postingFlags)
            guard r < index.rowCount else { throw .damagedIndex(path: path) }
            if !filters.isEmpty {
                let category = index.categories[index.categoryIndex(ofRow: r)]
                guard filters.accepts(packedCountry: index.countryCode(ofRow: r), coordinate: index.coordinate(ofRow: r), category: category)
                else { continue }
            }
            try split(row, tsv: tsv, offset: index.offset(ofRow: r), line: index.line(ofRow: r))
            guard label.starts(with: TextFolding.fold(row.field(.name))) else { continue }
            let place = Place(row: row, names: index)
            guard TextFolding.fold(place.label) == label else { continue }
            found.append(FoundPlace(place: place, rank: RankKey(tier: 0, band: 0, importance: 0, order: r), score: 100))
            if !all { break }
        }
        return found
    }

    /// The first line of `bytes`.
    static func firstLine(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let end = Platform.findByte(0x0A, in: bytes.baseAddress!, count: bytes.count) ?? bytes.baseAddress! + bytes.count
        return UnsafeBufferPointer(start: bytes.baseAddress!, count: end - bytes.baseAddress!)
    }

    /// Splits the line of `tsv` starting at `offset` into `row`.
    /// The file was checked whole when it was indexed, and is the same file (its identity
    /// and samples), so a row the index points at that is not a row is the index's fault:
    /// `.damagedIndex`.
    static func split(_ row: PlaceRow, tsv: UnsafeBufferPointer<UInt8>, offset: Int, line: Int) throws(GazetteerError) {
        guard offset >= 0, offset < tsv.count, offset == 0 || tsv[offset - 1] == 0x0A else { throw .damagedIndex(path: row.path) }
        let start = tsv.baseAddress! + offset
        let end = Platform.findByte(0x0A, in: start, count: tsv.count - offset) ?? tsv.baseAddress! + tsv.count
        do {
            try row.split(UnsafeBufferPointer(start: start, count: end - start), number: line, offset: offset)
        } catch {
            throw .damagedIndex(path: row.path)
        }
    }

    // MARK: A gazetteer file

    /// Searches the file open as `descriptor` in one pass. `names` fills the region and
    /// country names of a GeoNames dump.
    package func search(scanning descriptor: FileDescriptor, path: String, names: RegionNames?) throws(GazetteerError) -> SearchResult {
        var result = SearchResult()
        var scanner = GazetteerScanner(path: path, matcher: isEmpty ? nil : matcher)
        scanner.names = names
        var best: [(RankKey, FoundPlace)] = []
        scanner.collectsCategories = !isEmpty
        try scanner.scan(descriptor) { row, isCandidate throws(GazetteerError) in
            guard !isEmpty, isCandidate else { return true }
            let category = row.category
            guard filters.accepts(countryCode: row.countryCode, coordinate: row.coordinate, category: category),
                matches(row, names: names)
            else { return true }
            let band = bias.band(of: row.coordinate)
            let importance = placeImportance(population: row.population, category: category)
            // The optimistic key first: most rows of a large file cannot rank at all.
            guard Self.qualifies(RankKey(tier: 0, band: band, importance: importance, order: row.offset), best, limit: limit)
            else { return true }
            guard
                let key = rankKey(
                    row, names: names, band: band, importance: importance, order: row.offset,
                    qualifies: { Self.qualifies($0, best, limit: limit) })
            else { return true }
            if Self.qualifies(key, best, limit: limit) {
                Self.insert(found(row, names: names, key: key), key: key, into: &best, limit: limit)
            }
            return true
        }
        result.places = best.map(\.1)
        result.fingerprint = scanner.fingerprint.value
        for category in scanner.categories where PlaceCategory.queryNames(matcher, category: category) {
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
