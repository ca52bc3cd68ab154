/// `smartgrep`: print the lines in which every query word starts a different word.

/// The smartgrep tool: its flag table, its options, and `run`.
package enum Smartgrep {
    /// The flag table: the parser, `--help`, the man page and the completions read it.
    package static let spec = ToolSpec(
        name: "smartgrep",
        summary: "print lines in which every query word starts a different word",
        usage: ["[OPTIONS] QUERY [FILE...]"],
        description: """
            Print the lines of each FILE (or standard input, for no FILE or '-') in which \
            every word of QUERY is the start of a different word of the line, in any order, \
            ignoring case and accents: 'x bin' finds xmark.bin.fill, 'sao' finds São Paulo, \
            'p pe' finds person.badge.plus. Lines split into words at whitespace, at every \
            character that is neither letter nor digit, and at camelCase humps.
            """,
        flags: SmartgrepFlags.table + [StandardFlags.help(short: false), StandardFlags.version, StandardFlags.generate],
        positionalCompletion: .file,
        manSections: [
            ManSection(
                "MATCHING",
                """
                The query is split at whitespace into query words; leading, trailing and \
                repeated whitespace is ignored, and a query with no words matches every line.

                A query word matches only at the start of a word of the line: 'he' matches \
                heart and bolt.heart.fill, never checkmark. Every query word must match, each \
                at a different word of the line ('up up' needs two words starting with up), \
                in any order ('fill circle sq' matches square.circle.fill). Longer query \
                words are matched first, so 'p pe' matches person.badge.plus whatever the \
                order typed. This is exact: the words a query word can start are those \
                whose text begins with it, and for two query words these sets either nest \
                (p and pe) or do not meet (pe and pl), so taking the smaller sets first \
                never takes a word a later query word needed.

                A query word may run on across word boundaries when it continues the line's \
                own text from a word start: 'xmark.bin' matches xmark.bin.circle and \
                'systemgr' matches systemGroupedBackground. Only the word it starts at is \
                used up. Characters that cannot be part of a word (neither letter, digit \
                nor combining mark, such as '.', '-' or ',') are dropped from both ends of a \
                query word: '.bin' means bin, 'paris,' means paris. With --words=space \
                nothing is dropped but a combining mark at the front of a query word (no \
                word starts with one).

                Case and accents are ignored in both directions: 'sao' finds São Paulo, \
                'séarch' finds search, 'STRASSE' finds Straße, and 'zurich' finds Zürich \
                whether it is stored precomposed (NFC) or decomposed (NFD). A letter folds \
                like its uppercase, so an upper-cased word finds what the word finds. \
                Letters that readers see as accented but Unicode does not decompose are \
                folded too: ł, ø, đ, ħ, ı, æ, œ, þ.

                Input is read as bytes. Invalid UTF-8, NUL bytes and carriage returns are \
                passed through unchanged; an invalid byte is a character that matches \
                nothing (a word boundary, except with --words=space).
                """),
            ManSection(
                "RANKING",
                """
                With --rank, the selected lines are printed best first: lines the query \
                matches whole (every query word a whole word and every word of the line \
                matched) come first; then lines where more query words match a whole word \
                (not just a prefix); then lines where a query word matches the first word \
                of the line; then lines with fewer words; then input order. With --field, \
                all of this looks at the field. Ranking holds the selected lines in memory.
                """),
            ManSection(
                "LIMITS",
                """
                A line may be up to 64 MiB long. A longer line is an error: smartgrep \
                reports 'FILE: a line is longer than 64 MiB (the limit)', stops reading that \
                FILE and goes on with the next, so memory stays bounded on endless input \
                without newlines such as /dev/zero. Large files are mapped into memory; if \
                one shrinks while it is searched (truncated by logrotate's copytruncate, or \
                rewritten in place), smartgrep reports 'FILE: changed while being read' \
                instead of crashing. Matching a line takes time proportional to its length \
                times the number of distinct query words.
                """),
            ManSection(
                "EXIT STATUS",
                """
                0 if a line was selected, 1 if none was, 2 if an error occurred (a bad \
                option, an unreadable FILE, a line over the limit, a FILE that changed while \
                being read; also with -q, unless a line was selected). Output closed early \
                (a reader such as 'head -1' going away) is not an error.
                """),
            ManSection(
                "ENVIRONMENT",
                """
                NO_COLOR: when set and not empty, --color=auto does not colour.
                """),
            ManSection(
                "EXAMPLES",
                """
                Find SF Symbols with a word starting with x and one starting with bin:

                  smartgrep 'x bin' sf-symbols.txt

                Match Python names by camelCase words:

                  smartgrep 'assert almost' python-names.txt

                Search the name column of a TSV file, best matches first:

                  smartgrep --field=2 --rank 'sao paulo' places.tsv
                """),
            ManSection("SEE ALSO", "grep(1), fzf(1), routegraph-suggest(1), magickey-suggest(1)"),
        ]
    )

    /// Runs smartgrep with `arguments` (without argv[0]) in `context`.
    package static func run(_ arguments: [String], context: ToolContext) -> ExitStatus {
        runTool(spec, arguments: arguments, context: context) { parsed, output, errors in
            let options = try SmartgrepOptions(parsed, context: context)
            if options.lineBuffered { output.isLineBuffered = true }
            var search = SmartgrepSearch(options: options, output: output, errors: errors)
            return search.run(context: context)
        }
    }

    /// The options a command line gives (without `argv[0]`), as a run without a terminal
    /// would resolve them.
    package static func options(_ arguments: [String]) throws(UsageError) -> SmartgrepOptions {
        try SmartgrepOptions(parseArguments(arguments, spec: spec), context: ToolContext())
    }

    /// Runs smartgrep's search over bytes in memory, read as from a pipe with
    /// `options.readSize` bytes a read, and returns what it prints and its status (for
    /// tests and checks that run many searches).
    package static func search(_ input: UnsafeBufferPointer<UInt8>, options: SmartgrepOptions) -> (output: [UInt8], status: ExitStatus) {
        let output = OutputBuffer(collecting: ())
        let errors = ErrorReporter(tool: spec.name, destination: FileDescriptor(-1))
        var search = SmartgrepSearch(options: options, output: output, errors: errors)
        do {
            try search.search(
                RecordReader(
                    bytes: input, terminator: options.terminator, readSize: options.readSize,
                    maximumRecordLength: options.maximumLineLength))
        } catch {
            search.hadError = true
        }
        search.endFile()
        let status = search.finish()
        return (output.withCollectedBytes { Array($0) }, status)
    }
}

