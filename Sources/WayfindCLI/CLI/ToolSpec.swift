import WayfindCore

/// The declarative description of one tool: its flags, its text, and its man page.
///
/// Flags are data: the parser, `--help`, the man page and the shell completions are all
/// rendered from one `ToolSpec`, so they cannot disagree.

/// How a shell should complete a flag's value or a positional argument.
package enum CompletionKind: Sendable, Equatable {
    /// Nothing to offer.
    case none
    /// A file path.
    case file
    /// A directory path.
    case directory
    /// One of a fixed list of words.
    case choices([String])
    /// A place of the route graph: what `routegraph-suggest -n 20 -- WORD` prints for the
    /// word typed (the default graph), quoted for where the cursor is.
    case places
}

/// Whether a flag takes a value.
package enum FlagValue: Sendable, Equatable {
    /// A switch: `--quiet`.
    case none
    /// A required value: `--max-count N`, `--max-count=N`, `-m N`, `-mN`.
    case required(name: String)
    /// An optional value, given only as `--color=WHEN` (a bare `--color` means `default`).
    case optional(name: String, default: String)
}

/// One command-line flag.
package struct FlagSpec: Sendable, Equatable {
    /// The long name without dashes, e.g. `max-count`. Also the key in `ParsedArguments`.
    package var long: String
    /// The one-letter short form, e.g. `m`, if any.
    package var short: Character?
    /// Whether and how the flag takes a value.
    package var value: FlagValue
    /// One line for `--help` and the completions.
    package var help: String
    /// Longer text for the man page; `help` when empty.
    package var manHelp: String
    /// How a shell completes the value.
    package var completion: CompletionKind
    /// Other long names the parser accepts for this flag (grep's `--colour`); they are
    /// parsed as `long` and named in the man page's text, not listed on their own.
    package var aliases: [String] = []

    package init(
        _ long: String, short: Character? = nil, value: FlagValue = .none, help: String,
        manHelp: String = "", completion: CompletionKind = .none, aliases: [String] = []
    ) {
        self.aliases = aliases
        self.long = long
        self.short = short
        self.value = value
        self.help = help
        self.manHelp = manHelp
        self.completion = completion
    }
}

/// An option of the tool's peer (GNU grep, for smartgrep) that the tool does not have.
///
/// The parser resolves long option abbreviations against these names too, so a prefix a
/// user of the peer types never becomes a different flag than it is there: grep's `--nul`
/// is ambiguous (`--null`, `--null-data`) and stays so, and `--binary-f` names grep's
/// `--binary-files`, which is refused by name rather than read as some other flag.
package struct PeerOption: Sendable, Equatable {
    /// Its long names, the one to show first (grep's `--fixed-strings`, and the older
    /// `--fixed-regexp` it still accepts); may be empty for a short-only option (`-I`).
    package var names: [String]
    /// Its one-letter form, if any.
    package var short: Character?
    /// What to tell its user instead of "unsupported": the rest of a sentence that starts
    /// with the option's name (`is not needed: a query is never a pattern; …`).
    package var advice: String

    package init(_ names: [String], short: Character? = nil, advice: String = "") {
        self.names = names
        self.short = short
        self.advice = advice
    }

    /// The long name shown for it: the first.
    package var long: String? { names.first }
}

/// A titled section of a man page (`EXAMPLES`, `MATCHING`, …), in roff-free plain text.
///
/// Paragraphs are separated by blank lines; a line starting with two spaces is shown as an
/// example (verbatim).
package struct ManSection: Sendable, Equatable {
    package var title: String
    package var body: String
    package init(_ title: String, _ body: String) {
        self.title = title
        self.body = body
    }
}

/// Everything about one tool that its help, man page and completions need.
package struct ToolSpec: Sendable {
    /// The binary name, e.g. `smartgrep`.
    package var name: String
    /// One-line summary for the man page NAME section and the first line of `--help`.
    package var summary: String
    /// Usage lines without the tool name, e.g. `[OPTIONS] QUERY [FILE...]`.
    package var usage: [String]
    /// The description paragraph(s) for `--help` and DESCRIPTION.
    package var description: String
    /// The flags, in the order `--help` lists them.
    package var flags: [FlagSpec]
    /// How a shell completes positional arguments.
    package var positionalCompletion: CompletionKind
    /// Extra man page sections after OPTIONS (e.g. MATCHING, EXIT STATUS, EXAMPLES).
    package var manSections: [ManSection] { makeManSections() }
    /// The man page section number, usually 1.
    package var manSectionNumber: Int
    /// `--generate` kinds of the tool's own besides man and the completions, each with
    /// what renders it from the parsed command line (routegraph-suggest's shell set-up).
    package var generators: [String: Generator] { makeGenerators() }
    /// Renders a `--generate` kind of a tool's own.
    package typealias Generator = @Sendable (ParsedArguments) throws(UsageError) -> String
    // The man sections and generators are built when asked for: only --help, --generate
    // and the man page need them (building them on every run cost routegraph-suggest
    // --version a fourteenth of its time).
    private let makeManSections: @Sendable () -> [ManSection]
    private let makeGenerators: @Sendable () -> [String: Generator]
    /// The switch (magickey's `json`) that makes errors JSON too: each error is also
    /// printed on standard output in ArcGIS's error shape (see `ArcGISError`).
    package var jsonErrorsFlag: String? = nil
    /// The program whose options the tool's users know (`grep`), named in messages about
    /// `peerOptions`.
    package var peer = ""
    /// The peer's options the tool does not have (see `PeerOption`).
    package var peerOptions: [PeerOption] = []
    /// The long name of the flag a bare number sets: grep's `-5` is `--context=5`. A run of
    /// digits in a cluster of short options is one number (`-12`, `-n5`), the last one
    /// given wins, as with getopt in grep.
    package var numberFlag: String? = nil

    package init(
        name: String, summary: String, usage: [String], description: String,
        flags: [FlagSpec], positionalCompletion: CompletionKind = .file, jsonErrorsFlag: String? = nil,
        peer: String = "", peerOptions: [PeerOption] = [], numberFlag: String? = nil,
        manSections: @autoclosure @escaping @Sendable () -> [ManSection] = [], manSectionNumber: Int = 1,
        generators: @autoclosure @escaping @Sendable () -> [String: Generator] = [:]
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.description = description
        self.flags = flags
        self.positionalCompletion = positionalCompletion
        makeManSections = manSections
        self.manSectionNumber = manSectionNumber
        makeGenerators = generators
        self.jsonErrorsFlag = jsonErrorsFlag
        self.peer = peer
        self.peerOptions = peerOptions
        self.numberFlag = numberFlag
    }
}
