import Foundation
import Testing
import WayfindTestSupport

/// magickey-find --graph and magickey-suggest --graph as built binaries: the file they
/// share, its lock, and the exit statuses.
@Suite struct MagickeyGraphEndToEndTests {
    func run(_ tool: String, _ arguments: [String]) async throws -> RunResult {
        // The graph's cache in the tests' folder, not the user's.
        try await Binaries.run(tool, arguments, environment: ["TZ": "UTC", "XDG_CACHE_HOME": TestFiles.folder.path + "/cache"])
    }

    func folder(_ name: String) throws -> String {
        let marker = try TestFiles.write(Data(), name: "\(name)-marker")
        let path = marker + ".d"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aReadOnlyGraphIsReadWithoutALockOrAChange() async throws {
        let dir = try folder("read-only-graph")
        let graph = dir + "/g.json"
        #expect(try await run("magickey-find", ["--graph", graph, "--at", "2024-05-01T08:00:00Z", "--text", "airport hawaii"]).status == 0)
        #expect(try await run("magickey-find", ["--graph", graph, "--at", "2024-05-01T09:00:00Z", "--text", "boston"]).status == 0)
        #expect(
            try await run("routegraph-visit", ["--graph", graph, "--at", "2024-05-08T08:00:00Z", "Airport, Hawaii, United States"]).status
                == 0)
        try FileManager.default.removeItem(atPath: graph + ".lock")
        let before = try Data(contentsOf: URL(fileURLWithPath: graph))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: graph)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir) }
        let r = try await run("magickey-suggest", ["--graph", graph, "--at", "2024-05-08T08:30:00Z", ""])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.lines.first?.hasPrefix("Boston, Massachusetts, United States\t") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: graph)) == before)
        #expect(!FileManager.default.fileExists(atPath: graph + ".lock"))
    }

    @Test func exitStatusesAndADamagedGraphLeftUnchanged() async throws {
        let dir = try folder("graph-statuses")
        let missing = dir + "/missing.json"
        // 1: nothing predicted from a missing graph, which is not created (a note says so).
        let none = try await run("magickey-suggest", ["--graph", missing, ""])
        #expect(none.status == 1 && none.out == "")
        #expect(none.stderr.hasPrefix("magickey-suggest: no route graph at '") && none.stderr.hasSuffix(" yet (magickey-find --graph records one)\n"))
        #expect(!FileManager.default.fileExists(atPath: missing))
        // 2: a damaged graph, left as it was, by both tools; the search box still suggests.
        let damaged = dir + "/damaged.json"
        try Data("{\"edges\":[{\"origin\":".utf8).write(to: URL(fileURLWithPath: damaged))
        let s = try await run("magickey-suggest", ["--graph", damaged, "paris"])
        #expect(s.status == 2 && s.lines.first?.hasPrefix("Paris, Île-de-France, France\t") == true)
        #expect(s.stderr.hasPrefix("magickey-suggest: ") && s.stderr.split(separator: "\n").count == 1)
        let f = try await run("magickey-find", ["--graph", damaged, "--text", "paris"])
        #expect(f.status == 2)
        #expect(f.stderr.hasPrefix("magickey-find: ") && f.stderr.split(separator: "\n").count == 1)
        #expect(try String(contentsOfFile: damaged, encoding: .utf8) == "{\"edges\":[{\"origin\":")
        // 0: found and recorded.
        let found = try await run("magickey-find", ["--graph", missing, "--text", "paris"])
        #expect(found.status == 0)
        #expect(try String(contentsOfFile: missing, encoding: .utf8).contains("\"lastVisitedLocation\": \"Paris, Île-de-France, France\""))
    }
}
