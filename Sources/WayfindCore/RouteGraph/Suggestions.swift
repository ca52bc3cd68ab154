/// Which places come next: the ordering behind `routegraph-suggest`.
///
/// Suggestions start from one place, the *from-place* (by default the last place
/// visited). They come in two tiers.
///
/// **Successors first.** The places the from-place has edges to, by the edge's weight,
/// heaviest first; equal weights by the most recent use of the edge, then by name. In
/// the seed's scenario, from City Center:
///
///     City Center → Airport          weight 11   → 1st
///     City Center → Football Field   weight 1    → 2nd
///
/// **Then everything else, by frecency**: how often and how recently each place was
/// visited, so that a place you go to a lot is offered even from a place you never
/// left before, and the tool never comes back empty-handed while there is history.
///
///     frecency = visits × recency(age)     age = now − last visit of the place
///
/// `recency` is zoxide's step function, which has proved itself for directories:
/// ×4 within the hour, ×2 within the day, ×½ within the week, ×¼ after that (and for
/// places whose last visit is unknown). So 3 visits an hour ago (score 12) beat 20
/// visits last month (score 5), but 100 visits last month (25) beat both.
///
/// **Old habits fade** with a half-life `H` (off by default). Then an edge counts
/// `weight × 2^(−age/H)`, age being the time since the edge was last travelled, and
/// frecency uses `2^(−age/H)` in place of the step function. With `H` = 30 days, a route
/// taken 20 times two months ago (score 5) ranks below one taken 6 times this week
/// (about 5.4). Edges with no time (files written by the seed's code) do not fade.
///
/// The from-place itself is not suggested, unless `includeFrom` (completion: the place
/// just visited completes like any other, in the frecency tier). A `filter` (the QUERY words, with
/// smartgrep's rules) applies to both tiers before the limit.
public struct SuggestionRequest: Sendable {
    /// The place to suggest from (any spelling); nil means the last place visited.
    public var from: String?
    /// At most this many suggestions; nil for all.
    public var limit: Int?
    /// Leave out the frecency tier.
    public var successorsOnly: Bool
    /// The half-life of a habit in seconds; nil means habits do not fade.
    public var halfLife: Int64?
    /// The current time, in Unix seconds.
    public var now: Int64
    /// Whether the from-place may be suggested too, by its frecency, after its successors.
    public var includeFrom = false

    /// A request; the defaults are `routegraph-suggest`'s.
    public init(from: String? = nil, limit: Int? = 10, successorsOnly: Bool = false, halfLife: Int64? = nil, now: Int64) {
        self.from = from
        self.limit = limit
        self.successorsOnly = successorsOnly
        self.halfLife = halfLife
        self.now = now
    }
}

/// One suggested place.
public struct Suggestion: Sendable, Equatable {
    /// Where a suggestion's score came from.
    public enum Source: String, Sendable {
        /// An edge from the from-place: the score is its (faded) weight.
        case edge
        /// The place's frecency.
        case frecency
    }

    /// The place, as it is shown.
    public var place: String
    /// The score that ranked it within its tier.
    public var score: Double
    /// Which tier it came from.
    public var source: Source
}

/// The recency multipliers of frecency without a half-life (zoxide's).
enum Recency {
    /// Visited within the hour: counts four times.
    static let withinHour = (seconds: Int64(3600), factor: 4.0)
    /// Within the day: twice.
    static let withinDay = (seconds: Int64(86_400), factor: 2.0)
    /// Within the week: half.
    static let withinWeek = (seconds: Int64(604_800), factor: 0.5)
    /// Older, or unknown: a quarter.
    static let older = 0.25
}

/// A place being ranked (see `RouteGraph.ranksBefore`); `place` is an index, of the
/// graph's places or of a file's records. A struct, not a tuple: an array of tuples costs
/// every start a run-time metadata instantiation.
struct Candidate {
    var place: Int
    var score: Double
    var time: Int64
}

/// The best `room` candidates by score and time, and whatever ties with the last of them,
/// collected one at a time: the list is cut back to them whenever it has grown well past
/// `room`, which sets the bar a later candidate must reach. The caller orders what is
/// left by the whole of `ranksBefore` (names decide ties).
struct BestCandidates {
    let room: Int
    private(set) var list: [Candidate] = []
    private var bar: (score: Double, time: Int64)? = nil

    init(room: Int) {
        self.room = room
    }

    /// Whether a candidate of this score and time may be among the best.
    func admits(score: Double, time: Int64) -> Bool {
        guard room > 0 else { return false }
        guard let bar else { return true }
        return RouteGraph.ranksBefore(score: bar.score, time: bar.time, score: score, time: time) != true
    }

    /// Adds a candidate that `admits` let in.
    mutating func append(_ candidate: Candidate) {
        list.append(candidate)
        if list.count >= 256 && (list.count - 256) / 4 >= room { cut() }
    }

