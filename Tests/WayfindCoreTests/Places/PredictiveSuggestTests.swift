import Testing

@testable import WayfindCLI
@testable import WayfindCore

/// The blend of a route graph's predictions with the geocoder's matches
/// (`Geocoder.suggest(_:history:…)`), over a small gazetteer whose labels are the names.
@Suite("Predictive suggest")
struct PredictiveSuggestTests {
    static let tsv = """
        name\tlatitude\tlongitude\tcategory\tcountry_code\tpopulation
        Paris\t48.85341\t2.3488\tcapital\tFR\t2138551
        Parisot\t44.26\t1.86\tcity\tFR\t500
        Springfield\t39.80\t-89.64\tcity\tUS\t116000
        Springfield\t42.10\t-72.59\tcity\tUS\t155000
        Boston\t42.36\t-71.06\tcity\tUS\t650000
        Bolton\t42.43\t-71.60\tcity\tUS\t5000
        Bordeaux\t44.84\t-0.58\tadmin_seat\tFR\t250000

        """
    static let t0: Int64 = 1_700_000_000
    static let hour: Int64 = 3600

    let geocoder: Geocoder

    init() throws {
        geocoder = try Geocoder(tsv: Array(Self.tsv.utf8))
    }

    /// A graph of `places` visited in turn, an hour apart, from `t0`.
    func history(_ places: [String]) -> RouteGraph {
        var graph = RouteGraph()
        for (i, place) in places.enumerated() { graph.visit(place, at: Self.t0 + Int64(i) * Self.hour, timeZone: .utc) }
        return graph
    }

    @Test func aWholeNameMatchOfABigPlaceBeatsAWeakPersonalGuess() throws {
        // Parisot visited once, after Bolton, at this time of day, among many visits to
        // Boston and Bolton: a score of about 2 (one trip from Bolton, and a habit of this
        // hour), which the geocoder's first alone (0.2 after four letters) would not pass.
        let graph = history(["Boston", "Bolton", "Parisot"] + Array(repeating: ["Boston", "Bolton"], count: 10).flatMap { $0 })
        let at = Self.t0 + 26 * Self.hour
        let guess = try #require(graph.suggestions(for: SuggestionRequest(now: at, timeZone: .utc)).first { $0.place == "Parisot" })
        #expect(guess.score > 4 * PredictiveBlend.letterTrust && guess.score < PredictiveBlend.wholeNameScore)
        let first = try geocoder.suggest("paris", history: graph, at: at, timeZone: .utc, limit: 1)
        #expect(first.map(\.text) == ["Paris"])
        #expect(first.first?.predicted == false)
        // The guess is still there, second.
        let two = try geocoder.suggest("paris", history: graph, at: at, timeZone: .utc, limit: 2)
        #expect(two.map(\.text) == ["Paris", "Parisot"])
        #expect(two.map(\.predicted) == [false, true])
    }

