import WayfindCLI
import WayfindCore

/// The tool every CLI test parses for and renders: a small grep with one flag of each
/// shape (switches, required and optional values, each completion kind), a long option
/// that overflows the help column, and text that needs roff escaping.
enum CLISample {
    /// The sample tool's name: unlike any real command, so no installed completion interferes.
    static let name = "sampletool"

    /// The sample tool's flag table and text.
    static let spec = ToolSpec(
        name: name,
        summary: "print lines whose words start with the query",
        usage: ["[OPTIONS] QUERY [FILE...]", "--help"],
        description: """
            Search each FILE (or standard input, also written -) for lines in which every \
            word of QUERY starts a word. Matching is case-insensitive and ignores accents, \
            so café matches CAFE.

            For example:
              sampletool 'new yo' cities.txt
            """,
        flags: [
            FlagSpec("ignore-case", short: "i", help: "ignore case (the default)"),
            FlagSpec("quiet", short: "q", help: "print nothing; exit 0 on the first match"),
            FlagSpec(
                "max-count", short: "m", value: .required(name: "NUM"),
                help: "stop after NUM matching lines"),
            FlagSpec(
                "color", value: .optional(name: "WHEN", default: "auto"),
                help: "when to use colors: never, always or auto",
                completion: .choices(["never", "always", "auto"])),
            FlagSpec("count", short: "c", help: "print only the number of matching lines"),
            FlagSpec(
                "file", short: "f", value: .required(name: "FILE"),
                help: "read one query per line from FILE", completion: .file),
            FlagSpec(
                "files-with-matches", short: "l", help: "print only the names of files with a match"
            ),
            FlagSpec(
                "state-directory", value: .required(name: "DIRECTORY"),
                help: "keep the history of chosen lines in DIRECTORY, which is created when it is "
                    + "missing and must be writable by the user",
                manHelp: """
                    Keep the history in DIRECTORY.

                    .hidden files in it are ignored; a backslash (\\) is literal.

                    For example:
                      sampletool --state-directory=~/.sampletool x
                    """,
                completion: .directory),
            FlagSpec("help", short: "h", help: "show this help and exit"),
            FlagSpec("version", help: "show the version and exit"),
        ],
        manSections: [
            ManSection(
                "EXIT STATUS",
                """
                0 if a line was printed, 1 if none matched, 2 on an error (see --help).

                'Quoted' lines are text, not roff requests,

                .and so are dotted ones.
                """),
            ManSection(
                "EXAMPLES",
                """
                Count matches (Đakovo and Ħamrun are found by dakovo and hamrun):

                  sampletool -c 'main st' streets.txt
                  printf 'a\\\\b\\n' | sampletool -- -q
                """),
        ]
    )
}
