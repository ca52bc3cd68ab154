import Testing
import WayfindCLI
import WayfindCore

/// A short way to write an expected parse.
private func parsed(_ flags: [(String, String?)], _ positionals: [String] = []) -> ParsedArguments {
    ParsedArguments(flags: flags.map { ParsedFlag($0.0, $0.1) }, positionals: positionals)
}

extension CLITests {
    /// `parseArguments` against the sample tool's flags: the GNU rules, then every error.
    @Suite struct ArgumentParserTests {
        /// Parses with the sample spec.
        private func parse(_ words: [String]) throws(UsageError) -> ParsedArguments {
            try parseArguments(words, spec: CLISample.spec)
        }

        @Test(
            arguments: [
                // Nothing at all.
                ([], parsed([])),
                // Short switches bundle.
                (["-qi"], parsed([("quiet", nil), ("ignore-case", nil)])),
                // A short option's value is attached or in the next word.
                (["-m5"], parsed([("max-count", "5")])),
                (["-m", "5"], parsed([("max-count", "5")])),
                // Switches, then a valued short option that takes the rest of the word or the next.
                (["-qm5"], parsed([("quiet", nil), ("max-count", "5")])),
                (["-qm", "5"], parsed([("quiet", nil), ("max-count", "5")])),
                // A long option's value comes after `=` or in the next word.
                (["--max-count=5"], parsed([("max-count", "5")])),
                (["--max-count", "5"], parsed([("max-count", "5")])),
                (["--max-count="], parsed([("max-count", "")])),
                (["--file=a=b"], parsed([("file", "a=b")])),
                // An optional value is only ever given after `=`; left out, it is the default.
                (["--color"], parsed([("color", "auto")])),
                (["--color=never"], parsed([("color", "never")])),
                (["--color", "never"], parsed([("color", "auto")], ["never"])),
                // A required value is the next word whatever it looks like.
                (["-m", "-1"], parsed([("max-count", "-1")])),
                (["--max-count", "-1"], parsed([("max-count", "-1")])),
                (["--file", "--quiet"], parsed([("file", "--quiet")])),
                (["--file", "--", "-q"], parsed([("file", "--"), ("quiet", nil)])),
                // `--` ends the options; a lone `-` is a positional.
                (["--", "-q", "--max-count=1", "--"], parsed([], ["-q", "--max-count=1", "--"])),
                (["-", "-q"], parsed([("quiet", nil)], ["-"])),
                (["-q", "--", "-"], parsed([("quiet", nil)], ["-"])),
                // Options may follow positionals (GNU permutation).
                (
                    ["query", "-q", "in.txt", "--max-count", "2", "out.txt"],
                    parsed([("quiet", nil), ("max-count", "2")], ["query", "in.txt", "out.txt"])
                ),
                // An unambiguous prefix names a long option; an exact name wins over longer ones.
                (["--max", "3"], parsed([("max-count", "3")])),
                (["--qu"], parsed([("quiet", nil)])),
                (["--col=never"], parsed([("color", "never")])),
                (["--file", "x"], parsed([("file", "x")])),
                (["--files"], parsed([("files-with-matches", nil)])),
                // Repeated flags are all kept, in order.
                (
                    ["-f", "a", "--file=b", "-fc"],
                    parsed([("file", "a"), ("file", "b"), ("file", "c")])
                ),
            ] as [([String], ParsedArguments)])
        func commandLinesParseLikeGetoptLong(words: [String], expected: ParsedArguments) throws {
            #expect(try parse(words) == expected)
        }

        @Test(arguments: [
            (["--frob"], "unknown option '--frob'"),
            (["--frob=1"], "unknown option '--frob'"),
            (["query", "--frob"], "unknown option '--frob'"),
            (["--=x"], "unknown option '--=x'"),
            (["-y"], "unknown option '-y'"),
            (["-qy"], "unknown option '-y'"),
            (["--max-count"], "option '--max-count' requires a value"),
            (["--max"], "option '--max-count' requires a value"),
            (["-m"], "option '-m' requires a value"),
            (["-qm"], "option '-m' requires a value"),
            (["--quiet=yes"], "option '--quiet' takes no value"),
            (["--qu=yes"], "option '--quiet' takes no value"),
            (["--co"], "ambiguous option '--co' (could be --color, --count)"),
            (["--fil=x"], "ambiguous option '--fil' (could be --file, --files-with-matches)"),
            // A typo one or two edits away gets a suggestion.
            (["--qiuet"], "unknown option '--qiuet' (did you mean '--quiet'?)"),
            (["--colour=never"], "unknown option '--colour' (did you mean '--color'?)"),
            (["--max-cuont=3"], "unknown option '--max-cuont' (did you mean '--max-count'?)"),
        ])
        func mistakesAreReportedByName(words: [String], message: String) {
            #expect(throws: UsageError(message)) { try parse(words) }
        }

        @Test func nothingAfterDoubleDashIsAnError() throws {
            #expect(try parse(["--", "--frob", "-y"]).positionals == ["--frob", "-y"])
        }

        @Test func aShortOptionWithAnOptionalValueMeansTheDefault() throws {
            let spec = ToolSpec(
                name: "t", summary: "", usage: [], description: "",
                flags: [
                    FlagSpec(
                        "color", short: "C", value: .optional(name: "WHEN", default: "auto"),
                        help: ""),
                    FlagSpec("quiet", short: "q", help: ""),
                ])
            #expect(
                try parseArguments(["-Cq", "x"], spec: spec)
                    == parsed([("color", "auto"), ("quiet", nil)], ["x"]))
        }

