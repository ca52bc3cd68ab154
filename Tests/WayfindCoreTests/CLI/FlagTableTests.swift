import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// Flags are data (STYLE.md 4): each tool's table names every flag once, and a tool reads
/// only flags of its table (ripgrep's defs.rs checks the same of its flags).
@Suite struct FlagTableTests {
    /// wayfind's own table and every tool's, as the multi-call table lists them.
    static let specs: [ToolSpec] = [MultiCall.spec] + MultiCall.tools.map(\.spec)

    @Test(arguments: specs.map(\.name))
    func everyLongAndShortNameIsUnique(tool: String) {
        let spec = Self.specs.first { $0.name == tool }!
        let longs = spec.flags.flatMap { [$0.long] + $0.aliases }
        let shorts = spec.flags.compactMap(\.short)
        #expect(Set(longs).count == longs.count, "\(tool): repeated long names \(longs.sorted())")
        #expect(Set(shorts).count == shorts.count, "\(tool): repeated short names \(shorts.sorted())")
        #expect(longs.allSatisfy { !$0.isEmpty && !$0.hasPrefix("-") && !$0.contains("=") })
    }

    @Test func readingAFlagThatIsNotInTheTableIsAnError() throws {
        let stray = Flag("not-in-any-table", help: "a flag nobody declared")
        let parsed = try parseArguments(["x"], spec: Smartgrep.spec)
        #expect(throws: UsageError.self) { try parsed.value(of: stray) }
        #expect(try parsed.value(of: SmartgrepFlags.invert) == false)
    }

    /// A run reads every flag its options read (given or not), so a flag left out of the
    /// table shows as the error above. Every tool runs: with the arguments below that get
    /// past its checks, else with none.
    @Test func everyToolReadsOnlyFlagsOfItsTable() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let runs: [String: [([String], String)]] = [
            "smartgrep": [(["x"], "x\n"), (["-e", "x", "-C1", "-r", "--include=*.txt", scratch.path], "")],
            "routegraph-visit": [(["--graph", scratch.graph, "A"], "")], "routegraph-suggest": [(["--graph", scratch.graph], "")],
            "magickey-suggest": [(["paris"], "")], "magickey-find": [([], "x\n")],
        ]
        for tool in MultiCall.tools.map(\.name) {
            for (arguments, input) in runs[tool] ?? [([], "")] {
                let r = runInProcess(tool, arguments, input: Data(input))
                #expect(!r.stderr.contains("not in the flag table"), "\(tool) \(arguments): \(r.stderr)")
            }
        }
    }
}
