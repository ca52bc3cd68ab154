import Testing

@testable import WayfindCLI
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
        let suggestions = graph.suggestions(for: SuggestionRequest(now: Self.epoch + 100, timeZone: .utc))
        #expect(Array(names(suggestions).prefix(2)) == ["Airport", "Football Field"])
        #expect(suggestions[0].source == .edge && suggestions[1].source == .edge)
    }

    /// The seed scenario played as a morning: the trips at 08:00 to 08:52 local time
    /// (UTC+2), asked at 09:00 and at 21:00. Airport keeps first place either way; the
    /// scores are the rule's, worked out by hand.
    @Test(arguments: [Int64(9), 21])
    func theSeedScenarioWithAClockAndATimeZoneKeepsAirportBeforeFootballField(askedAtHour: Int64) {
        let zone = LocalTimeZone.fixed(secondsEastOfUTC: 2 * 3600)
        let morning = Self.epoch - Self.epoch % Self.day + 6 * Self.hour  // 08:00 in UTC+2
        var graph = RouteGraph()
        for (offset, place) in Seed.scenario.enumerated() { graph.visit(place, at: morning + Int64(offset) * 120, timeZone: zone) }
        let arrived = morning + Int64(Seed.scenario.count - 1) * 120
        let now = morning + (askedAtHour - 8) * Self.hour
        let suggestions = graph.suggestions(for: SuggestionRequest(limit: nil, now: now, timeZone: zone))
        #expect(names(suggestions) == ["Airport", "Football Field"])
        // Every visit was at 08:xx: at 09:00 all of them are "now", at 21:00 none; the
        // shares of the habits are 12/27 and 1/27 either way.
        let fade = Platform.powerOfTwo(-Double(now - arrived) / Double(6 * Self.hour))
        #expect(abs(suggestions[0].score - (11 * fade + 10.0 * 12 / 27)) < 1e-9)
        #expect(abs(suggestions[1].score - (1 * fade + 10.0 * 1 / 27)) < 1e-9)
        #expect(graph.statistics(of: "Airport")?.hours[8] == 12)
        #expect(graph.statistics(of: "Airport")?.hours[6] == 0)
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

    @Test func equalScoresGoToTheMoreRecentlyVisitedPlaceThenToTheName() {
        // Home → Bakery, Cafe and Zoo once each, visited once each; Zoo last.
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

    @Test func placesWithoutAnEdgeRankByTheirHabitsAmongTheSuccessors() {
        // From Gym there is one edge (to Home), of weight 1; Work's three visits (of
        // seven) are worth 10 × 3/7 ≈ 4.3 trips, so it comes first.
        var graph = graph(visiting: ["Work", "Work", "Work", "Shop", "Gym", "Home"])
        graph.visit("Gym", at: Self.epoch + 10, newTrip: true, timeZone: .utc)
        let suggestions = graph.suggestions(for: SuggestionRequest(now: Self.epoch + 20, timeZone: .utc))
        #expect(names(suggestions) == ["Work", "Home", "Shop"])
        #expect(suggestions.map(\.source) == [.habit, .edge, .habit])
        #expect(abs(suggestions[0].score - 10.0 * 3 / 7) < 1e-9)
        let successors = graph.suggestions(for: SuggestionRequest(successorsOnly: true, now: Self.epoch + 20, timeZone: .utc))
        #expect(names(successors) == ["Home"])
    }

    /// Trips from here count most just after arriving, and by half every six hours:
    /// three trips to the Bakery beat the Office's habit at first, not after a night.
    @Test func tripsFromHereFadeWithTheHoursSinceArriving() throws {
        var graph = RouteGraph()
        var time = Self.epoch
        for _ in 0..<3 {
            graph.visit("Home", at: time, newTrip: true, timeZone: .utc)
            graph.visit("Bakery", at: time + 60, timeZone: .utc)
            time += Self.day
        }
        // The Office, at every hour (so the time of day favours no one), far more often.
        for hour in 0..<24 { graph.visit("Office", at: time + Int64(hour) * Self.hour, newTrip: true, timeZone: .utc) }
        let arrived = time + Self.day
        graph.visit("Home", at: arrived, newTrip: true, timeZone: .utc)
        func ranked(after seconds: Int64, successorsOnly: Bool = false) -> [Suggestion] {
            graph.suggestions(for: SuggestionRequest(successorsOnly: successorsOnly, now: arrived + seconds, timeZone: .utc))
        }
        #expect(names(ranked(after: 60)) == ["Bakery", "Office"])
        #expect(names(ranked(after: 12 * Self.hour)) == ["Office", "Bakery"])
        // After 6 hours the three trips count 1.5, plus the Bakery's share of the habits.
        let moment = SuggestionMoment(SuggestionRequest(now: arrived + 6 * Self.hour, timeZone: .utc))
        let habit = { (place: RouteGraph.PlaceStatistics) in
            RouteGraph.habit(visits: place.visits, hours: place.hours, lastVisitedAt: place.lastVisitedAt, at: moment)
        }
        let bakery = habit(try #require(graph.statistics(of: "Bakery")))
        let all = graph.placeStatistics.map(habit).reduce(0, +)
        let six = ranked(after: 6 * Self.hour, successorsOnly: true)
        #expect(abs(six[0].score - (1.5 + 10 * bakery / all)) < 1e-9)
    }

    /// Habits at this time of day: Work in the morning, the Gym in the evening (half as
    /// often), asked from a place with no edges, in the time zone the visits were
    /// counted in.
    @Test(arguments: [(8, "Work"), (10, "Work"), (16, "Gym"), (18, "Gym"), (20, "Gym"), (13, "Work"), (2, "Work")])
    func habitsAtThisTimeOfDayComeFirst(hour: Int64, expected: String) {
        let zone = LocalTimeZone.fixed(secondsEastOfUTC: -5 * 3600)
        let midnight = Self.epoch - Self.epoch % Self.day + 5 * Self.hour  // 00:00 in UTC−5
        var graph = RouteGraph()
        for day in 0..<10 {
            let start = midnight + Int64(day) * Self.day
            graph.visit("Work", at: start + 8 * Self.hour + 1800, newTrip: true, timeZone: zone)
            if day % 2 == 0 { graph.visit("Gym", at: start + 18 * Self.hour + 900, newTrip: true, timeZone: zone) }
        }
        graph.visit("Station", at: midnight + 11 * Self.day, newTrip: true, timeZone: zone)
        let now = midnight + 12 * Self.day + hour * Self.hour + 600
        let suggestions = graph.suggestions(for: SuggestionRequest(now: now, timeZone: zone))
        #expect(names(suggestions).first == expected, "at \(hour):10: \(suggestions)")
        #expect(graph.statistics(of: "Gym")?.hours[18] == 5)
        #expect(graph.statistics(of: "Work")?.hours.counts == (0..<24).map { $0 == 8 ? 10 : 0 })
    }

    /// The window goes round midnight: a habit of 23:00 counts at 00:30.
    @Test func theWindowOfTheTimeOfDayGoesRoundMidnight() throws {
        var hours = [Int](repeating: 0, count: 24)
        hours[23] = 4
        hours[2] = 1
        hours[3] = 7
        let counts = try #require(HourCounts(hours))
        #expect(counts.total(within: 2, of: 0) == 5)
        #expect(counts.total(within: 2, of: 1) == 12)
        #expect(counts.total(within: 2, of: 22) == 4)
        #expect(counts.total(within: 2, of: 12) == 0)
        #expect(counts.total == 12)
    }

    @Test(arguments: [
        (0, Int64(0), 0), (0, 3599, 0), (0, 3600, 1), (0, 86_399, 23), (3600, 82_800, 0), (-3600, 0, 23),
        (19_800, 0, 5), (-34_200, 1800, 15), (0, -1, 23), (3600, .max, 16), (-3600, .min, 7),
    ])
    func theLocalHourOfATimeFollowsTheOffsetOfItsZone(offset: Int, time: Int64, hour: Int) {
        #expect(LocalTimeZone.fixed(secondsEastOfUTC: offset).hour(at: time) == hour)
    }

    /// Visits not known by hour (a file without `hours`) count evenly over the day: the
    /// order does not change with the hour asked, and a place known to be visited at
    /// this hour passes one that is not known by hour only at that time of day.
    @Test func visitsNotKnownByHourCountEvenlyOverTheDay() throws {
        let hours = #""hours":[0,0,0,0,0,0,0,0,10,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"#
        let text = """
            {"edges":[],"lastVisitedAt":1700000000,"lastVisitedLocation":"Home","places":[
              {"lastVisitedAt":1700000000,"name":"Home","visits":1},
              {"lastVisitedAt":1700000000,"name":"Anywhere","visits":12},
              {\(hours)"lastVisitedAt":1600000000,"name":"Mornings","visits":10},
              {"lastVisitedAt":1600000000,"name":"Often","visits":30}
            ],"version":1}
            """
        let graph = try RouteGraph(json: Array(text.utf8))
        let day = Self.epoch - Self.epoch % Self.day + Self.day
        func order(_ graph: RouteGraph, at hour: Int64) -> [String] {
            names(graph.suggestions(for: SuggestionRequest(now: day + hour * Self.hour, timeZone: .utc)))
        }
        #expect(order(graph, at: 8) == ["Mornings", "Often", "Anywhere"])
        #expect(order(graph, at: 20) == ["Often", "Anywhere", "Mornings"])
        // Without hours, the order is the one of visits at every hour.
        let none = try RouteGraph(json: Array(text.replacingOccurrences(of: hours, with: "").utf8))
        for hour: Int64 in [0, 8, 13, 23] { #expect(order(none, at: hour) == ["Often", "Anywhere", "Mornings"]) }
        // A file without hours is saved without hours; visits add them, to their place.
        #expect(!String(decoding: none.json(), as: UTF8.self).contains("hours"))
        var visited = none
        visited.visit("Often", at: day + 13 * Self.hour, timeZone: .utc)
        #expect(visited.statistics(of: "Often")?.hours.counts == (0..<24).map { $0 == 13 ? 1 : 0 })
        #expect(visited.statistics(of: "Often")?.visits == 31)
        #expect(visited.statistics(of: "Anywhere")?.hours.isEmpty == true)
    }

    /// With a half-life, a place visited often long ago falls behind one visited less
    /// but lately; without one, visits count however old they are.
    @Test func aHalfLifeLetsAPlaceVisitedOftenLongAgoFallBehindOneVisitedLately() {
        var graph = RouteGraph()
        for offset in 0..<20 { graph.visit("Old Haunt", at: Self.epoch + Int64(offset), newTrip: true, timeZone: .utc) }
        for offset in 0..<3 {
            graph.visit("New Cafe", at: Self.epoch + 30 * Self.day + Int64(offset), newTrip: true, timeZone: .utc)
        }
        graph.visit("Home", at: Self.epoch + 30 * Self.day + 10, newTrip: true, timeZone: .utc)
        let now = Self.epoch + 30 * Self.day + 20
        #expect(names(graph.suggestions(for: SuggestionRequest(now: now, timeZone: .utc))) == ["Old Haunt", "New Cafe"])
        let faded = graph.suggestions(for: SuggestionRequest(halfLife: 5 * Self.day, now: now, timeZone: .utc))
        #expect(names(faded) == ["New Cafe", "Old Haunt"])
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
    }

    @Test func edgesWithoutATimeDoNotFade() throws {
        let seedFile = #"{"edges":[{"origin":"A","destination":"B","weight":4}],"lastVisitedLocation":"A"}"#
        let graph = try RouteGraph(json: Array(seedFile.utf8))
        let faded = graph.suggestions(for: SuggestionRequest(halfLife: 60, now: Self.epoch))
        // 4 trips, unfaded, plus B's share of the habits: 4 of the 5 visits (without
        // hours, evenly over the day).
        let first = try #require(faded.first)
        #expect(first.place == "B" && first.source == .edge && abs(first.score - (4 + 10.0 * 4 / 5)) < 1e-9)
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

    @Test func anUnknownFromPlaceGetsHabitsOnlyAndAnEmptyGraphNothing() {
        let graph = graph(visiting: ["A", "B"])
        let unknown = graph.suggestions(for: SuggestionRequest(from: "Nowhere", now: Self.epoch))
        #expect(unknown.allSatisfy { $0.source == .habit } && unknown.count == 2)
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
