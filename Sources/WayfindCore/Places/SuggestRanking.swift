/// How suggestions are ordered.
///
/// # The order
///
/// Candidates are the places where every query word starts a different word of the name,
/// alternate names, region or country (smartgrep's rules; see `SearchText`). They are
/// ordered by, in turn:
///
/// 1. **Whole name before prefix.** A place whose name (or an alternate name) is fully
///    spelled by the query comes first: every word of the name is a query word. `paris`
///    spells Paris (France) and Paris (Texas) but only starts Parisot; `san jose` spells
///    San José, not San Jose del Monte; `paris tx` still spells Paris, the extra word
///    picking the region; `roma` spells Rome's alternate name Roma. A last word `City`
///    need not be typed (`SearchText.spellingWords`): `new york` spells New York City;
///    an alternate name that is a code (`SAN`) spells nothing. A short query (one word of
///    at most `shortQueryLetters`) is still being typed: its whole-name matches stay in
///    tier 1 and weigh `shortWholeNameAdvantage` in the importance, so `tok` gives Tokyo
///    before Tok, Alaska, and `san` near San Francisco gives San Francisco.
/// 2. **Location bias** (with `--location`). Places inside `--distance` of the location
///    (`defaultBiasRadius` without it) come first; beyond it, places fall into bands that
///    double in width (r–2r, 2r–4r, …), nearer bands first, up to the band that holds
///    `farDistance` (3,000 km): beyond it, distance stops counting. Nothing is excluded. Bands,
///    not exact distances, so that importance still orders places at similar distances:
///    from Chicago, Springfield, Illinois (290 km) comes before Springfield, Missouri
///    (700 km); from Boston, Springfield, Massachusetts (125 km) comes first. The bias
///    comes before the kind of name matched, so `roma` near Rome gives Rome, Italy
///    whatever Rome, New York's alternate names say.
/// 3. **Importance**: population × `PlaceCategory.importanceFactor` (capitals ×4, admin
///    seats ×2, sections of cities ×½), times `ownNameAdvantage` (10) when the query
///    matched the place's own name (or its region or country) rather than only one of its
///    alternate names. So among places of similar importance the one whose own name
///    was typed comes first, but a place more than ten times as important wins on an
///    alternate name: `moskva` gives Moscow, Russia before Moscow, Idaho (an alternate
///    name of both), `peking` gives Beijing. Paris, France (a capital) outranks a larger
///    suburb, and Springfield, Illinois (a state capital) ties up with larger namesakes.
/// 4. File order, so equal keys always come out the same way.
package struct RankKey: Comparable, Sendable {
    /// 0 for a whole-name match, 1 for a prefix, and for a whole-name match of a short
    /// query (`wholeName` then says so).
    package var tier: Int
    /// Whether the query spells a name of the place whole (tier 0, or tier 1 for a short
    /// query, where it weighs `shortWholeNameAdvantage`).
    package var wholeName: Bool
    /// The distance band: 0 inside the radius (or no location given).
    package var band: Int
    /// Importance (`placeImportance`), higher first once weighted by `ownName`.
    package var importance: Double
    /// Whether the query matched the place's own text (name, ASCII name, region, country),
    /// not only an alternate name. True is also the optimistic bound a filter ranks by
    /// before it knows.
    package var ownName: Bool
    /// The row number or offset, lower first.
    package var order: Int

    /// How much a match on a place's own name weighs against a match on one of its
    /// alternate names only: a place must be this many times as important to win on an
    /// alternate name. Ten: enough that a namesake village does not lose to a town a few
    /// times its size that merely has the name in another language, small enough that a
    /// capital or a city a hundred times larger wins over a village whose own name it is.
    package static let ownNameAdvantage = 10.0
    /// A query of one word of at most this many letters is short: its whole-name matches
    /// are not a tier of their own. Three letters are more often the start of a name
    /// being typed (`tok`, `san`, `dal`) than a whole one, and a village spelled whole
    /// (Tok, Alaska; San, Mali) came before Tokyo, or before San Francisco when standing
    /// in it.
    package static let shortQueryLetters = 4
    /// What a whole-name match of a short query weighs, as a factor of importance (10):
    /// `bath` still gives Bath before Bathinda (three times its size), `tok` Tokyo
    /// before Tok; nearer bands still come first.
    package static let shortWholeNameAdvantage = 100.0

    /// A key; `ownName` defaults to true (places found by key or by collection), and
    /// `wholeName` to whether the tier is 0.
    package init(tier: Int, band: Int, importance: Double, ownName: Bool = true, wholeName: Bool? = nil, order: Int) {
        self.tier = tier
        self.wholeName = wholeName ?? (tier == 0)
        self.band = band
        self.importance = importance
        self.ownName = ownName
        self.order = order
    }

    /// The importance the order compares: `importance`, times `ownNameAdvantage` for an
    /// own-name match, and times `shortWholeNameAdvantage` for a short query's whole name.
    @inline(__always)
    package var weightedImportance: Double {
        var weighted = ownName ? importance * Self.ownNameAdvantage : importance
        if wholeName && tier == 1 { weighted *= Self.shortWholeNameAdvantage }
        return weighted
    }

    package static func < (a: RankKey, b: RankKey) -> Bool {
        if a.tier != b.tier { return a.tier < b.tier }
        if a.band != b.band { return a.band < b.band }
        let wa = a.weightedImportance, wb = b.weightedImportance
        if wa != wb { return wa > wb }
        return a.order < b.order
    }
}