    /// Cuts the list back to the best `room` and their ties.
    mutating func cut() {
        guard list.count > room else { return }
        list.sort { RouteGraph.ranksBefore(score: $0.score, time: $0.time, score: $1.score, time: $1.time) == true }
        let last = list[room - 1]
        list.removeAll { RouteGraph.ranksBefore(score: last.score, time: last.time, score: $0.score, time: $0.time) == true }
        bar = (last.score, last.time)
    }
}

extension RouteGraph {
    /// The suggestions for `request`, best first; `filter` keeps only the places whose
    /// display name it accepts (all if nil).
    public func suggestions(
        for request: SuggestionRequest, filter: ((String) -> Bool)? = nil
    ) -> [Suggestion] {
        let from: Int?
        if let name = request.from {
            from = placeIndex[PlaceKey(Self.placeKey(name))]
        } else {
            from = lastPlace
        }
        let limit = request.limit ?? .max
        guard limit > 0 else { return [] }
        var isTaken = [Bool](repeating: false, count: placeTable.count)
        if let from, !request.includeFrom { isTaken[from] = true }
        var result: [Suggestion] = []

        // Tier one: successors. Few per place, so they are simply collected and sorted.
        if let from {
            var successors: [Candidate] = []
            for link in links where link.origin == from && link.destination != from {
                var score = Double(link.weight)
                if let halfLife = request.halfLife, let time = link.lastVisitedAt {
                    score *= Self.fade(age: Self.age(at: request.now, since: time), halfLife: halfLife)
                }
                successors.append(Candidate(place: link.destination, score: score, time: link.lastVisitedAt ?? .min))
            }
            successors.sort(by: ranksBefore)
            for successor in successors where result.count < limit {
                isTaken[successor.place] = true
                let name = placeTable[successor.place].name
                if let filter, !filter(name) { continue }
                result.append(Suggestion(place: name, score: successor.score, source: .edge))
            }
        }
        guard !request.successorsOnly, result.count < limit else { return result }

        // Tier two: frecency over every other place; only those that may be among the
        // best are filtered.
        let room = limit - result.count
        var best = BestCandidates(room: room)
        for index in referencedPlaces() where !isTaken[index] {
            let place = placeTable[index]
            let score = Self.frecency(
                visits: place.visits, lastVisitedAt: place.lastVisitedAt, now: request.now, halfLife: request.halfLife)
            let time = place.lastVisitedAt ?? .min
            guard best.admits(score: score, time: time), filter?(place.name) ?? true else { continue }
            best.append(Candidate(place: index, score: score, time: time))
        }
        for entry in best.list.sorted(by: ranksBefore).prefix(room) {
            result.append(Suggestion(place: placeTable[entry.place].name, score: entry.score, source: .frecency))
        }
        return result
    }

    /// The frecency of a place with these statistics: `visits × recency(age)`; see the
    /// essay at the top of this file.
    static func frecency(visits count: Int, lastVisitedAt time: Int64?, now: Int64, halfLife: Int64?) -> Double {
        let visits = Double(count)
        guard let time else {
            return halfLife == nil ? visits * Recency.older : visits
        }
        let age = max(Self.age(at: now, since: time), 0)
        if let halfLife { return visits * fade(age: age, halfLife: halfLife) }
        if age <= Recency.withinHour.seconds { return visits * Recency.withinHour.factor }
        if age <= Recency.withinDay.seconds { return visits * Recency.withinDay.factor }
        if age <= Recency.withinWeek.seconds { return visits * Recency.withinWeek.factor }
        return visits * Recency.older
    }

    /// `now − time`, saturated: a file may hold any 64-bit time.
    static func age(at now: Int64, since time: Int64) -> Int64 {
        let (age, overflow) = now.subtractingReportingOverflow(time)
        return overflow ? (time < 0 ? .max : .min) : age
    }

    /// `2^(−age/halfLife)`; times in the future count as now.
    static func fade(age: Int64, halfLife: Int64) -> Double {
        guard age > 0, halfLife > 0 else { return 1 }
        return Platform.powerOfTwo(-Double(age) / Double(halfLife))
    }

    /// The order of both tiers, the one ranking of suggestions: the higher score first,
    /// then the later time, then by name (folded key, then spelling, byte for byte), so
    /// the result never depends on the order of the file.
    func ranksBefore(_ a: Candidate, _ b: Candidate) -> Bool {
        if let order = Self.ranksBefore(score: a.score, time: a.time, score: b.score, time: b.time) { return order }
        let left = placeTable[a.place]
        let right = placeTable[b.place]
        if !PlaceKey.sameBytes(left.key, right.key) { return Self.bytesPrecede(left.key, right.key) }
        return Self.bytesPrecede(left.name, right.name)
    }

    /// The first part of `ranksBefore`, by score and time alone: nil when they tie (then
    /// names decide). A scan that has not named its candidates yet orders them by this.
    @inline(__always)
    static func ranksBefore(score: Double, time: Int64, score otherScore: Double, time otherTime: Int64) -> Bool? {
        if score != otherScore { return score > otherScore }
        if time != otherTime { return time > otherTime }
        return nil
    }

    private static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
