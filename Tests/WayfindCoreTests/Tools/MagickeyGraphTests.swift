import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// magickey-suggest --graph and magickey-find --graph, in-process.
@Suite struct MagickeyGraphTests {
    func suggest(_ arguments: [String], input: String = "") -> RunResult {
        runInProcess("magickey-suggest", arguments, input: Data(input))
    }

    func find(_ arguments: [String]) -> RunResult {
        runInProcess("magickey-find", arguments)
    }

    func graphPath(_ name: String) throws -> String {
        let folder = try TestFiles.write(Data(), name: "\(name)-marker")
        return folder + ".json"
    }

    static let airport = "Airport, Hawaii, United States"
    static let boston = "Boston, Massachusetts, United States"

    @Test func placesFoundWithAGraphArePredictedNextTime() throws {
        let graph = try graphPath("airport-boston")
        #expect(find(["--graph", graph, "--at", "2024-05-01T08:00:00Z", "--text", "airport"]).status == 0)
        let boston = suggest(["--location", "42.36,-71.06", "boston"]).lines.first.map { String($0.split(separator: "\t")[1]) }
        #expect(find(["--graph", graph, "--at", "2024-05-01T09:00:00Z", try #require(boston)]).status == 0)
        let saved = try String(contentsOfFile: graph, encoding: .utf8)
        #expect(saved.contains("\"origin\":\"\(Self.airport)\""))
        // Back at the airport: Boston is offered with no text, marked as predicted.
        #expect(find(["--graph", graph, "--at", "2024-05-08T08:00:00Z", "--text", "airport"]).status == 0)
        let next = suggest(["--graph", graph, "--at", "2024-05-08T08:30:00Z", "--json", ""])
        #expect(next.status == 0, "\(next)")
        #expect(next.out.hasPrefix("{\"suggestions\":[{\"text\":\"\(Self.boston)\",\"magicKey\":\""))
        #expect(next.out.contains("\"isCollection\":false,\"predicted\":true}"))
        // The TSV keeps its three columns.
        let tsv = suggest(["--graph", graph, "--at", "2024-05-08T08:30:00Z", "--from", Self.airport, ""])
        #expect(tsv.lines.first?.split(separator: "\t").count == 3)
        #expect(tsv.lines.first?.hasPrefix(Self.boston + "\t") == true)
    }

    /// Queries on standard input (which read the graph once) are answered as each query
    /// asked alone (which scans the file) would be.
    @Test func queriesOnStandardInputAreAnsweredAsEachAlone() throws {
        let graph = try graphPath("stdin-queries")
        for (hour, text) in [("08", "airport"), ("09", "boston"), ("10", "airport"), ("11", "cambridge"), ("12", "boston")] {
            #expect(find(["--graph", graph, "--at", "2024-05-01T\(hour):00:00Z", "--location", "42.36,-71.06", "--text", text]).status == 0)
        }
        let queries = ["", "b", "bo", "c", "a", "paris"]
        let common = ["--graph", graph, "--at", "2024-05-02T08:30:00Z", "--location", "42.36,-71.06", "--json"]
        let together = suggest(common, input: queries.joined(separator: "\n") + "\n")
        #expect(together.status == 0)
        // Each answer on standard input ends with an empty line.
        let alone = queries.map { suggest(common + [$0]).out + "\n" }.joined()
        #expect(together.out == alone)
        #expect(together.out.contains("\"predicted\":true"))
    }

    /// Standard input is read once: a gazetteer there cannot be read again for each
    /// predicted place, nor hold the queries too.
    @Test func aGazetteerOnStandardInputIsRefusedWhereItWouldBeReadTwice() throws {
        let tsv = "name\tlatitude\tlongitude\nSalem\t42.52\t-70.90\n"
        let withGraph = suggest(["--places", "-", "--graph", try graphPath("stdin-places"), "sa"], input: tsv)
        #expect(withGraph.status == 2)
        #expect(withGraph.stderr.hasPrefix("magickey-suggest: --places - (standard input) does not go with --graph"))
        let noText = suggest(["--places", "-"], input: tsv)
        #expect(noText.status == 2)
        #expect(noText.stderr.hasPrefix("magickey-suggest: no TEXT given, and standard input holds the gazetteer"))
        // With TEXT and no graph, the gazetteer on standard input works.
        let plain = suggest(["--places", "-", "sa"], input: tsv)
        #expect(plain.status == 0 && plain.lines.first?.hasPrefix("Salem\t") == true, "\(plain)")
    }

    @Test func aCollectionsKeyRecordsNothing() throws {
        let graph = try graphPath("collection")
        let key = try #require(suggest(["capitals"]).lines.first.map { String($0.split(separator: "\t")[1]) })
        let r = find(["--graph", graph, key])
        #expect(r.status == 0)
        #expect(!FileManager.default.fileExists(atPath: graph))
    }

    @Test func emptyTextWithoutGraphOrWithAnEmptyGraphFindsNothing() throws {
        #expect(suggest([""]).status == 1)
        let missing = try graphPath("missing")
        let r = suggest(["--graph", missing, ""])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("magickey-suggest: no route graph at '") && r.stderr.contains(" yet (magickey-find --graph records one)"))
        #expect(!FileManager.default.fileExists(atPath: missing))
        // Standard input's empty lines ask for predictions too, one answer each, each
        // ended by an empty line.
        let stream = suggest(["--graph", missing, "--json"], input: "\nparis\n")
        #expect(stream.lines.count == 4 && stream.lines[0] == "{\"suggestions\":[]}" && stream.lines[1] == "")
    }

    @Test(arguments: [["--from", "Home", "paris"], ["--at", "1700000000", "paris"]])
    func fromAndAtNeedAGraph(arguments: [String]) {
        let r = suggest(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("magickey-suggest: --from and --at go with --graph"))
    }

    /// A damaged graph is an error (exit 2), left unchanged; the search box still
    /// suggests from the gazetteer.
    @Test func aCorruptGraphIsAnErrorAndLeftUnchanged() throws {
        let graph = try TestFiles.write(Data("{\"edges\":[".utf8), name: "corrupt-graph.json")
        let s = suggest(["--graph", graph, "paris"])
        #expect(s.status == 2)
        #expect(s.stderr.hasPrefix("magickey-suggest: \(graph): not a valid route graph"))
        #expect(s.stderr.hasSuffix("; suggesting without it\n"))
        #expect(s.lines.first?.hasPrefix("Paris, Île-de-France, France\t") == true)
        let f = find(["--graph", graph, "--text", "paris"])
        #expect(f.status == 2)
        #expect(f.stderr.hasPrefix("magickey-find: "))
        #expect(try String(contentsOfFile: graph, encoding: .utf8) == "{\"edges\":[")
        #expect(find(["--at", "1700000000", "--text", "paris"]).status == 2)
    }
}
