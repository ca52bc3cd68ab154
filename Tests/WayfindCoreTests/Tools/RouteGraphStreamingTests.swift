import Dispatch
import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// routegraph-visit reading a pipe that stays open (`tail -f log | routegraph-visit`):
/// visits are saved in batches as they come, a line too long is refused as soon as it
/// is, and memory stays flat on an endless input (RouteGraphProcessTests).
@Suite("routegraph-visit: streaming standard input")
struct RouteGraphStreamingTests {
    /// routegraph-visit running on a thread of its own, reading the read end of a pipe
    /// the test writes to.
    final class PipedVisit: @unchecked Sendable {
        let input: Int32
        let errors: Int32
        let finished = DispatchSemaphore(value: 0)
        var status: WayfindCLI.ExitStatus?

        init(_ arguments: [String]) {
            var ends: [Int32] = [0, 0]
            precondition(pipe(&ends) == 0)
            input = ends[1]
            var template = Array((TestFiles.folder.path + "/stream-XXXXXX").utf8CString)
            errors = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            let context = ToolContext(
                standardInput: FileDescriptor(ends[0]), standardOutput: FileDescriptor(errors), standardError: FileDescriptor(errors),
                now: { fixedNow })
            let readEnd = ends[0]
            let thread = Thread { [self] in
                status = RouteGraphVisit.run(arguments, context: context)
                close(readEnd)
                finished.signal()
            }
            thread.start()
        }

        func write(_ text: String) {
            _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(input, $0.baseAddress, $0.count - 1) }
        }

        /// Whether the tool ended within `seconds`.
        func ends(within seconds: Double) -> Bool { finished.wait(timeout: .now() + seconds) == .success }

