import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// The grep habits of issue 42, run in-process: each expected output is what GNU grep 3.8
/// prints for the same lines (SmartgrepGrepDifferentialTests compares with grep itself).
@Suite struct SmartgrepGrepHabitsTests {
    func smartgrep(_ arguments: [String], input: String = "", environment: [String: String] = [:]) -> RunResult {
        runInProcess("smartgrep", arguments, input: Data(input), environment: environment)
    }

    /// 56 bytes: with -T, numbers are padded to the digits of 57 (the size, and one more
    /// with -n, as grep pads them).
    let names = "xmark.bin\nxmark.bin.fill\nbinoculars\ncheckmark\nbin xmark\n"

    // MARK: - --null, -Z

    /// `--null` was the only prefix of `--null-data`, so the whole input came out as one
    /// record and `-l --null | xargs -0` broke.
    @Test func nullIsGrepsZeroAfterFileNamesNotNullData() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let a = try scratch.write("xmark.bin\nheart\n", to: "a")
        let b = try scratch.write("heart\n", to: "b")
        #expect(smartgrep(["--null", "bin"], input: names).out == "xmark.bin\nxmark.bin.fill\nbinoculars\nbin xmark\n")
        #expect(smartgrep(["-l", "--null", "bin", a, b]).stdout == Data("\(a)\0".utf8))
        #expect(smartgrep(["-lZ", "heart", a, b]).stdout == Data("\(a)\0\(b)\0".utf8))
        #expect(smartgrep(["-LZ", "bin", a, b]).stdout == Data("\(b)\0".utf8))
    }

    @Test func zeroTakesThePlaceOfTheSeparatorAfterEveryFileName() throws {
        #expect(smartgrep(["-cHZ", "bin"], input: names).stdout == Data("(standard input)\u{0}4\n".utf8))
        #expect(
            smartgrep(["-HZn", "-C1", "check"], input: names).stdout
                == Data("(standard input)\u{0}3-binoculars\n(standard input)\u{0}4:checkmark\n(standard input)\u{0}5-bin xmark\n".utf8))
        #expect(smartgrep(["-Z", "check"], input: names).out == "checkmark\n")
        #expect(smartgrep(["-HZo", "check"], input: names).stdout == Data("(standard input)\u{0}check\n".utf8))
        // The NUL is not coloured, as in grep.
        let e = "\u{1B}["
        #expect(
            smartgrep(["--color=always", "-HZbn", "checkmark"], input: names).stdout
                == Data(
                    "\(e)35m\(e)K(standard input)\(e)m\(e)K\u{0}\(e)32m\(e)K4\(e)m\(e)K\(e)36m\(e)K:\(e)m\(e)K\(e)32m\(e)K36\(e)m\(e)K\(e)36m\(e)K:\(e)m\(e)K\(e)01;31m\(e)Kcheckmark\(e)m\(e)K\n"
                        .utf8))
    }

    @Test func byteOffsetsTakeGrepColorsBn() {
        let e = "\u{1B}["
        #expect(
            smartgrep(["--color=always", "-b", "checkmark"], input: names, environment: ["GREP_COLORS": "bn=33"]).out
                == "\(e)33m\(e)K36\(e)m\(e)K\(e)36m\(e)K:\(e)m\(e)K\(e)01;31m\(e)Kcheckmark\(e)m\(e)K\n")
    }

    // MARK: - -NUM

    @Test func aNumberOptionIsContextAsInGrep() {
        #expect(smartgrep(["-1", "check"], input: names).out == "binoculars\ncheckmark\nbin xmark\n")
        #expect(smartgrep(["-n1", "-A0", "check"], input: names).out == "3-binoculars\n4:checkmark\n")
        #expect(smartgrep(["-C0", "-2", "check"], input: names).out == "xmark.bin.fill\nbinoculars\ncheckmark\nbin xmark\n")
        #expect(smartgrep(["-2", "-C0", "check"], input: names).out == "checkmark\n")
        #expect(smartgrep(["-10", "check"], input: names).out == names)
        let rank = smartgrep(["--rank", "-3", "check"], input: names)
        #expect(rank.status == 2 && rank.stderr.hasPrefix("smartgrep: --rank cannot print context lines"))
    }

    // MARK: - -b

    @Test func byteOffsetsPrefixLinesContextLinesAndParts() {
        #expect(smartgrep(["-b", "bin"], input: names).out == "0:xmark.bin\n10:xmark.bin.fill\n25:binoculars\n46:bin xmark\n")
        #expect(smartgrep(["-bn", "-C1", "check"], input: names).out == "3-25-binoculars\n4:36:checkmark\n5-46-bin xmark\n")
        // With -o, the offset of each part.
        #expect(smartgrep(["-bo", "x bin"], input: names).out == "0:x\n6:bin\n10:x\n16:bin\n46:bin\n50:x\n")
        #expect(smartgrep(["-bv", "bin"], input: names).out == "36:checkmark\n")
        #expect(smartgrep(["-b", "--field=2", "--delimiter=.", "bin"], input: names).out == "0:xmark.bin\n10:xmark.bin.fill\n")
    }

    /// Offsets count from the start of the file across read blocks, for before-context
    /// held from an earlier block too.
    @Test func byteOffsetsCountAcrossReadBlocks() throws {
        var options = try Smartgrep.options(["-b", "-B2", "target"])
        let input = Array("one\ntwo\nthree\nfour\ntarget\nsix\ntarget\n".utf8)
        for size in [1, 3, 7, 64] {
            options.readSize = size
            let (output, _) = input.withUnsafeBufferPointer { Smartgrep.search($0, options: options) }
            #expect(
                String(decoding: output, as: UTF8.self) == "8-three\n14-four\n19:target\n26-six\n30:target\n", "read size \(size)")
        }
    }

    // MARK: - --label

    @Test func labelNamesStandardInput() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let a = try scratch.write("bin\n", to: "a")
        #expect(smartgrep(["-H", "--label=lbl", "check"], input: names).out == "lbl:checkmark\n")
        #expect(smartgrep(["-c", "--label", "lbl", "bin", "-", a], input: names).out == "lbl:4\n\(a):1\n")
        #expect(smartgrep(["-L", "--label=lbl", "zzz"], input: names).out == "lbl\n")
        #expect(smartgrep(["--label=lbl", "bin"], input: "x\u{0}\nbin\n").stderr == "smartgrep: lbl: binary file matches\n")
        // Only standard input is named so.
        #expect(smartgrep(["--label=lbl", "bin", a, "-"], input: "bin\n").out == "\(a):bin\nlbl:bin\n")
    }

    // MARK: - -T

    @Test func initialTabPutsTheLineOnATabStopAfterPaddedNumbers() {
        #expect(smartgrep(["-Tn", "bin"], input: names).out == " 1:\txmark.bin\n 2:\txmark.bin.fill\n 3:\tbinoculars\n 5:\tbin xmark\n")
        #expect(smartgrep(["-THn", "--label=lbl", "check"], input: names).out == "lbl: 4:\tcheckmark\n")
        #expect(smartgrep(["-Tb", "check"], input: names).out == "36:\tcheckmark\n")
        #expect(smartgrep(["-TH", "check"], input: names).out == "(standard input):\tcheckmark\n")
        // No prefix, no tab; an empty line gets none; -c has no tab.
        #expect(smartgrep(["-T", "check"], input: names).out == "checkmark\n")
        #expect(smartgrep(["-Tn", "-A1", "a"], input: "a\n\nb\n").out == "1:\ta\n2-\n")
        #expect(smartgrep(["-TcH", "bin"], input: names).out == "(standard input):4\n")
        #expect(smartgrep(["-Tno", "x bin"], input: "xmark.bin\n").out == " 1:\tx\n 1:\tbin\n")
    }

    @Test func initialTabPadsToTheFilesSizeOrNineteenDigitsForAPipe() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        // 999 bytes: line numbers up to 1,000 take 4 digits, offsets up to 999 take 3.
        let file = try scratch.write(String(repeating: "a\n", count: 499) + "b", to: "f")
        #expect(smartgrep(["-Tn", "b", file]).out == " 500:\tb\n")
        #expect(smartgrep(["-Tb", "b", file]).out == "998:\tb\n")
        let options = try Smartgrep.options(["-Tn", "b"])
        let (output, _) = Array("b\n".utf8).withUnsafeBufferPointer { Smartgrep.search($0, options: options) }
        #expect(String(decoding: output, as: UTF8.self) == String(repeating: " ", count: 18) + "1:\tb\n")
    }

    // MARK: - Group separators

    @Test func theGroupSeparatorIsChosenOrLeftOut() {
        let input = "xmark.bin\nheart\nbin xmark\n"
        #expect(smartgrep(["--group-separator=##", "-A0", "x bin"], input: input).out == "xmark.bin\n##\nbin xmark\n")
        #expect(smartgrep(["--group-separator=", "-A0", "x bin"], input: input).out == "xmark.bin\n\nbin xmark\n")
        #expect(smartgrep(["--no-group-separator", "-A0", "x bin"], input: input).out == "xmark.bin\nbin xmark\n")
        #expect(
            smartgrep(["--no-group-separator", "--group-separator=@", "-A0", "x bin"], input: input).out == "xmark.bin\n@\nbin xmark\n")
        #expect(smartgrep(["--group-separator=@", "--no-group", "-A0", "x bin"], input: input).out == "xmark.bin\nbin xmark\n")
        let e = "\u{1B}["
        #expect(
            smartgrep(["--color=always", "--group-separator=XX", "-A0", "xmark.bin"], input: "xmark.bin\nheart\nxmark.bin\n").out
                == "\(e)01;31m\(e)Kxmark.bin\(e)m\(e)K\n\(e)36m\(e)KXX\(e)m\(e)K\n\(e)01;31m\(e)Kxmark.bin\(e)m\(e)K\n")
    }

    // MARK: - --exclude-from

    @Test func excludeFromReadsGlobsOneALine() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try scratch.write("bin\n", to: "a.txt")
        try scratch.write("bin\n", to: "b.log")
        try scratch.write("bin\n", to: "c.md")
        // Trailing whitespace (a CR too) is dropped and blank lines skipped, as in grep.
        let globs = try scratch.write("*.txt  \r\n\n   \n*.lo?", to: "globs")
        let root = scratch.path
        #expect(smartgrep(["-r", "--exclude-from=\(globs)", "bin", root]).lines == ["\(root)/c.md:bin"])
        #expect(smartgrep(["--exclude-from", globs, "bin", "\(root)/a.txt", "\(root)/c.md"]).out == "\(root)/c.md:bin\n")
        let missing = smartgrep(["--exclude-from=\(scratch.file("nope"))", "bin", root])
        #expect(missing.status == 2 && missing.out == "")
        #expect(missing.stderr.hasPrefix("smartgrep: \(scratch.file("nope")): No such file or directory\n"))
    }

    // MARK: - -d

    @Test func directoriesAreReadSkippedOrRecursedAsTheLastChoiceSays() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let a = try scratch.write("bin\n", to: "a")
        let root = scratch.path
        let read = smartgrep(["bin", root, a])
        #expect(read.status == 2 && read.out == "\(a):bin\n" && read.stderr == "smartgrep: \(root): Is a directory\n")
        #expect(smartgrep(["-d", "read", "bin", root]).status == 2)
        let skip = smartgrep(["-d", "skip", "bin", root, a])
        #expect(skip.status == 0 && skip.out == "\(a):bin\n" && skip.stderr == "")
        #expect(smartgrep(["--directories=skip", "bin", root]).status == 1)
        #expect(smartgrep(["-d", "recurse", "bin", root]).out == "\(a):bin\n")
        #expect(smartgrep(["-dsk", "-r", "bin", root]).out == "\(a):bin\n")  // grep takes a unique prefix
        #expect(smartgrep(["-r", "-d", "skip", "bin", root]).status == 1)
        #expect(smartgrep(["-r", "--dir=read", "bin", root]).status == 2)
        let bad = smartgrep(["-d", "walk", "bin", root])
        #expect(bad.status == 2 && bad.stderr.hasPrefix("smartgrep: invalid --directories 'walk' (expected read, skip or recurse)\n"))
        #expect(smartgrep(["-d", "walk", "-r", "bin", root]).status == 2)  // grep checks it even when -r wins
        let ambiguous = smartgrep(["-d", "re", "bin", root])
        #expect(ambiguous.status == 2 && ambiguous.stderr.hasPrefix("smartgrep: invalid --directories 're'"))
    }

    // MARK: - Case

    @Test func noIgnoreCaseMatchesCaseAndStillIgnoresAccents() {
        let input = "São Paulo\nsao\nSAO\nÉcole\nécole\nStraße\nstrasse\nΩmega\nωmega\nsystemGroupedBackground\n"
        #expect(smartgrep(["--no-ignore-case", "Sao"], input: input).out == "São Paulo\n")
        #expect(smartgrep(["--no-ignore-case", "sao"], input: input).out == "sao\n")
        #expect(smartgrep(["--no-ignore-case", "SAO"], input: input).out == "SAO\n")
        #expect(smartgrep(["--no-ignore-case", "ec"], input: input).out == "école\n")
        #expect(smartgrep(["--no-ignore-case", "Éc"], input: input).out == "École\n")
        #expect(smartgrep(["--no-ignore-case", "Ec"], input: input).out == "École\n")
        #expect(smartgrep(["--no-ignore-case", "strasse"], input: input).out == "strasse\n")
        #expect(smartgrep(["--no-ignore-case", "Strasse"], input: input).out == "Straße\n")
        #expect(smartgrep(["--no-ignore-case", "Ω"], input: input).out == "Ωmega\n")
        #expect(smartgrep(["--no-ignore-case", "ω"], input: input).out == "ωmega\n")
        #expect(smartgrep(["--no-ignore-case", "Grouped back"], input: input).status == 1)
        #expect(smartgrep(["--no-ignore-case", "Grouped Back"], input: input).out == "systemGroupedBackground\n")
        #expect(smartgrep(["--no-ignore-case", "-o", "Bin"], input: "Bin bin\n").out == "Bin\n")
        #expect(smartgrep(["--no-ignore-case", "-wc", "bin"], input: "Bin\nbin\nbins\n").out == "1\n")
    }

    /// The rarest byte of `Zebra` is followed in both cases and in the lead bytes of
    /// letters that fold to z (Ž is C5 BD), then the case is checked.
    @Test func noIgnoreCaseFindsUppercaseLettersBehindAccents() {
        let input = "zebra\nZebra\nŽebra\nžebra\nx Zebra\n"
        #expect(smartgrep(["--no-ignore-case", "Zebra"], input: input).out == "Zebra\nŽebra\nx Zebra\n")
        #expect(smartgrep(["--no-ignore-case", "zebra"], input: input).out == "zebra\nžebra\n")
        #expect(smartgrep(["--no-ignore-case", "-c", "ebra"], input: input).out == "0\n")
    }

    /// The search loop judges most candidates without the matcher (a direct check of the
    /// rarest byte's word); with --no-ignore-case it must still select exactly the lines
    /// the case-sensitive matcher matches, however the input is split into reads.
    @Test func theSearchLoopAgreesWithTheCaseSensitiveMatcher() throws {
        let pieces = ["z", "Z", "ž", "Ž", "ebra", "Ebra", "x", "X", " ", ".", "é", "É", "zE", "Ze"]
        var random = SplitMix64(seed: 7)
        var selected = 0
        for round in 0..<300 {
            let lines = (0..<8).map { _ in
                (0..<Int.random(in: 0...5, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            }
            let query = (0..<Int.random(in: 1...2, using: &random)).map { _ in
                (0..<Int.random(in: 1...2, using: &random)).map { _ in pieces.filter { $0 != " " }.randomElement(using: &random)! }.joined()
            }.joined(separator: " ")
            guard var options = try? Smartgrep.options(["--no-ignore-case", "-n", "--", query]) else { continue }  // "."
            let matcher = LineMatcher(options.query)
            let expected = lines.enumerated().filter { _, line in
                var copy = line
                return copy.withUTF8 { matcher.matches($0) }
            }.map { "\($0.offset + 1):\($0.element)\n" }.joined()
            selected += expected.isEmpty ? 0 : 1
            let input = Array(lines.map { $0 + "\n" }.joined().utf8)
            for size in [1, 5, 64] {
                options.readSize = size
                let (output, _) = input.withUnsafeBufferPointer { Smartgrep.search($0, options: options) }
                #expect(String(decoding: output, as: UTF8.self) == expected, "round \(round), query '\(query)', read size \(size)")
            }
        }
        #expect(selected > 50)
    }

    @Test func theLastOfIgnoreCaseAndNoIgnoreCaseWins() {
        let input = "sao\nSAO\n"
        #expect(smartgrep(["--no-ignore-case", "-i", "sao"], input: input).out == input)
        #expect(smartgrep(["-i", "--no-ignore-case", "sao"], input: input).out == "sao\n")
    }

    // MARK: - Binary files

    /// `grep -rI` is a habit in source trees: files with NUL bytes count as not matching,
    /// silently (grep's --binary-files=without-match).
    @Test func binaryFilesCanBeSkippedAsWithoutMatch() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let binary = try scratch.write("x\u{0}y\nbin\n", to: "b")
        let text = try scratch.write("bin\n", to: "t")
        let skipped = smartgrep(["-I", "bin", binary])
        #expect(skipped.status == 1 && skipped.out == "" && skipped.stderr == "")
        #expect(smartgrep(["-cI", "bin", binary, text]).out == "\(binary):0\n\(text):1\n")
        #expect(smartgrep(["-LI", "bin", binary, text]).out == "\(binary)\n")
        #expect(smartgrep(["-rIl", "bin", scratch.path]).out == "\(text)\n")
        #expect(smartgrep(["-qI", "bin", binary]).status == 1)
        #expect(smartgrep(["--binary-files=without-match", "bin", binary]).status == 1)
        // -a, -I and --binary-files: the last one given wins, as in grep.
        #expect(smartgrep(["-I", "-a", "bin", binary]).out == "bin\n")
        #expect(smartgrep(["-a", "-I", "bin", binary]).status == 1)
        #expect(smartgrep(["-I", "--binary-files=text", "bin", binary]).out == "bin\n")
        let binaryMessage = smartgrep(["-a", "--binary-files=binary", "bin", binary])
        #expect(binaryMessage.out == "" && binaryMessage.stderr == "smartgrep: \(binary): binary file matches\n")
        #expect(smartgrep(["--binary-files=skip", "-a", "bin", binary]).status == 2)
        let bad = smartgrep(["--binary-files=skip", "bin", binary])
        #expect(
            bad.status == 2 && bad.stderr.hasPrefix("smartgrep: invalid --binary-files 'skip' (expected binary, text or without-match)\n"))
    }

    /// A file read without its size (found by -r, or named) has as large a first block as
    /// one whose size was asked: a NUL 70 KB in is seen before the first line prints.
    @Test func aNulPastTheFirstReadStillMakesTheFileBinaryFromItsStart() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let lines = "bin one\n" + String(repeating: "filler line of text\n", count: 3_500) + "x\u{0}y\nbin two\n"
        let file = try scratch.write(lines, to: "late")
        for arguments in [["-rI", "bin", scratch.path], ["-I", "bin", file], ["-rIc", "bin", scratch.path]] {
            let r = smartgrep(arguments)
            #expect(r.status == 1 && r.stderr == "", "\(arguments)")
            #expect(r.out == (arguments[0] == "-rIc" ? "\(file):0\n" : ""), "\(arguments)")
        }
        #expect(smartgrep(["-r", "bin", scratch.path]).stderr == "smartgrep: \(file): binary file matches\n")
    }

    /// A NUL in an unfinished last line, read with the lines before it, makes the file
    /// binary before they print, as in grep (which looks at all it read): from standard
    /// input, a named file and with -T alike.
    @Test func aNulInTheUnfinishedLastLineIsSeenWithTheLinesBeforeIt() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let text = "bin one\nab\u{0}c"
        let file = try scratch.write(text, to: "tail")
        for arguments in [["-I", "bin"], ["-I", "bin", file], ["-IT", "bin", file], ["-Il", "bin", file]] {
            let r = arguments.count == 2 ? smartgrep(arguments, input: text) : smartgrep(arguments)
            #expect(r.status == 1 && r.out == "" && r.stderr == "", "\(arguments)")
        }
        let plain = smartgrep(["bin", file])
        #expect(plain.status == 0 && plain.out == "" && plain.stderr == "smartgrep: \(file): binary file matches\n")
    }

    /// Lines selected before the block with the NUL was read stay printed (grep prints
    /// them too), but the file counts as not matching.
    @Test func aFileFoundBinaryLateIsWithoutMatchFromThere() throws {
        var options = try Smartgrep.options(["-I", "-c", "bin"])
        options.readSize = 4
        let input = Array("bin\nx\u{0}\nbin\n".utf8)
        let (output, status) = input.withUnsafeBufferPointer { Smartgrep.search($0, options: options) }
        #expect(String(decoding: output, as: UTF8.self) == "0\n" && status == .nothingFound)
    }

    // MARK: - Patterns

    @Test(arguments: [
        ("-F", "-F", "--fixed-strings"), ("--fixed-strings", "--fixed-strings", "-F"), ("--fixed-regexp", "--fixed-regexp", "-F"),
        ("-E", "-E", "--extended-regexp"), ("--extended-regexp", "--extended-regexp", "-E"), ("-G", "-G", "--basic-regexp"),
        ("--basic", "--basic-regexp", "-G"), ("-P", "-P", "--perl-regexp"), ("--perl-regexp", "--perl-regexp", "-P"),
    ])
    func patternOptionsSayThatAQueryIsNeverAPattern(option: String, name: String, other: String) {
        let r = smartgrep([option, "bin"], input: names)
        #expect(r.status == 2 && r.out == "")
        let first = r.stderr.split(separator: "\n").first ?? ""
        #expect(first.hasPrefix("smartgrep: option '\(name)' (\(other)) "), "\(r.stderr)")
        #expect(first.contains("a query is never a pattern"), "\(r.stderr)")
    }

    // MARK: - Abbreviations

    /// grep 3.8's long options (src/grep.c, `long_options`), each with what it stands for:
    /// names that stand for the same thing are one option to getopt.
    static let grepLongOptions: [(name: String, meaning: String)] = [
        ("basic-regexp", "G"), ("extended-regexp", "E"), ("fixed-regexp", "F"), ("fixed-strings", "F"), ("perl-regexp", "P"),
        ("after-context", "A"), ("before-context", "B"), ("binary-files", "binary-files"), ("byte-offset", "b"), ("context", "C"),
        ("color", "color"), ("colour", "color"), ("count", "c"), ("devices", "D"), ("directories", "d"), ("exclude", "exclude"),
        ("exclude-from", "exclude-from"), ("exclude-dir", "exclude-dir"), ("file", "f"), ("files-with-matches", "l"),
        ("files-without-match", "L"), ("group-separator", "group-separator"), ("help", "help"), ("include", "include"),
        ("ignore-case", "i"), ("no-ignore-case", "no-ignore-case"), ("initial-tab", "T"), ("label", "label"),
        ("line-buffered", "line-buffered"), ("line-number", "n"), ("line-regexp", "x"), ("max-count", "m"), ("no-filename", "h"),
        ("no-group-separator", "no-group-separator"), ("no-messages", "s"), ("null", "Z"), ("null-data", "z"),
        ("only-matching", "o"), ("quiet", "q"), ("recursive", "r"), ("dereference-recursive", "R"), ("regexp", "e"),
        ("invert-match", "v"), ("silent", "q"), ("text", "a"), ("binary", "U"), ("unix-byte-offsets", "u"), ("version", "V"),
        ("with-filename", "H"), ("word-regexp", "w"),
    ]

    /// What grep's getopt_long makes of `--PREFIX`: the meaning of the exact name, or of the
    /// only meaning among the names it starts; nil when it is ambiguous.
    static func grepMeaning(of prefix: String) -> String? {
        if let exact = grepLongOptions.first(where: { $0.name == prefix }) { return exact.meaning }
        let meanings = Set(grepLongOptions.filter { $0.name.hasPrefix(prefix) }.map(\.meaning))
        return meanings.count == 1 ? meanings.first : nil
    }

    /// Every prefix of every grep long option means in smartgrep what it means in grep,
    /// or is refused: as ambiguous (where grep finds it ambiguous too, or a smartgrep flag
    /// of its own shares it), or by the name of the grep option smartgrep lacks.
    @Test func noPrefixOfAGrepOptionBecomesAnotherFlag() {
        let meaningOf = Dictionary(Self.grepLongOptions.map { ($0.name, $0.meaning) }, uniquingKeysWith: { a, _ in a })
        let ownNames = Smartgrep.spec.flags.flatMap { [$0.long] + $0.aliases }.filter { meaningOf[$0] == nil }
        var checked = 0
        for option in Self.grepLongOptions {
            for length in 1...option.name.count {
                let prefix = String(option.name.prefix(length))
                let grep = Self.grepMeaning(of: prefix)
                checked += 1
                do {
                    let parsed = try parseArguments(["--" + prefix, "1"], spec: Smartgrep.spec)
                    let flag = Smartgrep.spec.flags.first { $0.long == parsed.flags.first?.long }!
                    let meanings = Set(([flag.long] + flag.aliases).compactMap { meaningOf[$0] })
                    #expect(
                        grep != nil && meanings.contains(grep!),
                        "--\(prefix) is --\(flag.long) in smartgrep, \(grep ?? "ambiguous") in grep")
                } catch {
                    if error.message.hasPrefix("ambiguous option") {
                        let ownShare = ownNames.contains { $0.hasPrefix(prefix) }
                        #expect(grep == nil || ownShare, "--\(prefix): \(error.message)")
                    } else {
                        // A grep option smartgrep lacks, named whole.
                        let named = error.message.split(separator: "'").dropFirst().first.map { String($0.dropFirst(2)) } ?? ""
                        #expect(grep != nil && meaningOf[named] == grep, "--\(prefix): \(error.message)")
                        #expect(Smartgrep.spec.peerOptions.contains { $0.names.contains(named) }, "--\(prefix): \(error.message)")
                    }
                }
            }
        }
        #expect(checked > 500)
    }

    @Test func grepsOptionsSmartgrepLacksAreRefusedByName() {
        for (arguments, message) in [
            (["--binary", "x"], "smartgrep: unsupported grep option '--binary' (-U)"),
            (["-D", "skip", "x"], "smartgrep: unsupported grep option '-D' (--devices)"),
            (["--unix", "x"], "smartgrep: unsupported grep option '--unix-byte-offsets' (-u)"),
        ] {
            let r = smartgrep(arguments, input: "x\n")
            #expect(r.status == 2 && r.out == "" && r.stderr.hasPrefix(message + "\n"), "\(arguments): \(r.stderr)")
        }
    }

    /// As grep 3.8: `-m 0` selects nothing and opens no file (so a FIFO without a writer
    /// does not block: a missing file, not opened, shows it); `-L` still lists the files.
    @Test func maxCountZeroOpensNothingButMinusLStillLists() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let a = try scratch.write("bin\n", to: "a")
        for flags in [[], ["-c"], ["-l"], ["-r"], ["-v"], ["--rank"], ["-q", "-L"]] {
            let r = smartgrep(flags + ["-m0", "bin", a, scratch.file("missing")])
            #expect(r.status == 1 && r.out == "" && r.stderr == "", "\(flags)")
        }
        let listed = smartgrep(["-L", "-m0", "bin", a])
        #expect(listed.out == "\(a)\n" && listed.stderr == "")
    }

    /// As grep 3.8, which opens a named directory and fails to read it: the message, and
    /// still the file's count and its -L listing; a negative -m is no limit.
    @Test func aNamedDirectoryHasACountAndNoMatchAndANegativeMaxCountNoLimit() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let a = try scratch.write("bin\nbin\n", to: "a")
        let dir = scratch.path
        let message = "smartgrep: \(dir): Is a directory\n"
        let counted = smartgrep(["-c", "bin", dir, a])
        #expect(counted.status == 2 && counted.out == "\(dir):0\n\(a):2\n" && counted.stderr == message)
        let listed = smartgrep(["-L", "bin", dir, a])
        #expect(listed.status == 2 && listed.out == "\(dir)\n" && listed.stderr == message)
        #expect(smartgrep(["-l", "bin", dir, a]).out == "\(a)\n")
        #expect(smartgrep(["-sc", "bin", dir]).out == "0\n")
        #expect(smartgrep(["-c", "-d", "skip", "bin", dir, a]).out == "\(a):2\n")
        for m in ["-1", "-5"] {
            let r = smartgrep(["-c", "-m", m, "bin", a])
            #expect(r.status == 0 && r.out == "2\n", "-m \(m)")
        }
    }

    @Test func silentIsQuiet() {
        let r = smartgrep(["--silent", "bin"], input: names)
        #expect(r.status == 0 && r.out == "")
        #expect(smartgrep(["--s", "zzz"], input: names).status == 1)
    }
}
