/// Where people go next: a weighted, directed graph of places learned from visits.
///
/// Each visit strengthens the edge from the last place to this one (the seed article's
/// idea), and the places that usually follow are the suggestions. Two spellings are one
/// place when `placeKey(_:)` folds them to the same key; the spelling used most recently
/// is the one shown. Edges and places remember when they were last visited (Unix
/// seconds, given by the caller) and places how often, and at which hours of the day, for
/// the habits suggestions weigh (`Suggestions.swift`). A visit can start a
/// new trip (`newTrip`, or `tripGap`), which records no edge from the previous place.
///
/// Places live in an array and edges refer to them by index, with dictionaries from
/// folded key to place and from (origin, destination) to edge. Edges keep the order in
/// which they were first learned or read, places the order of their records in the file
/// (then of their first visit), so a save changes a few lines and appends new ones.
public struct RouteGraph: Sendable {
    /// The file format version this code writes and the newest it reads.
    public static let currentVersion = 1

    /// One learned route: how often someone went from `origin` to `destination`.
    public struct Edge: Sendable, Hashable {
        /// Where the trip started (the display spelling).
        public var origin: String
        /// Where it went next (the display spelling).
        public var destination: String
        /// How many times this route was travelled.
        public var weight: Int
        /// When it was last travelled, in Unix seconds; nil for edges from the seed's format.
        public var lastVisitedAt: Int64?

        /// Creates an edge.
        public init(origin: String, destination: String, weight: Int = 1, lastVisitedAt: Int64? = nil) {
            self.origin = origin
            self.destination = destination
            self.weight = weight
            self.lastVisitedAt = lastVisitedAt
        }
    }

    /// A place: how it is shown, what it is known by, and how often it was visited.
    struct Place: Sendable {
        /// The most recently used spelling, whitespace trimmed and collapsed.
        var name: String
        /// `placeKey(name)`.
        var key: String
        /// How many visits it had.
        var visits: Int = 0
        /// When it was last visited, in Unix seconds.
        var lastVisitedAt: Int64? = nil
        /// Its visits by local hour of day, as far as known.
        var hours = HourCounts()
    }

    /// What is known about visits to one place: its habits.
    public struct PlaceStatistics: Sendable, Equatable {
        /// The display spelling.
        public var name: String
        /// How many visits it had.
        public var visits: Int
        /// When it was last visited, in Unix seconds, if known.
        public var lastVisitedAt: Int64?
        /// Its visits by local hour of day, as far as known (none for older files).
        public var hours: HourCounts

        /// Statistics for one place.
        public init(name: String, visits: Int, lastVisitedAt: Int64?, hours: HourCounts = HourCounts()) {
            self.name = name
            self.visits = visits
            self.lastVisitedAt = lastVisitedAt
            self.hours = hours
        }
    }

    /// An edge between place indices.
    struct Link: Sendable, Equatable {
        var origin: Int
        var destination: Int
        var weight: Int
        var lastVisitedAt: Int64?
    }

    /// All places ever interned, by index; some may be unreferenced until `compact()`.
    var placeTable: [Place] = []
    /// Folded key → index in `placeTable`.
    var placeIndex: [PlaceKey: Int] = [:]
    /// The edges in the order they were learned.
    var links: [Link] = []
    /// `linkKey(origin, destination)` → index in `links`.
    var linkIndex: [UInt64: Int] = [:]
    /// Index of the place visited last.
    var lastPlace: Int?
    /// The file's top-level members this version does not know, as they were written
    /// (`"key": value`), sorted: kept, and written back in key order.
    var otherMembers: [[UInt8]] = []
    /// Counts the changes made since the graph was created or read; `GraphFile.update`
    /// saves only when it moved, which is cheaper than comparing whole graphs.
    package internal(set) var revision = 0

    /// When the last visit happened, in Unix seconds.
    public internal(set) var lastVisitedAt: Int64?
    /// The format version this graph was read from (0 for the seed's format, which has
    /// no `version` key); `currentVersion` for a new graph. Saving always writes
    /// `currentVersion`.
    public internal(set) var version: Int = RouteGraph.currentVersion

