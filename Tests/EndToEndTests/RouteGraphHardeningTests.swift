import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The routegraph tools against files that are not what they seem: links other users
/// planted, files that are not route graphs, FIFOs and devices, extreme times, a lock
/// held by someone else.
@Suite("routegraph: hostile files", .serialized)
struct RouteGraphHardeningTests {
    func run(_ tool: String, _ arguments: [String], input: String = "") throws -> RunResult {
        try Binaries.run(tool, arguments, input: Data(input))
    }

    /// The graph named by a FIFO, a device or standard input: an error at once, before any
    /// lock is taken, and no file is created next to it.
    @Test func aFIFOOrADeviceIsRefusedAtOnceAndNothingIsCreatedNextToIt() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        mkfifo(scratch.graph, 0o600)
        let zeroLock = FileManager.default.fileExists(atPath: "/dev/zero.lock")
        defer { if !zeroLock { unlink("/dev/zero.lock") } }
        let r = try Binaries.shell(
            """
            cd '\(scratch.path)'
            timeout -s KILL 10 routegraph-visit --graph graph.json A; echo "fifo visit $?"
            timeout -s KILL 10 routegraph-suggest --graph graph.json; echo "fifo suggest $?"
            timeout -s KILL 10 routegraph-visit --graph /dev/zero A; echo "zero visit $?"
            timeout -s KILL 10 routegraph-suggest --graph /dev/zero; echo "zero suggest $?"
            echo Home | timeout -s KILL 10 routegraph-visit --graph /dev/stdin A; echo "stdin visit $?"
            echo Home | timeout -s KILL 10 routegraph-suggest --graph /dev/stdin; echo "stdin suggest $?"
            ls
            """)
        #expect(
            r.lines == [
                "fifo visit 2", "fifo suggest 2", "zero visit 2", "zero suggest 2", "stdin visit 2", "stdin suggest 2", "graph.json",
            ], "\(r)")
        let hint = " is not a regular file (move it away, or name another file with --graph FILE)"
        #expect(
            r.stderr.split(separator: "\n") == [
                "routegraph-visit: graph.json\(hint)", "routegraph-suggest: graph.json\(hint)",
                "routegraph-visit: /dev/zero\(hint)", "routegraph-suggest: /dev/zero\(hint)",
                "routegraph-visit: /dev/stdin\(hint)", "routegraph-suggest: /dev/stdin\(hint)",
            ], "\(r)")
        #expect(zeroLock || !FileManager.default.fileExists(atPath: "/dev/zero.lock"))
    }

    /// A visit that finds the lock taken says which lock it waits for within a second or
    /// two, and gives up after --lock-timeout with nothing recorded; one that gets the
    /// lock in time records its visit.
    @Test func aVisitWaitingForTheLockSaysSoAndGivesUpAtTheBound() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        #expect(try run("routegraph-visit", ["--graph", scratch.graph, "Home"]).status == 0)
        let before = scratch.bytes()
        let lock = scratch.graph + ".lock"
        let waiting = "routegraph-visit: waiting for the lock on \(lock), which another process holds"
        let r = try Binaries.shell(
            """
            cd '\(scratch.path)'
            flock graph.json.lock -c 'touch held; sleep 4' & while [ ! -e held ]; do sleep 0.05; done
            start=$(date +%s%N)
            routegraph-visit --graph '\(scratch.graph)' --lock-timeout 2 Work; echo "status $?"
            echo "waited $(( ($(date +%s%N) - start) / 100000000 ))"
            wait; rm held
            flock graph.json.lock -c 'touch held; sleep 2' & while [ ! -e held ]; do sleep 0.05; done
            routegraph-visit --graph '\(scratch.graph)' Gym; echo "status $?"
            wait
            """)
        #expect(r.lines.first == "status 2", "\(r)")
        let tenths = Int(r.lines.dropFirst().first?.split(separator: " ").last ?? "") ?? 0
        #expect((19...35).contains(tenths), "\(r)")
        #expect(r.lines.last == "status 0", "\(r)")
        #expect(
            r.stderr == """
                \(waiting)
                routegraph-visit: gave up waiting for the lock on \(lock) after 2 seconds; nothing was recorded (another process holds it: see fuser \(lock))
                \(waiting)

                """, "\(r)")
        #expect(scratch.bytes() != before)
        #expect(try run("routegraph-suggest", ["--graph", scratch.graph, "--from", "Home"]).lines == ["Gym"])
    }
}
