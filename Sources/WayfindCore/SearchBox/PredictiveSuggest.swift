/// Predictive suggestions: the geocoder's matches and the places a route graph predicts,
/// ranked together (`magickey-suggest --graph`).
///
/// # The blend
///
/// Two lists answer a search box. The route graph's (`RouteGraph.suggestions`, the places
/// whose label the text matches by smartgrep's rules, scored in *trips from here*: about
/// 10 for a place someone goes to every day, under 1 for one visited once) knows the
/// person; the geocoder's (`RankKey` order: whole name, nearness, importance) knows the
/// world. Each candidate, a gazetteer place, gets one score:
///
///     score(p) = graph(p) · nearness(p)  +  geocoder(p)
///
///     nearness(p) = 1 / (1 + d(p) / nearnessDistance)            d: km from --location
///     geocoder(p) = letterTrust · min(letters, trustedLetters) / (1 + r(p))
///                 = wholeNameScore           when the text spells p's own name whole
///
/// r(p) is p's place in the geocoder's list of as many places as are asked for (0 first;
/// absent: 0 geocoder score). So:
///
/// - **The graph leads**: a place visited every day scores several trips and stays first
///   while its name matches what is typed.
/// - **The geocoder breaks the graph's weak ties**: its first place is worth
///   `letterTrust` trips per typed letter, about what a place visited once at another
///   time of day scores. So a place both lists hold climbs above the places visited
///   once that the geocoder does not rank, and a new place the geocoder puts first
///   passes the graph's long tail, not its habits. Trust grows with each letter: after
///   one letter the geocoder's first is a guess among thousands, after three it is
///   often right.
/// - **A whole name is a strong signal**: typing `paris` whole puts Paris (the
///   geocoder's first, a tier-0 match) at `wholeNameScore`, above every weak personal
///   guess (Parisot, visited once); only places visited far more often come first.
///   A short word still being typed is no such signal (the geocoder puts its whole-name
///   matches in tier 1): `ath` spells Ath, Belgium, but a visited Athens comes first;
///   `ath ` (finished) puts Ath first again.
/// - **Far away counts less**: a habit in the home town weighs a sixth while travelling
///   500 km away; trips from here, made where one is, are near anyway.
///
/// Example, at `bo` near Boston (2 letters): Home in Boston (graph 8) scores 8; a bakery
/// in Bolton visited a few times (graph 0.3, 10 km away) about 0.27; Boston, the
/// geocoder's first, 2 · 0.02 = 0.04; a shop in Bourne visited once one evening (graph
/// 0.05, 80 km) 0.03; Brookline, the geocoder's second, 0.02. Order: Home, the bakery,
/// Boston, the shop, Brookline.
///
/// With no text, the predictions come alone, in the graph's order. A graph place is
/// tied to a gazetteer row by its label (`Place.label`, what magickey-find prints): the
/// rows of that label, nearest to the location, else the most important; a graph place
/// of no row is left out. The constants were tuned on half of a simulated population
/// and checked on the other half (bench/replay, bench/README.md).

/// The constants of the blend, each with its reason (see the essay above).
package enum PredictiveBlend {
    /// What the geocoder's first place is worth per typed letter, in trips (0.02): about
    /// the score of a place visited once, at another time of day, by someone with a
    /// hundred visits. Tuned on the replay's tuning half (bench/replay/tune.py): 0.05 did
    /// as well until the geocoder learned short queries (2026-11-27), then fell 0.2
    /// points under the hand merge at three letters; 0.02 is at or above it at every
    /// count. From 0.15 up, new places push out the graph's favourites and top-5 falls
    /// below the hand merge's.
    package static let letterTrust = 0.02
    /// Letters beyond this add no trust (4): by then a prefix names few places, and a
    /// habit of the same name must still come first.
    package static let trustedLetters = 4
    /// The score of a whole-name match of the place's own name, the geocoder's first
    /// (3 trips): above any weak guess (a place visited once or twice scores under 1),
    /// below the places one goes to every day.
    package static let wholeNameScore = 3.0
    /// The distance, in km, at which a predicted place counts half (100 km): a day's
    /// travel around home counts fully, a home town 500 km away a sixth. On the replay,
    /// 30 km lost favourites across a metropolitan area and 1,000 km no longer helped
    /// travellers.
    package static let nearnessDistance = 100.0
    /// How many of the graph's best matching places are resolved, per suggestion asked
    /// for (2): each costs a label lookup; the graph's order beyond that rarely wins.
    package static let graphCandidatesPerSuggestion = 2
    /// How many places of the same name are weighed to find a label's rows in a file
    /// that is scanned, not indexed (64): the commonest names of the embedded gazetteer
    /// (San Antonio, Santa Cruz) have fewer places spelled whole; a label's row beyond
    /// them is not found.
    package static let labelRows = 64
}