    /// Creates an empty graph.
    public init() {}

    // MARK: Reading

    /// The place visited last, as it was spelled.
    public var lastVisitedLocation: String? {
        lastPlace.map { placeTable[$0].name }
    }

    /// Every edge, in the order learned.
    public var edges: [Edge] {
        links.map(edge(for:))
    }

    /// The display names of all places that are on an edge or were visited last.
    public var places: [String] {
        referencedPlaces().map { placeTable[$0].name }
    }

    /// The edge from `origin` to `destination` (any spelling of either), if travelled.
    public func edge(from origin: String, to destination: String) -> Edge? {
        guard let from = placeIndex[PlaceKey(Self.placeKey(origin))], let to = placeIndex[PlaceKey(Self.placeKey(destination))],
            let index = linkIndex[Self.linkKey(from, to)]
        else { return nil }
        return edge(for: links[index])
    }

    /// The edges leaving `place` (any spelling), in the order learned.
    public func edges(from place: String) -> [Edge] {
        guard let from = placeIndex[PlaceKey(Self.placeKey(place))] else { return [] }
        return links.lazy.filter { $0.origin == from }.map(edge(for:))
    }

    /// The visit statistics of `place` (any spelling), if it is known.
    public func statistics(of place: String) -> PlaceStatistics? {
        placeIndex[PlaceKey(Self.placeKey(place))].map(statistics(at:))
    }

    /// The visit statistics of every place, in the order they were first seen.
    public var placeStatistics: [PlaceStatistics] {
        referencedPlaces().map(statistics(at:))
    }

    func statistics(at index: Int) -> PlaceStatistics {
        let place = placeTable[index]
        return PlaceStatistics(name: place.name, visits: place.visits, lastVisitedAt: place.lastVisitedAt, hours: place.hours)
    }

    // MARK: Place identity

    /// The identity of a place name: whitespace trimmed, runs of whitespace collapsed to
    /// one space, and every scalar case- and accent-folded (see `PlaceName`). Two names
    /// are the same place exactly when their keys are equal; an empty key names no place.
    package static func placeKey(_ name: String) -> String {
        PlaceName.normalize(name).key
    }

    // MARK: Changing

    /// Records a visit to `place` at `time` (Unix seconds): strengthens the edge from the
    /// last place (creating it with weight 1), counts the visit on the place and in its
    /// local hour of day in `timeZone`, then makes `place` the last place and its
    /// spelling the displayed one.
    ///
    /// No edge is recorded when `newTrip` is set, when the visit comes more than
    /// `tripGap` seconds after the last one, or when `place` is the last place itself and
    /// `selfLoops` is not set. Returns false, changing nothing, when the name is empty or
    /// only whitespace.
    @discardableResult
    public mutating func visit(
        _ place: String, at time: Int64, selfLoops: Bool = false, newTrip: Bool = false, tripGap: Int64? = nil,
        timeZone: LocalTimeZone = .system
    ) -> Bool {
        let (display, key) = PlaceName.normalize(place)
        guard !key.isEmpty else { return false }
        let startsTrip = newTrip || (tripGap.map { gap in lastVisitedAt.map { Self.age(at: time, since: $0) > gap } ?? false } ?? false)
        let here = intern(display: display, key: key)
        if let last = lastPlace, !startsTrip, last != here || selfLoops {
            strengthen(from: last, to: here, by: 1, at: time)
        }
        addStatistics(visits: 1, lastVisitedAt: time, to: here)
        placeTable[here].hours.count(hour: timeZone.hour(at: time))
        lastPlace = here
        lastVisitedAt = time
        revision += 1
        return true
    }

    /// Removes `place` (any spelling) and every edge to or from it; false if unknown.
    /// Forgetting the last place leaves the graph with no last place.
    @discardableResult
    public mutating func forget(_ place: String) -> Bool {
        guard let doomed = placeIndex[PlaceKey(Self.placeKey(place))] else { return false }
        var removed = [Bool](repeating: false, count: placeTable.count)
        removed[doomed] = true
        remove(places: removed)
        revision += 1
        return true
    }

