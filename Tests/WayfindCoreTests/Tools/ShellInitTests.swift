import Testing

@testable import WayfindCLI
@testable import WayfindCore

/// `--learn CMD[:N]` and `--jump NAME`, as routegraph-suggest reads them.
@Suite struct ShellInitTests {
    @Test(arguments: [
        ("trip", "0 -"), ("ssh", "1 BbcDEeFIiJLlmOopQRSWw"), ("mosh", "1 p"), ("cd", "1 -"), ("trip:2", "2 -"),
        ("ssh:3", "3 BbcDEeFIiJLlmOopQRSWw"), ("scp", "-1 cDFiJloPSX"), ("printf", "0 -"), ("g++", "0 -"),
    ])
    func aLearnedCommandKnowsWhichArgumentIsItsPlace(text: String, rule: String) throws {
        let command = try #require(LearnedCommand(text))
        #expect(command.rule == rule)
        #expect(command.spelling == text)
    }

    @Test(arguments: ["", "trip:0", "trip:", "trip:x", ":2", "-x", "a b", "a;b", "a/b", "local", "command", "builtin", "set", "string", "test"])
    func namesThatCannotBeLearnedAreRefused(text: String) {
        #expect(LearnedCommand(text) == nil)
    }

    @Test func theSetUpNamesEachCommandOnceAndTheJumpLearnsCd() throws {
        let script = try ShellInit.script(.bash, learning: [LearnedCommand("trip")!, LearnedCommand("trip:2")!], jump: "j")
        #expect(script.components(separatedBy: "function trip {").count == 2)
        #expect(script.contains("__wayfind_adopt trip '2 -'"))
        #expect(script.contains("__wayfind_adopt cd '1 -'"))
        #expect(script.contains("function j {") && script.contains("function ji {"))
    }

    @Test func learnAndJumpGoWithTheShellSetUpOnly() {
        for arguments in [["--learn", "trip"], ["--jump", "j"]] {
            #expect(throws: UsageError.self) {
                try RouteGraphSuggestOptions(
                    parseArguments(arguments, spec: RouteGraphSuggest.spec), context: ToolContext(now: { 1_000 }))
            }
        }
    }
}