    /// The graph's places are matched as the geocoder's are, abbreviations included.
    @Test func anAbbreviationKeepsAHabitOfThePlaceItStandsFor() throws {
        let filter = try #require(Geocoder.predictionFilter("st petersburg"))
        for (label, kept) in [("Saint Petersburg, Russia", true), ("St. Petersburg, Florida", true), ("Petersburg", false)] {
            #expect(Array(label.utf8).withUnsafeBufferPointer { filter.accepts($0) } == kept, "\(label)")
        }
        // So are they with the first look at each name (`NameFilter.mayAccept`), which
        // looks for every spelling in turn.
        for (text, label, kept) in [
            ("st petersburg", "Saint Petersburg, Russia", true), ("ft worth", "Fort Worth, Texas", true),
            ("mt vernon ", "Mount Vernon, Ohio", true), ("ft worth", "Worthing, England", false),
            ("ft eat", "Fort Eat", true),  // (f is the rarest letter: `ft` is looked for first)
        ] {
            let names = RouteGraph.stringFilter(try #require(Geocoder.predictionFilter(text)))
            #expect(names(label) == kept, "\(text): \(label)")
        }
        // A last word still being typed is not swapped.
        let typing = try #require(Geocoder.predictionFilter("st"))
        #expect(Array("Saint Petersburg".utf8).withUnsafeBufferPointer { typing.accepts($0) } == false)
    }

    @Test func aPrefixKeepsAHabitBeforeTheGeocodersFirst() throws {
        let graph = history(Array(repeating: ["Boston", "Bolton"], count: 10).flatMap { $0 } + ["Boston"])
        // From Boston, Bolton usually comes next; the geocoder alone puts Boston first.
        #expect(try geocoder.suggest("bo").map(\.text) == ["Boston", "Bordeaux", "Bolton"])
        let blended = try geocoder.suggest("bo", history: graph, at: Self.t0 + 21 * Self.hour, timeZone: .utc, limit: 2)
        #expect(blended.map(\.text) == ["Bolton", "Boston"])
        // Boston, where the person is, is not predicted: the geocoder offers it.
        #expect(blended.map(\.predicted) == [true, false])
    }

    @Test func emptyTextGivesThePredictionsInTheGraphsOrder() throws {
        let graph = history(["Boston", "Bolton", "Boston", "Paris", "Boston", "Bolton", "Boston"])
        let at = Self.t0 + 7 * Self.hour
        let expected = graph.suggestions(for: SuggestionRequest(limit: 5, now: at, timeZone: .utc)).map(\.place)
        let predicted = try geocoder.suggest("", history: graph, at: at, timeZone: .utc)
        #expect(predicted.map(\.text) == expected)
        #expect(predicted.map(\.text) == ["Bolton", "Paris"])
        #expect(predicted.allSatisfy { s in s.predicted && !s.isCollection })
        // And --from: what follows Paris.
        let fromParis = try geocoder.suggest("", history: graph, from: "Paris", at: at, timeZone: .utc)
        #expect(fromParis.first?.text == "Boston")
        // Without a graph's places, nothing.
        #expect(try geocoder.suggest("", history: RouteGraph(), at: at, timeZone: .utc).isEmpty)
    }

    @Test func anAmbiguousLabelResolvesToTheNearestElseTheMostImportant() throws {
        let graph = history(["Boston", "Springfield", "Boston"])
        let at = Self.t0 + 3 * Self.hour
        func springfield(near location: Coordinate?) throws -> Coordinate? {
            let s = try geocoder.suggest("", history: graph, at: at, timeZone: .utc, near: location).first { $0.text == "Springfield" }
            return try s.flatMap { try geocoder.find(magicKey: $0.magicKey).first?.place.coordinate }
        }
        // The Massachusetts one is the larger; near Illinois, the Illinois one.
        #expect(try springfield(near: nil)?.latitude == 42.10)
        #expect(try springfield(near: Coordinate(latitude: 40.0, longitude: -89.0))?.latitude == 39.80)
        #expect(try springfield(near: Coordinate(latitude: 42.36, longitude: -71.06))?.latitude == 42.10)
    }

    @Test func aGraphPlaceNotInTheGazetteerIsLeftOut() throws {
        let graph = history(["Boston", "Home", "Boston", "Home", "Bolton", "Boston"])
        let at = Self.t0 + 6 * Self.hour
        #expect(graph.suggestions(for: SuggestionRequest(now: at, timeZone: .utc)).map(\.place).contains("Home"))
        let predicted = try geocoder.suggest("", history: graph, at: at, timeZone: .utc)
        #expect(predicted.map(\.text) == ["Bolton"])
        #expect(try geocoder.suggest("ho", history: graph, at: at, timeZone: .utc).isEmpty)
    }

    @Test func aShortWordBeingTypedIsNoWholeNameSignal() throws {
        // A name as short as the word typed (`Ath`) weighs as spelled whole only a little
        // (`RankKey.shortWholeNameWeight`), not the strong signal of a finished name:
        // Athens, 23 times its size (and visited), comes first.
        let geocoder = try Geocoder(tsv: Array((Self.tsv + "Ath\t50.63\t3.78\tcity\tBE\t29000\nAthens\t37.98\t23.73\tcapital\tGR\t664046\n").utf8))
        // Athens visited once among 22 visits: a weak guess (about 0.5 trips).
        let graph = history(["Paris", "Athens"] + Array(repeating: ["Paris", "Bolton"], count: 10).flatMap { $0 })
        let at = Self.t0 + 12 * Self.hour
        #expect(try geocoder.suggest("ath", near: nil).map(\.text).prefix(2) == ["Athens", "Ath"])
        #expect(try geocoder.suggest("ath", history: graph, at: at, timeZone: .utc).first?.text == "Athens")
        // Finished, the short word is a name typed whole again.
        #expect(try geocoder.suggest("ath ", history: graph, at: at, timeZone: .utc).first?.text == "Ath")
        // (A longer name spelled whole keeps the score: aWholeNameMatchOfABigPlaceBeatsAWeakPersonalGuess.)
    }

    @Test func aLabelIsMatchedIgnoringCaseAndAccents() throws {
        #expect(try geocoder.place(labelled: "bostón", near: nil)?.place.name == "Boston")
        #expect(try geocoder.place(labelled: "Bost", near: nil) == nil)
        #expect(try geocoder.place(labelled: " , ", near: nil) == nil)
    }

    @Test func aFarHabitCountsLessThanANearOne() throws {
        // From Paris, Bordeaux twice, Bolton once: the graph puts Bordeaux first...
        // (asked at another time of day than the visits: the habits of now do not count).
        let graph = history(["Paris", "Bordeaux", "Paris", "Bordeaux", "Paris", "Bolton", "Paris"])
        let at = Self.t0 + 13 * Self.hour
        let anywhere = try geocoder.suggest("bo", history: graph, at: at, timeZone: .utc)
        #expect(anywhere.prefix(2).map(\.text) == ["Bordeaux", "Bolton"])
        // ...but near Boston, 5,500 km from Bordeaux, Bolton comes first.
        let nearBoston = try geocoder.suggest(
            "bo", history: graph, at: at, timeZone: .utc, near: Coordinate(latitude: 42.36, longitude: -71.06))
        #expect(nearBoston.first?.text == "Bolton")
    }
}