        /// A stand-in for a tool with a peer (smartgrep and grep): some of grep's flags,
        /// one of its own, grep's options it lacks, and grep's -NUM.
        static let peerSpec = ToolSpec(
            name: "t", summary: "", usage: [], description: "",
            flags: [
                FlagSpec("null-data", short: "z", help: ""), FlagSpec("line-number", short: "n", help: ""),
                FlagSpec("context", short: "C", value: .required(name: "NUM"), help: ""), FlagSpec("quiet", short: "q", help: ""),
                FlagSpec("field", value: .required(name: "N"), help: ""),
            ],
            peer: "grep",
            peerOptions: [
                PeerOption(["null"], short: "Z"), PeerOption(["fixed-strings", "fixed-regexp"], short: "F", advice: "is not needed"),
                PeerOption(["files-with-matches"], short: "l"), PeerOption([], short: "I"),
            ],
            numberFlag: "context")

        @Test(
            arguments: [
                (["-5"], parsed([("context", "5")])),
                (["-12", "x"], parsed([("context", "12")], ["x"])),
                (["-n5"], parsed([("line-number", nil), ("context", "5")])),
                (["-5n"], parsed([("context", "5"), ("line-number", nil)])),
                // Each run of digits is a number of its own; the last one given wins.
                (["-1n2"], parsed([("context", "1"), ("line-number", nil), ("context", "2")])),
                (["-1", "-2"], parsed([("context", "1"), ("context", "2")])),
                (["-C3", "-05"], parsed([("context", "3"), ("context", "05")])),
                // A valued option still takes the rest of the word, digits included.
                (["-C", "7"], parsed([("context", "7")])),
                (["-C12"], parsed([("context", "12")])),
                (["--", "-5"], parsed([], ["-5"])),
            ] as [([String], ParsedArguments)])
        func aRunOfDigitsSetsTheNumberFlag(words: [String], expected: ParsedArguments) throws {
            #expect(try parseArguments(words, spec: Self.peerSpec) == expected)
        }

        @Test func digitsAreUnknownOptionsWithoutANumberFlag() {
            #expect(throws: UsageError("unknown option '-5'")) { try parse(["-5"]) }
        }

        @Test(arguments: [
            // An exact name is never taken for a longer one: grep's --null is not --null-data.
            (["--null"], "unsupported grep option '--null' (-Z)"),
            (["-Z"], "unsupported grep option '-Z' (--null)"),
            (["-nZ"], "unsupported grep option '-Z' (--null)"),
            (["-I"], "unsupported grep option '-I'"),
            // A prefix that is ambiguous in the peer is ambiguous here too.
            (["--nul"], "ambiguous option '--nul' (could be --null-data, --null)"),
            (["--n"], "ambiguous option '--n' (could be --null-data, --null)"),
            (["--fi"], "ambiguous option '--fi' (could be --field, --fixed-strings, --files-with-matches)"),
            // A prefix of the peer's option alone names it, by its full name.
            (["--fil"], "unsupported grep option '--files-with-matches' (-l)"),
            (["--fix=1"], "option '--fixed-strings' (-F) is not needed"),
            (["--fixed-r"], "option '--fixed-regexp' (-F) is not needed"),
            (["-F"], "option '-F' (--fixed-strings) is not needed"),
        ])
        func thePeersOptionsAreCandidatesAndRefusedByName(words: [String], message: String) {
            #expect(throws: UsageError(message)) { try parseArguments(words, spec: Self.peerSpec) }
        }

        @Test func thePeersOptionsLeaveTheToolsOwnFlagsAlone() throws {
            #expect(
                try parseArguments(["--null-", "--line", "--q", "--fie=2"], spec: Self.peerSpec)
                    == parsed([("null-data", nil), ("line-number", nil), ("quiet", nil), ("field", "2")]))
        }

        @Test func helpersAnswerForTheFlagsAsGiven() throws {
            let arguments = try parse(["-qq", "--file=a", "x", "-f", "b", "--color"])
            #expect(arguments.has("quiet"))
            #expect(!arguments.has("count"))
            #expect(arguments.count("quiet") == 2)
            #expect(arguments.count("count") == 0)
            #expect(arguments.lastValue("file") == "b")
            #expect(arguments.lastValue("quiet") == nil)
            #expect(arguments.lastValue("max-count") == nil)
            #expect(arguments.lastValue("color") == "auto")
            #expect(arguments.values("file") == ["a", "b"])
            #expect(arguments.values("quiet") == [])
            #expect(arguments.positionals == ["x"])
            #expect(arguments.flags.map(\.long) == ["quiet", "quiet", "file", "file", "color"])
        }

        @Test func spellingSuggestsOnlyAClearlyClosestWord() {
            #expect(Spelling.closest(to: "rnak", in: ["rank", "count"]) == "rank")
            #expect(Spelling.closest(to: "frob", in: ["rank", "count"]) == nil)
            #expect(Spelling.closest(to: "FRA", in: ["FR", "US"]) == "FR")
            #expect(Spelling.closest(to: "ab", in: ["aa", "bb"]) == nil)  // a tie
            #expect(Spelling.distance(Array("ca"), Array("ac")) == 1)
            #expect(Spelling.distance(Array("kitten"), Array("sitting")) == 3)
        }

        @Test func aUsageErrorDescribesItselfByItsMessage() {
            #expect(UsageError("unknown option '-y'").description == "unknown option '-y'")
        }
    }
}

/// Reading parsed flags by long name, for these tests only: the tools read them through
/// typed `Flag` values.
extension ParsedArguments {
    fileprivate func has(_ long: String) -> Bool { flags.contains { $0.long == long } }
    fileprivate func lastValue(_ long: String) -> String? { flags.last { $0.long == long }?.value }
    fileprivate func values(_ long: String) -> [String] { flags.compactMap { $0.long == long ? $0.value : nil } }
    fileprivate func count(_ long: String) -> Int { flags.filter { $0.long == long }.count }
}
