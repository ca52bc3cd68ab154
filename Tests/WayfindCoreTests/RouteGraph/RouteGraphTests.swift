import Foundation
import Testing

@testable import WayfindCLI
@testable import WayfindCore

/// The seed article's types, copied verbatim in shape, to check file compatibility.
enum Seed {
    struct Edge: Codable, Hashable {
        let origin: String
        let destination: String
        var weight: Int = 1
    }

    struct RouteGraph: Codable {
        var edges: [Edge] = []
        var lastVisitedLocation: String? = nil

        mutating func visit(newLocation: String) {
            guard let lastVisitedLocation = lastVisitedLocation else {
                self.lastVisitedLocation = newLocation
                return
            }
            let newEdge = Edge(origin: lastVisitedLocation, destination: newLocation)
            if let index = edges.firstIndex(where: { $0.origin == newEdge.origin && $0.destination == newEdge.destination }) {
                edges[index].weight += 1
            } else {
                edges.append(newEdge)
            }
            self.lastVisitedLocation = newLocation
        }

        func getLocationSuggestions() -> [String] {
            guard let lastVisitedLocation else { return [] }
            return edges.filter { $0.origin == lastVisitedLocation }.sorted { $0.weight > $1.weight }.map(\.destination)
        }
    }

    /// The article's scenario, as a list of visits.
    static let scenario: [String] =
        ["City Center", "Football Field", "Airport", "City Center"]
        + Array(repeating: ["City Center", "Airport"], count: 11).flatMap { $0 } + ["City Center"]
}

@Suite("RouteGraph: the graph")
struct RouteGraphTests {
    static let epoch: Int64 = 1_700_000_000

    func graph(visiting places: [String], selfLoops: Bool = false) -> RouteGraph {
        var graph = RouteGraph()
        for (offset, place) in places.enumerated() {
            graph.visit(place, at: Self.epoch + Int64(offset), selfLoops: selfLoops)
        }
        return graph
    }

    @Test func theSeedScenarioLearnsAirportThenFootballFieldFromCityCenter() {
        let graph = graph(visiting: Seed.scenario)
        #expect(graph.lastVisitedLocation == "City Center")
        // `for _ in 0...10` in the article runs eleven times.
        #expect(graph.edge(from: "City Center", to: "Airport")?.weight == 11)
        #expect(graph.edge(from: "Airport", to: "City Center")?.weight == 12)
        #expect(graph.edge(from: "City Center", to: "Football Field")?.weight == 1)
        #expect(graph.edge(from: "City Center", to: "City Center") == nil)
        let next = graph.edges(from: "City Center").sorted { $0.weight > $1.weight }.map(\.destination)
        #expect(next == ["Airport", "Football Field"])
    }

