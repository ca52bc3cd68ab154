import Foundation
import Testing
import WayfindTestSupport

/// Runs the built `smartgrep` binary where only a process shows the behaviour (pipes,
/// `ulimit`, a file truncated while mapped, memory); the rest runs in-process
/// (WayfindCoreTests, SmartgrepToolTests).
@Suite struct SmartgrepEndToEndTests {
    let symbols = Repository.fixtures.appendingPathComponent("sf-symbols-ios14.txt").path
    let cities = Repository.fixtures.appendingPathComponent("cities-sample.txt").path

    func smartgrep(_ arguments: [String], input: String = "", environment: [String: String] = [:]) async throws -> RunResult {
        try await Binaries.run("smartgrep", arguments, input: Data(input), environment: environment)
    }

    /// Matching time grows with the query and the line, not their product cubed: 20,000
    /// repeated query words against a line of 20,000 matching words took 490 s; now 0.01 s,
    /// and 20,000 distinct words with highlighting 0.4 s. The bound is loose (this machine
    /// is shared and its timings jump): it catches a return to super-linear time, on the
    /// CPU time bash's `time` reports.
    @Test func aTwentyThousandWordQueryFinishesQuickly() async throws {
        let repeated = Array(repeating: "a", count: 20_000).joined(separator: " ")
        let distinct = (0..<20_000).map { n in String(UnicodeScalar(UInt8(97 + n % 26))) + String(n, radix: 36) }
        let files = try [
            TestFiles.write(Data(repeated.utf8), name: "q1"), TestFiles.write(Data((repeated + "\n").utf8), name: "l1"),
            TestFiles.write(Data(distinct.reversed().joined(separator: " ").utf8), name: "q2"),
            TestFiles.write(Data((distinct.joined(separator: ".") + "\n").utf8), name: "l2"),
        ]
        let script = """
            TIMEFORMAT=%U
            { time smartgrep -c -- "$(cat \(files[0]))" \(files[1]); } 2>&1
            { time smartgrep -c --color=always -- "$(cat \(files[2]))" \(files[3]); } 2>&1
            """
        let r = try await Binaries.shell(script)
        let lines = r.lines
        #expect(lines.count == 4 && lines[0] == "1" && lines[2] == "1", "\(r)")
        for seconds in [lines[1], lines[3]].compactMap(Double.init) { #expect(seconds < 30, "\(r)") }
    }

    /// Memory stays bounded on endless input without newlines: a line longer than 64 MiB is
    /// an error (under a 1 GB address-space limit, so growing without bound fails the test).
    @Test func endlessInputWithoutNewlinesStopsWithAnError() async throws {
        let zero = try await Binaries.shell("ulimit -v 1000000; smartgrep -m 1 a /dev/zero; echo \"status=$?\"")
        #expect(zero.out == "status=2\n")
        #expect(zero.stderr == "smartgrep: /dev/zero: a line is longer than 64 MiB (the limit)\n")
        let pipe = try await Binaries.shell("ulimit -v 1000000; yes abc | tr -d '\\n' | smartgrep abc; echo \"status=$?\"")
        #expect(pipe.out == "status=2\n")
        #expect(pipe.stderr == "smartgrep: (standard input): a line is longer than 64 MiB (the limit)\n")
    }

    /// A mapped file cut short while it is searched (logrotate's copytruncate) used to kill
    /// smartgrep with SIGBUS (exit 135); now it stops with an error, or finishes if the
    /// search got there first. The deterministic version is in RecordReaderTests.
    @Test func aFileTruncatedWhileSearchedIsAnErrorNotACrash() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let script = """
            cd '\(scratch.path)'; seq 1 3000000 | sed 's/^/line alpha /' > base
            for round in 1 2 3; do
              cp base f; smartgrep -c alpha f > out 2> err & pid=$!
              sleep 0.02; truncate -s 100 f; wait $pid; echo "status=$?"; cat err; echo END
            done
            """
        let r = try await Binaries.shell(script)
        let rounds = r.out.components(separatedBy: "END\n").dropLast()
        #expect(rounds.count == 3, "\(r)")
        for round in rounds {
            let stopped = round == "status=2\nsmartgrep: f: changed while being read\n"
            #expect(round == "status=0\n" || stopped, "\(r)")
        }
    }

