import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// Decodes our reader's error, or nil.
func decodingError(_ text: String) -> RouteGraphDecodingError? {
    do throws(RouteGraphDecodingError) {
        _ = try RouteGraph(json: Array(text.utf8))
        return nil
    } catch {
        return error
    }
}

@Suite("RouteGraph: the graph file format")
struct RouteGraphJSONTests {
    static func scenarioGraph() -> RouteGraph {
        var graph = RouteGraph()
        for (offset, place) in Seed.scenario.enumerated() { graph.visit(place, at: 1_700_000_000 + Int64(offset)) }
        return graph
    }

    @Test func savedFilesHaveSortedKeysAndOneEdgePerLine() {
        var graph = RouteGraph()
        graph.visit("City Center", at: 1_700_000_000, timeZone: .utc)
        graph.visit("Airport \"T1\"", at: 1_700_000_060, timeZone: .utc)
        let expected = """
            {
              "edges": [
                {"destination":"Airport \\"T1\\"","lastVisitedAt":1700000060,"origin":"City Center","weight":1}
              ],
              "lastVisitedAt": 1700000060,
              "lastVisitedLocation": "Airport \\"T1\\"",
              "places": [
                {"hours":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0],"lastVisitedAt":1700000000,"name":"City Center","visits":1},
                {"hours":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0],"lastVisitedAt":1700000060,"name":"Airport \\"T1\\"","visits":1}
              ],
              "version": \(RouteGraph.currentVersion)
            }

            """
        let actual = String(decoding: graph.json(), as: UTF8.self)
        #expect(actual == expected, "expected:\n\(expected)\nactual:\n\(actual)")
        // Back where it started: a new edge at the end, the places in the order first visited.
        graph.visit("City Center", at: 1_700_000_120, timeZone: .utc)
        let back = """
            {
              "edges": [
                {"destination":"Airport \\"T1\\"","lastVisitedAt":1700000060,"origin":"City Center","weight":1},
                {"destination":"City Center","lastVisitedAt":1700000120,"origin":"Airport \\"T1\\"","weight":1}
              ],
              "lastVisitedAt": 1700000120,
              "lastVisitedLocation": "City Center",
              "places": [
                {"hours":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,0],"lastVisitedAt":1700000120,"name":"City Center","visits":2},
                {"hours":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0],"lastVisitedAt":1700000060,"name":"Airport \\"T1\\"","visits":1}
              ],
              "version": \(RouteGraph.currentVersion)
            }

            """
        let actualBack = String(decoding: graph.json(), as: UTF8.self)
        #expect(actualBack == back, "expected:\n\(back)\nactual:\n\(actualBack)")
        let empty = "{\n  \"edges\": [],\n  \"places\": [],\n  \"version\": \(RouteGraph.currentVersion)\n}\n"
        #expect(String(decoding: RouteGraph().json(), as: UTF8.self) == empty)
    }

    /// `hours` in any layout reads as the writer's does; null or missing is none; on an
    /// edge it is a key of no meaning, skipped.
    @Test func hoursAreReadInAnyLayoutAndNullOrMissingIsNone() throws {
        let counts = (0..<24).map { $0 % 5 == 0 ? $0 * 1000 : 0 }
        let written = "[" + counts.map(String.init).joined(separator: ",") + "]"
        let spaced = "[ " + counts.map(String.init).joined(separator: " ,\n ") + " ]"
        for (hours, expected) in [
            (written, counts), (spaced, counts), ("null", [Int](repeating: 0, count: 24)),
            ("[" + [String](repeating: "-0", count: 24).joined(separator: ",") + "]", [Int](repeating: 0, count: 24)),
            ("[4294967295" + String(repeating: ",0", count: 23) + "]", [4_294_967_295] + [Int](repeating: 0, count: 23)),
        ] {
            for layout in [
                #"{"edges":[{"destination":"A","hours":"x","origin":"B"}],"places":[{"hours":\#(hours),"lastVisitedAt":5,"name":"A","visits":9}],"version":1}"#,
                "{\n  \"edges\": [],\n  \"places\": [\n    {\"hours\":\(hours),\"lastVisitedAt\":5,\"name\":\"A\",\"visits\":9}\n  ],\n  \"version\": 1\n}\n",
            ] {
                let graph = try RouteGraph(json: Array(layout.utf8))
                #expect(graph.statistics(of: "A")?.hours.counts == expected, "\(layout)")
                #expect(graph.statistics(of: "A")?.visits == 9)
            }
        }
        // Two records of one place add their hours up.
        let two = #"{"places":[{"hours":\#(written),"name":"A","visits":1},{"hours":\#(written),"name":"a","visits":1}]}"#
        #expect(try RouteGraph(json: Array(two.utf8)).statistics(of: "A")?.hours.counts == counts.map { 2 * $0 })
    }

