/// Finds the places a query names, in a gazetteer: through its index (the embedded one's,
/// or a `--places` file's, see `PlacesIndexCache`: `PlaceSearch+Index.swift`), or, when
/// no index can be kept, by scanning the file once (`PlaceSearch+Scan.swift`). Both paths
/// rank every row they read by one function, `rank`: `PlaceMatch` for how the query
/// matches, `RankKey` for the order. So a query gets the same answer either way (the
/// differential tests check this).

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

/// One search: the compiled query, the bias, the filters and how many places to find.
package final class PlaceSearch {
    /// The query as smartgrep matches it: for the collections a query names, and its
    /// count of words (`IndexCollector.indexIsExact`). The scan's first look takes the
    /// pieces instead (`search(scanning:path:names:)`).
    let matcher: LineMatcher
    /// The folded words of the query as the index splits them (`pieces(of:)`), in order.
    let pieces: [[UInt8]]
    /// How the query matches a place (`PlaceMatch`).
    let placeMatcher: PlaceMatcher
    let queryLetters: Int
    package let bias: LocationBias
    package let filters: PlaceFilters
    /// How many places to return.
    package let limit: Int
    /// How the index search unites the posting lists of the query's words: as
    /// `PostingsUnion` describes (nil), or always in bitmaps or always in sorted lists (for
    /// the tests that compare the two).
    var unitesInBitmaps: Bool? = nil
    /// Whether a query of one piece near a location walks the index's grid: as `GridWalk`
    /// describes (nil), or always or never (for the tests that compare them).
    var usesGrid: Bool? = nil
    /// How many rows the grid walk reads before it leaves the rest to the postings: as
    /// `GridWalk.rowBudget(rows:)` says (nil), or this many (for the tests of the hand-over).
    var gridRowLimit: Int? = nil
    /// The key a place must rank before to matter, if any: the last of the list that the
    /// query's other spellings filled (`Geocoder.searchVariants`). The index search reads
    /// nothing that cannot beat it; a scan ignores it.
    var floor: RankKey? = nil

    /// A query whose last word, not followed by a space, has at most this many letters
    /// (all ASCII) is short: that word is likely still being typed.
    package static let shortQueryLetters = 4

    /// A query of more pieces than this finds nothing: no place's names and qualifiers
    /// hold so many words, and each piece costs a pass over its postings (a line of
    /// 100,000 `san` ran for minutes).
    package static let mostPieces = 24

    /// A search for `text`.
    package init(text: String, bias: LocationBias, filters: PlaceFilters, limit: Int) {
        let query = MatchQuery(text, mode: .all)
        matcher = LineMatcher(query)
        let all = Self.pieces(of: query)
        pieces = all.count <= Self.mostPieces ? all : []
        var wordOfPiece: [Int] = []
        for (w, word) in query.words.enumerated() {
            wordOfPiece += SearchText.words(String(decoding: word, as: UTF8.self)).map { _ in w }
        }
        queryLetters = query.words.reduce(0) { $0 + $1.count }
        // The words typed in capitals, two letters or more, may be codes (`DEU`, `CA`).
        var capitals: [Bool] = []
        for word in text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            let caps = word.count >= 2 && word.allSatisfy { $0.isUppercase }
            for _ in SearchText.words(String(word)) { capitals.append(caps) }
        }
        if capitals.count != pieces.count { capitals = [Bool](repeating: false, count: pieces.count) }
        // The pieces typed in full: all but the last one typed, unless a space follows it
        // (`ath ` spells Ath).
        var finished = [Bool](repeating: true, count: pieces.count)
        var typedLast: [UInt8]? = nil  // the last word, still typed, in ASCII
        if !SearchText.endsWithFinishedWord(text), let word = text.split(whereSeparator: { $0.isWhitespace }).last,
            let last = SearchText.words(String(word)).last
        {
            for i in pieces.indices where pieces[i] == last { finished[i] = false }
            // (Not a word typed with accents or in another script: `st lô` spells Saint-Lô.
            // Full width is the ordinary letters a CJK input method types.)
            if SearchText.ordinaryWidths(String(word)).unicodeScalars.allSatisfy(\.isASCII) { typedLast = last }
        }
        isShort = typedLast.map { String(decoding: $0, as: UTF8.self).unicodeScalars.count <= Self.shortQueryLetters } == true
        hasFinishedPiece = finished.contains(true)
        placeMatcher = PlaceMatcher(
            pieces: pieces, capitals: capitals, words: wordOfPiece, finished: finished, text: text, isShort: isShort)
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
    package var isEmpty: Bool { matcher.query.words.isEmpty || pieces.isEmpty }

    /// Whether a query word was typed in full, a space after it (`PlaceMatch.begunFinished`).
    let hasFinishedPiece: Bool

    /// Whether the query's last word has at most `shortQueryLetters` letters, all ASCII,
    /// and is not finished: likely still being typed
    /// (`RankKey.shortWholeNameWeight`), so a small place it spells whole does not take
    /// the first place from one it begins (`st lo` keeps St. Louis before Saint-Lô).
    let isShort: Bool

    /// Whether the query is one short word (`isShort`), which every match has in its
    /// name: a bound may take a whole name as short only then, as a match whose last
    /// word is a qualifier weighs a whole name in full (`PlaceMatch.typedShort`).
    var isOneShortWord: Bool { isShort && pieces.count == 1 }

    // MARK: The one rule of both paths

    /// The key and match of `row`, a place of `importance` at `coordinate`, for this
    /// query; nil when the query does not match it. `order`: its row number or offset.
    func rank(_ row: PlaceRow, names: RegionNames?, importance: Double, coordinate: Coordinate, order: Int) -> (RankKey, PlaceMatch)? {
        guard let match = placeMatcher.match(row, names: names) else { return nil }
        let key = RankKey(
            match: match, importance: importance, area: PlaceCategory.isArea(row.category), distance: bias.distance(to: coordinate),
            bias: bias, order: order)
        return (key, match)
    }

    /// The found place for a row the query matches, ranked `key` by `match`.
    func found(_ row: PlaceRow, names: RegionNames?, key: RankKey, match: PlaceMatch) -> FoundPlace {
        let place = Place(row: row, names: names)
        // The name the query spelled (its own, or the alternate it matched), with the
        // region and the country when the query needed them (`paris tx`): the share typed
        // is of all their letters.
        var spelled = match.alternate ?? place.name
        if match.coverage < pieces.count {
            if !place.region.isEmpty && place.region != place.name { spelled += " " + place.region }
            if !place.country.isEmpty { spelled += " " + place.country }
        }
        return FoundPlace(
            place: place, rank: key, score: matchScore(whole: key.wholeName, queryLetters: queryLetters, name: spelled),
            matched: match.alternate)
    }

    /// Keeps the best `limit` entries of `best`, sorted.
    static func insert<T>(_ item: T, key: RankKey, into best: inout [(RankKey, T)], limit: Int) {
        if best.count == limit, let last = best.last, !(key < last.0) { return }
        let at = best.firstIndex { key < $0.0 } ?? best.count
        best.insert((key, item), at: at)
        if best.count > limit { best.removeLast() }
    }

    /// Whether `key` could enter `best`: nothing does when `limit` leaves no room.
    @inline(__always)
    static func qualifies<T>(_ key: RankKey, _ best: [(RankKey, T)], limit: Int) -> Bool {
        best.count < limit || best.last.map { key < $0.0 } == true
    }

    /// The collections the query names among `categories` (those the filters let through).
    func collections(among categories: [String]) -> [String] {
        categories.filter {
            !$0.isEmpty && PlaceCategory.queryNames(matcher, category: $0)
                && (filters.categories.isEmpty || filters.categories.contains(PlaceCategory.normalized($0)))
        }
    }

    // MARK: Labels

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
                guard
                    filters.accepts(packedCountry: index.countryCode(ofRow: r), coordinate: index.coordinate(ofRow: r), category: category)
                else { continue }
            }
            try split(row, tsv: tsv, offset: index.offset(ofRow: r), line: index.line(ofRow: r))
            guard label.starts(with: TextFolding.fold(row.field(.name))) else { continue }
            let place = Place(row: row, names: index)
            guard TextFolding.fold(place.label) == label else { continue }
            found.append(FoundPlace(place: place, rank: .found(order: r), score: 100))
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
}