/// The route graph's suggestion, by a name that `Geocoder.Suggestion` does not hide inside
/// the extension below (a module-qualified name would not build in the fuzz targets, which
/// compile the sources into a module of another name).
package typealias RouteGraphSuggestion = Suggestion

extension Geocoder {
    /// Up to `limit` suggestions for `text`, the geocoder's matches and the places
    /// `history` predicts next ranked together; predicted places are marked `predicted`.
    /// With an empty `text`, only the predictions, in the graph's order.
    ///
    ///     var history = RouteGraph()
    ///     history.visit("Boston, Massachusetts, United States", at: t0)
    ///     let box = try geocoder.suggest("bo", history: history, at: now, near: boston)
    ///
    /// Graph places are gazetteer labels (`Place.label`, as `find` returns them); a label
    /// of several rows picks the nearest to `near`, else the most important, and a graph
    /// place of no row is left out.
    ///
    /// - Parameters:
    ///   - from: predict what follows this place (default: the last place visited).
    ///   - now: the time of the request, Unix seconds (the time of day counts).
    ///   - timeZone: the zone whose hour of day `now` is in.
    public func suggest(
        _ text: String, history: RouteGraph, from: String? = nil, at now: Int64, timeZone: LocalTimeZone = .system,
        near location: Coordinate? = nil, distance: Double? = nil, filters: PlaceFilters = PlaceFilters(), limit: Int = 5
    ) throws(GeocoderError) -> [Suggestion] {
        let request = Self.predictionRequest(from: from, now: now, timeZone: timeZone, limit: limit)
        let predictions = history.suggestions(for: request, filter: Self.predictionFilter(text).map(RouteGraph.stringFilter))
        return try suggest(text, predictions: predictions, near: location, distance: distance, filters: filters, limit: limit)
    }

    /// The graph request behind a predictive suggestion of `limit` places.
    package static func predictionRequest(from: String?, now: Int64, timeZone: LocalTimeZone, limit: Int) -> SuggestionRequest {
        var request = SuggestionRequest(from: from, now: now, timeZone: timeZone)
        request.limit = max(limit * PredictiveBlend.graphCandidatesPerSuggestion, 10)
        // A place the graph scores zero adds nothing to the blend.
        request.positiveOnly = true
        return request
    }

    /// The graph's filter for `text`: smartgrep's rule on the place's label, for the text
    /// or any of its other spellings (`SearchText.queryVariants`, as the geocoder searches:
    /// `st petersburg` keeps a habit of Saint Petersburg); nil (all places) for empty text.
    ///
    /// Each name is first looked at as smartgrep looks at its lines (`CandidateFinder`),
    /// as the file spells it (`NameFilter.mayAccept`): one where the rarest byte of the
    /// query (or a character folding to it) is nowhere, or nowhere its query word may
    /// start a word, cannot match, and its display name is not made. A query few places
    /// match (`bos`) is tried on every name of the graph.
    package static func predictionFilter(_ text: String) -> RouteGraph.NameFilter? {
        guard !MatchQuery(text).matchesEverything else { return nil }
        let queries = SearchText.queryVariants(text, lastWordComplete: SearchText.endsWithFinishedWord(text)).map { MatchQuery($0) }
        let matchers = queries.map(LineMatcher.init)
        let accepts = { (name: UnsafeBufferPointer<UInt8>) in matchers.contains { $0.matches(name) } }
        // The spellings' first looks, chained: looking at a name then copies no reference.
        var first: FirstLook? = nil
        for (query, matcher) in zip(queries, matchers).reversed() {
            guard let look = FirstLook(query, matcher, next: first) else { return RouteGraph.NameFilter(accepts: accepts) }
            first = look
        }
        guard let first else { return RouteGraph.NameFilter(accepts: accepts) }
        return RouteGraph.NameFilter(
            accepts: accepts,
            mayAccept: { name in
                guard let base = name.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
                return first.mayMatch(base, count: name.count)
            })
    }

    /// smartgrep's first look for one spelling of a query, then for the next spellings
    /// (`predictionFilter`).
    private final class FirstLook {
        let matcher: LineMatcher
        let finder: CandidateFinder
        let anchor: UnsafeBufferPointer<UInt8>?
        let next: FirstLook?

        /// Nil when the query has no first look (`CandidateFinder`).
        init?(_ query: MatchQuery, _ matcher: LineMatcher, next: FirstLook?) {
            guard let finder = CandidateFinder(query: query) else { return nil }
            self.matcher = matcher
            self.finder = finder
            anchor = finder.anchorWord.map { matcher.wordBuffers[$0] }
            self.next = next
        }