    @Test(arguments: [
        ("[1,2]", "places[0].hours: expected 24 counts, one per hour, found 2"),
        (
            "[" + [String](repeating: "0", count: 25).joined(separator: ",") + "]",
            "places[0].hours: expected 24 counts, one per hour, found more"
        ),
        ("[-1" + String(repeating: ",0", count: 23) + "]", "places[0].hours: a count must be from 0 to 4294967295"),
        ("[4294967296" + String(repeating: ",0", count: 23) + "]", "places[0].hours: a count must be from 0 to 4294967295"),
        (
            "[1.5" + String(repeating: ",0", count: 23) + "]",
            "places[0].hours: expected an integer, found a number with a fraction or exponent"
        ),
        ("{}", "places[0].hours: expected an array, found an object"),
        ("\"08:00\"", "places[0].hours: expected an array, found a string"),
    ])
    func badHoursAreRefusedWithWhereAndWhy(hours: String, message: String) {
        let text = #"{"places":[{"hours":\#(hours),"name":"A","visits":1}],"version":1}"#
        guard case .invalid(let error)? = decodingError(text) else {
            Issue.record("accepted: \(text)")
            return
        }
        #expect(error.message == message, "\(text)")
    }

    /// A visit patches a large file as a full rewrite would write it.
    @Test func aVisitPatchesALargeFileAsAFullRewriteWould() throws {
        var graph = RouteGraph()
        var random = SplitMix64(seed: 31)
        let places = (0..<400).map { "Stop \(["Ä", "a", "B", "ç"].randomElement(using: &random)!)\($0)" }
        for step in 0..<6_000 {
            graph.visit(places.randomElement(using: &random)!, at: RandomGraphs.epoch + Int64(step) * 600, timeZone: .utc)
        }
        let bytes = graph.json()
        let time = RandomGraphs.epoch + 6_000 * 600
        for place in [places[3], graph.lastVisitedLocation ?? "", "A new stop"] {
            let expected = try VisitPatchTests.fullVisit(
                bytes, place: place, at: time, selfLoops: false, newTrip: false, tripGap: nil, maxPlaces: 50_000
            ).json()
            let actual = try #require(patchedVisit(bytes, place: place, at: time, maxPlaces: 50_000), "\(place)")
            #expect(String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(place)")
        }
    }

