import Testing

@testable import WayfindCore

@Suite("RouteGraph: suggestions")
struct SuggestionsTests {
    static let epoch: Int64 = 1_700_000_000
    static let hour: Int64 = 3600
    static let day: Int64 = 86_400

    func graph(visiting places: [String], from start: Int64 = epoch, step: Int64 = 1) -> RouteGraph {
        var graph = RouteGraph()
        for (offset, place) in places.enumerated() { graph.visit(place, at: start + Int64(offset) * step) }
        return graph
    }

    func names(_ suggestions: [Suggestion]) -> [String] { suggestions.map(\.place) }

    @Test func theSeedScenarioSuggestsAirportFirstAndFootballFieldSecond() {
        let graph = graph(visiting: Seed.scenario)
        let suggestions = graph.suggestions(for: SuggestionRequest(now: Self.epoch + 100))
        #expect(Array(names(suggestions).prefix(2)) == ["Airport", "Football Field"])
        #expect(suggestions[0].source == .edge && suggestions[0].score == 11)
        #expect(suggestions[1].source == .edge && suggestions[1].score == 1)
    }

    @Test func theSeedsOwnSuggestionsAgreeWithOurSuccessorsLessTheSelfLoop() {
        var seed = Seed.RouteGraph()
        for place in Seed.scenario { seed.visit(newLocation: place) }
        let ours = graph(visiting: Seed.scenario).suggestions(
            for: SuggestionRequest(successorsOnly: true, now: Self.epoch + 100))
        // The seed records City Center → City Center when a place is visited twice in a
        // row; we record no self-loop by default and never suggest the from-place.
        #expect(names(ours) == seed.getLocationSuggestions().filter { $0 != "City Center" })
    }

    @Test func theFromPlaceIsNeverSuggested() {
        let graph = graph(visiting: ["Home", "Work", "Home", "Home", "Gym", "Home"])
        for from in ["Home", "Work", "Gym", "home"] {
            let suggestions = graph.suggestions(for: SuggestionRequest(from: from, limit: nil, now: Self.epoch + 10))
            #expect(!suggestions.contains { RouteGraph.placeKey($0.place) == RouteGraph.placeKey(from) })
        }
    }

    @Test func theFromPlaceIsSuggestedAfterItsSuccessorsWhenIncluded() {
        // Home → Work twice, Home → Gym once; the last place is Home.
        let graph = graph(visiting: ["Home", "Work", "Home", "Work", "Home", "Gym", "Home"])
        var request = SuggestionRequest(limit: nil, now: Self.epoch + 10)
        request.includeFrom = true
        #expect(names(graph.suggestions(for: request)) == ["Work", "Gym", "Home"])
        #expect(names(graph.suggestions(for: request, filter: { $0.hasPrefix("H") })) == ["Home"])
        request.includeFrom = false
        #expect(names(graph.suggestions(for: request)) == ["Work", "Gym"])
    }

    @Test func equalWeightsGoToTheMoreRecentlyTravelledEdgeThenToTheName() {
        // Home → Bakery and Home → Cafe once each; the Cafe trip is the later one.
        let graph = graph(visiting: ["Home", "Bakery", "Home", "Cafe", "Home", "Zoo", "Home"])
        var later = graph
        later.visit("Annex", at: Self.epoch + 1000, newTrip: true)
        let ordered = graph.suggestions(for: SuggestionRequest(from: "Home", successorsOnly: true, now: Self.epoch + 100))
        #expect(names(ordered) == ["Zoo", "Cafe", "Bakery"])

        var tied = RouteGraph()
        for name in ["Pear", "apple", "Mango"] {
            tied.visit("Home", at: Self.epoch, newTrip: true)
            tied.visit(name, at: Self.epoch)
        }
        let byName = tied.suggestions(for: SuggestionRequest(from: "Home", successorsOnly: true, now: Self.epoch))
        #expect(names(byName) == ["apple", "Mango", "Pear"])
    }

    @Test func placesWithoutAnEdgeFollowBySuccessorsByFrecency() {
        // From Gym there is one edge (to Home); Work and Shop come after it by frecency.
        var graph = graph(visiting: ["Work", "Work", "Work", "Shop", "Gym", "Home"])
        graph.visit("Gym", at: Self.epoch + 10, newTrip: true)
        let suggestions = graph.suggestions(for: SuggestionRequest(now: Self.epoch + 20))
        #expect(names(suggestions) == ["Home", "Work", "Shop"])
        #expect(suggestions.map(\.source) == [.edge, .frecency, .frecency])
        #expect(suggestions[1].score == 3 * Recency.withinHour.factor)
    }

