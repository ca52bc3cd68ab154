import Testing

@testable import WayfindCLI
@testable import WayfindCore

@Suite struct MultiCallTests {
    @Test(arguments: [
        (["/usr/local/bin/magickey-find", "KEY"], "magickey-find", ["KEY"]),
        (["smartgrep", "-i", "x"], "smartgrep", ["-i", "x"]),
        (["/opt/bin/wayfind", "routegraph-visit", "a", "b"], "routegraph-visit", ["a", "b"]),
        (["wayfind", "magickey-suggest"], "magickey-suggest", []),
    ])
    func theToolIsTheOneTheNameOrTheFirstArgumentSays(argv: [String], tool: String, arguments: [String]) throws {
        let resolved = try #require(MultiCall.resolve(argv))
        #expect(resolved.tool.name == tool)
        #expect(resolved.arguments == arguments)
    }

    @Test(arguments: [["wayfind"], ["wayfind", "grep"], ["/bin/other", "smartgrep-x"], []])
    func anythingElseIsNoTool(argv: [String]) {
        #expect(MultiCall.resolve(argv) == nil)
    }

    @Test func onlyTheMagickeyToolsInstallTheGazetteer() {
        #expect(MultiCall.tools.filter(\.usesGazetteer).map(\.name) == ["magickey-suggest", "magickey-find", "magickey-cgi"])
        #expect(
            MultiCall.tools.map(\.name).sorted() == [
                "magickey-cgi", "magickey-find", "magickey-suggest", "routegraph-suggest", "routegraph-visit", "smartgrep",
            ])
    }
}