        /// Closes the pipe (end of input) and waits for the tool to end.
        func finish() -> (WayfindCLI.ExitStatus?, String) {
            close(input)
            _ = finished.wait(timeout: .now() + 30)
            lseek(errors, 0, SEEK_SET)
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(errors, &buffer, buffer.count)
            close(errors)
            return (status, String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self))
        }
    }

    /// Polls `condition` for up to `seconds`.
    func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Places written to a pipe that stays open are saved within about a second, while
    /// the tool goes on reading. (Before, nothing was saved until the end of input.)
    @Test func placesFromAPipeThatStaysOpenAreSavedWithinASecond() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let visit = PipedVisit(["--graph", scratch.graph])
        visit.write("Home\nWork\n")
        let saved = eventually(within: 5) { (try? scratch.visits(of: "Work")) == 1 }
        #expect(saved, "the places were not saved while the pipe stayed open")
        visit.write("Gym\n")
        #expect(eventually(within: 5) { (try? scratch.visits(of: "Gym")) == 1 })
        let (status, errors) = visit.finish()
        #expect(status == .success && errors == "")
        #expect(try scratch.totalWeight() == 2)
    }

    /// A line longer than a name can be is refused as soon as that many bytes came, not
    /// at its end (which may never come), and the batch before it, saved, stays.
    @Test func aLineLongerThanTheLimitIsRefusedBeforeItEnds() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let visit = PipedVisit(["--graph", scratch.graph])
        visit.write("Home\n")
        #expect(eventually(within: 5) { (try? scratch.visits(of: "Home")) == 1 })
        visit.write("Work\n" + String(repeating: "x", count: RouteGraphVisit.maximumNameBytes + 1))
        let ended = visit.ends(within: 5)
        #expect(ended, "the tool waited for the end of a line already too long")
        let (status, errors) = visit.finish()
        #expect(status == .error)
        #expect(
            errors
                == "routegraph-visit: standard input, line 3: a place name longer than the limit of 4096 bytes; nothing from line 2 on was recorded\n"
        )
        #expect(try scratch.visits(of: "Work") == nil)
    }

    /// Many places in one input are saved in batches of `batchPlaces`: every place is
    /// counted, in order, as in one batch.
    @Test func aLongInputIsSavedInBatchesAndEveryVisitCounts() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let count = RouteGraphVisit.batchPlaces * 2 + 7
        let input = (0..<count).map { "P\($0 % 3)\n" }.joined()
        let r = runInProcess("routegraph-visit", ["--graph", scratch.graph, "--self-loops"], input: Data(input.utf8))
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(try scratch.totalWeight() == count - 1)
        #expect(try scratch.visits(of: "P0") == (count + 2) / 3)
    }

    /// A bad line after a saved batch says from which line on nothing was recorded.
    @Test func aBadLineAfterASavedBatchSaysWhatWasRecorded() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let first = RouteGraphVisit.batchPlaces
        let input = Data((0..<first + 5).map { "P\($0)\n" }.joined().utf8) + Data([0xFF, 0x0A])
        let r = runInProcess("routegraph-visit", ["--graph", scratch.graph], input: input)
        #expect(r.status == 2)
        #expect(
            r.stderr
                == "routegraph-visit: standard input, line \(first + 6): the place name is not valid UTF-8; nothing from line \(first + 1) on was recorded\n"
        )
        #expect(try scratch.visits(of: "P\(first - 1)") == 1)
        #expect(try scratch.visits(of: "P\(first)") == nil)
    }

    /// A batch that cannot be saved after an earlier one was (another process holds the
    /// lock past --lock-timeout) says from which line on nothing was recorded, not that
    /// nothing was.
    @Test func aLockTimeOutAfterASavedBatchSaysWhatWasRecorded() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let visit = PipedVisit(["--graph", scratch.graph, "--lock-timeout", "1"])
        visit.write("Home\n")
        #expect(eventually(within: 5) { (try? scratch.visits(of: "Home")) == 1 })
        let lock = open(scratch.graph + ".lock", O_RDWR | O_CREAT, 0o600)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX) == 0)
        visit.write("Work\n")
        let (status, errors) = visit.finish()
        #expect(status == .error)
        #expect(errors.hasSuffix("; nothing from line 2 on was recorded (another process holds it: see fuser \(scratch.graph).lock)\n"), "\(errors)")
        #expect(try scratch.visits(of: "Home") == 1)
        #expect(try scratch.visits(of: "Work") == nil)
    }

    /// Names are stored as given, control characters and all (a directory name may hold
    /// ESC or BEL); a terminal gets them escaped, a pipe or file the bytes as stored.
    @Test func aTerminalGetsControlCharactersEscapedAndAPipeGetsTheBytes() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let name = "/tmp/a\u{1B}]0;pwned\u{7}b\u{9B}c"
        #expect(runInProcess("routegraph-visit", ["--graph", scratch.graph, "Home", name, "Home"]).status == 0)
        let piped = runInProcess("routegraph-suggest", ["--graph", scratch.graph, "--from", "Home"])
        #expect(piped.stdout == Data((name + "\n").utf8))
        let terminal = runOnTerminal(["--graph", scratch.graph, "--from", "Home", "--scores"])
        #expect(terminal == "/tmp/a\\u{1B}]0;pwned\\u{7}b\\u{9B}c\t4.333\tedge\n")  // edge 1 + habit 10 × 11/33
        let plain = runOnTerminal(["--graph", scratch.graph, "--from", name])
        #expect(plain == "Home\n")
    }

    /// routegraph-suggest with a terminal as standard output; what it printed.
    func runOnTerminal(_ arguments: [String]) -> String {
        var template = Array((TestFiles.folder.path + "/terminal-XXXXXX").utf8CString)
        let output = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        defer { close(output) }
        let context = ToolContext(
            standardInput: FileDescriptor(output), standardOutput: FileDescriptor(output), standardError: FileDescriptor(output),
            outputIsTerminal: true, now: { fixedNow })
        _ = RouteGraphSuggest.run(arguments, context: context)
        lseek(output, 0, SEEK_SET)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(output, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
    }
}
