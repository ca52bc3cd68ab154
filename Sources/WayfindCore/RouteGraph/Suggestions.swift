/// Which places come next: the ordering behind `routegraph-suggest`.
///
/// Suggestions start from one place, the *from-place* f (by default the last place
/// visited), and give every other known place p one score:
///
///     score(p) = w(f→p) · 2^(−g / gapHalfLife)                             trips from here
///              + habitWeight · (v(p) + timeOfDayWeight · v_now(p))          habits, at this
///                            / (V + timeOfDayWeight · V_now)                 time of day
///
/// **Trips from here.** w(f→p) is the weight of the edge from f to p (how often that
/// trip was made; 0 without an edge). They matter most just after arriving at f, and
/// fade as the time since, g = now − f's last visit, grows: by half every six hours. A
/// from-place of unknown time (the seed's files) does not fade.
///
/// **Habits, at this time of day.** v(p) is p's visits; v_now(p) those made within
/// `window` hours of now's local hour of day, going round midnight (at 18:xx, the hours
/// 16 to 20); V and V_now are the same sums over every place, so the habit term is p's
/// share of all visits, weighted towards this time of day, times `habitWeight`. Visits
/// not known by hour (files without `hours`) count evenly over the day.
///
/// In the seed's scenario (City Center visited 14 times, Airport 12, Football Field 1,
/// all within the hour), from City Center just after arriving there:
///
///     Airport          11 + 10 · 12/27 ≈ 15.4     → 1st
///     Football Field    1 + 10 ·  1/27 ≈  1.4     → 2nd
///
/// (All 27 visits were at the same time of day, so they are all "now" or none is, and
/// the shares stay 12/27 and 1/27; the from-place's own visits count in V.)
///
/// The rule and its four constants come from replaying a real log of people's
/// successive visits, asking at the time each next visit happened: tuned on some people
/// and checked on a thousand others, it put the next place in the top five 1.13 times
/// as often as a per-person Markov-plus-frequency baseline (95% interval 1.09–1.18),
/// and first 1.23 times as often. zoxide's recency buckets, which the previous ordering
/// used, added nothing there.
///
/// Highest score first; equal scores by the later last visit of the place, then by
/// name. The from-place itself is not suggested, unless `includeFrom` (completion: the
/// place just visited completes again, by its habit, after the places with a trip from it). `successorsOnly` keeps only the
/// places f has an edge to. **Old habits fade** with a half-life `H` (off by default):
/// then an edge also counts `2^(−age/H)`, age being the time since it was last
/// travelled, and a place's visits `2^(−age/H)`, age being the time since its last
/// visit (no time known: no fade). A `filter` (the QUERY words, with smartgrep's rules)
/// applies before the limit.
public struct SuggestionRequest: Sendable {
    /// The place to suggest from (any spelling); nil means the last place visited.
    public var from: String?
    /// At most this many suggestions; nil for all.
    public var limit: Int?
    /// Only the places the from-place has an edge to.
    public var successorsOnly: Bool
    /// The half-life of a habit in seconds; nil means habits do not fade.
    public var halfLife: Int64?
    /// The current time, in Unix seconds.
    public var now: Int64
    /// The time zone whose hour of day "now" is in (the one visits were counted in).
    public var timeZone: LocalTimeZone
    /// Whether the from-place may be suggested too, by its score like any other place.
    public var includeFrom = false
    /// Only places of a positive score: a place that no trip from here and no habit
    /// points to (named only on other edges, or not visited lately enough to count) is
    /// left out, where a list that falls short would end with it.
    public var positiveOnly = false

    /// A request; the defaults are `routegraph-suggest`'s.
    public init(
        from: String? = nil, limit: Int? = 10, successorsOnly: Bool = false, halfLife: Int64? = nil, now: Int64,
        timeZone: LocalTimeZone = .system
    ) {
        self.from = from
        self.limit = limit
        self.successorsOnly = successorsOnly
        self.halfLife = halfLife
        self.now = now
        self.timeZone = timeZone
    }
}

