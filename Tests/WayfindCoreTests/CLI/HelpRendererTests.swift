import Foundation
import Testing
import WayfindCLI
import WayfindCore

extension CLITests {
    /// `--help` and the usage hint, rendered from the sample tool.
    @Suite struct HelpRendererTests {
        @Test func helpMatchesTheGoldenText() {
            let expected = """
                sampletool - print lines whose words start with the query

                Usage: sampletool [OPTIONS] QUERY [FILE...]
                  or:  sampletool --help

                Search each FILE (or standard input, also written -) for lines in which every
                word of QUERY starts a word. Matching is case-insensitive and ignores accents,
                so café matches CAFE.

                For example:

                  sampletool 'new yo' cities.txt

                Options:
                  -i, --ignore-case         ignore case (the default)
                  -q, --quiet               print nothing; exit 0 on the first match
                  -m, --max-count=NUM       stop after NUM matching lines
                      --color[=WHEN]        when to use colors: never, always or auto
                  -c, --count               print only the number of matching lines
                  -f, --file=FILE           read one query per line from FILE
                  -l, --files-with-matches  print only the names of files with a match
                      --state-directory=DIRECTORY
                                            keep the history of chosen lines in DIRECTORY, which
                                            is created when it is missing and must be writable
                                            by the user
                  -h, --help                show this help and exit
                      --version             show the version and exit

                """
            let actual = renderHelp(CLISample.spec)
            #expect(actual == expected, "expected:\n\(expected)\nactual:\n\(actual)")
        }

        @Test func noHelpLineIsWiderThanEightyColumns() {
            for line in renderHelp(CLISample.spec).split(separator: "\n") {
                #expect(line.count <= 80, "too wide: \(line)")
            }
        }

        @Test func everyOptionsHelpStartsInTheSameColumn() throws {
            let lines = renderHelp(CLISample.spec).split(separator: "\n").map(String.init)
            for flag in CLISample.spec.flags {
                let start = String(flag.help.prefix(20))
                let line = try #require(
                    lines.first { $0.contains(start) }, "no help for --\(flag.long)")
                let column = line.distance(
                    from: line.startIndex, to: try #require(line.range(of: start)).lowerBound)
                #expect(column == 28, "--\(flag.long): \(line)")
            }
        }

        @Test func theUsageHintNamesTheTool() {
            #expect(
                renderUsageHint(CLISample.spec) == "Try 'sampletool --help' for more information.")
        }

        @Test func aToolWithoutUsageOrFlagsGetsOnlyItsTitleAndDescription() {
            let spec = ToolSpec(
                name: "bare", summary: "does little", usage: [], description: "Text.", flags: [])
            #expect(renderHelp(spec) == "bare - does little\n\nText.\n")
        }
    }
}
