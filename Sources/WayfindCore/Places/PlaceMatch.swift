/// How a query matches one place: the first thing suggestions are ranked by (`RankKey`).
///
/// # One name at a time
///
/// A place has names and qualifiers. Its names: its own (`name`, `asciiname`), the codes
/// it goes by when typed in capitals (`DEU`, `CA`), its common alternate names (`Roma`,
/// `Wien`, `Москва`) and its rare ones (old names, other places' names: `Portland` for
/// Blue Island, Illinois; the gazetteer's `rare_alternatenames`). Its qualifiers: its
/// region and country, in every form `--country` takes (`usa`, `gbr`, `czech republic`)
/// and the codes people type (`tx`, `nsw`).
///
/// The query words typed for the name must all match within **one** of its names, each
/// starting a different word of it; the others must each start a different word of the
/// qualifiers. At least one word must be in a name: a region or a country qualifies a
/// query, it never carries one (`new` does not find Sydney by New South Wales).
///
///     query     place                        in the name            qualifier   coverage
///     new y     New York City                new y (New York City)              2
///     new y     New City, New York           new (New City)         y (York)    1
///     paris tx  Paris, Texas                 paris (Paris)          tx          1
///     roma      Rome, Italy                  roma (Roma, common)                1
///     new o     Jakarta                      no: new and o are in different names
///
/// Of all the ways a place matches, the best counts: the most words in one name
/// (`coverage`), then the name's tier: its own name, a code or a common alternate name
/// spelled whole or begun as typed in another script or with accents (`münc`: tier 0); a
/// common alternate begun or a rare one spelled whole (1); a
/// rare one begun (2); then a name spelled whole (every word of it typed, a last `City`
/// optional: `SearchText.spellingWords`) before one begun, and the place's own name
/// before an alternate.
package struct PlaceMatch: Equatable {
    /// What kind of name the words matched in.
    package enum Kind: Int, Equatable {
        case own, code, common, rare
    }

    /// How many query words are in the name (the rest are qualifiers).
    package var coverage: Int
    /// How many of the qualifier words spell a one-word qualifier whole (`ca` for
    /// California's code, `texas`): they count as much as a word of the name, so
    /// `san francisco ca` finds San Francisco, California before San Francisco de
    /// Campeche, which `ca` only begins (`rankCoverage`).
    package var wholeQualifiers = 0
    /// What ranks first (`RankKey.coverage`): the words in the name and the qualifiers
    /// spelled whole.
    package var rankCoverage: Int { coverage + wholeQualifiers }
    /// The kind of the name.
    package var kind: Kind
    /// Whether the query spells the name whole.
    package var whole: Bool
    /// Whether a query word begins the name's first word (`chi` begins Chicago, not Ho
    /// Chi Minh City): names are typed from their start.
    package var atStart: Bool
    /// The alternate name matched, when not the place's own (`Roma`); nil for its own.
    package var alternate: String?
    /// Whether the name matched is spelled as typed, accents and all (`Róma`, not `Roma`,
    /// for `róma`): of two alternate names that match alike, the one typed is shown.
    package var asTyped = false

    /// Whether the alternate name is of three letters or fewer, spelled whole by a query
    /// still being typed (`PlaceSearch.isShort`): `pa` spells Pa, an old name of
    /// Chongqing, and begins Paris; `ber` spells Ber (Véroia) and begins Berlin. Such a
    /// name counts as begun.
    package var isShortWholeAlternate = false

    /// Whether the alternate name begins with the query as typed, accents and all, when
    /// the query has letters beyond ASCII (`münc` begins München): whoever types so writes
    /// that language, and the name is as much theirs as the place's own (tier 0), so
    /// Munich stays first from `mün` to `münchen`, before Muncie.
    package var beginsAsTyped = false

    /// Whether the word still being typed is short (`PlaceSearch.isShort`) and in the
    /// name, not a qualifier: a whole name then weighs as one that may be typed on
    /// (`RankKey.shortWholeNameWeight`; `central la` spells Central, Louisiana, whole).
    package var typedShort = false

    /// Whether a word typed in full (a space after it) only begins a word of the name:
    /// `la ` begins Lagos but spells the first word of La Paz (`RankKey.begunWordWeight`).
    package var begunFinished = false

    /// The tier of the match: 0 for the place's own name or a code, or a common
    /// alternate spelled whole; 1 for a common alternate begun (or a short one while
    /// the query is typed: `isShortWholeAlternate`) or a rare one spelled whole; 2 for a
    /// rare one begun.
    package var tier: Int {
        switch kind {
        case .own, .code: 0
        case .common: (whole && !isShortWholeAlternate) || beginsAsTyped ? 0 : 1
        case .rare: whole ? 1 : 2
        }
    }

    /// What the name matched adds to a place's score (`RankKey.score` of importance 1,
    /// without distance).
    func nameScore() -> Double {
        RankKey.score(
            importance: 1, whole: whole, own: kind == .own, code: kind == .code, start: atStart, begunWord: begunFinished, distance: nil,
            bias: LocationBias(location: nil, radius: nil), short: typedShort)
    }

    /// Whether `self` is a better match than `other` of the same place: the one its key
    /// ranks higher (`RankKey`), so that a place ranks by its best name. While `sana` is
    /// typed (`typedShort`), it spells Sanaa's alternate Sana whole, but begins its own
    /// name, which weighs more.
    func isBetter(than other: PlaceMatch) -> Bool {
        if rankCoverage != other.rankCoverage { return rankCoverage > other.rankCoverage }
        if tier != other.tier { return tier < other.tier }
        let (score, otherScore) = (nameScore(), other.nameScore())
        if score != otherScore { return score > otherScore }
        if whole != other.whole { return whole }
        if atStart != other.atStart { return atStart }
        if kind != other.kind { return kind.rawValue < other.kind.rawValue }
        return asTyped && !other.asTyped
    }
}