/// One suggested place.
public struct Suggestion: Sendable, Equatable {
    /// What a suggestion's score is made of.
    public enum Source: String, Sendable {
        /// The from-place has an edge to it: trips from here, plus its habit.
        case edge
        /// No edge from the from-place: its habit alone.
        case habit
    }

    /// The place, as it is shown.
    public var place: String
    /// The score that ranked it.
    public var score: Double
    /// Whether an edge from the from-place counted in the score.
    public var source: Source
}

/// The constants of the ordering, each with its reason (see `SuggestionRequest`). The
/// names in brackets are those of the rule as it was tuned.
enum SuggestionRule {
    /// What all the habits together are worth, in trips from here (ALPHA): a place that
    /// has every visit counts ten trips; one with a tenth of them, one trip. Lower, and a
    /// single old trip outranked the places someone goes to every day; higher, and the
    /// edges stopped mattering.
    static let habitWeight = 10.0
    /// How much more a visit at this time of day counts than one at another time
    /// (TIME_WEIGHT): ten times more, on top of counting once as a visit. Daily routines
    /// (work in the morning, the gym after work) are what the time of day tells apart.
    static let timeOfDayWeight = 10.0
    /// How many hours either side of now's hour count as "this time of day" (WINDOW):
    /// five hours in all, so a habit of 17:30 still counts at 19:10, but not at noon.
    static let window = 2
    /// The half-life of trips from here, in seconds (GAP_HALF_LIFE): where someone goes
    /// from a place depends on having just arrived there; after six hours the edges count
    /// half, after a night a quarter or less, and habits take over.
    static let gapHalfLife: Int64 = 6 * 3600
}

/// The time a request is asked at, as the rule needs it.
struct SuggestionMoment {
    var now: Int64
    /// The hours of "this time of day": within `SuggestionRule.window` of now's local hour.
    var window: HourCounts.Window
    var halfLife: Int64?

    init(_ request: SuggestionRequest) {
        now = request.now
        window = HourCounts.Window(radius: SuggestionRule.window, around: request.timeZone.hour(at: request.now))
        halfLife = request.halfLife
    }
}

/// A place being ranked (see `RouteGraph.ranksBefore`); `place` is an index, of the
/// graph's places or of a file's records. A struct, not a tuple: an array of tuples costs
/// every start a run-time metadata instantiation.
struct Candidate {
    var place: Int
    var score: Double
    var time: Int64
}

/// Candidates taken best first by score and time, ties in the order given, as a stable
/// sort would list them, but without sorting them all: a binary heap. A filtered list
/// takes the few best that pass its filter, of thousands.
struct CandidateQueue {
    private var heap: [(candidate: Candidate, order: Int)]

    init(_ candidates: [Candidate]) {
        heap = candidates.enumerated().map { ($0.element, $0.offset) }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
    }

    /// Whether `a` comes before `b`.
    private func before(_ a: Int, _ b: Int) -> Bool {
        let x = heap[a], y = heap[b]
        return RouteGraph.ranksBefore(score: x.candidate.score, time: x.candidate.time, score: y.candidate.score, time: y.candidate.time)
            ?? (x.order < y.order)
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            var first = i
            let left = 2 * i + 1, right = left + 1
            if left < heap.count && before(left, first) { first = left }
            if right < heap.count && before(right, first) { first = right }
            if first == i { return }
            heap.swapAt(i, first)
            i = first
        }
    }

    /// The candidates left, in no order, taken out.
    mutating func takeRest() -> [Candidate] {
        defer { heap = [] }
        return heap.map(\.candidate)
    }

    /// The best candidate left, taken out; nil when none is.
    mutating func next() -> Candidate? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let best = heap.removeLast().candidate
        siftDown(0)
        return best
    }
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
        if list.count >= nextCut { cut() }
    }

    /// The length at which `append` cuts the list: 256 and four times the room, and
    /// twice what the last cut left, so that a list of ties, which no cut shortens, is
    /// not cut again at every append.
    private var nextCut: Int {
        max(room > (Int.max - 256) / 4 ? .max : 256 + 4 * room, 2 * lengthAfterCut)
    }
    private var lengthAfterCut = 0

    /// Cuts the list back to the best `room` and their ties, once it has that many.
    mutating func cut() {
        guard room > 0, list.count >= room else { return }
        defer { lengthAfterCut = list.count }
        func before(_ a: Candidate, _ b: Candidate) -> Bool? {
            RouteGraph.ranksBefore(score: a.score, time: a.time, score: b.score, time: b.time)
        }
        list.sort { before($0, $1) == true }
        let last = list[room - 1]
        list.removeAll { before(last, $0) == true }
        bar = (last.score, last.time)
    }
}

