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

    /// A tool's name is its flag table's (what `--help`, errors and its man page say) and
    /// no other tool's, nor wayfind's.
    @Test func everyToolIsNamedAsItsFlagTableNamesIt() {
        let names = MultiCall.tools.map(\.name)
        #expect(MultiCall.tools.allSatisfy { $0.name == $0.spec.name }, "\(MultiCall.tools.map { ($0.name, $0.spec.name) })")
        #expect(Set(names).count == names.count && !names.contains(MultiCall.name), "\(names)")
    }

    /// The gazetteer is installed only for the tools that read it: smartgrep and the
    /// routegraph tools start without touching its 14 MB.
    @Test func smartgrepAndTheRouteGraphToolsDoNotInstallTheGazetteer() {
        let others = MultiCall.tools.filter { $0.name == "smartgrep" || $0.name.hasPrefix("routegraph-") }
        #expect(others.count >= 3 && !others.contains(where: \.usesGazetteer))
    }
}