    @Test(arguments: [
        (Int64(0), 4.0), (Int64(3600), 4.0), (Int64(3601), 2.0), (Int64(86_400), 2.0),
        (Int64(86_401), 0.5), (Int64(604_800), 0.5), (Int64(604_801), 0.25), (Int64(-50), 4.0),
    ])
    func frecencyMultipliesVisitsByZoxidesRecencySteps(age: Int64, factor: Double) {
        #expect(RouteGraph.frecency(visits: 3, lastVisitedAt: Self.epoch, now: Self.epoch + age, halfLife: nil) == 3 * factor)
    }

    @Test func aPlaceVisitedOftenLongAgoLosesToOneVisitedLessButRecently() {
        var graph = RouteGraph()
        for offset in 0..<20 { graph.visit("Old Haunt", at: Self.epoch + Int64(offset), newTrip: true) }
        for offset in 0..<3 { graph.visit("New Cafe", at: Self.epoch + 30 * Self.day + Int64(offset), newTrip: true) }
        graph.visit("Home", at: Self.epoch + 30 * Self.day + 10, newTrip: true)
        let now = Self.epoch + 30 * Self.day + 20
        #expect(names(graph.suggestions(for: SuggestionRequest(now: now))) == ["New Cafe", "Old Haunt"])
    }

    @Test func aHalfLifeLetsAnOldHeavyRouteFallBehindARecentLighterOne() {
        var graph = RouteGraph()
        for offset in 0..<20 {
            graph.visit("Home", at: Self.epoch + Int64(offset) * 10, newTrip: true)
            graph.visit("Old Office", at: Self.epoch + Int64(offset) * 10 + 1)
        }
        let later = Self.epoch + 60 * Self.day
        for offset in 0..<6 {
            graph.visit("Home", at: later + Int64(offset) * 10, newTrip: true)
            graph.visit("New Office", at: later + Int64(offset) * 10 + 1)
        }
        graph.visit("Home", at: later + 100, newTrip: true)
        let now = later + 200
        let plain = graph.suggestions(for: SuggestionRequest(successorsOnly: true, now: now))
        #expect(names(plain) == ["Old Office", "New Office"])
        let faded = graph.suggestions(for: SuggestionRequest(successorsOnly: true, halfLife: 30 * Self.day, now: now))
        #expect(names(faded) == ["New Office", "Old Office"])
        // Two half-lives: a quarter of the weight is left.
        #expect(abs(faded[1].score - 20.0 / 4) < 0.01)
    }

    @Test func edgesWithoutATimeDoNotFade() throws {
        let seedFile = #"{"edges":[{"origin":"A","destination":"B","weight":4}],"lastVisitedLocation":"A"}"#
        let graph = try RouteGraph(json: Array(seedFile.utf8))
        let faded = graph.suggestions(for: SuggestionRequest(halfLife: 60, now: Self.epoch))
        #expect(faded.first == Suggestion(place: "B", score: 4, source: .edge))
    }

    @Test func theLimitCountsBothTiersAndZeroMeansNothing() {
        let graph = graph(visiting: ["A", "B", "A", "C", "D", "E", "A"])
        #expect(graph.suggestions(for: SuggestionRequest(limit: 3, now: Self.epoch)).count == 3)
        #expect(graph.suggestions(for: SuggestionRequest(limit: 0, now: Self.epoch)).isEmpty)
        #expect(graph.suggestions(for: SuggestionRequest(limit: nil, now: Self.epoch)).count == 4)
    }

    @Test func aFilterAppliesToBothTiers() {
        let graph = graph(visiting: ["Home", "Airport", "Home", "Aire Park", "Beach", "Home"])
        let matcher = LineMatcher(MatchQuery("ai"))
        let filtered = graph.suggestions(for: SuggestionRequest(now: Self.epoch)) { name in
            var name = name
            return name.withUTF8 { matcher.matches($0) }
        }
        #expect(Set(names(filtered)) == ["Airport", "Aire Park"])
    }

    @Test func anUnknownFromPlaceGetsFrecencyOnlyAndAnEmptyGraphNothing() {
        let graph = graph(visiting: ["A", "B"])
        let unknown = graph.suggestions(for: SuggestionRequest(from: "Nowhere", now: Self.epoch))
        #expect(unknown.allSatisfy { $0.source == .frecency } && unknown.count == 2)
        #expect(RouteGraph().suggestions(for: SuggestionRequest(now: Self.epoch)).isEmpty)
    }

