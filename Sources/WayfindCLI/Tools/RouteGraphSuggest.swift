import WayfindCore

/// `routegraph-suggest`: print the places that usually come next.

/// The routegraph-suggest tool: its flag table, its options, and `run`.
package enum RouteGraphSuggest {
    /// How many suggestions are printed by default: a screenful for a completion menu.
    package static let defaultLimit = 10

    /// The flag table: the parser, `--help`, the man page and the completions read it.
    package static let spec = ToolSpec(
        name: "routegraph-suggest",
        summary: "print the places that usually come next, best first",
        usage: ["[OPTIONS] [QUERY...]"],
        description: """
            Print likely next places, best first, one per line, by one score: the trips \
            made from the from-place (by default the last place visited), which count less \
            as time passes since arriving there, plus the habits of each place at this \
            time of day (see ORDER). The from-place itself is never suggested. QUERY words keep only the places in which every word starts a \
            different word, ignoring case and accents, as smartgrep(1) matches: 'ai' \
            finds Airport, 'sao' finds São Paulo.
            """,
        flags: RouteGraphSuggestFlags.table + [
            StandardFlags.help(), StandardFlags.version,
            StandardFlags.generate(
                extra: Shell.allCases.map { "init-\($0.rawValue)" },
                extraHelp: "init-bash, init-zsh and init-fish print the shell set-up of SHELL SET-UP."),
        ],
        positionalCompletion: .none,
        manSections: [
            ManSection(
                "ORDER",
                """
                Every place but the from-place gets one score; highest first, then the \
                latest visit, then by name:

                  score = trips × 2^(-hours since arriving here / 6)
                        + 10 × (visits + 10 × visits now) / (the same, summed over all places)

                trips: how often the trip from the from-place to the place was made (0 \
                without an edge). visits now: those made within 2 hours of now's hour of \
                day (--at), in the local time zone (TZ); visits not known by hour (older \
                files) count evenly over the day. --successors-only keeps the places with \
                an edge from here.

                With --half-life H, old habits fade too: an edge also counts 2^(-age/H), age \
                being the time since it was last travelled, and a place's visits \
                2^(-age/H), age being the time since its last visit. Edges and places \
                without a time (from files written by other programs) do not fade. A \
                missing graph file is an empty graph: nothing is printed and the status is 1.
                """),
            ManSection(
                "OUTPUT",
                """
                One place per line. With --scores, each line is the place, a tab, the score \
                (see ORDER; up to three decimals) and a tab followed by edge (the from-place \
                has an edge to it) or habit (it has not). With --json, one JSON array \
                of objects with the keys place, score and source.

                On a terminal, control characters in a place name (such as ESC or BEL, which \
                a directory name recorded by --learn cd may hold) are shown escaped, as \\n, \
                \\t, \\r or \\u{1B}, so that a name cannot set the window's title or move the \
                cursor, as ls(1) does; a pipe or a file gets every name as stored.
                """),
            ShellInit.manSection,
        ] + GraphLocation.manSections + [
            ManSection(
                "EXIT STATUS",
                """
                0 if a place was suggested, 1 if none was (no history, or nothing matches \
                QUERY), 2 if an error occurred, such as a corrupt graph file. Output closed \
                early (a reader such as 'head -1' going away) is not an error. A --from \
                place that the graph does not hold is no error: the places are suggested \
                by habit alone, and one line on standard error says so, with the closest \
                place name when one is close ('did you mean'); so does --learned CMD when \
                CMD has learned nothing yet.
                """),
            ManSection(
                "EXAMPLES",
                """
                What usually comes after the last place visited:

                  routegraph-suggest

                Complete a place name that starts with 'ai', going from Home:

                  routegraph-suggest --from Home ai

                The three best guesses with their scores:

                  routegraph-suggest -n3 --scores

                Every directory the shell set-up learned, best first:

                  routegraph-suggest --learned cd --include-from -n0
                """),
            ManSection("SEE ALSO", "routegraph-visit(1), routegraph(5), smartgrep(1), zoxide(1)"),
        ],
        generators: Dictionary(
            uniqueKeysWithValues: Shell.allCases.map { shell in
                (
                    "init-\(shell.rawValue)",
                    { @Sendable (parsed: ParsedArguments) throws(UsageError) -> String in
                        try ShellInit.script(
                            shell, learning: try parsed.value(of: RouteGraphSuggestFlags.learn),
                            jump: try parsed.value(of: RouteGraphSuggestFlags.jump))
                    }
                )
            })
    )

    /// Runs routegraph-suggest with `arguments` (without argv[0]) in `context`.
    package static func run(_ arguments: [String], context: ToolContext) -> ExitStatus {
        runTool(spec, arguments: arguments, context: context) { parsed, output, errors in
            let options = try RouteGraphSuggestOptions(parsed, context: context)
            let file = try GraphLocation.file(explicit: options.graph, learned: options.learned, environment: context.environment)
            var filter: ((String) -> Bool)? = nil
            if let query = options.query {
                let matcher = LineMatcher(query)
                filter = { name in
                    var name = name
                    return name.withUTF8 { matcher.matches($0) }
                }
            }
            let found = Result { () throws(GraphFileError) -> [Suggestion] in
                try file.suggestions(for: options.request, filter: filter)
            }
            guard case .success(let suggestions) = found else {
                if case .failure(let error) = found { throw ToolError(error.description) }
                return .error
            }
            if let warning = try Self.warning(about: options, in: file, environment: context.environment) {
                errors.report(warning)
            }
            if options.json {
                output.write(Self.json(suggestions))
            } else {
                for suggestion in suggestions {
                    if output.isClosed { break }
                    // A terminal gets control characters escaped; a pipe, the name as stored.
                    output.write(context.outputIsTerminal ? MessageValue.escapingControlCharacters(suggestion.place) : suggestion.place)
                    if options.scores {
                        output.write(byte: 0x09)
                        output.write(formatScore(suggestion.score))
                        output.write(byte: 0x09)
                        output.write(suggestion.source.rawValue)
                    }
                    output.write(byte: options.nullData ? 0 : 0x0A)
                    output.endRecord()
                }
            }
            return suggestions.isEmpty ? .nothingFound : .success
        }
    }

    /// What a person needs a word about, where the suggestions alone would be silent: a
    /// `--from` place that the graph does not hold (the list is then by habit alone), with
    /// the closest place name; a `--learned` command that has learned nothing yet, with
    /// the closest that has. Nil when all is as asked. Only these cases read more of the
    /// file than the suggestions did.
    static func warning(about options: RouteGraphSuggestOptions, in file: GraphFile, environment: Environment) throws(ToolError)
        -> String?
    {
        if let learned = options.learned, (try? FileSystem.regularFileExists(at: file.path)) != true {
            let folder = FileSystem.directory(of: file.path)
            let others = ((try? Platform.directoryEntries(folder)) ?? []).compactMap { entry in
                entry.name.hasSuffix(".json") ? String(entry.name.dropLast(5)) : nil
            }
            return "nothing learned for \(MessageValue.quoted(learned)) yet" + Spelling.hint(for: learned, in: others)
        }
        guard let from = options.request.from else { return nil }
        do throws(GraphFileError) {
            let key = RouteGraph.placeKey(from)
            var lookup = options.request
            lookup.includeFrom = true
            lookup.successorsOnly = false
            lookup.positiveOnly = false
            lookup.limit = 1
            if !(try file.suggestions(for: lookup, filter: { RouteGraph.placeKey($0) == key })).isEmpty { return nil }
            let names = try file.load().places
            if names.isEmpty { return nil }
            return "no place \(MessageValue.quoted(from)) in the graph: suggesting by habit alone" + closestPlace(to: from, in: names)
        } catch {
            throw ToolError(error.description)
        }
    }

    /// `" (did you mean 'NAME'?)"` for the place of `names` closest to `typed`, compared
    /// as the graph compares names (case, accents and blanks folded); an empty string
    /// when none is close.
    static func closestPlace(to typed: String, in names: [String]) -> String {
        let key = RouteGraph.placeKey(typed)
        let limit = max(1, key.count / 3)
        var byKey: [String: String] = [:]
        for name in names {
            let candidate = RouteGraph.placeKey(name)
            // Spelling's distance is quadratic: names of another length cannot be close.
            if abs(candidate.count - key.count) <= limit { byKey[candidate] = byKey[candidate] ?? name }
        }
        guard let closest = Spelling.closest(to: key, in: Array(byKey.keys)), let name = byKey[closest] else { return "" }
        return " (did you mean \(MessageValue.quoted(name))?)"
    }

    /// A score with up to three decimals and no trailing zeros: `11`, `3.25`, `0.125`.
    package static func formatScore(_ score: Double) -> String {
        guard score.isFinite, score >= 0, score < 1e15 else { return score.isFinite ? "\(score)" : "0" }
        let thousandths = Int64((score * 1000).rounded())
        let whole = thousandths / 1000
        var fraction = thousandths % 1000
        guard fraction != 0 else { return "\(whole)" }
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let text = "\(fraction)"
        return "\(whole)." + String(repeating: "0", count: digits - text.count) + text
    }

    /// The suggestions as a JSON array, one object per line:
    ///
    ///     [
    ///       {"place":"City Center","score":12,"source":"edge"}
    ///     ]
    static func json(_ suggestions: [Suggestion]) -> [UInt8] {
        var bytes = Array("[".utf8)
        for (index, suggestion) in suggestions.enumerated() {
            bytes += Array((index == 0 ? "\n  {\"place\":" : ",\n  {\"place\":").utf8)
            JSONWriter.appendQuoted(suggestion.place, to: &bytes)
            bytes += Array(",\"score\":\(formatScore(suggestion.score)),\"source\":".utf8)
            JSONWriter.appendQuoted(suggestion.source.rawValue, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes += Array((suggestions.isEmpty ? "]\n" : "\n]\n").utf8)
        return bytes
    }
}

extension OutputBuffer {
    /// Appends raw bytes.
    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }
}

/// routegraph-suggest's options, checked and resolved from the command line.
package struct RouteGraphSuggestOptions {
    package var graph: String?
    /// The learned command whose graph this is (`--learned CMD`).
    package var learned: String?
    /// What to suggest.
    package var request: SuggestionRequest
    /// The QUERY words, compiled; nil when there are none.
    package var query: MatchQuery?
    package var scores: Bool
    package var json: Bool
    package var nullData: Bool

    /// Resolves options; throws `UsageError` for bad values.
    package init(_ parsed: ParsedArguments, context: ToolContext) throws(UsageError) {
        typealias F = RouteGraphSuggestFlags
        let learning = try parsed.value(of: F.learn)
        let jump = try parsed.value(of: F.jump)
        if !learning.isEmpty || jump != nil {
            throw UsageError("--learn and --jump go with --generate=init-bash, init-zsh or init-fish")
        }
        graph = try parsed.value(of: GraphLocation.flag)
        learned = try parsed.value(of: GraphLocation.learnedFlag)
        if graph != nil && learned != nil { throw UsageError("--learned and --graph cannot be used together") }
        request = SuggestionRequest(now: try parsed.value(of: F.at) ?? context.now(), timeZone: context.timeZone)
        request.from = try parsed.value(of: F.from)
        let limit = try parsed.value(of: F.limit) ?? RouteGraphSuggest.defaultLimit
        request.limit = limit == 0 ? nil : limit
        request.successorsOnly = try parsed.value(of: F.successorsOnly)
        request.includeFrom = try parsed.value(of: F.includeFrom)
        request.halfLife = try parsed.value(of: F.halfLife)
        scores = try parsed.value(of: F.scores)
        json = try parsed.value(of: F.json)
        nullData = try parsed.value(of: F.nullData)
        if json && (scores || nullData) { throw UsageError("--json cannot be combined with --scores or --null-data") }
        // The words with spaces between, by hand: `joined(separator:)` runs unspecialized
        // here and looks up an associated type at run time (a tenth of a 1k-edge call).
        var text = ""
        for (index, word) in parsed.positionals.enumerated() {
            if index > 0 { text += " " }
            text += word
        }
        let compiled = MatchQuery(text)
        query = compiled.matchesEverything ? nil : compiled
    }
}

/// routegraph-suggest's flags, each read as a typed value (see `Flag`).
enum RouteGraphSuggestFlags {
    static let from = Flag(
        "from", short: "f", value: "PLACE", help: "suggest what follows PLACE (default: the last place visited)",
        completion: .places, expected: "a place name", parse: RouteGraphVisit.placeName)
    static let limit = Flag(
        "limit", short: "n", value: "N", help: "print at most N suggestions (default 10; 0: all)", expected: "a number ≥ 0"
    ) { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
    static let successorsOnly = Flag(
        "successors-only", short: "s", help: "only places the from-place has an edge to")
    static let at = Flag.at(
        help: "suggest as if it were TIME: Unix seconds or ISO 8601 (default now)",
        manHelp:
            "Suggest as if it were TIME instead of now: the time of day whose habits count, and the time since arriving at the from-place. TIME is Unix seconds, or ISO 8601 such as 2024-05-01T18:00:00+02:00 (UTC when no offset is given), in the years 1970 to 9999, as for routegraph-visit --at."
    )
    static let includeFrom = Flag(
        "include-from", help: "suggest the from-place too, (for completion)",
        manHelp:
            "Suggest the from-place too, by its habit, after the places it has an edge to: completion uses it, so that the place just visited completes again."
    )
    static let halfLife = Flag(
        "half-life", value: "DURATION", help: "let old habits fade with this half-life (off by default)",
        manHelp:
            "Let old habits fade: an edge counts its weight times 2^(-age/DURATION), age being the time since it was last travelled, and a place's visits decay the same way (see ORDER). DURATION is seconds, or a number followed by s, m, h, d or w (30d). Off by default.",
        expected: "a duration such as 30d, 12h or 3600"
    ) { TimeText.duration($0).flatMap { $0 > 0 ? $0 : nil } }
    static let scores = Flag("scores", help: "add tab-separated columns: score, and edge or habit")
    static let json = Flag("json", help: "print a JSON array of {place, score, source} objects")
    static let nullData = Flag("null-data", short: "z", help: "end each suggestion with NUL, not newline")
    static let learn = Flag(
        "learn", values: "CMD[:N]", help: "with --generate=init-SHELL: record and complete CMD's places",
        manHelp:
            "With --generate=init-bash, init-zsh or init-fish: the set-up learns CMD (repeatable): each time CMD succeeds, its place argument is recorded in a graph of CMD's own, and Tab after CMD adds those places to its completion. CMD:N names the Nth argument that is not an option as the place. See SHELL SET-UP.",
        expected: "a command name, or CMD:N"
    ) { LearnedCommand($0) }

    static let jump = Flag(
        "jump", value: "NAME", help: "with --generate=init-SHELL: NAME is cd that also jumps to learned directories",
        manHelp:
            "With --generate=init-bash, init-zsh or init-fish: also learn cd and define NAME and NAMEi (none by default; z and zi are zoxide's, and cd is safe too). NAME does what cd does with a directory, an option of cd's or no argument (home); NAME QUERY... changes to the best learned directory that QUERY matches, by smartgrep's rules, in routegraph-suggest's order; Tab completes learned directories after NAME; NAMEi picks one with fzf, whose list reloads through routegraph-suggest as the query changes. NAME may not be a keyword or builtin of bash, zsh or fish but cd. See SHELL SET-UP.",
        expected: "a name that is not a shell keyword or builtin, or cd"
    ) { ShellInit.isJumpName($0) ? $0 : nil }

    /// The table, in `--help` order.
    static let table: [FlagSpec] = [
        GraphLocation.flag.spec, GraphLocation.learnedFlag.spec, from.spec, limit.spec, at.spec, successorsOnly.spec,
        includeFrom.spec, halfLife.spec, scores.spec, json.spec, nullData.spec, learn.spec, jump.spec,
    ]
}