    /// Drops the least used places until at most `maxPlaces` remain, and returns how
    /// many were dropped.
    ///
    /// A place's use is its visit count plus the total weight of the edges touching it;
    /// ties go to the one used longest ago, then to the key, so the result does not
    /// depend on order.
    /// The last place is never dropped, nor the `recentShare` of the places used most
    /// recently: a new place has few uses, and would otherwise be dropped as soon as
    /// another came, never establishing itself however often it is visited later.
    /// Dropping a place removes its edges, which can leave neighbours with no edges; they
    /// go too, so fewer places may remain.
    @discardableResult
    public mutating func prune(maxPlaces: Int) -> Int {
        // The table holds at least every referenced place: usually nothing to count.
        guard placeTable.count > maxPlaces else { return 0 }
        let referenced = referencedPlaces()
        guard referenced.count > maxPlaces else { return 0 }
        var use = placeTable.map(\.visits)
        var recent = placeTable.map { $0.lastVisitedAt ?? .min }
        for link in links {
            for end in [link.origin, link.destination] {
                let (sum, overflow) = use[end].addingReportingOverflow(link.weight)
                use[end] = overflow ? .max : sum
                recent[end] = max(recent[end], link.lastVisitedAt ?? .min)
            }
        }
        let newest = Set(
            referenced.sorted { (recent[$0], placeTable[$0].key) > (recent[$1], placeTable[$1].key) }
                .prefix(max(maxPlaces, 0) / Self.recentShare))
        let candidates = referenced.filter { $0 != lastPlace && !newest.contains($0) }.sorted {
            (use[$0], recent[$0], placeTable[$0].key) < (use[$1], recent[$1], placeTable[$1].key)
        }
        let excess = min(referenced.count - max(maxPlaces, 0), candidates.count)
        var removed = [Bool](repeating: false, count: placeTable.count)
        for index in candidates.prefix(excess) { removed[index] = true }
        let before = referenced.count
        remove(places: removed)
        revision += 1
        return before - placeTable.count
    }

    /// `prune` keeps the 1/`recentShare` of `maxPlaces` most recently used places (a
    /// tenth: 5,000 of the default 50,000), whatever their use.
    static let recentShare = 10

    // MARK: Storage

