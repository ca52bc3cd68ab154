import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// grep's flags in smartgrep (issue 28), run in-process: what each prints, on stdout and
/// stderr, and its exit status.
@Suite struct SmartgrepGrepFlagsTests {
    func smartgrep(_ arguments: [String], input: String = "", environment: [String: String] = [:]) -> RunResult {
        runInProcess("smartgrep", arguments, input: Data(input), environment: environment)
    }

    let names = "xmark.bin\nxmark.bin.fill\nbinoculars\ncheckmark\nbin xmark\n"

    @Test func onlyMatchingPrintsEachMatchedPartOnItsOwnLineWithPrefixes() {
        #expect(smartgrep(["-o", "x bin"], input: names).out == "x\nbin\nx\nbin\nbin\nx\n")
        #expect(smartgrep(["-on", "xmark.b"], input: names).out == "1:xmark.b\n2:xmark.b\n")
        #expect(smartgrep(["-oH", "sao"], input: "São Paulo\n").out == "(standard input):São\n")
        let nothing = smartgrep(["-ov", "x"], input: names)
        #expect(nothing.out == "" && nothing.status == 0)
    }

    @Test func repeatedQueriesSelectALineWhenAnyMatches() {
        #expect(smartgrep(["-e", "binoc", "-e", "check"], input: names).out == "binoculars\ncheckmark\n")
        // -e takes a query that starts with a dash; every operand is then a file.
        #expect(smartgrep(["-e", "-bin"], input: "a-bin\nb\n").out == "a-bin\n")
        #expect(smartgrep(["-o", "-e", "x", "-e", "bin"], input: "xmark.bin\n").out == "x\nbin\n")
    }

