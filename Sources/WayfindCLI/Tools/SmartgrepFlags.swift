import WayfindCore

/// smartgrep's flag table and the values its flags take.

/// The colours of `--color`: grep's defaults, changed by `GREP_COLORS` (`ms=01;32:fn=34`).
package struct GrepColors: Sendable, Equatable {
    /// Matched text (`ms`; `mt` sets it too).
    package var match = "\u{1B}[01;31m\u{1B}[K"
    /// File names (`fn`), line numbers (`ln`), separators (`se`); `byteOffset` below.
    package var fileName = "\u{1B}[35m\u{1B}[K"
    package var lineNumber = "\u{1B}[32m\u{1B}[K"
    /// Byte offsets (`bn`, -b).
    package var byteOffset = "\u{1B}[32m\u{1B}[K"
    package var separator = "\u{1B}[36m\u{1B}[K"
    package var reset = "\u{1B}[m\u{1B}[K"

    /// grep's defaults.
    package init() {}

    /// The defaults changed by a `GREP_COLORS` value: `NAME=SGR` pairs separated by `:`.
    /// Unknown names and malformed pairs are ignored, as grep ignores them; `ne` drops the
    /// erase-to-end-of-line sequences.
    package init(_ settings: String) {
        var values: [(String, String)] = []
        var noErase = false
        for item in settings.split(separator: ":") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 1 && parts[0] == "ne" { noErase = true }
            guard parts.count == 2, parts[1].allSatisfy({ $0 == ";" || $0.isASCII && $0.isNumber }) else { continue }
            values.append((String(parts[0]), String(parts[1])))
        }
        let erase = noErase ? "" : "\u{1B}[K"
        func sgr(_ code: String) -> String { "\u{1B}[\(code)m" + erase }
        match = sgr("01;31")
        fileName = sgr("35")
        lineNumber = sgr("32")
        byteOffset = sgr("32")
        separator = sgr("36")
        reset = "\u{1B}[m" + erase
        for (name, code) in values {
            switch name {
            case "mt", "ms": match = sgr(code)
            case "fn": fileName = sgr(code)
            case "ln": lineNumber = sgr(code)
            case "bn": byteOffset = sgr(code)
            case "se": separator = sgr(code)
            default: break
            }
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

/// What a file with NUL bytes gets (`--binary-files=TYPE`, `-a`, `-I`).
package enum BinaryFiles: String, Sendable {
    /// grep's message instead of its lines.
    case binary
    /// Searched and printed as text (`-a`).
    case text
    /// No selected line (`-I`).
    case withoutMatch = "without-match"
}

/// What `-d ACTION` does with a FILE that is a directory.
enum DirectoryAction: Sendable {
    case read, skip, recurse

    /// grep's ACTIONs, or an abbreviation of one of them, as grep's argmatch takes it
    /// (`sk`; `re` could be read or recurse, and is refused).
    init?(_ text: String) {
        let actions: [(String, DirectoryAction)] = [("read", .read), ("skip", .skip), ("recurse", .recurse)]
        if let exact = actions.first(where: { $0.0 == text }) {
            self = exact.1
            return
        }
        let matching = actions.filter { !text.isEmpty && $0.0.hasPrefix(text) }
        guard matching.count == 1 else { return nil }
        self = matching[0].1
    }
}

/// smartgrep's flags, each read as a typed value (see `Flag`).
enum SmartgrepFlags {
    static let invert = Flag("invert-match", short: "v", help: "select the lines that do not match")
    static let ignoreCase = Flag(
        "ignore-case", short: "i", help: "ignore case (the default; undoes --no-ignore-case)",
        manHelp: "Ignore case, as smartgrep does unless --no-ignore-case is given; of the two, the last one given wins, as in grep.")
    static let noIgnoreCase = Flag(
        "no-ignore-case", help: "tell case apart (accents are still ignored)",
        manHelp:
            "Match case: a letter of the query matches only a letter of the same case, uppercase (or titlecase) or not: 'Sao' finds São Paulo, not sao or SAO; 'grouped Back' does not find systemGroupedBackground. Accents are still ignored ('Ec' finds École, 'Strasse' finds Straße), so that a query stays easy to type; only case is told apart."
    )
    static let count = Flag("count", short: "c", help: "print only a count of selected lines per file")
    static let maxCount = Flag(
        "max-count", short: "m", value: "NUM", help: "stop reading a file after NUM selected lines",
        manHelp:
            "Stop reading a file after NUM selected lines. With --rank, read everything and print the NUM best lines. With 0, as in grep, open no file and exit with status 1 at once, unless -L lists them; a negative NUM, as in grep, sets no limit.",
        expected: "a number"
    ) { Int($0) }
    static let lineNumber = Flag("line-number", short: "n", help: "prefix each line with its line number")
    static let quiet = Flag<Bool>(
        FlagSpec(
            "quiet", short: "q", help: "print nothing; exit 0 at the first selected line",
            manHelp: "Print nothing. Exit with status 0 as soon as a line is selected, even if an error occurred. --silent is the same.",
            aliases: ["silent"])
    ) { !$0.isEmpty }
    static let withFilename = Flag(
        "with-filename", short: "H", help: "prefix each line with its file name (default with several files)")
    static let noFilename = Flag("no-filename", short: "h", help: "never prefix lines with file names")
    static let nullData = Flag("null-data", short: "z", help: "records end with NUL, not newline (input and output)")
    static let null = Flag(
        "null", short: "Z", help: "print NUL after each file name, not ':' or newline",
        manHelp:
            "Print a NUL byte after each file name instead of the character that follows it: the ':' or '-' of a line's prefix, the ':' of -c, the newline of -l and -L. 'smartgrep -rlZ QUERY | xargs -0 CMD' is safe for any file name."
    )
    static let byteOffset = Flag(
        "byte-offset", short: "b", help: "prefix each line with the byte offset of its start",
        manHelp:
            "Prefix each line with the offset (from 0) of its first byte in its file, after the line number; with -o, the offset of each part printed."
    )
    static let initialTab = Flag(
        "initial-tab", short: "T", help: "a tab before each line's text; pad numbers",
        manHelp:
            "Put a tab between a line's prefixes (-H, -n, -b) and its text, so tabs in the text line up, and pad line numbers and byte offsets to the width of the largest a file can have (from its size; 19 digits for a pipe), as grep does. An empty line gets no tab."
    )
    static let label = Flag(
        "label", value: "LABEL", help: "call standard input LABEL in output",
        manHelp: "Name standard input LABEL wherever a file name is printed (-H, -l, -L, -c, messages), instead of (standard input).")
    static let color = Flag(
        "color", optionalValue: "WHEN", default: "auto", help: "highlight matched word prefixes: auto, always or never",
        manHelp:
            "Highlight the matched word prefixes, file names, line numbers and separators with grep's colours, or those GREP_COLORS sets (see ENVIRONMENT). WHEN is auto (the default: only when standard output is a terminal, NO_COLOR is unset or empty and TERM is not dumb), always or never. --colour is the same.",
        completion: .choices(["auto", "always", "never"]), expected: "auto, always or never", aliases: ["colour"],
        parse: ColorChoice.init)
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
        "delimiter", value: "C", help: "the field delimiter for --field (one ASCII character; default tab)",
        expected: "one ASCII character"
    ) { text -> UInt8? in
        if text == "\\t" || text == "tab" { return 0x09 }
        let bytes = Array(text.utf8)
        return bytes.count == 1 && bytes[0] < 0x80 ? bytes[0] : nil
    }
    static let rank = Flag("rank", help: "print the best matches first (see RANKING in the man page)")
    static let regexp = Flag(
        "regexp", short: "e", values: "QUERY", help: "a query (repeatable: a line is selected if any matches)",
        manHelp:
            "Search for QUERY; given several times, a line is selected when any QUERY matches it. The way to give a query that starts with '-'. With -e or -f, every operand is a FILE. (QUERY is a smartgrep query, not a regular expression; the name is grep's.)",
        expected: "a query", parse: { $0 })
    static let file = Flag(
        "file", short: "f", values: "FILE", help: "read queries from FILE, one a line",
        manHelp:
            "Read queries from FILE ('-' is standard input), one a line; a line is selected when any of them matches it. An empty line is the empty query, which matches every line; an empty FILE gives no query, which matches no line.",
        completion: .file, expected: "a file", parse: { $0 })
    static let wordRegexp = Flag(
        "word-regexp", short: "w", help: "query words match whole words, not only prefixes",
        manHelp:
            "Each query word must match a whole word of the line, not only its start: 'bin' matches xmark.bin but not binoculars. A query word that runs on across words ('xmark.bin') must end where a word ends."
    )
    static let lineRegexp = Flag(
        "line-regexp", short: "x", help: "the query covers the line: each word matched whole",
        manHelp:
            "Select only the lines the query covers: every query word matches a whole word (as with -w) and every word of the line is matched: 'bin xmark' matches xmark.bin, not xmark.bin.fill. The empty query matches the lines without words."
    )
    static let onlyMatching = Flag(
        "only-matching", short: "o", help: "print only the matched word prefixes, one a line",
        manHelp:
            "Print only the matched parts of selected lines (the word prefixes the query words matched, merged where they touch), each on a line of its own, with the -H and -n prefixes of its line. Prints nothing with -v."
    )
    static let filesWithMatches = Flag(
        "files-with-matches", short: "l", help: "print only the names of files with a selected line")
    static let filesWithoutMatch = Flag(
        "files-without-match", short: "L", help: "print only the names of files with no selected line")
    static let noMessages = Flag(
        "no-messages", short: "s", help: "no messages about missing or unreadable files",
        manHelp: "Suppress the messages about files that do not exist or cannot be read. The exit status is still 2.")
    static let afterContext = Flag(
        "after-context", short: "A", value: "NUM", help: "NUM lines of context after each selected line",
        manHelp:
            "Print NUM lines of trailing context after each selected line. Context lines are prefixed FILE-NUM- where selected lines are FILE:NUM:, and a line '--' separates groups that are not adjacent, as in grep. Not with --rank.",
        expected: "a number ≥ 0", parse: parseCount)
    static let beforeContext = Flag(
        "before-context", short: "B", value: "NUM", help: "NUM lines of context before each selected line",
        expected: "a number ≥ 0", parse: parseCount)
    static let context = Flag(
        "context", short: "C", value: "NUM", help: "NUM lines of context before and after (-NUM too)",
        manHelp:
            "Print NUM lines of context before and after each selected line (-A and -B, when given, win). -NUM is the same as -C NUM, as in grep: -2, or -n2 in a cluster.",
        expected: "a number ≥ 0", parse: parseCount)
    static let groupSeparator = Flag(
        "group-separator", value: "SEP", help: "print SEP between groups of context (default --)",
        manHelp:
            "With context lines, print SEP (in the se colour) on a line of its own between groups that are not adjacent, instead of '--'.")
    static let noGroupSeparator = Flag(
        "no-group-separator", help: "print nothing between groups of context",
        manHelp: "With context lines, print nothing between groups. Of this and --group-separator, the last one given wins.")
    static let recursive = Flag(
        "recursive", short: "r", help: "search the files under directories (default: .)",
        manHelp:
            "Search every file under each FILE that is a directory, in name order (by bytes), not following symbolic links met in them (those named on the command line are followed). With no FILE, search the working directory. File names prefix the lines. Only regular files found there are read: devices, FIFOs and sockets are passed over, as grep's -D skip has it. A directory or file that cannot be read gets one message, the search goes on, and the exit status is 2 (0 with -q once a line is selected)."
    )
    static let dereferenceRecursive = Flag(
        "dereference-recursive", short: "R", help: "as -r, but follow every symbolic link",
        manHelp:
            "As -r, but follow every symbolic link. A link back to a directory being searched gets grep's warning 'DIR: warning: recursive directory loop', once, and is not followed; it does not change the exit status."
    )
    static let include = Flag(
        "include", values: "GLOB", help: "with -r, search only files whose name matches GLOB",
        manHelp:
            "Search only files whose base name matches GLOB (shell wildcards: *, ?, [...]); repeatable: any may match. Files named on the command line are searched whatever their name.",
        expected: "a glob", parse: { $0 })
    static let exclude = Flag(
        "exclude", values: "GLOB", help: "skip files whose base name matches GLOB",
        manHelp: "Skip files whose base name matches GLOB, found under a directory or named on the command line; repeatable.",
        expected: "a glob", parse: { $0 })
    static let excludeFrom = Flag(
        "exclude-from", values: "FILE", help: "skip files whose base name matches a glob in FILE",
        manHelp:
            "Skip files whose base name matches any of the globs in FILE ('-' is standard input), one a line, as --exclude does; trailing whitespace is dropped and blank lines are skipped, as grep does. Repeatable.",
        completion: .file, expected: "a file", parse: { $0 })
    static let directories = Flag(
        "directories", short: "d", value: "ACTION", help: "directories named: read (an error), skip or recurse",
        manHelp:
            "What to do with a FILE that is a directory: read (the default) reports it as an error, as grep's reading of it does; skip passes over it silently; recurse is -r. Of -d, -r and -R, the last one given wins (-R still follows links). ACTION may be abbreviated.",
        completion: .choices(["read", "skip", "recurse"]), expected: "read, skip or recurse", parse: DirectoryAction.init)
    static let excludeDir = Flag(
        "exclude-dir", values: "GLOB", help: "with -r, skip directories whose name matches GLOB",
        manHelp: "Under a directory searched with -r or -R, skip the directories whose name matches GLOB ('.git'); repeatable.",
        expected: "a glob", parse: { $0 })
    static let text = Flag(
        "text", short: "a", help: "print the lines of binary files (with NULs) as text",
        manHelp: "Search and print a file with NUL bytes as text (see BINARY FILES); --binary-files=text.")
    static let binaryWithoutMatch = Flag(
        "binary-without-match", short: "I", help: "a binary file (with NULs) never matches",
        manHelp:
            "A file with NUL bytes is taken as having no selected line, silently, as grep -I takes it (see BINARY FILES); --binary-files=without-match. The long name is smartgrep's; grep has -I alone."
    )
    static let binaryFiles = Flag(
        "binary-files", value: "TYPE", help: "binary files: binary (the default), text (-a) or without-match (-I)",
        manHelp:
            "What a file with NUL bytes gets: binary (the default: 'binary file matches' instead of its lines), text (-a) or without-match (-I). Of -a, -I and --binary-files, the last one given wins.",
        completion: .choices(["binary", "text", "without-match"]), expected: "binary, text or without-match",
        parse: BinaryFiles.init(rawValue:))

    static let threads = Flag(
        "threads", short: "j", value: "NUM", help: "search files on NUM threads (default: one per processor)",
        manHelp:
            "Search on NUM threads (default: the number of processors online): with -r or several FILEs, the files are read and searched in parallel, and their output is printed as one thread prints it, file after file in the order above, messages on standard error among the lines where one thread prints them. -q, or output closed early, stops every thread at once; -m counts each file's lines, as with one thread. -j 1 searches one file after another.",
        expected: "a number ≥ 1"
    ) { Int($0).flatMap { $0 >= 1 ? $0 : nil } }

    /// grep's options smartgrep does not have: the parser refuses them by name, and an
    /// abbreviation resolves as in grep (see `PeerOption`).
    static let grepOptionsNotHere: [PeerOption] = {
        let pattern = "is not supported: a query is never a pattern; its words match word starts as fixed prefixes (man smartgrep)"
        return [
            PeerOption(
                ["fixed-strings", "fixed-regexp"], short: "F",
                advice: "is not needed: a query is never a pattern; its words already match word starts as fixed prefixes: leave it out"),
            PeerOption(["extended-regexp"], short: "E", advice: pattern), PeerOption(["basic-regexp"], short: "G", advice: pattern),
            PeerOption(["perl-regexp"], short: "P", advice: pattern),
            PeerOption(["devices"], short: "D"), PeerOption(["binary"], short: "U"), PeerOption(["unix-byte-offsets"], short: "u"),
            PeerOption([], short: "X"), PeerOption([], short: "y", advice: "is grep's old spelling of -i: use -i"),
        ]
    }()

    /// A count of lines: a number ≥ 0.
    @Sendable static func parseCount(_ text: String) -> Int? { Int(text).flatMap { $0 >= 0 ? $0 : nil } }

    /// The table, in `--help` order.
    static let table: [FlagSpec] = [
        regexp.spec, file.spec, wordRegexp.spec, lineRegexp.spec, invert.spec, ignoreCase.spec, noIgnoreCase.spec, count.spec,
        maxCount.spec, onlyMatching.spec, filesWithMatches.spec, filesWithoutMatch.spec, lineNumber.spec, byteOffset.spec,
        quiet.spec, noMessages.spec, withFilename.spec, noFilename.spec, label.spec, null.spec, initialTab.spec,
        afterContext.spec, beforeContext.spec, context.spec, groupSeparator.spec, noGroupSeparator.spec, recursive.spec,
        dereferenceRecursive.spec, directories.spec, include.spec, exclude.spec, excludeFrom.spec, excludeDir.spec, text.spec,
        binaryWithoutMatch.spec, binaryFiles.spec, nullData.spec, color.spec, lineBuffered.spec, words.spec, field.spec, delimiter.spec,
        rank.spec, threads.spec,
    ]
}