/// smartgrep's options, checked and resolved from the command line.
package struct SmartgrepOptions {
    /// The compiled query.
    package var query: MatchQuery
    /// The files to read; `-` is standard input.
    package var files: [String]
    package var invert = false
    package var countOnly = false
    package var maxCount: Int? = nil
    package var lineNumbers = false
    package var quiet = false
    package var withFilename = false
    package var terminator: UInt8 = 0x0A
    package var color = false
    package var lineBuffered = false
    /// The 1-based field to match, if any.
    package var field: Int? = nil
    package var delimiter: UInt8 = 0x09
    package var rank = false
    /// Bytes per read (tests make it tiny to put block boundaries everywhere).
    package var readSize = RecordReader.defaultReadSize
    /// The longest line accepted.
    package var maximumLineLength = RecordReader.defaultMaximumRecordLength

    /// Resolves options; throws `UsageError` for bad values.
    package init(_ parsed: ParsedArguments, context: ToolContext) throws(UsageError) {
        typealias F = SmartgrepFlags
        var positionals = parsed.positionals
        guard !positionals.isEmpty else { throw UsageError("missing QUERY") }
        let queryText = positionals.removeFirst()
        query = MatchQuery(queryText, mode: try parsed.value(of: F.words) ?? .all)
        files = positionals.isEmpty ? ["-"] : positionals
        invert = try parsed.value(of: F.invert)
        countOnly = try parsed.value(of: F.count)
        lineNumbers = try parsed.value(of: F.lineNumber)
        quiet = try parsed.value(of: F.quiet)
        rank = try parsed.value(of: F.rank)
        lineBuffered = try parsed.value(of: F.lineBuffered) || context.outputIsTerminal
        if try parsed.value(of: F.nullData) { terminator = 0 }
        maxCount = try parsed.value(of: F.maxCount)
        field = try parsed.value(of: F.field)
        delimiter = try parsed.value(of: F.delimiter) ?? 0x09
        // -H / -h: the last one given wins, as in grep; default: names when several files.
        switch parsed.lastGiven(of: [F.withFilename.spec, F.noFilename.spec])?.long {
        case F.withFilename.spec.long?: withFilename = true
        case F.noFilename.spec.long?: withFilename = false
        default: withFilename = files.count > 1
        }
        switch try parsed.value(of: F.color) ?? .auto {
        case .always: color = true
        case .never: color = false
        case .auto:
            let noColor = context.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            color = context.outputIsTerminal && !noColor && context.environment["TERM"] != "dumb"
        }
    }
}

