import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// `smartgrep -r` on several threads prints what one thread prints, byte for byte: files
/// in -r's order, each file's lines together, context separators between files, binary
/// files' notes, counts and file lists, over a generated tree of thousands of files.
@Suite struct SmartgrepParallelTests {
    func smartgrep(_ arguments: [String]) -> RunResult {
        runInProcess("smartgrep", arguments)
    }

    /// A seeded tree: 3,000 files in nested folders, with matching lines, binary files
    /// (a NUL before or after the first match), files without a last newline, CRLF, empty
    /// files, a FIFO and two files whose output is larger than a thread holds back.
    static func makeTree(in scratch: ScratchDirectory) throws -> String {
        var random = SplitMix64(seed: 4747)
        let words = [
            "lib", "library", "size_t", "sizeof", "t", "zebra", "Zebra", "xmark", "bin", "élan", "Größe", "the", "of", "a",
            "libSize", "static", "int", "return",
        ]
        func line() -> String {
            (0..<Int.random(in: 0...7, using: &random)).map { _ in words.randomElement(using: &random)! }
                .joined(separator: [" ", ".", "_", "  ", "("].randomElement(using: &random)!)
        }
        let root = scratch.url.appendingPathComponent("tree")
        for d in 0..<60 {
            let folder = root.appendingPathComponent("d\(d % 7)/e\(d)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for f in 0..<50 {
                var bytes = [UInt8]()
                let lines = Int.random(in: 0...30, using: &random)
                for i in 0..<lines {
                    bytes += Array(line().utf8)
                    if f % 13 == 5 && i == lines / 2 { bytes += [0, 0x41] }  // binary
                    bytes += f % 11 == 3 ? [0x0D, 0x0A] : [0x0A]
                }
                if f % 9 == 4, !bytes.isEmpty { bytes.removeLast() }  // no last newline
                try Data(bytes).write(to: folder.appendingPathComponent("f\(f).txt"))
            }
        }
        // Output larger than a job holds back alone (SmartgrepPool.jobCap).
        #expect(28 * 40_000 > SmartgrepPool.jobCap)
        let big = String(repeating: "the lib of size_t and zebra\n", count: 40_000)
        try scratch.write(big, to: "d3/e10/big.txt", in: root)
        try scratch.write(big, to: "d3/e24/big.txt", in: root)
        #expect(mkfifo(root.appendingPathComponent("d1/fifo").path, 0o600) == 0)
        return root.path
    }

    static let optionSets: [[String]] = [
        [], ["-n"], ["-n", "-C2"], ["-A1", "-m2"], ["-B2", "--group-separator=##"], ["-c"], ["-l"], ["-L"], ["-o", "-n"],
        ["-m1"], ["-m3", "-c"], ["-I"], ["-I", "-c"], ["-a", "-b"], ["--binary-files=without-match", "-l"], ["-v", "-c"],
        ["-Z", "-l"], ["-H", "-T", "-n"], ["-q"],
    ]

    @Test func manyThreadsPrintWhatOneThreadPrintsOverAGeneratedTree() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let root = try Self.makeTree(in: scratch)
        var compared = 0
        for query in ["lib", "size t", "zebra"] {
            for options in Self.optionSets {
                let one = smartgrep(["-j1", "-r"] + options + [query, root])
                let four = smartgrep(["-j", "4", "-r"] + options + [query, root])
                #expect(one.status == four.status, "\(options) \(query)")
                #expect(one.stderr == four.stderr, "\(options) \(query)")
                if one.stdout != four.stdout {
                    Issue.record("\(options) \(query): -j1 printed\n\(one.out)\n-j4 printed\n\(four.out)")
                }
                if options.isEmpty && query == "lib" {
                    // The comparison means something: many files, big ones, binary notes.
                    #expect(one.out.split(separator: "\n").count > 30_000)
                    #expect(one.stderr.contains("binary file matches"))
                }
                compared += 1
            }
        }
        #expect(compared == 57)
    }

    /// Messages on standard error come where one thread prints them among the lines (as
    /// `2>&1` shows): binary files' notes and the walk's warnings, though a thread's job
    /// holds many files.
    @Test func messagesComeBetweenTheLinesWhereOneThreadPrintsThem() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let root = try Self.makeTree(in: scratch)
        #expect(symlink("../..", root + "/d2/e9/up") == 0)
        for options in [["-R"], ["-R", "-n", "-C1"], ["-R", "-c"], ["-R", "-l"]] {
            let one = runInProcess("smartgrep", ["-j1"] + options + ["lib", root], errorsInOutput: true)
            let three = runInProcess("smartgrep", ["-j3"] + options + ["lib", root], errorsInOutput: true)
            #expect(one.status == three.status, "\(options)")
            if one.stdout != three.stdout {
                Issue.record("\(options): -j1 printed\n\(one.out)\n-j3 printed\n\(three.out)")
            }
            if options == ["-R"] {
                // Notes and the warning come between lines, not only at the end.
                let lines = one.out.split(separator: "\n")
                let notes = lines.indices.filter { lines[$0].hasPrefix("smartgrep: ") }
                #expect(notes.count > 20 && notes.first! < lines.count / 2)
                #expect(one.out.contains("/d2/e9/up: warning: recursive directory loop"))
            }
        }
    }

    /// A FILE that is not a regular file is opened only in its turn, as one thread
    /// would: here a FIFO no one writes to, after a file whose last line matches `-q`,
    /// is never opened (a second thread that opened it at once would wait for a writer).
    @Test func aFIFONamedAfterAMatchIsNeverOpenedUnderQ() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        // 50 MB before the match: the first file's search lasts long enough.
        let line = String(repeating: "x", count: 99) + "\n"
        var files = [try scratch.write(String(repeating: line, count: 500_000) + "lib\n", to: "a0")]
        for i in 1...15 { files.append(try scratch.write("nothing\n", to: "f\(i)")) }
        let fifo = scratch.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Should the FIFO be opened, a writer lets it go after five seconds.
        let release = Thread {
            sleep(5)
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        release.start()
        let started = Date()
        let run = smartgrep(["-q", "-j2", "lib"] + files + [fifo])
        #expect(run.status == 0)
        #expect(Date().timeIntervalSince(started) < 3, "the FIFO was opened")
    }

    /// Under -R, a link back to an ancestor is grep's warning, once, not an error, and
    /// the walk goes on.
    @Test(arguments: ["1", "3"])
    func aSymbolicLinkLoopIsWarnedOnceAndIsNoError(threads: String) throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let root = scratch.url.appendingPathComponent("r")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        try scratch.write("lib\n", to: "a/b/f", in: root)
        try scratch.write("lib\n", to: "z", in: root)
        #expect(symlink("..", root.appendingPathComponent("a/b/up").path) == 0)
        let run = smartgrep(["-j", threads, "-R", "lib", root.path])
        #expect(run.status == 0)
        #expect(run.out == "\(root.path)/a/b/f:lib\n\(root.path)/z:lib\n")
        #expect(run.stderr == "smartgrep: \(root.path)/a/b/up: warning: recursive directory loop\n")
    }

    @Test func aThreadCountBelowOneIsRefused() {
        let run = smartgrep(["-j", "0", "-r", "lib", "."])
        #expect(run.status == 2 && run.stderr.hasPrefix("smartgrep: invalid --threads '0'"))
    }
}
