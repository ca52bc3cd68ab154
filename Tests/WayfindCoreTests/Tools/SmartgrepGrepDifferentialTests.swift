import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// smartgrep's grep flags against GNU grep on the real name lists: smartgrep picks the
/// lines, grep is given exactly those (`grep OPTIONS -x -F -f SELECTED FILE...`), and
/// both must print the same bytes and exit the same way. A line is selected by its
/// content alone, so grep selects the same lines, and then context, `--` separators,
/// `FILE-12-`/`FILE:13:` prefixes, counts, -m and the file lists are grep's to judge.
@Suite(.enabled(if: TestProcess.isInstalled("grep")))
struct SmartgrepGrepDifferentialTests {
    /// The real lists: ../shared/data next to the checkout, else the copies in Tests/Data.
    static let lists: [String] = {
        let shared = Repository.root.appendingPathComponent("../shared/data").standardized
        let copies = Repository.root.appendingPathComponent("Tests/Data")
        return ["debian-package-names.txt", "python-stdlib-names.txt", "city-names-diacritics.txt", "sf-symbols-ios14.txt"]
            .compactMap { name in
                [shared, copies, Repository.fixtures].map { $0.appendingPathComponent(name).path }
                    .first { FileManager.default.fileExists(atPath: $0) }
            }
    }()

    static let optionSets: [[String]] = [
        ["-n", "-C2"], ["-n", "-A1"], ["-B3"], ["-A0"], ["-C0", "-n"], ["-n", "-B2", "-A5"], ["-m3", "-n", "-A2"],
        ["-m2", "-B1"], ["-v", "-n", "-C1", "-m50"], ["-c"], ["-c", "-v"], ["-m5"], ["-l"], ["-L"], ["-H", "-n", "-C1"],
        // Issue 42: -NUM, -b, -T, -Z and the group separators.
        ["-2", "-n"], ["-n1", "-A3"], ["-b"], ["-b", "-n", "-C1"], ["-bv", "-m40"], ["-T", "-n"], ["-T", "-H", "-b", "-A1"],
        ["-Tb", "-B2", "-m4"], ["-Z", "-l"], ["-Z", "-L"], ["-Z", "-c"], ["-Z", "-H", "-n", "-C1"], ["--group-separator=##", "-C1"],
        ["--no-group-separator", "-A1", "-n"], ["--group-separator=", "-B1"],
    ]

    /// On standard input (a file here, so -T pads to its size in both), with --label.
    static let standardInputOptionSets: [[String]] = [
        ["--label=in", "-H", "-n"], ["--label=in", "-c", "-H"], ["--label=in", "-l"], ["--label=in", "-HZbT", "-C1"], ["-Tn"],
    ]

    /// Queries from the lists' own words (seeded), and a few fixed ones: common, rare and
    /// absent words, accents.
    static func queries(_ lines: [String], count: Int, seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        var queries = ["lib py", "x bin", "sao", "test", "zebra", "a b", "qqqzzzx", "zurich"]
        while queries.count < count {
            let line = lines[Int(random.next() % UInt64(lines.count))]
            let words = line.split { !$0.isLetter && !$0.isNumber }
            guard let word = words.randomElement(using: &random) else { continue }
            let cut = 1 + Int(random.next() % UInt64(max(1, min(4, word.count))))
            queries.append(String(word.prefix(cut)))
        }
        return queries
    }

    @Test func contextCountsAndFileListsAreByteForByteGreps() throws {
        #expect(Self.lists.count == 4, "the name lists: \(Self.lists)")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let selected = scratch.file("selected")
        var compared = 0
        for list in Self.lists {
            let lines = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").map(String.init)
            for query in Self.queries(lines, count: 12, seed: UInt64(list.utf8.count)) {
                for files in [[list], [list, Self.lists[3]]] {
                    // The lines smartgrep selects, and one no line equals (grep -f with no
                    // pattern at all prints nothing even for -c).
                    let picked = runInProcess("smartgrep", ["-h", "--", query] + files)
                    var patterns = picked.stdout
                    patterns.append(Data("\u{1}none\u{1}\n".utf8))
                    try patterns.write(to: URL(fileURLWithPath: selected))
                    for options in Self.optionSets {
                        let ours = runInProcess("smartgrep", options + ["--", query] + files)
                        let grep = try TestProcess.run(
                            "/usr/bin/env", ["grep"] + options + ["-x", "-F", "-f", selected] + files,
                            environment: ["LC_ALL": "C", "PATH": "/usr/bin:/bin"])
                        compared += 1
                        guard ours.stdout != grep.stdout || ours.status != grep.status else { continue }
                        Issue.record(
                            """
                            smartgrep \(options) '\(query)' \(files) differs from grep:
                            --- smartgrep (status \(ours.status))
                            \(ours.out.prefix(2000))
                            --- grep (status \(grep.status))
                            \(grep.out.prefix(2000))
                            """)
                        return
                    }
                }
            }
        }
        #expect(compared > 2000)
    }