/// When `--color` colours.
enum ColorChoice: Sendable {
    case auto, always, never

    /// grep's spellings of WHEN.
    init?(_ text: String) {
        switch text {
        case "always", "yes", "force": self = .always
        case "never", "no", "none": self = .never
        case "auto", "tty", "if-tty": self = .auto
        default: return nil
        }
    }
}

/// smartgrep's flags, each read as a typed value (see `Flag`).
enum SmartgrepFlags {
    static let invert = Flag("invert-match", short: "v", help: "select the lines that do not match")
    static let ignoreCase = Flag(
        "ignore-case", short: "i", help: "ignore case (always on; accepted for grep habits)",
        manHelp: "Accepted for grep habits and ignored: smartgrep always ignores case and accents.")
    static let count = Flag("count", short: "c", help: "print only a count of selected lines per file")
    static let maxCount = Flag(
        "max-count", short: "m", value: "NUM", help: "stop reading a file after NUM selected lines",
        manHelp: "Stop reading a file after NUM selected lines. With --rank, read everything and print the NUM best lines.",
        expected: "a number ≥ 0"
    ) { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
    static let lineNumber = Flag("line-number", short: "n", help: "prefix each line with its line number")
    static let quiet = Flag(
        "quiet", short: "q", help: "print nothing; exit 0 at the first selected line",
        manHelp: "Print nothing. Exit with status 0 as soon as a line is selected, even if an error occurred.")
    static let withFilename = Flag(
        "with-filename", short: "H", help: "prefix each line with its file name (default with several files)")
    static let noFilename = Flag("no-filename", short: "h", help: "never prefix lines with file names")
    static let nullData = Flag("null-data", short: "z", help: "records end with NUL, not newline (input and output)")
    static let color = Flag(
        "color", optionalValue: "WHEN", default: "auto", help: "highlight matched word prefixes: auto, always or never",
        manHelp:
            "Highlight the matched word prefixes, file names and line numbers with grep's colours. WHEN is auto (the default: only when standard output is a terminal, NO_COLOR is unset or empty and TERM is not dumb), always or never.",
        completion: .choices(["auto", "always", "never"]), expected: "auto, always or never", parse: ColorChoice.init)
    static let lineBuffered = Flag("line-buffered", help: "flush output after every line (default on a terminal)")
    static let words = Flag(
        "words", value: "MODE", help: "where lines split into words: all (default), punct or space",
        manHelp:
            "Where lines split into words. all (the default): at whitespace, at every character that is neither letter nor digit, and at camelCase humps. punct: at whitespace and punctuation, no camelCase. space: at whitespace only.",
        completion: .choices(["all", "punct", "space"]), expected: "all, punct or space", parse: WordMode.init(rawValue:))
    static let field = Flag(
        "field", value: "N", help: "match only field N (from 1) of each line, print the whole line",
        expected: "a number ≥ 1"
    ) { Int($0).flatMap { $0 >= 1 ? $0 : nil } }
    static let delimiter = Flag(
        "delimiter", value: "C", help: "the field delimiter for --field (one character; default tab)",
        expected: "one ASCII character"
    ) { text -> UInt8? in
        if text == "\\t" || text == "tab" { return 0x09 }
        let bytes = Array(text.utf8)
        return bytes.count == 1 && bytes[0] < 0x80 ? bytes[0] : nil
    }
    static let rank = Flag("rank", help: "print the best matches first (see RANKING in the man page)")

    /// The table, in `--help` order.
    static let table: [FlagSpec] = [
        invert.spec, ignoreCase.spec, count.spec, maxCount.spec, lineNumber.spec, quiet.spec, withFilename.spec,
        noFilename.spec, nullData.spec, color.spec, lineBuffered.spec, words.spec, field.spec, delimiter.spec, rank.spec,
    ]
}
