import Foundation
import Testing
import WayfindTestSupport

/// The one executable, `wayfind`: through a link named after a tool it is that tool, as
/// `wayfind TOOL` is.
@Suite struct MultiCallEndToEndTests {
    @Test(arguments: Binaries.tools)
    func aLinkNamedAfterAToolIsThatTool(tool: String) async throws {
        let linked = try await Binaries.run(tool, ["--version"])
        let named = try await Binaries.run("wayfind", [tool, "--version"])
        #expect(linked.status == 0)
        #expect(linked.out.hasPrefix("\(tool) (wayfind) "))
        #expect(linked.stdout == named.stdout)
        #expect(linked.stderr == named.stderr)
    }

    @Test func theLinkedToolsPipeIntoEachOther() async throws {
        let r = try await TestProcess.run(
            "/bin/bash", ["-c", "magickey-suggest roma | head -1 | magickey-find | cut -f1; echo x | smartgrep x"],
            environment: ["PATH": Binaries.directory.path + ":/usr/bin:/bin"])
        #expect(r.stderr == "")
        #expect(r.lines == ["Rome, Lazio, Italy", "x"])
    }

    @Test func wayfindRunsTheToolItsFirstArgumentNames() async throws {
        let r = try await Binaries.run("wayfind", ["magickey-suggest", "-n1", "москва"])
        #expect(r.status == 0)
        #expect(r.lines.first?.hasPrefix("Moscow, Moskva, Russia\t") == true)
    }

    @Test func wayfindWithoutAToolSaysWhatItNeeds() async throws {
        let r = try await Binaries.run("wayfind", [])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("wayfind: no TOOL given (one of smartgrep, routegraph-visit, "))
        #expect(r.stderr.hasSuffix("Try 'wayfind --help' for more information.\n"))
    }

    @Test func aMistypedToolGetsTheClosestName() async throws {
        let r = try await Binaries.run("wayfind", ["smartgrp", "x"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("wayfind: unknown tool 'smartgrp' (did you mean 'smartgrep'?)\n"))
    }

    @Test func wayfindsHelpIsOnStandardOutput() async throws {
        let r = try await Binaries.run("wayfind", ["--help"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        #expect(r.out.hasPrefix("wayfind - "))
        #expect(try await Binaries.run("wayfind", ["--list-tools"]).lines == Binaries.tools)
    }
}