    @Test func withSelfLoopsTheScenarioMatchesTheSeedCodeEdgeForEdge() {
        var seed = Seed.RouteGraph()
        for place in Seed.scenario { seed.visit(newLocation: place) }
        let ours = graph(visiting: Seed.scenario, selfLoops: true)
        #expect(
            ours.edges.map { "\($0.origin)→\($0.destination) \($0.weight)" }
                == seed.edges.map { "\($0.origin)→\($0.destination) \($0.weight)" })
        #expect(seed.getLocationSuggestions() == ["Airport", "Football Field", "City Center"])
    }

    @Test(arguments: [
        ("City Center", "city center"), ("  City   Center ", "city center"), ("City\tCenter\n", "city center"),
        ("AIRPORT", "airport"), ("", ""), ("   ", ""),
    ])
    func placeKeysIgnoreCaseAndWhitespaceRuns(name: String, key: String) {
        #expect(RouteGraph.placeKey(name) == key)
    }

    @Test func spellingsOfOnePlaceShareEdgesAndTheLatestSpellingIsShown() {
        var graph = RouteGraph()
        graph.visit("home", at: 1)
        graph.visit("Airport", at: 2)
        graph.visit("HOME", at: 3)
        graph.visit("airport", at: 4)
        #expect(graph.edge(from: "Home", to: "AIRPORT")?.weight == 2)
        #expect(graph.edge(from: "home", to: "airport")?.origin == "HOME")
        #expect(graph.lastVisitedLocation == "airport")
        #expect(graph.places.sorted() == ["HOME", "airport"])
    }

    @Test func aNewTripRecordsNoEdgeButMovesTheLastPlace() {
        var graph = RouteGraph()
        graph.visit("A", at: 1)
        graph.visit("B", at: 2, newTrip: true)
        graph.visit("C", at: 3)
        #expect(graph.edges.count == 1)
        #expect(graph.edge(from: "B", to: "C")?.lastVisitedAt == 3)
        #expect(graph.lastVisitedAt == 3)
    }

    @Test func emptyNamesAreNotVisited() {
        var graph = RouteGraph()
        let visited = graph.visit(" \t ", at: 1)
        #expect(visited == false)
        #expect(graph == RouteGraph())
    }

    @Test func forgettingAPlaceRemovesItsEdgesButKeepsTheOtherVisitedPlaces() {
        var graph = graph(visiting: ["A", "B", "C", "A"])
        let forgotB = graph.forget("b")
        #expect(forgotB)
        #expect(graph.edges.map { "\($0.origin)→\($0.destination)" } == ["C→A"])
        let forgotA = graph.forget("a")
        #expect(forgotA)
        #expect(graph.edges.isEmpty && graph.lastVisitedLocation == nil)
        // C has no edge left, but it was visited, so frecency still offers it.
        #expect(graph.places == ["C"])
        let forgotNowhere = graph.forget("nowhere")
        #expect(forgotNowhere == false)
    }

    @Test func pruningDropsTheLeastUsedPlacesButKeepsTheLastOne() {
        // A↔B travelled often, C and D once each, and we are at D.
        var graph = graph(visiting: ["A", "B", "A", "B", "A", "C", "D"])
        let dropped = graph.prune(maxPlaces: 3)
        #expect(dropped == 1)
        #expect(graph.places.sorted() == ["A", "B", "D"])
        #expect(graph.lastVisitedLocation == "D")
        let droppedAgain = graph.prune(maxPlaces: 10)
        #expect(droppedAgain == 0)
    }

    /// At the limit, a new place is the least used of all: it must survive the next few
    /// new places to be visited again and establish itself.
    @Test func aNewPlaceAtTheLimitSurvivesTheNextOnesAndCanEstablishItself() {
        var graph = RouteGraph()
        var time: Int64 = 1_700_000_000
        for round in 0..<5 { for place in ["Home", "Work"] { time += 60; graph.visit(place, at: time + Int64(round)) } }
        for i in 0..<40 { time += 60; graph.visit("Old \(i)", at: time); graph.visit("Home", at: time + 1) }
        _ = graph.prune(maxPlaces: 40)
        time += 60
        graph.visit("New", at: time)
        _ = graph.prune(maxPlaces: 40)
        for i in 0..<3 { time += 60; graph.visit("Other \(i)", at: time); _ = graph.prune(maxPlaces: 40) }
        #expect(graph.places.contains("New"))
        time += 60
        graph.visit("New", at: time)
        _ = graph.prune(maxPlaces: 40)
        #expect(graph.places.count <= 40 && graph.places.contains("New") && graph.places.contains("Home"))
    }

    @Test func edgeTimesKeepTheLatestVisitEvenWhenOldLogsArriveLate() {
        var graph = RouteGraph()
        graph.visit("A", at: 100)
        graph.visit("B", at: 200)
        graph.visit("A", at: 50)
        graph.visit("B", at: 60)
        #expect(graph.edge(from: "A", to: "B")?.lastVisitedAt == 200)
        #expect(graph.edge(from: "A", to: "B")?.weight == 2)
    }
}
