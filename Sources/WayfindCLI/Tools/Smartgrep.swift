import WayfindCore

/// `smartgrep`: print the lines in which every query word starts a different word.

/// The smartgrep tool: its flag table, its options, and `run`.
package enum Smartgrep {
    /// The flag table: the parser, `--help`, the man page and the completions read it.
    package static let spec = ToolSpec(
        name: "smartgrep",
        summary: "print lines in which every query word starts a different word",
        usage: ["[OPTIONS] QUERY [FILE...]", "[OPTIONS] -e QUERY... | -f FILE [FILE...]"],
        description: """
            Print the lines of each FILE (or standard input, for no FILE or '-') in which \
            every word of QUERY is the start of a different word of the line, in any order, \
            ignoring case and accents: 'x bin' finds xmark.bin.fill, 'sao' finds São Paulo, \
            'p pe' finds person.badge.plus. Lines split into words at whitespace, at every \
            character that is neither letter nor digit, and at camelCase humps. A QUERY is \
            never a pattern: grep's -E, -F, -G and -P are not needed.
            """,
        flags: SmartgrepFlags.table + [StandardFlags.help(short: false), StandardFlags.version, StandardFlags.generate],
        positionalCompletion: .file, peer: "grep", peerOptions: SmartgrepFlags.grepOptionsNotHere,
        numberFlag: SmartgrepFlags.context.spec.long,
        manSections: [
            ManSection(
                "MATCHING",
                """
                The query is split at whitespace into query words; leading, trailing and \
                repeated whitespace is ignored. The empty query (or one of whitespace only) \
                matches every line. A query of characters that cannot be part of a word \
                ('.', '***', '--') is an error, 'the query has no words; use --words=space \
                to match punctuation' (exit 2), rather than a silent match of every line.

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
                folded too: ł, ø, đ, ħ, ı, æ, œ, þ. Fullwidth letters, digits and signs (as \
                a CJK input method types them) and halfwidth katakana are their ordinary \
                forms: 'paris' finds PARIS typed in full width, and the other way round. With \
                --no-ignore-case case counts, but accents are still ignored: 'Sao' finds \
                São Paulo but not sao.

                Input is read as bytes. Invalid UTF-8 and carriage returns are passed \
                through unchanged (NUL bytes too, with -a; see BINARY FILES); an invalid byte is a character that matches \
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
                "BINARY FILES",
                """
                As in GNU grep, a file with a NUL byte is binary: once a block read from it \
                (256 KiB) has one, the first line selected after that prints \
                'smartgrep: FILE: binary file matches' on standard error instead of lines, \
                and the rest of FILE is skipped; the lines selected before are printed. \
                -c, -l, -L and -q work as usual. With -a, a binary file is searched and \
                printed as text. With -I, it has no selected line, silently: from the block \
                with the NUL on, and the lines selected before it (printed) do not count \
                either, as in grep. With -z, NUL ends records and makes nothing binary. \
                Unlike grep, invalid UTF-8 does not make a file binary (it is passed through).
                """),
            ManSection(
                "DIFFERENCES FROM GREP",
                """
                A QUERY is smartgrep's query, never a regular expression; -e, -f, -w and -x \
                keep grep's names with smartgrep's meanings (see OPTIONS). Case is ignored \
                unless --no-ignore-case is given, and accents always are. -o prints the \
                matched word prefixes, not a regular expression's match. -r reads \
                directories in name order, not in the order the file system lists them. With \
                -e or -f and several queries, colour and -o show the parts of every query \
                that matches, --rank scores by the first. -L exits 0 when a line was \
                selected in some file, as GNU grep 3.8 does.

                \(grepOptionsParagraph)
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
                option, a query without words, an unreadable FILE (also with -s), a line over the limit, a FILE that changed while \
                being read; also with -q, unless a line was selected). Output closed early \
                (a reader such as 'head -1' going away) is not an error.
                """),
            ManSection(
                "ENVIRONMENT",
                """
                NO_COLOR: when set and not empty, --color=auto does not colour.

                GREP_COLORS: the colours, as in grep: a list such as 'ms=01;32:fn=34' of \
                mt or ms (matched text, default 01;31), fn (file names, 35), ln (line \
                numbers, 32), bn (byte offsets, 32) and se (separators, 36), and ne (no \
                erase-to-end-of-line). \
                Other names are ignored.
                """),
            ManSection(
                "EXAMPLES",
                """
                Find SF Symbols with a word starting with x and one starting with bin:

                  smartgrep 'x bin' sf-symbols.txt

                Match Python names by camelCase words:

                  smartgrep 'assert almost' python-names.txt

                Find Python files under src that mention both words, with a line of context:

                  smartgrep -r --include='*.py' -n -C1 'read csv' src

                Count the lines of the C headers that mention a word starting with mutex and \
                one starting with lock, whatever their file names hold:

                  smartgrep -rlZ --include='*.h' 'mutex lock' /usr/include | xargs -0 wc -l

                Search the name column of a TSV file, best matches first:

                  smartgrep --field=2 --rank 'sao paulo' places.tsv
                """),
            ManSection("SEE ALSO", "grep(1), fzf(1), routegraph-suggest(1), magickey-suggest(1)"),
        ]
    )

    /// The man page's list of grep's options smartgrep lacks, from the table the parser
    /// refuses them by.
    static var grepOptionsParagraph: String {
        func name(_ option: PeerOption) -> String {
            switch (option.short, option.long) {
            case (let short?, let long?): "-\(short) (--\(long))"
            case (let short?, nil): "-\(short)"
            case (nil, let long?): "--\(long)"
            case (nil, nil): ""
            }
        }
        func list(_ names: [String]) -> String { names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "") }
        let options = SmartgrepFlags.grepOptionsNotHere
        let patterns = options.filter { $0.advice.hasPrefix("is not") }.map(name)
        let others = options.filter { !$0.advice.hasPrefix("is not") }.map(name)
        return "grep's " + list(patterns) + " are refused with a message that a query is never a pattern. "
            + "Other grep options smartgrep does not have: " + list(others) + ". "
            + "An abbreviated long option means what it means in grep or is refused: --null is never --null-data."
    }

    /// Runs smartgrep with `arguments` (without argv[0]) in `context`.
    package static func run(_ arguments: [String], context: ToolContext) -> ExitStatus {
        runTool(spec, arguments: arguments, context: context) { parsed, output, errors in
            let options = try SmartgrepOptions(parsed, context: context)
            // As grep: -m 0 selects nothing and opens nothing (a FIFO would block); only
            // -L still lists the files, unless -q prints nothing anyway.
            if options.maxCount == 0 && (options.listFiles != .withoutMatch || options.quiet) { return .nothingFound }
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
    /// The compiled queries: a line matches when any of them does (`-e`, `-f`; usually one).
    package var queries: [MatchQuery]
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
    /// The escape sequences `color` uses (GREP_COLORS).
    package var colors = GrepColors()
    package var lineBuffered = false
    /// The 1-based field to match, if any.
    package var field: Int? = nil
    package var delimiter: UInt8 = 0x09
    package var rank = false
    /// `-o`: print the matched parts, one a line.
    package var onlyMatching = false
    /// `-l` / `-L`: print only the names of files with (without) a selected line.
    package var listFiles: FileListing? = nil
    /// `-s`: no messages about missing or unreadable files.
    package var noMessages = false
    /// `-A`, `-B`: context lines after and before each selected line.
    package var afterContext = 0
    package var beforeContext = 0
    /// `-r` / `-R`: search directories' files (`-R` follows every symbolic link).
    package var recursion: Recursion? = nil
    /// `--include`, `--exclude`: globs on the base names of files found (and, for
    /// `--exclude`, of files named on the command line), as grep uses them.
    package var includeGlobs: [String] = []
    package var excludeGlobs: [String] = []
    /// `--exclude-dir`: globs on the names of directories found under a directory.
    package var excludeDirectoryGlobs: [String] = []
    /// What a file with NUL bytes gets: `-a`, `-I`, `--binary-files`.
    package var binaryFiles = BinaryFiles.binary
    /// `-d skip`: FILEs that are directories are passed over.
    package var skipsDirectories = false
    /// `-Z`: a NUL after each file name, in place of the separator or newline.
    package var nullAfterFileName = false
    /// `-b`: byte offsets before lines.
    package var byteOffsets = false
    /// `-T`: a tab between prefixes and text, numbers padded.
    package var initialTab = false
    /// `--label`: what standard input is called.
    package var standardInputName = "(standard input)"
    /// What separates groups of context lines (`--group-separator`); nil for nothing.
    package var groupSeparator: String? = "--"
    /// `-j`: the threads that search files (1: one file after another; nil: one per
    /// processor, counted only when there are several files, for it reads a file of /sys).
    package var threads: Int? = 1
    /// Bytes per read (tests make it tiny to put block boundaries everywhere).
    package var readSize = RecordReader.defaultReadSize
    /// The longest line accepted.
    package var maximumLineLength = RecordReader.defaultMaximumRecordLength

    /// `-l` or `-L`.
    package enum FileListing: Sendable { case withMatch, withoutMatch }
    /// `-r` or `-R`.
    package enum Recursion: Sendable { case physical, followingLinks }

    /// The query, when there is one (`options.query = MatchQuery(…)` searches for it alone).
    package var query: MatchQuery {
        get { queries.first ?? MatchQuery("") }
        set { queries = [newValue] }
    }

    /// Whether -A, -B or -C was given, even as 0 (grep then separates groups with `--`).
    package var contextGiven = false
    /// `-r` without FILE: the working directory is searched, its files named without `./`.
    package var implicitWorkingDirectory = false

    /// Resolves options; throws `UsageError` for bad values.
    package init(_ parsed: ParsedArguments, context: ToolContext) throws(UsageError) {
        typealias F = SmartgrepFlags
        var positionals = parsed.positionals
        let mode = try parsed.value(of: F.words) ?? .all
        let fit: WordFit = try parsed.value(of: F.lineRegexp) ? .line : try parsed.value(of: F.wordRegexp) ? .word : .prefix
        // -i / --no-ignore-case: the last one given wins, as in grep.
        let caseSensitive = parsed.lastGiven(of: [F.ignoreCase.spec, F.noIgnoreCase.spec])?.long == F.noIgnoreCase.spec.long
        var texts = try parsed.value(of: F.regexp)
        let queryFiles = try parsed.value(of: F.file)
        for path in queryFiles { texts += try Self.readLines(path, context: context) }
        if texts.isEmpty && queryFiles.isEmpty {
            guard !positionals.isEmpty else { throw UsageError("missing QUERY") }
            texts = [positionals.removeFirst()]
        }
        queries = []
        for text in texts {
            let query = MatchQuery(text, mode: mode, fit: fit, caseSensitive: caseSensitive)
            if query.hasNoWords {
                throw UsageError("the query has no words; use --words=space to match punctuation")
            }
            queries.append(query)
        }
        // -r, -R and -d: the last one given says what a directory gets, as in grep; -R
        // anywhere follows links.
        let action: DirectoryAction
        let directories = try parsed.value(of: F.directories)  // checked even when overridden, as grep checks it
        switch parsed.lastGiven(of: [F.recursive.spec, F.dereferenceRecursive.spec, F.directories.spec])?.long {
        case F.directories.spec.long?: action = directories ?? .read
        case nil: action = .read
        default: action = .recurse
        }
        if action == .recurse {
            recursion = try parsed.value(of: F.dereferenceRecursive) ? .followingLinks : .physical
        }
        skipsDirectories = action == .skip
        // grep -r with no FILE searches the working directory.
        implicitWorkingDirectory = positionals.isEmpty && recursion != nil
        files = positionals.isEmpty ? (recursion == nil ? ["-"] : []) : positionals
        invert = try parsed.value(of: F.invert)
        countOnly = try parsed.value(of: F.count)
        lineNumbers = try parsed.value(of: F.lineNumber)
        quiet = try parsed.value(of: F.quiet)
        rank = try parsed.value(of: F.rank)
        onlyMatching = try parsed.value(of: F.onlyMatching)
        noMessages = try parsed.value(of: F.noMessages)
        // -a, -I and --binary-files: the last one given wins, as in grep.
        let binaryType = try parsed.value(of: F.binaryFiles)
        switch parsed.lastGiven(of: [F.text.spec, F.binaryWithoutMatch.spec, F.binaryFiles.spec])?.long {
        case F.text.spec.long?: binaryFiles = .text
        case F.binaryWithoutMatch.spec.long?: binaryFiles = .withoutMatch
        default: binaryFiles = binaryType ?? .binary
        }
        includeGlobs = try parsed.value(of: F.include)
        excludeGlobs = try parsed.value(of: F.exclude)
        for path in try parsed.value(of: F.excludeFrom) {
            // grep's rule (gnulib's add_exclude_fp): trailing whitespace goes, blank lines too.
            for line in try Self.readLines(path, context: context) {
                let glob = String(line.reversed().drop { $0.isASCII && $0.isWhitespace }.reversed())
                if !glob.isEmpty { excludeGlobs.append(glob) }
            }
        }
        excludeDirectoryGlobs = try parsed.value(of: F.excludeDir)
        switch parsed.lastGiven(of: [F.filesWithMatches.spec, F.filesWithoutMatch.spec])?.long {
        case F.filesWithMatches.spec.long?: listFiles = .withMatch
        case F.filesWithoutMatch.spec.long?: listFiles = .withoutMatch
        default: listFiles = nil
        }
        // -C sets both; -A and -B given on their own win over it, as in grep.
        let both = try parsed.value(of: F.context)
        let after = try parsed.value(of: F.afterContext) ?? both
        let before = try parsed.value(of: F.beforeContext) ?? both
        contextGiven = after != nil || before != nil
        afterContext = after ?? 0
        beforeContext = before ?? 0
        if rank && contextGiven { throw UsageError("--rank cannot print context lines (-A, -B, -C)") }
        lineBuffered = try parsed.value(of: F.lineBuffered) || context.outputIsTerminal
        if try parsed.value(of: F.nullData) { terminator = 0 }
        nullAfterFileName = try parsed.value(of: F.null)
        byteOffsets = try parsed.value(of: F.byteOffset)
        initialTab = try parsed.value(of: F.initialTab)
        if let label = try parsed.value(of: F.label) { standardInputName = label }
        if parsed.lastGiven(of: [F.groupSeparator.spec, F.noGroupSeparator.spec])?.long == F.noGroupSeparator.spec.long {
            groupSeparator = nil
        } else if let separator = try parsed.value(of: F.groupSeparator) {
            groupSeparator = separator
        }
        // (A negative count is no limit, as in grep 3.8.)
        maxCount = try parsed.value(of: F.maxCount).flatMap { $0 < 0 ? nil : $0 }
        threads = try parsed.value(of: F.threads)
        field = try parsed.value(of: F.field)
        delimiter = try parsed.value(of: F.delimiter) ?? 0x09
        // -H / -h: the last one given wins, as in grep; default: names when several files
        // or a directory is searched.
        switch parsed.lastGiven(of: [F.withFilename.spec, F.noFilename.spec])?.long {
        case F.withFilename.spec.long?: withFilename = true
        case F.noFilename.spec.long?: withFilename = false
        default: withFilename = files.count > 1 || implicitWorkingDirectory || (recursion != nil && Platform.isDirectory(files[0]))
        }
        switch try parsed.value(of: F.color) ?? .auto {
        case .always: color = true
        case .never: color = false
        case .auto:
            let noColor = context.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            color = context.outputIsTerminal && !noColor && context.environment["TERM"] != "dumb"
        }
        if color, let settings = context.environment["GREP_COLORS"] { colors = GrepColors(settings) }
    }

    /// The lines of FILE (`-` is standard input), for `-f` and `--exclude-from`; an empty
    /// file gives none.
    private static func readLines(_ path: String, context: ToolContext) throws(UsageError) -> [String] {
        var bytes: [UInt8] = []
        let descriptor: FileDescriptor
        do {
            descriptor = path == "-" ? context.standardInput : try FileDescriptor.openForReading(path)
        } catch {
            throw UsageError("\(path): \(error.description)")
        }
        defer { if path != "-" { descriptor.close() } }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            var failure: SystemError? = nil
            let n = chunk.withUnsafeMutableBytes { buffer -> Int in
                do {
                    return try descriptor.read(into: buffer.baseAddress!, count: buffer.count)
                } catch {
                    failure = error as? SystemError ?? SystemError(code: 5)
                    return 0
                }
            }
            if let failure { throw UsageError("\(path): \(failure.description)") }
            if n == 0 { break }
            bytes += chunk[..<n]
        }
        if bytes.isEmpty { return [] }
        if bytes.last == 0x0A { bytes.removeLast() }
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }
}
