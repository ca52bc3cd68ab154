import Foundation
import Testing

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
        graph.visit("City Center", at: 1_700_000_000)
        graph.visit("Airport \"T1\"", at: 1_700_000_060)
        let expected = """
            {
              "edges": [
                {"destination":"Airport \\"T1\\"","lastVisitedAt":1700000060,"origin":"City Center","weight":1}
              ],
              "lastVisitedAt": 1700000060,
              "lastVisitedLocation": "Airport \\"T1\\"",
              "places": [
                {"lastVisitedAt":1700000000,"name":"City Center","visits":1},
                {"lastVisitedAt":1700000060,"name":"Airport \\"T1\\"","visits":1}
              ],
              "version": 1
            }

            """
        let actual = String(decoding: graph.json(), as: UTF8.self)
        #expect(actual == expected, "expected:\n\(expected)\nactual:\n\(actual)")
        // Back where it started: a new edge at the end, the places in the order first visited.
        graph.visit("City Center", at: 1_700_000_120)
        let back = """
            {
              "edges": [
                {"destination":"Airport \\"T1\\"","lastVisitedAt":1700000060,"origin":"City Center","weight":1},
                {"destination":"City Center","lastVisitedAt":1700000120,"origin":"Airport \\"T1\\"","weight":1}
              ],
              "lastVisitedAt": 1700000120,
              "lastVisitedLocation": "City Center",
              "places": [
                {"lastVisitedAt":1700000120,"name":"City Center","visits":2},
                {"lastVisitedAt":1700000060,"name":"Airport \\"T1\\"","visits":1}
              ],
              "version": 1
            }

            """
        let actualBack = String(decoding: graph.json(), as: UTF8.self)
        #expect(actualBack == back, "expected:\n\(back)\nactual:\n\(actualBack)")
        #expect(String(decoding: RouteGraph().json(), as: UTF8.self) == "{\n  \"edges\": [],\n  \"places\": [],\n  \"version\": 1\n}\n")
    }

    @Test func aSavedGraphReadsBackEqualAndSavesToTheSameBytes() throws {
        let graph = Self.scenarioGraph()
        let bytes = graph.json()
        var reread = try RouteGraph(json: bytes)
        #expect(reread.edges == graph.edges)
        #expect(reread.lastVisitedLocation == graph.lastVisitedLocation)
        #expect(reread.json() == bytes)
        #expect(reread.version == 1)
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

    @Test(arguments: [
        (#"{"version":2,"edges":[]}"#, "format version 2 is newer"),
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