    /// Every line `json()` writes, records with `hours` and without, edges with a time and
    /// without, is read by the writer's layout, not the general path, unless a name in it
    /// has escapes: a suggestion on a large file depends on it.
    @Test func everyLineTheWriterWritesIsReadByTheFastPath() throws {
        var random = SplitMix64(seed: 5)
        var lines = 0
        for _ in 0..<60 {
            var graph = RandomGraphs.graph(using: &random)
            // Records without hours (an older file's), without times (the seed's format).
            let seedFile = #"{"edges":[{"origin":"Seed A","destination":"Seed B","weight":2}],"lastVisitedLocation":"Seed A"}"#
            if random.next() % 2 == 0, var seed = try? RouteGraph(json: Array(seedFile.utf8)) {
                seed.visit("Seed B", at: RandomGraphs.epoch, timeZone: .utc)
                graph = seed
            }
            let bytes = graph.json()
            let contents = try bytes.withUnsafeBytes { try GraphFileContents.read($0) }
            let escaped = bytes.split(separator: 0x0A).filter { $0.starts(with: Array("    {".utf8)) && $0.contains(0x5C) }
            #expect(contents.elementsReadByGeneralPath == escaped.count, "\(String(decoding: bytes, as: UTF8.self))")
            lines += contents.edges.count + contents.records.count
            #expect(try RouteGraph(json: bytes) == graph)
        }
        #expect(lines > 500)
        let text = String(
            decoding: try RouteGraph(json: Array(#"{"places":[{"hours":null,"name":"A","visits":1}]}"#.utf8)).json(), as: UTF8.self)
        #expect(!text.contains("hours"))
    }

    @Test func aSavedGraphReadsBackEqualAndSavesToTheSameBytes() throws {
        let graph = Self.scenarioGraph()
        let bytes = graph.json()
        var reread = try RouteGraph(json: bytes)
        #expect(reread.edges == graph.edges)
        #expect(reread.lastVisitedLocation == graph.lastVisitedLocation)
        #expect(reread.json() == bytes)
        #expect(reread.version == RouteGraph.currentVersion)
        reread.visit("Moon", at: 1)
        #expect(reread != graph)
    }

    @Test func filesWrittenByTheSeedsEncoderLoad() throws {
        var seed = Seed.RouteGraph()
        for place in Seed.scenario { seed.visit(newLocation: place) }
        for formatting in [JSONEncoder.OutputFormatting(), .prettyPrinted, .sortedKeys] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = formatting
            let data = try encoder.encode(seed)
            let graph = try RouteGraph(json: Array(data))
            #expect(graph.version == 0)
            #expect(graph.lastVisitedLocation == "City Center")
            #expect(
                graph.edges.map { "\($0.origin)→\($0.destination) \($0.weight)" }
                    == seed.edges.map { "\($0.origin)→\($0.destination) \($0.weight)" })
            #expect(graph.edges.allSatisfy { $0.lastVisitedAt == nil })
        }
        let empty = try JSONEncoder().encode(Seed.RouteGraph())
        #expect(try RouteGraph(json: Array(empty)) == RouteGraph())
    }

    @Test func filesWeWriteDecodeWithTheSeedsDecoder() throws {
        let graph = Self.scenarioGraph()
        let seed = try JSONDecoder().decode(Seed.RouteGraph.self, from: Data(graph.json()))
        #expect(seed.lastVisitedLocation == "City Center")
        #expect(
            seed.edges.map { "\($0.origin)→\($0.destination) \($0.weight)" }
                == graph.edges.map { "\($0.origin)→\($0.destination) \($0.weight)" })
        #expect(seed.getLocationSuggestions() == ["Airport", "Football Field"])
        let empty = try JSONDecoder().decode(Seed.RouteGraph.self, from: Data(RouteGraph().json()))
        #expect(empty.edges.isEmpty && empty.lastVisitedLocation == nil)
    }

    @Test func theSuccessorsKeyOfEarlierVersionsIsReadAndIgnored() throws {
        let text = """
            {
              "edges": [
                {"destination":"Gym","lastVisitedAt":1700000000,"origin":"Home","weight":2}
              ],
              "lastVisitedAt": 1700000000,
              "lastVisitedLocation": "Home",
              "places": [
                {"lastVisitedAt":1700000000,"name":"Home","visits":1},
                {"lastVisitedAt":1700000000,"name":"Gym","visits":2}
              ],
              "successors": [
                {"destination":"Pool","lastVisitedAt":1700000000,"origin":"Home","weight":9}
              ],
              "version": 1
            }

            """
        let graph = try RouteGraph(json: Array(text.utf8))
        #expect(graph.edges == [RouteGraph.Edge(origin: "Home", destination: "Gym", weight: 2, lastVisitedAt: 1_700_000_000)])
        #expect(!String(decoding: graph.json(), as: UTF8.self).contains("successors"))
    }

    @Test func placesAreNumberedAsTheRecordsListThemSoASavedFileReadsBackTheSame() throws {
        let text = """
            {"edges":[{"origin":"A","destination":"B","weight":1},{"origin":"C","destination":"A","weight":1}],
            "lastVisitedLocation":"A","places":[{"name":"C","visits":1},{"name":"A","visits":2},{"name":"B","visits":1}],"version":1}
            """
        let graph = try RouteGraph(json: Array(text.utf8))
        #expect(graph.placeStatistics.map(\.name) == ["C", "A", "B"])
        #expect(try RouteGraph(json: graph.json()).json() == graph.json())
    }

    @Test func unknownKeysOfAnyTypeAreIgnored() throws {
        let text = """
            {"future":{"a":[1,2,{"b":null}]},"edges":[{"origin":"A","destination":"B","weight":2,
            "colour":"red","tags":["x"],"score":1.5e2,"ok":true}],"lastVisitedLocation":null,"x":-0.5}
            """
        let graph = try RouteGraph(json: Array(text.utf8))
        #expect(graph.edges == [RouteGraph.Edge(origin: "A", destination: "B", weight: 2)])
        #expect(graph.lastVisitedLocation == nil)
    }

