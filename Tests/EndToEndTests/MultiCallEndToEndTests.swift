import Foundation
import Testing
import WayfindTestSupport

/// The multi-call binary `make install` installs: through a link named after a tool it is
/// that tool, byte for byte; as `wayfind TOOL` too.
@Suite struct MultiCallEndToEndTests {
    static let tools = ["smartgrep", "routegraph-visit", "routegraph-suggest", "magickey-suggest", "magickey-find", "magickey-cgi"]

    /// A folder with a link named after each tool to the built `wayfind`, as `make install`
    /// makes them.
    func linkFolder() throws -> URL {
        let folder = try TestFiles.directory()
        for tool in Self.tools {
            let link = folder.appendingPathComponent(tool)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: Binaries.directory.appendingPathComponent("wayfind"))
        }
        return folder
    }

    @Test(arguments: tools)
    func aLinkNamedAfterAToolIsThatTool(tool: String) async throws {
        let folder = try linkFolder()
        let linked = try await TestProcess.run(folder.appendingPathComponent(tool).path, ["--version"])
        let single = try await Binaries.run(tool, ["--version"])
        #expect(linked.status == 0)
        #expect(linked.stdout == single.stdout)
        #expect(linked.stderr == single.stderr)
    }

    @Test func theLinkedToolsPipeIntoEachOther() async throws {
        let folder = try linkFolder()
        let r = try await TestProcess.run(
            "/bin/bash", ["-c", "magickey-suggest roma | head -1 | magickey-find | cut -f1; echo x | smartgrep x"],
            environment: ["PATH": folder.path + ":/usr/bin:/bin"])
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
        #expect(try await Binaries.run("wayfind", ["--list-tools"]).lines == Self.tools)
    }
}