        /// Whether the `count` bytes at `base` may match this spelling or a next one.
        func mayMatch(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
            finder.reset(base, count: count)
            return finder.nextHit(
                from: base, matcher: matcher, anchor: anchor, anchorOffset: finder.anchorOffset, start: base, end: base + count) != nil
                || next?.mayMatch(base, count: count) == true
        }
    }

    /// The blend of the geocoder's matches for `text` with `predictions`, the route
    /// graph's suggestions (best first, already filtered by the text).
    package func suggest(
        _ text: String, predictions: [RouteGraphSuggestion], near location: Coordinate?, distance: Double?,
        filters: PlaceFilters, limit: Int
    ) throws(GeocoderError) -> [Suggestion] {
        typealias B = PredictiveBlend
        let search = PlaceSearch(
            text: text, bias: LocationBias(location: location, radius: distance), filters: filters,
            limit: limit)
        let finished = SearchText.endsWithFinishedWord(text)
        // The predicted places, resolved to rows.
        var candidates: [(found: FoundPlace, graph: Double, geocoder: Double)] = []
        for prediction in predictions {
            guard let found = try place(labelled: prediction.place, near: location, filters: filters) else { continue }
            if candidates.contains(where: { $0.found.place.offset == found.place.offset }) { continue }
            candidates.append((found, prediction.score, 0))
        }
        let result =
            search.isEmpty
            ? try self.search(search)
            : try self.search(text: text, lastWordComplete: finished, bias: search.bias, filters: filters, limit: search.limit)
        guard !search.isEmpty else {
            return candidates.prefix(limit).map { Self.suggestion($0.found, fingerprint: result.fingerprint, predicted: true) }
        }
        let letters = min(text.unicodeScalars.filter { !$0.properties.isWhitespace }.count, B.trustedLetters)
        for (rank, found) in result.places.enumerated() {
            var geocoder = B.letterTrust * Double(letters) / Double(1 + rank)
            // A short word's whole names are tier 1 while it may still be typed on (`ath`),
            // not once it is finished (`ath `).
            if rank == 0 && found.rank.wholeName && found.rank.ownName && (!search.isOneShortWord || finished) {
                geocoder = max(geocoder, B.wholeNameScore)
            }
            if let i = candidates.firstIndex(where: { $0.found.place.offset == found.place.offset }) {
                candidates[i].geocoder = geocoder
                candidates[i].found.matched = found.matched
            } else {
                candidates.append((found, 0, geocoder))
            }
        }
        func score(_ c: (found: FoundPlace, graph: Double, geocoder: Double)) -> Double {
            var nearness = 1.0
            if let location { nearness = 1 / (1 + location.distance(to: c.found.place.coordinate) / 1000 / B.nearnessDistance) }
            return c.graph * nearness + c.geocoder
        }
        // Stable: equal scores keep the graph's order, then the geocoder's.
        let ranked = candidates.enumerated().map { ($0.offset, score($0.element), $0.element) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        let places = ranked.map { Self.suggestion($0.2.found, fingerprint: result.fingerprint, predicted: $0.2.graph > 0) }
        return Self.suggestions(
            text, collections: result.collections, places: places, fingerprint: result.fingerprint, location: location, limit: limit)
    }

    /// The suggestion for a found place.
    static func suggestion(_ found: FoundPlace, fingerprint: UInt64, predicted: Bool) -> Suggestion {
        let key = MagicKey.place(fingerprint: fingerprint, offset: found.place.offset, line: found.place.line)
        return Suggestion(text: found.place.label, magicKey: key.encoded, isCollection: false, matched: found.matched, predicted: predicted)
    }

    /// The row whose label is `label` (case and accents ignored): of several, the nearest
    /// to `location`, else the most important; nil when no row has it.
    package func place(labelled label: String, near location: Coordinate?, filters: PlaceFilters = PlaceFilters()) throws(GeocoderError)
        -> FoundPlace?
    {
        // No row is longer than the scanner takes: a longer name (a graph is any JSON
        // file) is no label, and is not folded and matched at its length.
        guard label.utf8.count <= GazetteerScanner.maximumRowLength else { return nil }
        let name = String(label.prefix { $0 != "," })
        guard !MatchQuery(name).matchesEverything else { return nil }
        let folded = TextFolding.fold(label)
        let indexed = try Self.reporting { try gazetteer.places(labelled: folded, name: name, filters: filters, all: location != nil) }
        var same = indexed ?? []
        if indexed == nil {
            // A scanned file: the name, the label's first part, finds the candidates (a
            // few rows, where the whole label's words, `United States`, match thousands).
            same = try find(text: name, filters: filters, limit: PredictiveBlend.labelRows).filter {
                TextFolding.fold($0.place.label) == folded
            }
        }
        guard let location else { return same.first }  // most important first
        return same.min { location.distance(to: $0.place.coordinate) < location.distance(to: $1.place.coordinate) }
    }
}