/// Matches one query against places, as `PlaceMatch` describes: built once per search.
package final class PlaceMatcher {
    /// The query's words, folded and split as names are (`PlaceSearch.pieces`).
    let pieces: [[UInt8]]
    /// For each piece, whether it was typed in capitals (two letters or more): then it
    /// may be a code (`DEU`).
    let capitals: [Bool]
    /// For each piece, the query word it comes from: the pieces of one word (`saint`,
    /// `etienne` of `saint-etienne`; `ile`, `de`, `france` of `Île-de-France`) are all in
    /// the name or all in the qualifiers, never split between them.
    let words: [Int]
    /// For each piece, whether it was typed in full, a space after it
    /// (`PlaceMatch.begunFinished`).
    let finished: [Bool]
    /// The qualifier words of each country and region seen (`qualifierWords`).
    private var qualifierCache: [[UInt8]: Qualifiers] = [:]
    /// The folded name `SearchText.mayHoldWord` reads, its memory kept from name to name.
    private var scratch: [UInt8] = []

    /// The query lower-cased, its words separated by single spaces: what an alternate
    /// name spelled as typed reads as (`PlaceMatch.asTyped`).
    let typed: String
    /// Whether `typed` has a letter beyond ASCII (`PlaceMatch.beginsAsTyped`).
    let typedBeyondASCII: Bool

    /// Whether the last word is short and still being typed (`PlaceSearch.isShort`):
    /// it counts for the matches that have it in the name (`PlaceMatch.typedShort`).
    let isShort: Bool

    /// A matcher for `pieces`, of which those at `capitals` were typed in capitals, typed
    /// as `text`.
    package init(
        pieces: [[UInt8]], capitals: [Bool], words: [Int]? = nil, finished: [Bool]? = nil, text: String = "", isShort: Bool = false
    ) {
        self.isShort = isShort
        self.finished = finished ?? [Bool](repeating: false, count: pieces.count)
        self.pieces = pieces
        self.capitals = capitals
        self.words = words ?? Array(pieces.indices)
        typed = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        typedBeyondASCII = typed.unicodeScalars.contains { !$0.isASCII }
    }

    /// The best match of the query with `row`, or nil when it does not match. `names`
    /// gives a GeoNames dump's country and region names.
    func match(_ row: PlaceRow, names: RegionNames?) -> PlaceMatch? {
        guard !pieces.isEmpty else { return nil }
        let qualifiers = qualifierWords(row, names: names)
        var best: PlaceMatch? = nil
        func consider(_ form: UnsafeBufferPointer<UInt8>, _ kind: PlaceMatch.Kind) {
            guard !form.isEmpty, let found = match(form, kind: kind, qualifiers: qualifiers) else { return }
            if best == nil || found.isBetter(than: best!) { best = found }
        }
        consider(row.field(.name), .own)
        consider(row.field(.asciiName), .own)
        for code in Self.list(row, .codes) { consider(code, .code) }
        for form in Self.list(row, .alternateNames) { consider(form, .common) }
        for form in Self.list(row, .rareAlternateNames) { consider(form, .rare) }
        return best
    }

    /// The comma-separated names of `field`, when the schema has it.
    static func list(_ row: PlaceRow, _ field: PlaceField) -> [UnsafeBufferPointer<UInt8>] {
        guard row.schema.column(field) != nil else { return [] }
        return row.field(field).split(separator: 0x2C).map { UnsafeBufferPointer(rebasing: $0) }
    }

    /// The match of the query with the name `form` (of `kind`) and `qualifiers`, with
    /// the most query words in the name; nil when none.
    private func match(_ form: UnsafeBufferPointer<UInt8>, kind: PlaceMatch.Kind, qualifiers: Qualifiers) -> PlaceMatch? {
        // A name none of whose words a piece begins matches nothing (`named` is never empty).
        guard SearchText.mayHoldWord(startingWithOneOf: pieces, in: form, scratch: &scratch) else { return nil }
        let words: [[UInt8]]
        if kind == .code {
            // A code is a name only to a word typed whole, in capitals.
            guard SearchText.isCode(form) || form.allSatisfy({ $0 &- 0x41 < 26 }) else { return nil }
            words = SearchText.words(form)
        } else {
            words = SearchText.words(form, joined: true)
        }
        let n = pieces.count
        var inName = [Bool](repeating: false, count: n)
        var inQualifier = [Bool](repeating: false, count: n)
        for i in 0..<n {
            if kind == .code {
                inName[i] = capitals[i] && words.contains(pieces[i])
            } else {
                inName[i] = words.contains { $0.starts(with: pieces[i]) }
            }
            inQualifier[i] = qualifiers.words.contains { $0.starts(with: pieces[i]) }
        }
        // By query word: all its pieces in the name, or all in the qualifiers.
        let groups = Dictionary(grouping: 0..<n) { self.words[$0] }.sorted { $0.key < $1.key }.map(\.value)
        var fixedInName: [Int] = []
        var fixedInQualifiers: [Int] = []
        var flexible: [[Int]] = []
        for group in groups {
            let name = group.allSatisfy { inName[$0] }
            let qualifier = group.allSatisfy { inQualifier[$0] }
            if name && qualifier {
                flexible.append(group)
            } else if name {
                fixedInName += group
            } else if qualifier {
                fixedInQualifiers += group
            } else {
                return nil
            }
        }
        // The words that could go either way, tried in the name first, most at once. Each
        // needs a word of its own: when the name and the qualifiers cannot take them all
        // even together, no split can (`san san san …` would try every one of 2^n).
        guard flexible.count <= 12 else { return nil }
        if flexible.count > 2 && Self.matchingSize(pieces, to: words) + Self.matchingSize(pieces, to: qualifiers.words) < n {
            return nil
        }
        let choices = (0..<(1 << flexible.count)).sorted {
            Self.pieceCount($0, flexible) != Self.pieceCount($1, flexible)
                ? Self.pieceCount($0, flexible) > Self.pieceCount($1, flexible) : $0 < $1
        }
        for choice in choices {
            var named = fixedInName
            var qualifying = fixedInQualifiers
            for (bit, group) in flexible.enumerated() {
                if choice & (1 << bit) != 0 { named += group } else { qualifying += group }
            }
            guard !named.isEmpty, Self.assigns(named.map { pieces[$0] }, to: words),
                Self.assigns(qualifying.map { pieces[$0] }, to: qualifiers.words)
            else { continue }
            let namedPieces = Set(named.map { pieces[$0] })
            let whole =
                kind == .code
                ? !words.isEmpty && words.allSatisfy { namedPieces.contains($0) }
                : SearchText.isSpelled(form, alternate: kind != .own, by: namedPieces)
            let alternate = kind == .common || kind == .rare ? String(decoding: form, as: UTF8.self) : nil
            let atStart = SearchText.startWords(form, words: words).contains { word in named.contains { word.starts(with: pieces[$0]) } }
            var found = PlaceMatch(coverage: named.count, kind: kind, whole: whole, atStart: atStart, alternate: alternate)
            found.wholeQualifiers = qualifying.filter { q in qualifiers.oneWordFields.contains { $0 == pieces[q] } }.count
            found.asTyped = alternate?.lowercased() == typed
            found.beginsAsTyped = typedBeyondASCII && kind == .common && alternate?.lowercased().hasPrefix(typed) == true
            found.begunFinished = kind != .code && named.contains { finished[$0] && !words.contains(pieces[$0]) }
            found.typedShort = isShort && named.contains { !finished[$0] }
            found.isShortWholeAlternate = found.typedShort && whole && kind == .common && words.reduce(0) { $0 + $1.count } <= 3
            return found
        }
        return nil
    }

    /// How many pieces the groups `choice` picks out of `groups` hold.
    private static func pieceCount(_ choice: Int, _ groups: [[Int]]) -> Int {
        groups.indices.reduce(0) { choice & (1 << $1) != 0 ? $0 + groups[$1].count : $0 }
    }

    /// Whether each of `queryWords` can start a different one of `words` (a bipartite
    /// matching, by augmenting paths: both lists are a handful long).
    static func assigns(_ queryWords: [[UInt8]], to words: [[UInt8]]) -> Bool {
        guard !queryWords.isEmpty else { return true }
        guard queryWords.count <= words.count else { return false }
        return matchingSize(queryWords, to: words) == queryWords.count
    }

    /// How many of `queryWords` can each start a different one of `words` at once (the
    /// largest matching).
    static func matchingSize(_ queryWords: [[UInt8]], to words: [[UInt8]]) -> Int {
        var owner = [Int](repeating: -1, count: words.count)
        func place(_ q: Int, _ visited: inout [Bool]) -> Bool {
            for w in words.indices where !visited[w] && words[w].starts(with: queryWords[q]) {
                visited[w] = true
                if owner[w] < 0 || place(owner[w], &visited) {
                    owner[w] = q
                    return true
                }
            }
            return false
        }
        var size = 0
        for q in queryWords.indices {
            var visited = [Bool](repeating: false, count: words.count)
            if place(q, &visited) { size += 1 }
        }
        return size
    }

    /// The folded words of the row's qualifiers (`SearchText.qualifiers`), made once per
    /// country and region.
    func qualifierWords(_ row: PlaceRow, names: RegionNames?) -> Qualifiers {
        let key = row.qualifierKey
        if let cached = qualifierCache[key] { return cached }
        // (A word in two fields, France in Île-de-France and France, counts twice.)
        var qualifiers = Qualifiers()
        for field in SearchText.qualifiers(row, names: names) {
            let words = field.withUnsafeBufferPointer { SearchText.words($0, joined: true) }
            qualifiers.words += words
            if words.count == 1 { qualifiers.oneWordFields.append(words[0]) }
        }
        qualifierCache[key] = qualifiers
        return qualifiers
    }
}

/// A place's qualifiers, folded: the words of its region's and country's names and codes,
/// and those of them that are a whole name or code alone (`tx`, `texas`, `bermuda`; not
/// `al` of Al Başrah, nor `new` of New York), which `PlaceMatch.wholeQualifiers` counts.
struct Qualifiers {
    var words: [[UInt8]] = []
    var oneWordFields: [[UInt8]] = []
}