    /// The same, with standard input as the file: --label names it, and -T pads to its size.
    @Test func standardInputAndItsLabelAreGreps() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let selected = scratch.file("selected")
        var compared = 0
        for list in Self.lists {
            let text = try Data(contentsOf: URL(fileURLWithPath: list))
            let lines = String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
            for query in Self.queries(lines, count: 4, seed: UInt64(list.utf8.count) + 1) {
                var patterns = runInProcess("smartgrep", ["--", query], input: text).stdout
                patterns.append(Data("\u{1}none\u{1}\n".utf8))
                try patterns.write(to: URL(fileURLWithPath: selected))
                for options in Self.standardInputOptionSets {
                    let ours = runInProcess("smartgrep", options + ["--", query], input: text)
                    let grep = try TestProcess.run(
                        "/usr/bin/env", ["grep"] + options + ["-x", "-F", "-f", selected], input: text,
                        environment: ["LC_ALL": "C", "PATH": "/usr/bin:/bin"])
                    compared += 1
                    #expect(
                        ours.stdout == grep.stdout && ours.status == grep.status,
                        "smartgrep \(options) '\(query)' < \(list): \(ours.out.prefix(500)) / grep: \(grep.out.prefix(500))")
                }
            }
        }
        #expect(compared >= 80)
    }

    /// -d skip and --exclude-from decide which FILEs are read, and -I which count, as grep
    /// decides (/bin/sh is a binary file).
    @Test func skippedDirectoriesExcludedFilesAndBinaryFilesAreGreps() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.file("dir"), withIntermediateDirectories: true)
        let globs = try scratch.write("python-*\n  \n*symbols*.txt \r\n", to: "globs")
        let files = [scratch.file("dir")] + Self.lists + ["/bin/sh"]
        for options in [
            ["-d", "skip", "-c", "-I"], ["--directories=skip", "-l", "-I"], ["-d", "skip", "--exclude-from=\(globs)", "-c", "-I"],
            ["-d", "skip", "-L", "--binary-files=without-match"],
        ] {
            let ours = runInProcess("smartgrep", options + ["--", "lib"] + files)
            let picked = runInProcess("smartgrep", ["-h", "--", "lib"] + Self.lists).stdout
            try picked.write(to: URL(fileURLWithPath: scratch.file("selected")))
            let grep = try TestProcess.run(
                "/usr/bin/env", ["grep"] + options + ["-x", "-F", "-f", scratch.file("selected")] + files,
                environment: ["LC_ALL": "C", "PATH": "/usr/bin:/bin"])
            #expect(ours.stdout == grep.stdout && ours.status == grep.status, "\(options): \(ours.out) / grep: \(grep.out)")
        }
    }

    /// -o prints the matched parts; grep -o given those parts as fixed strings prints the
    /// same words wherever they occur, so compare on lines where each part is the line's
    /// only occurrence of it: here, the number of parts per line and the prefixes.
    @Test func onlyMatchingKeepsGrepsPrefixesAndOneLinePerPart() throws {
        let list = Self.lists[3]
        for query in ["x bin", "circle fill", "person"] {
            let ours = runInProcess("smartgrep", ["-o", "-n", "-H", "--", query, list])
            let lines = runInProcess("smartgrep", ["-n", "-H", "--", query, list]).lines
            #expect(!lines.isEmpty)
            let words = query.split(separator: " ").count
            #expect(ours.lines.count >= lines.count && ours.lines.count <= lines.count * words)
            for line in ours.lines {
                let parts = line.split(separator: ":", maxSplits: 2)
                #expect(parts.count == 3 && parts[0] == list && Int(parts[1]) != nil, "\(line)")
            }
        }
    }
}