    @Test func seedFilesGetVisitCountsEstimatedFromTheirEdges() throws {
        var seed = Seed.RouteGraph()
        for place in Seed.scenario { seed.visit(newLocation: place) }
        let edges = seed.edges.map { #"{"origin":"\#($0.origin)","destination":"\#($0.destination)","weight":\#($0.weight)}"# }
        let text = #"{"edges":[\#(edges.joined(separator: ","))],"lastVisitedLocation":"City Center"}"#
        let graph = try RouteGraph(json: Array(text.utf8))
        #expect(graph.statistics(of: "Airport")?.visits == 12)
        #expect(graph.statistics(of: "Football Field")?.visits == 1)
        // Airport → City Center 12 and the seed's own City Center → City Center 1.
        #expect(graph.statistics(of: "City Center")?.visits == 13)
    }

    @Test func visitStatisticsSurviveASaveAndALoad() throws {
        let graph = graph(visiting: Seed.scenario)
        let reread = try RouteGraph(json: graph.json())
        #expect(reread.placeStatistics.sorted { $0.name < $1.name } == graph.placeStatistics.sorted { $0.name < $1.name })
        #expect(reread.statistics(of: "City Center")?.visits == 14)
        #expect(reread.json() == graph.json())
    }

    @Test(arguments: [
        ("90", Int64(90)), ("90s", 90), ("30m", 1800), ("2h", 7200), ("7d", 604_800), ("2w", 1_209_600),
    ])
    func durationsAreSecondsOrANumberWithAUnit(text: String, seconds: Int64) {
        #expect(TimeText.duration(text) == seconds)
    }

    @Test(arguments: ["", "h", "-5", "1.5h", "3x", "99999999999999999999"])
    func malformedDurationsAreRefused(text: String) {
        #expect(TimeText.duration(text) == nil)
    }

    @Test(arguments: [
        ("1700000000", Int64(1_700_000_000)), ("2023-11-14T22:13:20Z", 1_700_000_000),
        ("2023-11-14T23:13:20+01:00", 1_700_000_000), ("2023-11-14 22:13:20", 1_700_000_000),
        ("2023-11-14T22:13:20.5Z", 1_700_000_000), ("2023-11-14T17:13:20-0500", 1_700_000_000),
        ("1970-01-01", 0), ("2024-02-29T00:00Z", 1_709_164_800),
    ])
    func timestampsAreUnixSecondsOrISO8601(text: String, seconds: Int64) {
        #expect(TimeText.timestamp(text) == seconds)
    }

    @Test(arguments: ["yesterday", "2023-02-29", "2023-13-01", "2023-11-14T25:00Z", "2023-11-14T22:13:20Zjunk", "12-3"])
    func malformedTimestampsAreRefused(text: String) {
        #expect(TimeText.timestamp(text) == nil)
    }

    /// Times are accepted in the years 1970 to 9999 only: a negative number or one in
    /// milliseconds is a mistake, and the bound keeps every age far from overflow.
    @Test(arguments: [
        "-1", "-9223372036854775808", "253402300800", "9223372036854775807", "1969-12-31T23:59:59Z", "10000-01-01",
        "9999-12-31T23:59:59-01:00",
    ])
    func timesOutsideTheYears1970To9999AreRefused(text: String) {
        #expect(TimeText.timestamp(text) == nil)
    }

    @Test func theFirstAndLastSecondsOfTheRangeAreAccepted() {
        #expect(TimeText.timestamp("0") == 0)
        #expect(TimeText.timestamp("9999-12-31T23:59:59Z") == 253_402_300_799)
        #expect(TimeText.timestamp("253402300799") == 253_402_300_799)
    }

    /// A file may hold any 64-bit time: ages saturate instead of trapping, and a graph
    /// holding the extremes ranks, with and without a half-life, and takes visits.
    @Test func extremeTimesInAGraphNeverTrap() {
        #expect(RouteGraph.age(at: .max, since: .min) == .max)
        #expect(RouteGraph.age(at: .min, since: .max) == .min)
        #expect(RouteGraph.age(at: 10, since: 3) == 7)
        var graph = RouteGraph()
        graph.visit("A", at: .min + 1)
        graph.visit("B", at: .max)
        graph.visit("C", at: .min + 1, tripGap: 60)
        graph.visit("D", at: .max, tripGap: 60)
        for halfLife: Int64? in [nil, 1, .max] {
            for now: Int64 in [.min, 0, .max] {
                let request = SuggestionRequest(from: "A", limit: nil, halfLife: halfLife, now: now)
                #expect(graph.suggestions(for: request).map(\.place).contains("B"))
            }
        }
    }

    @Test(arguments: [(11.0, "11"), (3.25, "3.25"), (0.125, "0.125"), (5.0004, "5"), (1.0 / 3, "0.333"), (0, "0")])
    func scoresArePrintedWithAtMostThreeDecimals(score: Double, text: String) {
        #expect(RouteGraphSuggest.formatScore(score) == text)
    }
}
