/// How suggestions are ordered: the one rule, made by `RankKey.init(match:…)`. The
/// numbers are the constants below; `man magickey-suggest` (RANKING, made from them)
/// explains them to users with examples, `bench/ranking` measures them.
///
/// Candidates are the places the query matches (`PlaceMatch`: its words for the name all
/// in one of the place's names, the rest in its region and country). They are ordered by,
/// in turn:
///
/// 1. **Coverage** (`PlaceMatch.rankCoverage`): more query words in the name, or spelling
///    a one-word qualifier whole, first.
/// 2. **Tier** (`PlaceMatch.tier`): own name, code or common alternate spelled whole;
///    common alternate begun or rare one whole; rare one begun.
/// 3. **Score**: near and important, blended in one number (natural logarithms):
///
///        score = ln(importance)                          (`placeImportance`)
///              + ln(wholeNameWeight)   when the query spells the name whole
///                                      (shortWholeNameWeight while it is short)
///              + ln(ownNameWeight)     when it is the place's own name
///              + ln(codeWeight)        when it is a code typed in capitals
///              + ln(startWeight)       when a query word begins the name
///              + ln(begunAreaWeight)   when it is a country or region begun
///              + ln(begunWordWeight)   when a word typed in full only begins a word
///              − distanceWeight × ln(1 + min(d, farDistance) / nearDistance)
///
///    The weights were chosen on the replays and the Pelias cases of `bench/ranking`.
/// 4. File order, so equal keys always come out the same way.
package struct RankKey: Comparable, Sendable {
    /// How many query words are in the name or spell a qualifier whole
    /// (`PlaceMatch.rankCoverage`), more first.
    package var coverage: Int
    /// The tier of the name matched (`PlaceMatch.tier`), lower first.
    package var tier: Int
    /// The blend of importance, whole name, own name and nearness, higher first.
    package var score: Double
    /// The row number or offset, lower first.
    package var order: Int
    /// Whether the query spells the name whole.
    package var wholeName: Bool
    /// Whether the name is the place's own, not an alternate name or a code.
    package var ownName: Bool

    /// What a whole name weighs against a name begun, as a factor of importance: `bath`
    /// gives Bath before Bathinda, three times its size, yet `st peters` keeps Saint
    /// Petersburg, begun, before Saint Peters, spelled whole.
    package static let wholeNameWeight = 30.0
    /// What a whole name weighs while the query is short (`PlaceSearch.isShort`) and may
    /// be typed on: `ber` spells Ber (Véroia) but begins Berlin and Bergen.
    package static let shortWholeNameWeight = 3.0
    /// What the place's own name weighs against an alternate name: a place must be this
    /// many times as important to win on an alternate name.
    package static let ownNameWeight = 10.0
    /// How much distance counts, per doubling of 1 + d / nearDistance: a place
    /// nearDistance away counts 2^6 = 64 times less than one next door.
    package static let distanceWeight = 6.0
    /// What a code typed in capitals weighs: `DEU` and `LUX` name their countries before
    /// Deurne and Luxor, which the same letters begin.
    package static let codeWeight = 10_000.0
    /// What a name begun at its first word weighs: names are typed from their start, so
    /// `chi` gives Chicago before Ho Chi Minh City, and `york` York before New York City.
    package static let startWeight = 100.0
    /// What a country's or region's name begun weighs: an area named whole ranks as a
    /// town of 0.15 of its population (`PlaceCategory.importanceFactor`), one begun as
    /// a town of a seven-hundredth, so `germa` gives Germany before Germantown, but `chi`
    /// Chicago before China.
    package static let begunAreaWeight = 1.0 / 105
    /// What a name weighs whose word a query word typed in full (a space after it) only
    /// begins (`PlaceMatch.begunFinished`): `la ` gives La Paz before Lagos, ten times its
    /// size, `al ` Al Mawşil al Jadīdah before Alexandria. Whoever types the space has
    /// said where the word ends, so it takes more than size: at 1/30, `st ` and `saint `
    /// near Chicago gave Streamwood and Carol Stream, 40 km away, before St. Louis; now
    /// only a place some hundred kilometres nearer beats one with the word.
    package static let begunWordWeight = 1.0 / 100_000

    /// A key made of its parts: by the makers here only.
    private init(coverage: Int, tier: Int, score: Double, order: Int, wholeName: Bool = false, ownName: Bool = true) {
        self.coverage = coverage
        self.tier = tier
        self.score = score
        self.order = order
        self.wholeName = wholeName
        self.ownName = ownName
    }

    /// The key of a place matched by `match`, of `importance`, at `distance` metres from
    /// the location (nil: none given), with its row number or offset: the one rule.
    package init(
        match: PlaceMatch, importance: Double, area: Bool = false, distance: Double?, bias: LocationBias, order: Int
    ) {
        let own = match.kind == .own
        self.init(
            coverage: match.rankCoverage, tier: match.tier,
            score: Self.score(
                importance: importance, whole: match.whole, own: own, code: match.kind == .code, start: match.atStart, area: area,
                begunWord: match.begunFinished, distance: distance, bias: bias, short: match.typedShort),
            order: order, wholeName: match.whole, ownName: own)
    }

    /// The key of a place found by its magicKey or label: equal to every other such key
    /// but for `order`.
    package static func found(order: Int) -> RankKey { RankKey(coverage: 0, tier: 0, score: 0, order: order) }

    /// The key of a place ordered nearest first (a collection near where it was
    /// suggested, reverse geocoding): `distance` in metres, then `order`.
    package static func nearest(distance: Double, order: Int) -> RankKey {
        RankKey(coverage: 0, tier: 0, score: -distance, order: order)
    }

    /// The key of a place ordered most important first (a collection), then `order`.
    package static func important(_ importance: Double, order: Int) -> RankKey {
        RankKey(coverage: 0, tier: 0, score: importance, order: order)
    }

    /// The distance in metres of a key made by `nearest`.
    package var distance: Double { -score }

    /// The score of the order's third step.
    package static func score(
        importance: Double, whole: Bool, own: Bool, code: Bool = false, start: Bool, area: Bool = false, begunWord: Bool = false,
        distance: Double?, bias: LocationBias, short: Bool = false
    ) -> Double {
        var score = Platform.log(max(importance, 1))
        if whole { score += short ? logShortWholeNameWeight : logWholeNameWeight }
        // (A penalty, never a bonus: the bounds below hold without it.)
        if area && !whole { score += logBegunAreaWeight }
        if begunWord { score += logBegunWordWeight }
        if own { score += logOwnNameWeight }
        if code { score += logCodeWeight }
        if start { score += logStartWeight }
        if let distance { score -= bias.penalty(distance) }
        return score
    }

    private static let logWholeNameWeight = Platform.log(wholeNameWeight)
    private static let logShortWholeNameWeight = Platform.log(shortWholeNameWeight)
    private static let logOwnNameWeight = Platform.log(ownNameWeight)
    private static let logCodeWeight = Platform.log(codeWeight)
    private static let logStartWeight = Platform.log(startWeight)
    private static let logBegunAreaWeight = Platform.log(begunAreaWeight)
    private static let logBegunWordWeight = Platform.log(begunWordWeight)

    /// The best key a place of `importance` can have with `coverage` query words in its
    /// name, at least `distance` metres away: a bound the search prunes by. `mayBeCode`:
    /// the query has words in capitals, which may be a code of the place.
    package static func bound(
        coverage: Int, importance: Double, mayBeWhole: Bool, mayBeOwn: Bool, mayBeCode: Bool = false, mayStart: Bool = true,
        distance: Double?, bias: LocationBias, short: Bool = false, order: Int
    ) -> RankKey {
        // A code is a whole name, never the place's own: its bonus bounds the own one's.
        let own = mayBeOwn && !(mayBeCode && mayBeWhole)
        func best(own: Bool, start: Bool) -> Double {
            score(
                importance: importance, whole: mayBeWhole, own: own, code: mayBeCode && mayBeWhole, start: start, distance: distance,
                bias: bias, short: short)
        }
        // `mayStart` speaks of the own name: an alternate name may still begin with the
        // word (Las Cruces, Mexico, is also Cruces).
        let bound = mayStart ? best(own: own, start: true) : max(best(own: own, start: false), best(own: false, start: true))
        return RankKey(coverage: coverage, tier: 0, score: bound, order: order, wholeName: mayBeWhole, ownName: mayBeOwn)
    }

    package static func < (a: RankKey, b: RankKey) -> Bool {
        if a.coverage != b.coverage { return a.coverage > b.coverage }
        if a.tier != b.tier { return a.tier < b.tier }
        if a.score != b.score { return a.score > b.score }
        return a.order < b.order
    }

    package static func == (a: RankKey, b: RankKey) -> Bool {
        a.coverage == b.coverage && a.tier == b.tier && a.score == b.score && a.order == b.order
    }
}