/// The location bias of a search.
package struct LocationBias: Sendable {
    /// The radius when `--location` comes without `--distance`: a city and its
    /// surroundings, ArcGIS's idea of "near" for suggestions.
    package static let defaultBiasRadius = 50_000.0
    /// The last band: everything beyond 2³⁰ radii is one band (the Earth is smaller).
    static let maximumBand = 30
    /// From the band that holds this distance on (3,000 km), distance stops counting: a
    /// continent away, every place is far, and importance orders them. From Sydney,
    /// `paris` is Paris, France, not Parys, South Africa (nearer by a third of the way),
    /// and `london` is London, England, not London, Kiribati.
    static let farDistance = 3_000_000.0

    /// The point, if any.
    package let location: Coordinate?
    /// The radius in metres.
    package let radius: Double
    /// The band of `farDistance`, the last one that counts.
    private let farBand: Int
    /// The cosine of the location's latitude, for `bandLowerBound(of:)`.
    private let cosineOfLatitude: Double

    /// A bias around `location` with `radius` metres.
    package init(location: Coordinate?, radius: Double?) {
        // A longitude beyond ±180 (a map's unwrapped one, through the library) is the same
        // meridian within it; the bounds below need it there.
        self.location = location.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude.remainder(dividingBy: 360)) }
        self.radius = max(radius ?? Self.defaultBiasRadius, 1)
        farBand = self.radius >= Self.farDistance ? 1 : min(Self.maximumBand, 1 + Int(Platform.log2(Self.farDistance / self.radius)))
        cosineOfLatitude = location.map { Platform.cos($0.latitude * .pi / 180) } ?? 1
    }

    /// The band of `point`: 0 inside the radius, then 1 + ⌊log₂(d / r)⌋, at most the
    /// band of `farDistance`.
    package func band(of point: Coordinate) -> Int {
        guard let location else { return 0 }
        let d = location.distance(to: point)
        if d <= radius { return 0 }
        return min(farBand, 1 + Int(Platform.log2(d / radius)))
    }

    /// A band no greater than `band(of:)`, without its trigonometry: a search over
    /// millions of rows near a location (`s` at 12 M rows) skips the rows this already
    /// puts out of reach, and spent half its time in `sin`, `asin` and `log2` before.
    @inline(__always)
    package func bandLowerBound(of point: Coordinate) -> Int {
        guard let location else { return 0 }
        var dLon = abs(point.longitude - location.longitude)
        if dLon > 180 { dLon = 360 - dLon }
        return bandLowerBound(latitudeGap: abs(point.latitude - location.latitude), longitudeGap: dLon, farthestLatitude: abs(point.latitude))
    }

    /// A band no greater than `band(of:)` of any point whose latitude is in `latitudes` and
    /// longitude in `longitudes` (degrees, west to east, not across ±180): a cell of the
    /// index's location grid (`PlacesIndex.gridCell`).
    package func bandLowerBound(latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>) -> Int {
        guard let location else { return 0 }
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
        return bandLowerBound(latitudeGap: latitudeGap, longitudeGap: longitudeGap, farthestLatitude: farthestLatitude)
    }

    /// The bound of both `bandLowerBound`s, from a least latitude gap, a least longitude
    /// gap (at most 180) and a greatest absolute latitude of the point (all in degrees).
    ///
    /// It bounds the haversine `h = sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2)` from below with
    /// `sin x ≥ 2x/π` on [0, π/2] and `cos φ ≥ 1 − φ²/2`, and `d = 2R asin √h ≥ 2R √h`;
    /// then `⌊log₂⌋` of a slightly smaller distance, by its exponent.
    @inline(__always)
    private func bandLowerBound(latitudeGap: Double, longitudeGap: Double, farthestLatitude: Double) -> Int {
        let radians = Double.pi / 180
        let dLat = latitudeGap * radians
        let dLon = longitudeGap * radians
        let latitude = farthestLatitude * radians
        let cosine = max(0, 1 - latitude * latitude / 2)
        // (2/π · x/2)² = (x/π)².
        let h = (dLat / .pi) * (dLat / .pi) + cosineOfLatitude * cosine * (dLon / .pi) * (dLon / .pi)
        let d = 2 * Coordinate.earthRadius * h.squareRoot() * 0.999
        guard d > radius, d.isFinite else { return 0 }
        // The exponent of a finite ratio above 1, from its bits (`exponent` is a call).
        return min(farBand, 1 + Int(truncatingIfNeeded: ((d / radius).bitPattern >> 52) & 0x7FF) - 1023)
    }
}

/// The importance of a place: population × category factor, plus one so that places
/// without a population still order by category.
@inline(__always)
package func placeImportance(population: Int, category: String) -> Double {
    Double(population + 1) * PlaceCategory.importanceFactor(category)
}

/// The `score` (0–100) `magickey-find` reports: 100 for a key or a whole-name match;
/// for a prefix, the share of the name's letters the query typed, at least 50 (`name`:
/// what the query spelled, with the region and the country when it needs them).
package func matchScore(tier: Int, queryLetters: Int, name: String) -> Int {
    if tier == 0 { return 100 }
    let nameLetters = TextFolding.fold(name).filter { $0 != 0x20 }.count
    guard nameLetters > 0 else { return 50 }
    return max(50, min(99, 100 * queryLetters / max(nameLetters, queryLetters)))
}
