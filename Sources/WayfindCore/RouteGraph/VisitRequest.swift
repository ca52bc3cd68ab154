/// A batch of visits to record, as a value: what `routegraph-visit` was asked to do, which
/// `RouteGraph.record(_:)` applies to a graph and `GraphFile.record(_:)` to a file.
public struct VisitRequest: Sendable {
    /// One visit: a place (any spelling) and when, in Unix seconds.
    public struct Visit: Sendable, Equatable {
        /// The place visited.
        public var place: String
        /// When.
        public var time: Int64

        /// A visit to `place` at `time`.
        public init(place: String, time: Int64) {
            self.place = place
            self.time = time
        }
    }

    /// The visits, in the order they happened.
    public var visits: [Visit]
    /// Places to remove, with their edges, before the visits.
    public var forget: [String]
    /// The first visit starts a trip: no edge from the last place.
    public var newTrip: Bool
    /// A visit more than this many seconds after the previous one starts a trip.
    public var tripGap: Int64?
    /// Record an edge when a place follows itself.
    public var selfLoops: Bool
    /// After the visits, keep at most this many places (`RouteGraph.prune`); 0: no limit.
    public var maxPlaces: Int
    /// The time zone whose local hour each visit is counted in.
    public var timeZone: LocalTimeZone

    /// A request; the defaults are `routegraph-visit`'s but for `maxPlaces` (no limit).
    public init(
        visits: [Visit], forget: [String] = [], newTrip: Bool = false, tripGap: Int64? = nil, selfLoops: Bool = false,
        maxPlaces: Int = 0, timeZone: LocalTimeZone = .system
    ) {
        self.visits = visits
        self.forget = forget
        self.newTrip = newTrip
        self.tripGap = tripGap
        self.selfLoops = selfLoops
        self.maxPlaces = maxPlaces
        self.timeZone = timeZone
    }
}

/// What recording a `VisitRequest` did.
public struct VisitOutcome: Sendable, Equatable {
    /// How many visits were recorded (a name of whitespace only is not).
    public var recorded: Int
    /// The places to forget that were not known.
    public var unknown: [String]
}

extension RouteGraph {
    /// Applies `request`: forgets its places, records its visits one after the other
    /// (`visit(_:at:selfLoops:newTrip:tripGap:timeZone:)`, the first one starting a trip
    /// if `newTrip`), then prunes to `maxPlaces`. The one function every path that
    /// records visits calls, a file's patch (`GraphFile.record`) included.
    @discardableResult
    public mutating func record(_ request: VisitRequest) -> VisitOutcome {
        var unknown: [String] = []
        for place in request.forget where !forget(place) { unknown.append(place) }
        var recorded = 0
        for (offset, visit) in request.visits.enumerated() {
            if self.visit(
                visit.place, at: visit.time, selfLoops: request.selfLoops, newTrip: offset == 0 && request.newTrip,
                tripGap: request.tripGap, timeZone: request.timeZone)
            {
                recorded += 1
            }
        }
        if request.maxPlaces > 0 { prune(maxPlaces: request.maxPlaces) }
        return VisitOutcome(recorded: recorded, unknown: unknown)
    }
}