    @Test func outputClosedEarlyEndsQuietlyWithSuccess() async throws {
        let r = try await Binaries.shell(
            "set -o pipefail; yes 'lib python path' | head -2000000 | smartgrep lib | head -1; echo \"status=${PIPESTATUS[2]}\"")
        #expect(r.out == "lib python path\nstatus=0\n", "\(r)")
        #expect(r.stderr == "")
    }

    @Test func aSixtyMegabyteLineIsMatchedWhole() async throws {
        let r = try await Binaries.shell(
            "head -c 60000000 /dev/zero | tr '\\0' 'a' | { cat; printf ' needle\\nother\\n'; } | smartgrep needle | wc -c")
        #expect(r.status == 0)
        #expect(r.out.trimmingCharacters(in: .whitespacesAndNewlines) == "60000008")
    }

    @Test func manyLinesAcrossReadBoundariesAreAllFound() async throws {
        // 300k lines cross several 256 KiB reads; every 7th line matches.
        let r = try await Binaries.shell(
            "seq 1 300000 | awk '{ if ($1 % 7 == 0) print \"hit \" $1; else print \"miss \" $1 }' | smartgrep -c hit")
        #expect(r.out == "42857\n")
        let n = try await Binaries.shell(
            "seq 1 300000 | awk '{ if ($1 % 7 == 0) print \"hit \" $1; else print \"miss \" $1 }' | smartgrep -n hit | tail -1")
        #expect(n.out == "299999:hit 299999\n")
    }

    @Test func aLargeFileIsSearchedExactlyAsThePipeOfItIs() async throws {
        // Files of 4 MiB and more are mapped and searched in 1 MiB windows; lines cross
        // window boundaries and the last line has no newline.
        let script = """
            f=$(mktemp); seq 1 900000 | awk '{ if ($1 % 5 == 0) print "hit " $1; else print "miss " $1 }' > "$f"; printf 'hit last' >> "$f"
            a=$(smartgrep -n hit "$f" | md5sum); b=$(cat "$f" | smartgrep -n hit | md5sum)
            c=$(smartgrep -c hit "$f"); d=$(smartgrep -vc hit "$f"); e=$(smartgrep hit "$f" | tail -1)
            rm -f "$f"; [ "$a" = "$b" ] && echo same; echo "$c $d $e"
            """
        let r = try await Binaries.shell(script)
        #expect(r.out == "same\n180001 720000 hit last\n", "\(r)")
    }

    /// Issue 28, as a new user tried it: a binary file prints grep's message instead of
    /// raw bytes, and a query of punctuation is refused instead of matching every line.
    @Test func aBinaryFileAndAQueryWithoutWordsBehaveAsGrepsHabitsExpect() async throws {
        let binary = try await Binaries.shell("smartgrep gnu /bin/ls; echo \"status=$?\"")
        #expect(binary.out == "status=0\n", "\(binary)")
        #expect(binary.stderr == "smartgrep: /bin/ls: binary file matches\n")
        for query in [".", "***"] {
            let r = try await smartgrep([query, symbols])
            #expect(r.status == 2 && r.stdout.isEmpty)
            #expect(r.stderr.hasPrefix("smartgrep: the query has no words; use --words=space to match punctuation\n"))
        }
        let context = try await Binaries.shell("smartgrep -n -C1 'x bin' \(symbols) | head -1; echo \"${PIPESTATUS[0]}\"")
        #expect(context.lines.count == 2 && context.lines[1] == "0", "\(context)")
    }