    @Test func queriesComeFromAFileOneALine() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let queries = try scratch.write("binoc\ncheck\n", to: "q")
        #expect(smartgrep(["-f", queries], input: names).out == "binoculars\ncheckmark\n")
        let empty = try scratch.write("", to: "empty")
        let none = smartgrep(["-f", empty], input: names)
        #expect(none.out == "" && none.status == 1)
        let blank = try scratch.write("\n", to: "blank")
        #expect(smartgrep(["-f", blank], input: "a\nb\n").out == "a\nb\n")
        let missing = smartgrep(["-f", scratch.file("nope")], input: names)
        #expect(missing.status == 2 && missing.stderr.hasPrefix("smartgrep: \(scratch.file("nope")): No such file"))
    }

    @Test func wordRegexpMatchesWholeWordsOnly() {
        #expect(smartgrep(["-w", "bin"], input: names).out == "xmark.bin\nxmark.bin.fill\nbin xmark\n")
        #expect(smartgrep(["-w", "xmark.bin"], input: names).out == "xmark.bin\nxmark.bin.fill\n")
        #expect(smartgrep(["-w", "xmark.bi"], input: names).status == 1)
        #expect(smartgrep(["-w", "grouped"], input: "systemGroupedBackground\n").out == "systemGroupedBackground\n")
    }

    /// Greedy, longest first, is exact for prefixes but not for whole words: `pe` fits
    /// whole at pEBar (p, E, Bar) and at pe.x, `p` only at pEBar. A greedy `pe` took
    /// pEBar and `p` found nothing.
    @Test func wholeWordsAreAssignedByMatchingNotGreedily() {
        #expect(smartgrep(["-w", "pe p"], input: "pEBar pe.x\n").out == "pEBar pe.x\n")
        #expect(smartgrep(["-w", "pe p"], input: "pe.x pEBar\n").out == "pe.x pEBar\n")
        #expect(smartgrep(["-w", "pe p"], input: "pe.x pe.y\n").status == 1)
    }

    @Test func lineRegexpNeedsTheQueryToCoverTheLine() {
        #expect(smartgrep(["-x", "bin xmark"], input: names).out == "xmark.bin\nbin xmark\n")
        #expect(smartgrep(["-x", "xmark.bin"], input: names).out == "xmark.bin\n")
        #expect(smartgrep(["-x", "xmark"], input: names).status == 1)
        #expect(smartgrep(["-x", ""], input: "a\n\n--\nb\n").out == "\n--\n")
        // Which start a word takes decides the cover: 'é' must take the second é, the
        // first is inside the run-on 'вαι_é' (found by the reference check).
        #expect(smartgrep(["-x", "вΑΙ_é é"], input: "вΑΙ_é é\n").out == "вΑΙ_é é\n")
    }

    @Test func filesWithAndWithoutMatchesPrintNames() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let a = try scratch.write("xmark.bin\n", to: "a")
        let b = try scratch.write("heart\n", to: "b")
        #expect(smartgrep(["-l", "bin", a, b]).out == "\(a)\n")
        #expect(smartgrep(["-L", "bin", a, b]).out == "\(b)\n")
        #expect(smartgrep(["-L", "bin", a, b]).status == 0)  // grep 3.8: a line was selected
        #expect(smartgrep(["-L", "zzz", a]).status == 1)
        let silent = smartgrep(["-s", "bin", scratch.file("missing"), a])
        #expect(silent.stderr == "" && silent.status == 2 && silent.out == "\(a):xmark.bin\n")
    }

    @Test func contextLinesGroupsAndPrefixesAreGreps() {
        let input = "a1\nb2\nc3\nd4\ne5\nf6\ng7\na8\n"
        #expect(smartgrep(["-n", "-A1", "a"], input: input).out == "1:a1\n2-b2\n--\n8:a8\n")
        #expect(smartgrep(["-B2", "a"], input: input).out == "a1\n--\nf6\ng7\na8\n")
        #expect(smartgrep(["-C0", "a"], input: input).out == "a1\n--\na8\n")
        #expect(smartgrep(["-m1", "-A2", "a"], input: "a\na\nb\nc\n").out == "a\na\nb\n")
        let rank = smartgrep(["--rank", "-C1", "a"], input: input)
        #expect(rank.status == 2 && rank.stderr.hasPrefix("smartgrep: --rank cannot print context lines"))
    }

    /// -B looks back across read blocks: tiny reads put a block boundary between every
    /// pair of lines.
    @Test func beforeContextReachesBackAcrossReadBlocks() throws {
        var options = try Smartgrep.options(["-n", "-B3", "target"])
        let input = Array("one\ntwo\nthree\nfour\ntarget\nsix\n".utf8)
        for size in [1, 3, 7, 64] {
            options.readSize = size
            let (output, _) = input.withUnsafeBufferPointer { Smartgrep.search($0, options: options) }
            #expect(String(decoding: output, as: UTF8.self) == "2-two\n3-three\n4-four\n5:target\n", "read size \(size)")
        }
    }

    @Test func aFileWithNULBytesIsBinaryUnlessTextOrNullData() {
        let input = "x\u{0}y\nbin\n"
        let r = smartgrep(["bin"], input: input)
        #expect(r.out == "" && r.status == 0)
        #expect(r.stderr == "smartgrep: (standard input): binary file matches\n")
        #expect(smartgrep(["-a", "bin"], input: input).out == "bin\n")
        #expect(smartgrep(["-c", "bin"], input: input).out == "1\n")
        #expect(smartgrep(["bin"], input: "x\u{0}y\n").stderr == "")
        let z = smartgrep(["-z", "bin"], input: "a\u{0}bin\u{0}")
        #expect(z.stdout == Data("bin\u{0}".utf8) && z.stderr == "")
    }

    @Test(arguments: [".", "***", "--", "...", "- -"])
    func aQueryWithoutWordsIsAnError(query: String) {
        let r = smartgrep(["-e", query], input: "a\n...\n")
        #expect(r.status == 2)
        #expect(r.out == "")
        #expect(r.stderr.hasPrefix("smartgrep: the query has no words; use --words=space to match punctuation\n"))
    }

    @Test func theEmptyQueryAndPunctuationInSpaceModeStillMatch() {
        #expect(smartgrep([""], input: "a\n...\n").out == "a\n...\n")
        #expect(smartgrep(["--words=space", "..."], input: "a\n...\n").out == "...\n")
    }

    @Test func grepColorsAndColourAreHonoured() {
        let green = smartgrep(["--colour=always", "x"], input: "xmark\n", environment: ["GREP_COLORS": "mt=01;32"])
        #expect(green.out == "\u{1B}[01;32m\u{1B}[Kx\u{1B}[m\u{1B}[Kmark\n")
        let parts = smartgrep(
            ["--color=always", "-Hn", "x"], input: "xmark\n", environment: ["GREP_COLORS": "ms=4:fn=34:ln=33:se=35:ne"])
        #expect(
            parts.out
                == "\u{1B}[34m(standard input)\u{1B}[m\u{1B}[35m:\u{1B}[m\u{1B}[33m1\u{1B}[m\u{1B}[35m:\u{1B}[m\u{1B}[4mx\u{1B}[mmark\n")
        #expect(smartgrep(["--col=never", "x"], input: "x\n").out == "x\n")
    }

    @Test func recursionSearchesFilesUnderDirectoriesInNameOrder() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let sub = scratch.url.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try scratch.write("xmark.bin\n", to: "b.txt")
        try scratch.write("bin\n", to: "a.log")
        try scratch.write("bin.fill\n", to: "c.txt", in: sub)
        symlink(scratch.file("b.txt"), scratch.file("link.txt"))
        let root = scratch.path
        #expect(smartgrep(["-r", "bin", root]).lines == ["\(root)/a.log:bin", "\(root)/b.txt:xmark.bin", "\(root)/sub/c.txt:bin.fill"])
        #expect(
            smartgrep(["-R", "bin", root]).lines == [
                "\(root)/a.log:bin", "\(root)/b.txt:xmark.bin", "\(root)/link.txt:xmark.bin", "\(root)/sub/c.txt:bin.fill",
            ])
        #expect(smartgrep(["-r", "--include=*.txt", "bin", root]).lines == ["\(root)/b.txt:xmark.bin", "\(root)/sub/c.txt:bin.fill"])
        #expect(smartgrep(["-r", "--exclude=*.txt", "bin", root]).lines == ["\(root)/a.log:bin"])
        #expect(smartgrep(["-rl", "fill", root]).out == "\(root)/sub/c.txt\n")
        #expect(smartgrep(["-r", "--exclude-dir=s*", "fill", root]).status == 1)
        #expect(smartgrep(["-r", "bin", scratch.file("a.log")]).out == "bin\n")
    }
}
