import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// routegraph-visit and routegraph-suggest run in-process through their `run`: standard
/// streams, environment and clock are the test's (see InProcessRun.swift).
@Suite("routegraph: the tools")
struct RouteGraphToolTests {
    func visit(_ arguments: [String], graph: String, input: String = "", environment: [String: String] = [:]) throws
        -> RunResult
    {
        runInProcess("routegraph-visit", ["--graph", graph] + arguments, input: Data(input.utf8), environment: environment)
    }

    func suggest(_ arguments: [String], graph: String, environment: [String: String] = [:]) throws -> RunResult {
        runInProcess("routegraph-suggest", ["--graph", graph] + arguments, environment: environment)
    }

    @Test func theSeedScenarioSuggestsAirportThenFootballField() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        for place in ["City Center", "Football Field", "Airport", "City Center"] {
            #expect(try visit([place], graph: scratch.graph).status == 0)
        }
        let eleven = Array(repeating: ["City Center", "Airport"], count: 11).flatMap { $0 }
        let batch = try visit([], graph: scratch.graph, input: eleven.joined(separator: "\n") + "\n")
        #expect(batch.status == 0 && batch.stdout.isEmpty && batch.stderr == "", "\(batch)")
        #expect(try visit(["City Center"], graph: scratch.graph).status == 0)
        let result = try suggest([], graph: scratch.graph)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(Array(result.lines.prefix(2)) == ["Airport", "Football Field"])
        #expect(try scratch.totalWeight() == 1 + 1 + 12 + 11)
    }

    @Test func aMissingGraphSuggestsNothingWithoutAnError() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let result = try suggest([], graph: scratch.graph)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "")
        #expect(scratch.bytes() == nil)
    }

    @Test func emptyInputRecordsNothingAndExitsOne() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let result = try visit([], graph: scratch.graph, input: "\n   \n\t\n")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty && result.stderr == "")
        #expect(scratch.bytes() == nil)
    }

    @Test func queryWordsFilterSuggestionsAsSmartgrepMatches() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        _ = try visit(["Home", "Airport", "Home", "São Paulo", "Home", "Beach", "Home"], graph: scratch.graph)
        #expect(try suggest(["ai"], graph: scratch.graph).lines == ["Airport"])
        #expect(try suggest(["sao"], graph: scratch.graph).lines == ["São Paulo"])
        let none = try suggest(["zzz"], graph: scratch.graph)
        #expect(none.status == 1 && none.stdout.isEmpty && none.stderr == "")
    }

    @Test func scoresAndJSONDescribeWhereEachSuggestionCameFrom() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        _ = try visit(["--at", "1700000000", "Home", "Work", "Home", "Gym", "Home", "Work", "Home"], graph: scratch.graph)
        _ = try visit(["--at", "1700000000", "--new-trip", "Shop", "Home"], graph: scratch.graph)
        // Asked when the visits happened: the trips from Home count in full, plus each
        // place's share of the 9 visits (all at the same hour) times 10.
        let scores = try suggest(["--scores", "--from", "Home", "--at", "1700000000"], graph: scratch.graph)
        #expect(scores.lines == ["Work\t4.222\tedge", "Gym\t2.111\tedge", "Shop\t1.111\thabit"])
        let json = try suggest(["--json", "-n", "2", "--at", "2023-11-14T22:13:20Z"], graph: scratch.graph)
        let array = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        #expect(array.map { $0["place"] as? String } == ["Work", "Gym"])
        #expect(array.map { $0["source"] as? String } == ["edge", "edge"])
        #expect(abs((array.first?["score"] as? Double ?? 0) - (2 + 20.0 / 9)) < 0.001)
        // Years later the trips have faded away: the habits alone, and Gym and Shop tie
        // (one visit each, at the same time), by name.
        #expect(
            try suggest(["--scores", "--from", "Home"], graph: scratch.graph).lines == [
                "Work\t2.222\tedge", "Gym\t1.111\tedge", "Shop\t1.111\thabit",
            ])
    }

    /// Visits are counted by their hour of day, and `--at` asks at a time: Work in the
    /// mornings, the Gym in the evenings.
    @Test func suggestAtATimeOfDayOffersThePlacesOfThatTimeOfDay() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let log =
            (1...3).map { "2024-05-0\($0)T08:30:00Z\tWork\n" }.joined()
            + (1...2).map { "2024-05-0\($0)T18:30:00Z\tGym\n" }.joined() + "2024-05-05T12:00:00Z\tStation\n"
        #expect(try visit(["--timestamped", "--trip-gap", "1h"], graph: scratch.graph, input: log).status == 0)
        #expect(try visit(["--at", "2024-05-05T18:10:00Z", "Gym"], graph: scratch.graph).status == 0)
        #expect(try visit(["--at", "2024-05-06T12:00:00Z", "--new-trip", "Station"], graph: scratch.graph).status == 0)
        let places = try #require(try scratch.parsed()["places"] as? [[String: Any]])
        let hours = Dictionary(uniqueKeysWithValues: places.map { ($0["name"] as! String, $0["hours"] as! [Int]) })
        #expect(hours["Work"] == (0..<24).map { $0 == 8 ? 3 : 0 })
        #expect(hours["Gym"] == (0..<24).map { $0 == 18 ? 3 : 0 })
        #expect(try suggest(["--at", "2024-05-07T08:00:00Z"], graph: scratch.graph).lines == ["Work", "Gym"])
        #expect(try suggest(["--at", "2024-05-07T19:00:00Z"], graph: scratch.graph).lines == ["Gym", "Work"])
        #expect(try suggest(["--at", "1715108400"], graph: scratch.graph).lines == ["Gym", "Work"])
        for bad in ["yesterday", "-5", "2024-13-01"] {
            let result = try suggest(["--at", bad], graph: scratch.graph)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
            #expect(result.stderr.hasPrefix("routegraph-suggest: "), "\(result)")
        }
    }

    @Test func timestampedInputImportsAWholeHistoryInOneCall() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let log = "1700000000\tHome\n2023-11-14T23:00:00Z\tWork\n2023-11-15T08:00:00+01:00\tHome\n"
        let result = try visit(["--timestamped", "--trip-gap", "2h"], graph: scratch.graph, input: log)
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        let edges = try #require(try scratch.parsed()["edges"] as? [[String: Any]])
        // Work is 46 min after Home (an edge); Home again is 8 hours later (a new trip).
        #expect(edges.count == 1)
        #expect(edges.first?["origin"] as? String == "Home" && edges.first?["destination"] as? String == "Work")
        #expect(try scratch.parsed()["lastVisitedAt"] as? Int == 1_700_031_600)
    }

    @Test func forgettingAPlaceRemovesItAndAnUnknownOneIsReported() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        _ = try visit(["A", "B", "C"], graph: scratch.graph)
        let forgot = try visit(["--forget", "b"], graph: scratch.graph)
        #expect(forgot.status == 0 && forgot.stderr == "")
        #expect(
            try visit(["--forget", "Nowhere"], graph: scratch.graph).stderr == "routegraph-visit: no such place to forget: 'Nowhere'\n")
        let quiet = try visit(["--forget", "Nowhere", "-q"], graph: scratch.graph)
        #expect(quiet.status == 1 && quiet.stderr == "")
        let long = try visit(["--forget", String(repeating: "é", count: 60_000)], graph: scratch.graph)
        #expect(long.stderr == "routegraph-visit: no such place to forget: '\(String(repeating: "é", count: 80))…' (120000 bytes)\n")
        #expect(try suggest(["-n0", "--from", "A"], graph: scratch.graph).lines == ["C"])
    }

    @Test(arguments: [
        ("routegraph-visit", ["--frob"]), ("routegraph-visit", ["--at", "yesterday", "A"]),
        ("routegraph-visit", ["--trip-gap", "soon", "A"]), ("routegraph-visit", ["--max-places", "-1", "A"]),
        ("routegraph-visit", ["--timestamped", "A"]), ("routegraph-visit", [""]), ("routegraph-visit", ["--forget", " "]),
        ("routegraph-suggest", ["--limit", "many"]), ("routegraph-suggest", ["--half-life", "0"]),
        ("routegraph-suggest", ["--json", "--scores"]), ("routegraph-suggest", ["-x"]),
    ])
    func aBadCommandLineExitsTwoWithOneErrorLineAndAHint(tool: String, arguments: [String]) throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let r = runInProcess(tool, ["--graph", scratch.graph] + arguments)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(r)")
        #expect(lines.first?.hasPrefix("\(tool): ") == true)
        #expect(lines.last == "Try '\(tool) --help' for more information.")
        #expect(scratch.bytes() == nil)
    }

    static let brokenFiles: [(name: String, content: String, message: String)] = [
        ("corrupt", "{\"edges\": [}", "line 1, column 12 (byte 11)"),
        ("truncated", "{\n  \"edges\": [\n    {\"destination\":\"Airport\",\"ori", "unexpected end of input"),
        ("newer", "{\"edges\": [], \"version\": 9}", "format version 9 is newer than this program supports (\(RouteGraph.currentVersion))"),
        ("not a graph", "[1, 2, 3]", "expected an object"),
        ("invalid UTF-8 inside", "", "invalid UTF-8 byte 0xFC in a string"),
    ]

    @Test(arguments: 0..<5)
    func aBrokenGraphFileIsAnErrorThatNamesItAndIsLeftUnchanged(index: Int) throws {
        let broken = Self.brokenFiles[index]
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        var content = Data(broken.content.utf8)
        if broken.name == "invalid UTF-8 inside" {
            content = Data(#"{"lastVisitedLocation": "Z"#.utf8) + Data([0xFC]) + Data(#"rich", "edges": []}"#.utf8)
        }
        try content.write(to: scratch.url.appendingPathComponent("graph.json"))
        for (tool, arguments) in [("routegraph-visit", ["Home"]), ("routegraph-suggest", [])] {
            let r = runInProcess(tool, ["--graph", scratch.graph] + arguments)
            #expect(r.status == 2, "\(broken.name): \(r)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.hasPrefix("\(tool): \(scratch.graph): "), "\(r)")
            #expect(r.stderr.contains(broken.message), "\(r)")
            #expect(r.stderr.filter { $0 == "\n" }.count == 1)
            #expect(scratch.bytes() == content)
        }
        let advice = runInProcess("routegraph-visit", ["--graph", scratch.graph, "A"]).stderr
        switch broken.name {
        case "newer": #expect(advice.contains("upgrade wayfind"))
        // Probably the wrong file: nothing to move away or restore.
        case "not a graph": #expect(advice.contains(": not a route graph (") && !advice.contains("move"), "\(advice)")
        default: #expect(advice.contains("to recover"))
        }
    }

    @Test func anEmptyGraphFileIsAnEmptyGraph() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        try scratch.write("")
        let empty = try suggest([], graph: scratch.graph)
        #expect(empty.status == 1 && empty.stdout.isEmpty && empty.stderr == "", "\(empty)")
        #expect(try visit(["Home", "Work"], graph: scratch.graph).status == 0)
        #expect(try suggest(["--from", "Home"], graph: scratch.graph).lines == ["Work"])
    }

    @Test func aDirectoryInsteadOfAGraphFileIsAnError() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        try FileManager.default.createDirectory(atPath: scratch.graph, withIntermediateDirectories: false)
        for tool in ["routegraph-visit", "routegraph-suggest"] {
            let r = runInProcess(tool, ["--graph", scratch.graph, "A"])
            #expect(r.status == 2)
            #expect(r.stderr == "\(tool): \(scratch.graph) is not a regular file (move it away, or name another file with --graph FILE)\n")
        }
    }

    /// The way out a corrupt file's message offers: the backup only when there is one.
    @Test func aCorruptFileOffersItsBackupOnlyWhenThereIsOne() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        try scratch.write("{broken")
        let alone = try visit(["A"], graph: scratch.graph)
        #expect(alone.status == 2)
        #expect(alone.stderr.hasSuffix("(to recover, move \(scratch.graph) away to start a new graph)\n"), "\(alone)")
        try scratch.write("{}", to: scratch.graph + ".bak")
        let withBackup = try visit(["A"], graph: scratch.graph)
        #expect(
            withBackup.stderr.hasSuffix(
                "(to recover, restore the previous copy from \(scratch.graph).bak, or move \(scratch.graph) away to start a new graph)\n"),
            "\(withBackup)")
    }

    /// A line that is no place name is refused, and none of the batch is recorded: a NUL
    /// byte (it would end the name early in `-z` output) or bytes that are not UTF-8.
    @Test(arguments: [
        (Data("Work\nA\u{0}B\nGym\n".utf8), "contains a NUL byte"),
        (Data("Work\n".utf8) + Data([0x5A, 0xFC, 0x72, 0x0A]) + Data("Gym\n".utf8), "is not valid UTF-8"),
    ])
    func aLineThatIsNoPlaceNameIsRefusedAndNothingIsRecorded(input: Data, problem: String) throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        _ = try visit(["Home"], graph: scratch.graph)
        let before = scratch.bytes()
        let r = runInProcess("routegraph-visit", ["--graph", scratch.graph], input: input)
        #expect(r.status == 2)
        #expect(r.stderr == "routegraph-visit: standard input, line 2: the place name \(problem); nothing was recorded\n")
        #expect(scratch.bytes() == before)
    }

    /// Without `--max-places`, a graph keeps 50,000 places: one more drops the least used
    /// (P0, with one visit and one edge; the others in the chain have two edges).
    @Test func theDefaultLimitKeepsFiftyThousandPlaces() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let input = (0...50_000).map { "P\($0)\n" }.joined()
        let r = try visit([], graph: scratch.graph, input: input)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        let places = try #require(try scratch.parsed()["places"] as? [[String: Any]])
        #expect(places.count == 50_000)
        #expect(!places.contains { $0["name"] as? String == "P0" })
        #expect(places.contains { $0["name"] as? String == "P1" })
    }

    /// CRLF line ends, blank and space-only lines: the names are trimmed, nothing else.
    @Test func crlfInputIsTrimmedLikeAnyOtherWhitespace() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let r = try visit([], graph: scratch.graph, input: "Home\r\n\r\n  Work \r\n \t\r\nGym\r\n")
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        let edges = try #require(try scratch.parsed()["edges"] as? [[String: Any]])
        #expect(edges.map { "\($0["origin"]!)→\($0["destination"]!)" }.sorted() == ["Home→Work", "Work→Gym"])
    }

    @Test func aMegabytePlaceNameIsRefusedAndNothingIsRecorded() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        _ = try visit(["Home"], graph: scratch.graph)
        let before = scratch.bytes()
        let huge = String(repeating: "x", count: 1 << 20)
        let fromInput = try visit([], graph: scratch.graph, input: "Work\n\(huge)\n")
        #expect(fromInput.status == 2)
        #expect(
            fromInput.stderr
                == "routegraph-visit: standard input, line 2: a place name longer than the limit of 4096 bytes; nothing was recorded\n"
        )
        // One argument can be at most 128 KiB on Linux (MAX_ARG_STRLEN).
        let fromArguments = try visit([String(repeating: "y", count: 100_000)], graph: scratch.graph)
        #expect(fromArguments.status == 2 && fromArguments.stderr.contains("longer than the limit"))
        #expect(scratch.bytes() == before)
    }

    @Test func theDefaultGraphIsPrivateUnderXDGStateHome() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let environment = ["XDG_STATE_HOME": scratch.path + "/state", "ROUTEGRAPH_FILE": "", "HOME": "/nonexistent"]
        let r = runInProcess("routegraph-visit", ["Home", "Work"], environment: environment)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        let file = scratch.path + "/state/wayfind/routegraph.json"
        #expect(fileMode(atPath: file) == 0o600)
        #expect(fileMode(atPath: scratch.path + "/state/wayfind") == 0o700)
        #expect(runInProcess("routegraph-suggest", ["--from", "Home"], environment: environment).lines == ["Work"])
        let viaVariable = runInProcess(
            "routegraph-suggest", ["--from", "Home"], environment: ["ROUTEGRAPH_FILE": file, "XDG_STATE_HOME": ""])
        #expect(viaVariable.lines == ["Work"])
    }

    /// `--graph` wins over `$ROUTEGRAPH_FILE`, which wins over `$XDG_STATE_HOME`; without
    /// them (or with a relative `XDG_STATE_HOME`) the graph is under `$HOME/.local/state`,
    /// in folders made private.
    @Test func theGraphIsFoundInTheDocumentedOrder() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let explicit = scratch.path + "/explicit.json"
        let variable = scratch.path + "/variable.json"
        let state = scratch.path + "/state"
        let home = scratch.path + "/home"
        var environment = ["ROUTEGRAPH_FILE": variable, "XDG_STATE_HOME": state, "HOME": home]
        #expect(runInProcess("routegraph-visit", ["--graph", explicit, "A"], environment: environment).status == 0)
        #expect(runInProcess("routegraph-visit", ["B"], environment: environment).status == 0)
        environment["ROUTEGRAPH_FILE"] = ""
        #expect(runInProcess("routegraph-visit", ["C"], environment: environment).status == 0)
        environment["XDG_STATE_HOME"] = "relative/state"
        #expect(runInProcess("routegraph-visit", ["D"], environment: environment).status == 0)
        let underHome = home + "/.local/state/wayfind/routegraph.json"
        for (file, place) in [(explicit, "A"), (variable, "B"), (state + "/wayfind/routegraph.json", "C"), (underHome, "D")] {
            let r = runInProcess("routegraph-suggest", ["--graph", file, "--from", "X"])
            #expect(r.lines == [place], "\(file): \(r)")
        }
        for folder in [home + "/.local", home + "/.local/state", home + "/.local/state/wayfind"] {
            #expect(fileMode(atPath: folder) == 0o700, "\(folder)")
        }
        #expect(fileMode(atPath: underHome) == 0o600)
    }

    @Test func aSymlinkPlantedAtTheTemporaryPathIsNotFollowed() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        _ = try visit(["Home"], graph: scratch.graph)
        let victim = scratch.path + "/victim"
        try scratch.write("precious\n", to: victim)
        try FileManager.default.createSymbolicLink(atPath: scratch.graph + ".tmp", withDestinationPath: victim)
        let r = try visit(["Work"], graph: scratch.graph)
        #expect(r.status == 0 && r.stderr == "")
        #expect(scratch.bytes(victim) == Data("precious\n".utf8))
        #expect(try suggest(["--from", "Home"], graph: scratch.graph).lines == ["Work"])
    }

    @Test func aSymlinkedGraphFileStaysALinkAndItsTargetIsUpdated() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let real = scratch.path + "/dotfiles/routegraph.json"
        try FileManager.default.createDirectory(atPath: scratch.path + "/dotfiles", withIntermediateDirectories: false)
        _ = try visit(["Home"], graph: real)
        try FileManager.default.createSymbolicLink(atPath: scratch.graph, withDestinationPath: "dotfiles/routegraph.json")
        #expect(try visit(["Work"], graph: scratch.graph).status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: scratch.graph)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(try suggest(["--from", "Home"], graph: real).lines == ["Work"])
    }

    @Test func nulSeparatedInputAndOutputKeepNamesIntact() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let r = runInProcess("routegraph-visit", ["--graph", scratch.graph, "-z"], input: Data("Home\0Rue de la Paix\0Home\0".utf8))
        #expect(r.status == 0)
        let out = try suggest(["-z"], graph: scratch.graph)
        #expect(out.stdout == Data("Rue de la Paix\0".utf8))
    }
}