    /// Issue 42, as a grep user types it: -rlZ | xargs -0 survives names with spaces and
    /// newlines (--null was taken for --null-data), and -b counts from the start of a
    /// mapped file in 1 MiB windows as of a pipe, as grep counts.
    /// Under -r, an unreadable file and an unreadable folder each get one message, the walk
    /// goes on, and the exit status is 2 at the end, on one thread and on several; with -q,
    /// a match still exits 0 (grep's habits), after the messages of the files before it,
    /// on several threads too (20 runs, each a race of the threads). root reads any file,
    /// so as root smartgrep runs as nobody, from a copy.
    @Test(.enabled(if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser")))
    func anUnreadableFileOrFolderUnderRecursionIsReportedAndTheWalkGoesOn() async throws {
        let scratch = try GraphScratch()
        let files = FileManager.default
        let tree = scratch.path + "/t"
        try files.createDirectory(atPath: tree + "/a", withIntermediateDirectories: true)
        try files.createDirectory(atPath: tree + "/locked", withIntermediateDirectories: true)
        for (name, text) in [("0first.txt", "hello"), ("a/one.txt", "hello world"), ("secret.txt", "hello there"), ("locked/in.txt", "hello x")] {
            try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: tree + "/" + name))
        }
        for folder in [scratch.path, tree, tree + "/a"] { chmod(folder, 0o755) }
        for file in ["/a/one.txt", "/locked/in.txt"] { chmod(tree + file, 0o644) }
        chmod(tree + "/secret.txt", 0)
        chmod(tree + "/0first.txt", 0)
        chmod(tree + "/locked", 0)
        defer {
            chmod(tree + "/locked", 0o755)
            chmod(tree + "/secret.txt", 0o644)
            chmod(tree + "/0first.txt", 0o644)
            scratch.cleanUp()
        }
        let (copy, bin, prefix) = Binaries.unprivileged(["smartgrep"], copiesIn: scratch.path + "/bin")
        let smartgrep = bin + "/smartgrep"
        let r = try await Binaries.shell(
            """
            \(copy)
            cd '\(scratch.path)'
            for j in 1 4; do \(prefix)'\(smartgrep)' -r -j $j hello t; echo "status $?"; done
            for j in 1 4; do \(prefix)'\(smartgrep)' -rq -j $j hello t 2>&1; echo "quiet $?"; done
            for i in $(seq 20); do \(prefix)'\(smartgrep)' -rq -j 4 hello t 2>&1; echo "quiet $?"; done
            """)
        let first = "smartgrep: t/0first.txt: Permission denied"
        // (The threads' race: a job after the match's, done first, printed its message in
        // about half the runs.)
        let quiet = Array(repeating: [first, "quiet 0"], count: 21).flatMap { $0 }
        #expect(r.lines == ["t/a/one.txt:hello world", "status 2", "t/a/one.txt:hello world", "status 2", first, "quiet 0"] + quiet, "\(r)")
        let messages = [first, "smartgrep: t/locked: Permission denied", "smartgrep: t/secret.txt: Permission denied"]
        #expect(r.stderr.split(separator: "\n").map(String.init) == messages + messages, "\(r)")
    }

    @Test func nulAfterNamesAndByteOffsetsHoldInPipelines() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("xmark.bin\n", to: "a b.txt")
        try scratch.write("bin\n", to: "new\nline.txt")
        try scratch.write("heart\n", to: "c.txt")
        let names = try await Binaries.shell(
            "cd '\(scratch.path)' && smartgrep -rlZ bin | xargs -0 -n1 printf '[%s]'; smartgrep -rl --null bin | xargs -0 cat")
        #expect(names.out == "[a b.txt][new\nline.txt]xmark.bin\nbin\n", "\(names)")
        let script = """
            f=$(mktemp); seq 1 900000 | awk '{ if ($1 % 5 == 0) print "hit " $1; else print "miss " $1 }' > "$f"; printf 'hit last' >> "$f"
            a=$(smartgrep -nb hit "$f" | md5sum); b=$(cat "$f" | smartgrep -nb hit | md5sum); c=$(grep -nb hit "$f" | md5sum)
            d=$(smartgrep -b -B1 -m2 hit "$f"); rm -f "$f"; [ "$a" = "$b" ] && [ "$a" = "$c" ] && echo same; echo "$d"
            """
        let offsets = try await Binaries.shell(script)
        #expect(offsets.out == "same\n21-miss 4\n28:hit 5\n--\n55-miss 9\n62:hit 10\n", "\(offsets)")
    }
}