extension RouteGraph {
    /// A filter on the UTF-8 bytes of a place's display name: what a scan of a file's
    /// names calls, without making a string of each.
    package struct NameFilter {
        /// Whether the place of this display name passes.
        package var accepts: (UnsafeBufferPointer<UInt8>) -> Bool
        /// A first look at a name as a file spells it, which differs from its display
        /// name in whitespace at most: false when the name cannot pass, so that a scan
        /// need not make the display name of every name it rejects. Nil: none.
        package var mayAccept: ((UnsafeRawBufferPointer) -> Bool)? = nil

        package init(accepts: @escaping (UnsafeBufferPointer<UInt8>) -> Bool, mayAccept: ((UnsafeRawBufferPointer) -> Bool)? = nil) {
            self.accepts = accepts
            self.mayAccept = mayAccept
        }

        /// Whether the place the file spells `name` passes (`PlaceName.withDisplay`).
        func accepts(spelling name: UnsafeRawBufferPointer) -> Bool {
            if let mayAccept, !mayAccept(name) { return false }
            return PlaceName.withDisplay(name, accepts)
        }
    }

    /// `filter` on strings (display names, which its first look takes too).
    package static func stringFilter(_ filter: NameFilter) -> (String) -> Bool {
        let (mayAccept, acceptsBytes) = (filter.mayAccept, filter.accepts)
        return { name in
            func accepts(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
                mayAccept?(UnsafeRawBufferPointer(bytes)) != false && acceptsBytes(bytes)
            }
            // (Native strings, all on Linux, lend their bytes without a copy of the string.)
            if let verdict = name.utf8.withContiguousStorageIfAvailable(accepts) { return verdict }
            var name = name
            return name.withUTF8(accepts)
        }
    }

    /// `filter` on bytes.
    static func nameFilter(_ filter: @escaping (String) -> Bool) -> NameFilter {
        NameFilter { filter(String(decoding: $0, as: UTF8.self)) }
    }

    /// The suggestions for `request`, best first; `filter` keeps only the places whose
    /// display name it accepts (all if nil).
    public func suggestions(
        for request: SuggestionRequest, filter: ((String) -> Bool)? = nil
    ) -> [Suggestion] {
        suggestions(for: request, filter: filter, allHabits: nil)
    }