/// The location bias of a search: how much nearness to `--location` counts.
package struct LocationBias: Sendable {
    /// The distance scale of the bias when `--location` comes without `--distance`: a
    /// place this far counts a factor of 2^distanceWeight less than one next door.
    package static let defaultNearDistance = 20_000.0
    /// From this distance on (3,000 km), distance stops counting: a continent away,
    /// every place is far, and importance orders them. From Sydney, `paris` is Paris,
    /// France, not Parys, South Africa (nearer by a third of the way), and `london` is
    /// London, England, not London, Kiribati.
    static let farDistance = 3_000_000.0

    /// The point, if any.
    package let location: Coordinate?
    /// The distance scale in metres (`--distance`).
    package let radius: Double
    /// The cosine of the location's latitude, for `distanceLowerBound`.
    private let cosineOfLatitude: Double

    /// A bias around `location` with the distance scale `radius` metres.
    package init(location: Coordinate?, radius: Double?) {
        // A longitude beyond ±180 (a map's unwrapped one, through the library) is the same
        // meridian within it; the bounds below need it there.
        self.location = location.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude.remainder(dividingBy: 360)) }
        self.radius = max(radius ?? Self.defaultNearDistance, 1)
        cosineOfLatitude = location.map { Platform.cos($0.latitude * .pi / 180) } ?? 1
    }

    /// The distance in metres from the location to `point`; nil without a location.
    @inline(__always)
    package func distance(to point: Coordinate) -> Double? {
        location.map { $0.distance(to: point) }
    }

    /// What a place `distance` metres away loses in score (see `RankKey`).
    @inline(__always)
    package func penalty(_ distance: Double) -> Double {
        RankKey.distanceWeight * Platform.log(1 + min(distance, Self.farDistance) / radius)
    }

    /// A distance no greater than the distance to any point whose latitude is in
    /// `latitudes` and longitude in `longitudes` (degrees, west to east, not across ±180):
    /// a cell of the index's location grid (`PlacesIndex.gridCell`). Nil without a
    /// location.
    package func distanceLowerBound(latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>) -> Double? {
        guard let location else { return nil }
        let latitudeGap = max(0, latitudes.lowerBound - location.latitude, location.latitude - latitudes.upperBound)
        let longitude = location.longitude
        var longitudeGap = 0.0
        if !longitudes.contains(longitude) && !longitudes.contains(longitude + 360) && !longitudes.contains(longitude - 360) {
            // The nearer edge, either way round the Earth.
            func gap(_ edge: Double) -> Double {
                let d = abs((edge - longitude).remainder(dividingBy: 360))
                return min(d, 360 - d)
            }
            longitudeGap = min(gap(longitudes.lowerBound), gap(longitudes.upperBound))
        }
        let farthestLatitude = max(abs(latitudes.lowerBound), abs(latitudes.upperBound))
        // The haversine h = sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2) of any point of the cell
        // is at least that of the gaps (each at most 180°) with the cell's smallest cos φ₂;
        // d = 2R asin √h grows with h. (A hair less, for rounding.)
        let radians = Double.pi / 180
        let h =
            Platform.sinSquared(latitudeGap * radians / 2)
            + cosineOfLatitude * max(0, Platform.cos(farthestLatitude * radians)) * Platform.sinSquared(longitudeGap * radians / 2)
        let d = 2 * Coordinate.earthRadius * Platform.asin(min(1, h.squareRoot())) * 0.999
        return d.isFinite ? d : 0
    }
}

/// The importance of a place: population plus one (so that places without a population
/// still order by category), times its category's factor
/// (`PlaceCategory.importanceFactor`). The one formula: the index orders its rows by it.
@inline(__always)
package func placeImportance(population: Int, category: String) -> Double {
    placeImportance(population: population, factor: PlaceCategory.importanceFactor(category))
}

/// The importance of a place of `population` whose category's factor is `factor`
/// (known per category ahead: an index search's rows).
@inline(__always)
package func placeImportance(population: Int, factor: Double) -> Double {
    Double(population + 1) * factor
}

/// The `score` (0–100) `magickey-find` reports: 100 for a key or a whole-name match;
/// for a prefix, the share of the name's letters the query typed, at least 50 (`name`:
/// what the query spelled, with the region and the country when it needs them).
package func matchScore(whole: Bool, queryLetters: Int, name: String) -> Int {
    if whole { return 100 }
    let nameLetters = TextFolding.fold(name).filter { $0 != 0x20 }.count
    guard nameLetters > 0 else { return 50 }
    return max(50, min(99, 100 * queryLetters / max(nameLetters, queryLetters)))
}
