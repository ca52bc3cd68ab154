import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// The routegraph tools against files that are not what they seem: links other users
/// planted, files that are not route graphs, extreme times, read-only files; in-process
/// (FIFOs, devices and a held lock: RouteGraphProcessTests).
@Suite("routegraph: hostile files")
struct RouteGraphHardeningTests {
    func run(_ tool: String, _ arguments: [String], input: String = "") throws -> RunResult {
        runInProcess(tool, arguments, input: Data(input.utf8))
    }

    /// A folder anyone may write to, sticky, as /tmp is.
    func sharedFolder(in scratch: GraphScratch) throws -> String {
        let shared = scratch.path + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, 0o1777)
        return shared
    }

    /// The other user's trick: in a shared sticky folder, a link named as the victim's
    /// graph that points at one of the victim's files. The victim's visits must neither
    /// write that file nor create one where a dangling link points; a link of the
    /// victim's own is followed as before. As root, the link is handed to nobody.
    @Test(.enabled(if: getuid() == 0, "needs root, to hand the planted links to another user with lchown"))
    func aLinkAnotherUserPlantedInASharedFolderIsNeverFollowed() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let shared = try sharedFolder(in: scratch)
        let config = scratch.path + "/config.json"
        let precious = Data(#"{"auths": {"registry": {"auth": "c2VjcmV0"}}}"#.utf8)
        try precious.write(to: URL(fileURLWithPath: config))
        let planted = shared + "/trips.json"
        let dangling = shared + "/next.json"
        let created = scratch.path + "/created.json"
        symlink(config, planted)
        symlink(created, dangling)
        lchown(planted, 65534, 65534)
        lchown(dangling, 65534, 65534)
        for _ in 0..<3 {
            let visit = try run("routegraph-visit", ["--graph", planted, "Home"])
            #expect(visit.status == 2, "\(visit)")
            #expect(
                visit.stderr
                    == "routegraph-visit: \(planted) is a symbolic link of another user (uid 65534) in a shared directory; not followed (use --graph with a file in a directory of your own)\n"
            )
        }
        let suggest = try run("routegraph-suggest", ["--graph", planted])
        #expect(suggest.status == 2 && suggest.stderr.contains("symbolic link of another user"), "\(suggest)")
        #expect(scratch.bytes(config) == precious)
        let danglingVisit = try run("routegraph-visit", ["--graph", dangling, "Home"])
        #expect(danglingVisit.status == 2 && danglingVisit.stderr.contains("symbolic link of another user"), "\(danglingVisit)")
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
        #expect(left == ["config.json", "shared"], "\(left)")

        // A link of one's own in the same folder is followed; a dangling one creates nothing.
        let own = shared + "/mine.json"
        symlink(scratch.path + "/real.json", own)
        let ownDangling = try run("routegraph-visit", ["--graph", own, "Home"])
        #expect(ownDangling.status == 2, "\(ownDangling)")
        #expect(
            ownDangling.stderr
                == "routegraph-visit: \(own) is a symbolic link to \(scratch.path)/real.json, which does not exist; nothing was created there (create the file, or name another with --graph)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/real.json.lock"))
        try Data().write(to: URL(fileURLWithPath: scratch.path + "/real.json"))
        #expect(try run("routegraph-visit", ["--graph", own, "Home", "Work"]).status == 0)
        #expect(try run("routegraph-suggest", ["--graph", own, "--from", "Home"]).lines == ["Work"])
    }

    /// A JSON object with none of the graph's keys is someone else's file: refused, kept.
    @Test(arguments: [#"{"auths": {"registry": {"auth": "c2VjcmV0"}}}"#, "{}", "{ }\n"])
    func aJSONObjectThatIsNotARouteGraphIsRefusedAndLeftAlone(content: String) throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        try scratch.write(content)
        for (tool, arguments) in [("routegraph-visit", ["Home"]), ("routegraph-visit", ["Home", "Work"]), ("routegraph-suggest", [])] {
            let r = try run(tool, ["--graph", scratch.graph] + arguments)
            #expect(r.status == 2, "\(r)")
            #expect(
                r.stderr
                    == "\(tool): \(scratch.graph): not a route graph (a JSON object without edges, lastVisitedLocation, places or version); the file was left unchanged (name the graph with --graph FILE)\n"
            )
        }
        #expect(scratch.bytes() == Data(content.utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["graph.json"])
    }

    /// Keys this version does not know are another program's, or a later version's: a
    /// visit keeps them, whether it patches the file or rewrites it.
    @Test func unknownKeysOfARouteGraphAreKept() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        #expect(try run("routegraph-visit", ["--graph", scratch.graph, "--at", "1700000000", "Home", "Work"]).status == 0)
        var text = String(decoding: try #require(scratch.bytes()), as: UTF8.self)
        text = text.replacingOccurrences(of: "{\n", with: "{\n  \"comment\": \"my trips\",\n")
        text = text.replacingOccurrences(of: "  \"version\"", with: "  \"synced\": {\"at\": [1, 2]},\n  \"version\"")
        try scratch.write(text)
        #expect(try run("routegraph-visit", ["--graph", scratch.graph, "Gym"]).status == 0)
        #expect(try run("routegraph-visit", ["--graph", scratch.graph, "Home", "Pool", "--forget", "Gym"]).status == 0)
        let parsed = try scratch.parsed()
        #expect(parsed["comment"] as? String == "my trips")
        #expect((parsed["synced"] as? [String: Any])?["at"] as? [Int] == [1, 2])
        #expect(try run("routegraph-suggest", ["--graph", scratch.graph, "--from", "Home", "-s"]).lines == ["Pool", "Work"])
    }

    /// A time beyond the years 1970 to 9999 is refused on input; a file that holds one
    /// (or any 64-bit time) is read, visited and suggested from without a crash.
    @Test func extremeTimesAreRefusedOnInputAndNeverCrashTheTools() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        for time in ["-9223372036854775808", "-1", "253402300800", "10000-01-01", "1969-12-31T23:59:59Z"] {
            let r = try run("routegraph-visit", ["--graph", scratch.graph, "--at=\(time)", "A", "B"])
            #expect(r.status == 2 && r.stderr.hasPrefix("routegraph-visit: invalid --at '\(time)'"), "\(r)")
            let log = try run("routegraph-visit", ["--graph", scratch.graph, "-t"], input: "\(time)\tA\n")
            #expect(log.status == 2 && log.stderr.contains("invalid time '\(time)'"), "\(log)")
        }
        #expect(scratch.bytes() == nil)
        #expect(try run("routegraph-visit", ["--graph", scratch.graph, "--at", "9999-12-31T23:59:59Z", "A"]).status == 0)
        #expect(try run("routegraph-visit", ["--graph", scratch.graph, "--at", "0", "B"]).status == 0)
        for (low, high) in [("-9223372036854775808", "9223372036854775807"), ("-9223372036854775807", "9223372036854775806")] {
            try scratch.write(
                """
                {"edges":[{"origin":"A","destination":"B","weight":9223372036854775807,"lastVisitedAt":\(low)},
                {"origin":"A","destination":"C","weight":1,"lastVisitedAt":\(high)}],
                "lastVisitedAt":\(low),"lastVisitedLocation":"A",
                "places":[{"name":"A","visits":9223372036854775807,"lastVisitedAt":\(high)},
                {"name":"B","visits":1,"lastVisitedAt":\(low)},{"name":"D","visits":2,"lastVisitedAt":\(high)}],"version":1}
                """)
            for arguments in [
                [], ["--half-life", "1"], ["-n0"], ["-n", "9223372036854775807"], ["--half-life", "9223372036854775807", "--from", "D"],
            ] {
                let r = try run("routegraph-suggest", ["--graph", scratch.graph] + arguments)
                #expect(r.status == 0 && r.stderr == "", "\(arguments): \(r)")
                #expect(Set(r.lines).isSuperset(of: ["B", "C"]), "\(arguments): \(r)")
            }
            for arguments in [["--trip-gap", "1h", "D"], ["--trip-gap", "9223372036854775807", "A"], ["E", "F"]] {
                let r = try run("routegraph-visit", ["--graph", scratch.graph] + arguments)
                #expect(r.status == 0 && r.stderr == "", "\(arguments): \(r)")
            }
            #expect(try run("routegraph-suggest", ["--graph", scratch.graph, "--half-life", "1", "-n0"]).status == 0)
        }
    }

    /// A graph file whose owner took its write permission away is not changed.
    @Test func aReadOnlyGraphFileIsNotChanged() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        #expect(try run("routegraph-visit", ["--graph", scratch.graph, "Home"]).status == 0)
        chmod(scratch.graph, 0o444)
        let before = scratch.bytes()
        let r = try run("routegraph-visit", ["--graph", scratch.graph, "Work"])
        #expect(r.status == 2)
        #expect(r.stderr == "routegraph-visit: \(scratch.graph) is read-only; nothing was recorded (make it writable to record visits)\n")
        #expect(scratch.bytes() == before)
        #expect(try run("routegraph-suggest", ["--graph", scratch.graph, "--from", "Nowhere"]).lines == ["Home"])
    }

    /// Names are quoted and cut short in messages; a name with a NUL byte in the file is
    /// refused as one on input is.
    @Test func messagesCutLongValuesAndANULInAStoredNameIsRefused() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let long = String(repeating: "9", count: 500)
        let log = try run("routegraph-visit", ["--graph", scratch.graph, "-t"], input: "\(long)x\tHome\n")
        #expect(
            log.stderr
                == "routegraph-visit: standard input, line 1: invalid time '\(long.prefix(80))…' (501 bytes) (expected Unix seconds or ISO 8601 from 1970 to 9999); nothing was recorded\n",
            "\(log)")
        for name in [#"A\u0000B"#, #"\u0000"#] {
            for text in [
                #"{"edges":[],"lastVisitedLocation":"\#(name)","version":1}"#,
                #"{"edges":[{"origin":"X","destination":"\#(name)"}],"version":1}"#,
                #"{"edges":[],"places":[{"name":"\#(name)","visits":1}],"version":1}"#,
            ] {
                try scratch.write(text)
                for (tool, arguments) in [("routegraph-visit", ["Home"]), ("routegraph-suggest", ["-n0"])] {
                    let r = try run(tool, ["--graph", scratch.graph] + arguments)
                    #expect(r.status == 2 && r.stdout.isEmpty, "\(text): \(r)")
                    #expect(r.stderr.contains(": a place name must not contain a NUL byte"), "\(text): \(r)")
                }
                #expect(scratch.bytes() == Data(text.utf8))
            }
        }
    }
}