    static func linkKey(_ origin: Int, _ destination: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: origin) << 32 | UInt64(truncatingIfNeeded: destination)
    }

    func edge(for link: Link) -> Edge {
        Edge(
            origin: placeTable[link.origin].name, destination: placeTable[link.destination].name,
            weight: link.weight, lastVisitedAt: link.lastVisitedAt)
    }

    /// The index of the place with `key`, created if new; its spelling becomes `display`.
    mutating func intern(display: String, key: String) -> Int {
        if let index = placeIndex[PlaceKey(key)] {
            if !PlaceKey.sameBytes(placeTable[index].name, display) { placeTable[index].name = display }
            return index
        }
        placeTable.append(Place(name: display, key: key))
        placeIndex[PlaceKey(key)] = placeTable.count - 1
        return placeTable.count - 1
    }

    /// The index of the place spelled `name` (valid UTF-8, as read from a file), created
    /// if new; this spelling becomes its display spelling. Nil for a name with an empty
    /// key.
    mutating func intern(spelling name: UnsafeRawBufferPointer) -> Int? {
        let key = PlaceName.withKey(name) { String(decoding: $0, as: UTF8.self) }
        guard !key.isEmpty else { return nil }
        // Most files spell a place one way: then its display spelling is known.
        if let index = placeIndex[PlaceKey(key)],
            placeTable[index].name.utf8.withContiguousStorageIfAvailable({ Platform.bytesEqual(UnsafeRawBufferPointer($0), name) })
                == true
        {
            return index
        }
        return intern(display: PlaceName.normalize(name).display, key: key)
    }

    /// Adds `weight` to the edge `origin → destination`, creating it if needed; the edge's
    /// time becomes the later of its time and `time`.
    mutating func strengthen(from origin: Int, to destination: Int, by weight: Int, at time: Int64?) {
        let key = Self.linkKey(origin, destination)
        if let index = linkIndex[key] {
            let (sum, overflow) = links[index].weight.addingReportingOverflow(weight)
            links[index].weight = overflow ? .max : sum
            if let time { links[index].lastVisitedAt = max(links[index].lastVisitedAt ?? time, time) }
        } else {
            links.append(Link(origin: origin, destination: destination, weight: weight, lastVisitedAt: time))
            linkIndex[key] = links.count - 1
        }
    }

    /// Fills in visit statistics for a file that has none (the seed's format): a place
    /// was visited as often as edges led into it, last when the latest of them was
    /// travelled; the last place was visited at least once, at the graph's last visit.
    mutating func estimateStatisticsFromEdges() {
        for link in links { addStatistics(visits: Int64(link.weight), lastVisitedAt: link.lastVisitedAt, to: link.destination) }
        if let lastPlace {
            placeTable[lastPlace].visits = max(placeTable[lastPlace].visits, 1)
            addStatistics(visits: 0, lastVisitedAt: lastVisitedAt, to: lastPlace)
        }
    }

    /// The places on an edge, with visits, or visited last, in index order.
    func referencedPlaces() -> [Int] {
        var seen = placeTable.map { $0.visits > 0 }
        // (When every place has visits, as in most graphs, no edge need be read.)
        if seen.contains(false) {
            for link in links {
                seen[link.origin] = true
                seen[link.destination] = true
            }
            if let lastPlace { seen[lastPlace] = true }
        }
        return seen.indices.filter { seen[$0] }
    }

    /// Removes the marked places, their visit counts and their edges, then renumbers
    /// what is left, dropping places no edge refers to and that were never visited.
    private mutating func remove(places removed: [Bool]) {
        links.removeAll { removed[$0.origin] || removed[$0.destination] }
        for index in removed.indices where removed[index] {
            placeTable[index].visits = 0
            placeTable[index].lastVisitedAt = nil
            placeTable[index].hours = HourCounts()
        }
        if let last = lastPlace, removed[last] {
            lastPlace = nil
            lastVisitedAt = nil
        }
        compact()
    }

    /// Renumbers places so only referenced ones remain, keeping their relative order.
    mutating func compact() {
        let kept = referencedPlaces()
        var newIndex = [Int](repeating: -1, count: placeTable.count)
        placeIndex.removeAll(keepingCapacity: true)
        for (number, index) in kept.enumerated() {
            newIndex[index] = number
            placeIndex[PlaceKey(placeTable[index].key)] = number
        }
        placeTable = kept.map { placeTable[$0] }
        linkIndex.removeAll(keepingCapacity: true)
        for index in links.indices {
            links[index].origin = newIndex[links[index].origin]
            links[index].destination = newIndex[links[index].destination]
            linkIndex[Self.linkKey(links[index].origin, links[index].destination)] = index
        }
        lastPlace = lastPlace.map { newIndex[$0] }
    }
}

extension RouteGraph: Equatable {
    /// Graphs are equal when they would be saved the same, but for the order of their
    /// place records (it depends on the file's layout, and nothing ranks by it): the same
    /// edges in the same order with the same spellings (byte for byte), weights and
    /// times, the same place statistics, the same last place and time, and the same other
    /// members. Unreferenced places, internal numbering and the version read (saving
    /// writes the current one) do not count.
    public static func == (lhs: RouteGraph, rhs: RouteGraph) -> Bool {
        func placesByKey(_ graph: RouteGraph) -> [Int] {
            graph.referencedPlaces().sorted { graph.placeTable[$0].key.utf8.lexicographicallyPrecedes(graph.placeTable[$1].key.utf8) }
        }
        return lhs.json(places: placesByKey(lhs)) == rhs.json(places: placesByKey(rhs))
    }
}