    @Test func edgesThatFoldTogetherAreMergedOnLoad() throws {
        let text = """
            {"edges":[{"origin":"a","destination":"b","weight":2,"lastVisitedAt":5},
            {"origin":"A","destination":" B ","weight":3,"lastVisitedAt":9}],"lastVisitedLocation":"b"}
            """
        let graph = try RouteGraph(json: Array(text.utf8))
        #expect(graph.edges == [RouteGraph.Edge(origin: "A", destination: "b", weight: 5, lastVisitedAt: 9)])
    }

    /// A spelling met before that is no longer its place's shown one shows again when the
    /// file names the place with it last (a load folds each spelling once).
    @Test func aSpellingMetBeforeShowsAgainWhenTheFileNamesThePlaceWithItLast() throws {
        let text = """
            {"edges":[{"origin":"Home","destination":"Airport"},{"origin":"airport","destination":"Home"},
            {"origin":"Home","destination":"Airp\\u006frt"}]}
            """
        let graph = try RouteGraph(json: Array(text.utf8))
        #expect(graph.places.sorted() == ["Airport", "Home"])
        #expect(graph.edge(from: "home", to: "AIRPORT")?.weight == 2)
        let respelled = text.replacingOccurrences(of: "Airp\\u006frt", with: "AIRPORT")
        #expect(try RouteGraph(json: Array(respelled.utf8)).places.sorted() == ["AIRPORT", "Home"])
    }

    @Test(arguments: [
        (#"{"version":\#(RouteGraph.currentVersion + 1),"edges":[]}"#, "format version \(RouteGraph.currentVersion + 1) is newer"),
        (#"{"edges":"new layout","version":7}"#, "format version 7 is newer"),
        (#"[]"#, "the top level: expected an object, found an array"),
        (#"{"edges":[{"origin":"A","destination":"B","weight":"2"}]}"#, "edges[0].weight: expected a number, found a string"),
        (#"{"edges":[{"origin":"A","destination":"B","weight":-1}]}"#, "edges[0].weight: must not be negative"),
        (#"{"edges":[{"origin":"A"}]}"#, "edges[0]: missing \"destination\""),
        (#"{"edges":[{"origin":"A","destination":"B"},{"destination":"B"}]}"#, "edges[1]: missing \"origin\""),
        (#"{"version":-1}"#, "version: must not be negative"),
        (#"{"edges":[],"lastVisitedLocation":3}"#, "lastVisitedLocation: expected a string, found a number"),
        (#"{"edges":[{"origin":"A","destination":"B","weight":1}"#, "unexpected end of input in an array"),
        ("", "unexpected end of input, expected a value"),
    ])
    func badFilesAreRefusedWithAClearMessage(text: String, fragment: String) {
        let error = decodingError(text)
        #expect(error.map { "\($0)".contains(fragment) } == true, "\(String(describing: error))")
    }

    /// A file in the writer's layout is read a run of lines at a time; a line that breaks
    /// the run is judged by the general reader, with its own index in the message.
    @Test(arguments: [
        (#""origin":"C","weight":1}"#, #""origin":"C","weight":"1"}"#, "edges[2].weight: expected a number, found a string"),
        (#""name":"B","visits":2}"#, #""name":"B","visits":-2}"#, "places[1].visits: must not be negative"),
        ("\"origin\":\"D\",\"weight\":1}\n  ]", "\"origin\":\"D\",\"weight\":1},\n  ]", "trailing comma before ']'"),
        (#"{"destination":"D""#, #"{ "destination":"D""#, ""),
    ])
    func aLineOutOfTheWritersLayoutIsJudgedAsAnyOther(original: String, replacement: String, fragment: String) throws {
        var graph = RouteGraph()
        for place in ["A", "B", "C", "D", "A", "B"] { graph.visit(place, at: 1_700_000_000) }
        let text = String(decoding: graph.json(), as: UTF8.self)
        #expect(text.contains(original))
        let changed = text.replacingOccurrences(of: original, with: replacement)
        let error = decodingError(changed)
        if fragment.isEmpty {
            #expect(error == nil)
            #expect(try RouteGraph(json: Array(changed.utf8)).json() == graph.json())
        } else {
            #expect(error.map { "\($0)".contains(fragment) } == true, "\(String(describing: error))")
        }
    }
}
