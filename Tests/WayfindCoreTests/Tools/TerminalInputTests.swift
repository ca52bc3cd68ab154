import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// A tool that would read its input from a terminal with nothing given prints its usage
/// instead of waiting silently (smartgrep and routegraph-suggest need no input to answer).
@Suite("tools: a terminal on standard input")
struct TerminalInputTests {
    @Test func withNothingToReadFromATerminalTheToolsPrintTheirUsage() throws {
        for (tool, name) in [
            (MagickeySuggest.run, "magickey-suggest"), (MagickeyFind.run, "magickey-find"),
            (RouteGraphVisit.run, "routegraph-visit"),
        ] as [(ToolRun, String)] {
            let graph = ["--graph", NSTemporaryDirectory() + "wayfind-terminal-\(getpid()).json"]
            let arguments = name.hasPrefix("routegraph") ? graph : []
            let result = runInProcess(tool, arguments, inputIsTerminal: true)
            #expect(result.status == 2)
            #expect(result.out == "")
            #expect(result.stderr.hasPrefix("\(name): no "))
            #expect(result.stderr.contains("standard input is a terminal"))
            #expect(result.stderr.contains("--help"))
            // Not a terminal: standard input is read (here, empty: nothing found).
            #expect(runInProcess(tool, arguments).status == 1)
        }
    }
}