    /// The suggestions, with the habits of all places summed already when `allHabits` is
    /// given (a scan that built this graph from part of a file knows the whole file's).
    func suggestions(for request: SuggestionRequest, filter: ((String) -> Bool)?, allHabits given: Double?) -> [Suggestion] {
        let from: Int?
        if let name = request.from {
            from = placeIndex[PlaceKey(Self.placeKey(name))]
        } else {
            from = lastPlace
        }
        let limit = request.limit ?? .max
        guard limit > 0 else { return [] }
        let moment = SuggestionMoment(request)
        let candidates = referencedPlaces()

        // Habits: every place's, and their sum.
        var habits = [Double](repeating: 0, count: placeTable.count)
        var allHabits = 0.0
        for index in candidates {
            habits[index] = habit(of: index, at: moment)
            allHabits += habits[index]
        }
        if let given { allHabits = given }

        // Trips from here: the edges leaving the from-place.
        var trips = [Double?](repeating: nil, count: placeTable.count)
        if let from {
            for link in links where link.origin == from && link.destination != from {
                trips[link.destination] = Self.trips(
                    weight: link.weight, lastTravelledAt: link.lastVisitedAt, leftAt: placeTable[from].lastVisitedAt,
                    at: moment)
            }
        }

        var best = BestCandidates(room: limit)
        for index in candidates where index != from && (!request.successorsOnly || trips[index] != nil) {
            let score = Self.score(trips: trips[index] ?? 0, habit: habits[index], allHabits: allHabits)
            let time = placeTable[index].lastVisitedAt ?? .min
            guard !request.positiveOnly || score > 0, best.admits(score: score, time: time),
                filter?(placeTable[index].name) ?? true
            else { continue }
            best.append(Candidate(place: index, score: score, time: time))
        }
        var result = best.list.sorted(by: ranksBefore).prefix(limit).map { entry in
            Suggestion(place: placeTable[entry.place].name, score: entry.score, source: trips[entry.place] == nil ? .habit : .edge)
        }
        // Completion offers the place just visited too: by its habit, after every place
        // that usually comes next from it (it has no trip from itself to count).
        if request.includeFrom, !request.successorsOnly, let from, filter?(placeTable[from].name) ?? true {
            let score = Self.score(trips: 0, habit: habits[from], allHabits: allHabits)
            guard !request.positiveOnly || score > 0 else { return result }
            let position = result.firstIndex { $0.source == .habit && $0.score < score } ?? result.endIndex
            result.insert(Suggestion(place: placeTable[from].name, score: score, source: .habit), at: position)
            if result.count > limit { result.removeLast() }
        }
        return result
    }

    /// A place's habit: `v + timeOfDayWeight · v_now`, faded with the request's half-life
    /// by the time since the place's last visit.
    func habit(of index: Int, at moment: SuggestionMoment) -> Double {
        Self.habit(
            visits: placeTable[index].visits, hours: placeTable[index].hours, lastVisitedAt: placeTable[index].lastVisitedAt, at: moment)
    }

    /// The habit of a place with these statistics (see the essay above); the one
    /// definition, for a whole graph and for a scan of a file's records.
    ///
    /// v_now is the visits counted in the hours of the window, plus the visits not
    /// counted by hour spread evenly over the 24 hours; never more than v.
    static func habit(visits: Int, hours: HourCounts, lastVisitedAt time: Int64?, at moment: SuggestionMoment) -> Double {
        guard visits > 0 else { return 0 }
        let visits = Double(visits)
        let windowHours = Double(2 * SuggestionRule.window + 1)
        let unknown = max(visits - Double(hours.total), 0)
        let now = min(Double(hours.total(in: moment.window)) + unknown * windowHours / 24, visits)
        var habit = visits + SuggestionRule.timeOfDayWeight * now
        if let halfLife = moment.halfLife, let time {
            habit *= fade(age: age(at: moment.now, since: time), halfLife: halfLife)
        }
        return habit
    }

    /// What an edge of `weight` from the from-place counts: faded by the time since the
    /// from-place was left at (`gapHalfLife`), and with a half-life by the time since the
    /// edge was last travelled.
    static func trips(weight: Int, lastTravelledAt: Int64?, leftAt: Int64?, at moment: SuggestionMoment) -> Double {
        var trips = Double(weight)
        if let leftAt { trips *= fade(age: age(at: moment.now, since: leftAt), halfLife: SuggestionRule.gapHalfLife) }
        if let halfLife = moment.halfLife, let lastTravelledAt {
            trips *= fade(age: age(at: moment.now, since: lastTravelledAt), halfLife: halfLife)
        }
        return trips
    }

    /// The one score: trips from here plus the place's share of all habits.
    static func score(trips: Double, habit: Double, allHabits: Double) -> Double {
        trips + (allHabits > 0 ? SuggestionRule.habitWeight * habit / allHabits : 0)
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

    /// The one ranking of suggestions: the higher score first, then the later time (of
    /// the place's last visit), then by name (folded key, then spelling, byte for byte), so
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
