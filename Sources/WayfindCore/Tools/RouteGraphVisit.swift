/// `routegraph-visit`: record that someone went to a place, learning where they go next.

/// The routegraph-visit tool: its flag table, its options, and `run`.
package enum RouteGraphVisit {
    /// The default of `--max-places`: enough for years of daily use (a place a day for a
    /// century is 36,500), small enough that the file stays a few megabytes and every
    /// visit stays within a few milliseconds.
    package static let defaultMaximumPlaces = 50_000
    /// The longest place name accepted, in UTF-8 bytes. The longest real place names
    /// (Bangkok's ceremonial name, in Thai) are about 500 bytes; anything far longer is
    /// a mistake, such as a whole file piped in as one line.
    package static let maximumNameBytes = 4096

    /// The flag table: the parser, `--help`, the man page and the completions read it.
    package static let spec = ToolSpec(
        name: "routegraph-visit",
        summary: "record visits to places, learning which place follows which",
        usage: ["[OPTIONS] [PLACE...]"],
        description: """
            Record a visit to each PLACE, in order; with no PLACE (and no --forget), read \
            one place per line from standard input, trimming whitespace and skipping empty \
            lines. A visit adds 1 to the weight of the edge from the last place visited to \
            this one (creating it with weight 1), counts the visit on the place, and makes \
            it the last place. Visiting the place you are already at adds no edge. Places \
            are the same when they differ only in case, accents or runs of whitespace; the \
            spelling used last is the one shown. A whole batch is one locked \
            read-modify-write of the graph file, which is saved atomically. A place name \
            must be valid UTF-8, without a NUL byte, and at most 4096 bytes long; a batch \
            with one that is not is refused whole.
            """,
        flags: RouteGraphVisitFlags.table + [StandardFlags.help(), StandardFlags.version, StandardFlags.generate],
        positionalCompletion: .places,
        manSections: GraphLocation.manSections + [
            ManSection(
                "EXIT STATUS",
                """
                0 if a visit was recorded or a place forgotten, 1 if there was nothing to \
                record (empty input, or only unknown places to forget), 2 if an error \
                occurred. On error nothing is recorded and the graph file is left as it was. \
                With no PLACE and a terminal on standard input, the usage is printed (exit 2) \
                instead of waiting for visits typed in.
                """),
            ManSection(
                "EXAMPLES",
                """
                Record a trip from home to the airport:

                  routegraph-visit Home Airport

                Import a log of timestamped visits in one go:

                  routegraph-visit --timestamped < visits.tsv

                Forget a place:

                  routegraph-visit --forget 'Old Office'
                """),
            ManSection("SEE ALSO", "routegraph-suggest(1), routegraph(5), zoxide(1)"),
        ]
    )

    /// Runs routegraph-visit with `arguments` (without argv[0]) in `context`.
    package static func run(_ arguments: [String], context: ToolContext) -> ExitStatus {
        runTool(spec, arguments: arguments, context: context) { parsed, _, errors in
            let options = try RouteGraphVisitOptions(parsed, context: context)
            var visits: [VisitRequest.Visit] = []
            for place in options.places {
                if place == "-" {
                    visits += try readVisits(from: context.standardInput, options: options)
                } else {
                    visits.append(VisitRequest.Visit(place: try checkedName(place, where: "place name"), time: options.time))
                }
            }
            let path = try GraphLocation.path(explicit: options.graph, environment: context.environment)
            let request = VisitRequest(
                visits: visits, forget: options.forget, newTrip: options.newTrip, tripGap: options.tripGap,
                selfLoops: options.selfLoops, maxPlaces: options.maximumPlaces, timeZone: context.timeZone)
            let outcome: VisitOutcome
            do {
                let file = try GraphFile(resolving: path)
                let waiting = { errors.report("waiting for the lock on \(file.lockPath), which another process holds") }
                outcome = try file.record(request, lockTimeout: options.lockTimeout, waiting: waiting)
            } catch let error as GraphFileError {
                throw ToolError(error.description)
            }
            if !options.quiet {
                for place in outcome.unknown { errors.report("no such place to forget: \(MessageValue.quoted(place))") }
            }
            let forgotten = options.forget.count - outcome.unknown.count
            return outcome.recorded + forgotten > 0 ? .success : .nothingFound
        }
    }

    /// A place name from the command line or input, checked: not empty once trimmed, not
    /// absurdly long, and without a NUL byte (which `-z` output uses to end a name).
    static func checkedName(_ name: String, where origin: @autoclosure () -> String) throws -> String {
        let count = name.utf8.count
        if count > maximumNameBytes {
            throw ToolError(
                "\(origin()): a place name of \(count) bytes is longer than the limit of \(maximumNameBytes); nothing was recorded")
        }
        if name.utf8.contains(0) {
            throw ToolError("\(origin()): the place name contains a NUL byte; nothing was recorded")
        }
        if RouteGraph.placeKey(name).isEmpty {
            throw UsageError("\(origin()): empty place name")
        }
        return name
    }

    /// A place name as a flag's value (`--forget`, `--from`): one whose key is not empty.
    static func placeName(_ text: String) -> String? {
        RouteGraph.placeKey(text).isEmpty ? nil : text
    }

    /// The visits on standard input: one per line (or NUL-terminated record), trimmed,
    /// empty ones skipped; with `--timestamped`, `TIME<TAB>PLACE`.
    static func readVisits(from input: FileDescriptor, options: RouteGraphVisitOptions) throws -> [VisitRequest.Visit] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let result = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) -> Int in try input.read(into: buffer.baseAddress!, count: buffer.count) }
            }
            guard case .success(let count) = result else {
                if case .failure(let error) = result { throw ToolError("standard input: \(error.description)") }
                break
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        let terminator: UInt8 = options.nullData ? 0 : 0x0A
        var visits: [VisitRequest.Visit] = []
        var lineNumber = 0
        for line in bytes.split(separator: terminator, omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.isEmpty { continue }
            let origin = "standard input, \(options.nullData ? "record" : "line") \(lineNumber)"
            var time = options.time
            var nameBytes = line[...]
            if options.timestamped {
                guard let tab = line.firstIndex(of: 0x09) else {
                    if line.allSatisfy(TextFolding.isASCIIWhitespace) { continue }
                    throw ToolError("\(origin): expected TIME<TAB>PLACE; nothing was recorded")
                }
                let timeText = String(decoding: line[line.startIndex..<tab], as: UTF8.self)
                guard let parsed = TimeText.timestamp(trimmed(timeText)) else {
                    throw ToolError(
                        "\(origin): invalid time \(MessageValue.quoted(timeText)) (expected Unix seconds or ISO 8601 from 1970 to 9999); nothing was recorded"
                    )
                }
                time = parsed
                nameBytes = line[(tab + 1)...]
            }
            guard let name = String(validating: nameBytes, as: UTF8.self) else {
                throw ToolError("\(origin): the place name is not valid UTF-8; nothing was recorded")
            }
            if name.utf8.count <= maximumNameBytes && RouteGraph.placeKey(name).isEmpty {
                if options.timestamped {
                    throw ToolError("\(origin): empty place name; nothing was recorded")
                }
                continue
            }
            visits.append(VisitRequest.Visit(place: try checkedName(name, where: origin), time: time))
        }
        return visits
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

/// routegraph-visit's options, checked and resolved from the command line.
package struct RouteGraphVisitOptions {
    /// The places given as arguments; `["-"]` means standard input.
    package var places: [String]
    package var graph: String?
    /// The time of visits without their own.
    package var time: Int64
    package var timestamped: Bool
    package var newTrip: Bool
    package var tripGap: Int64?
    package var forget: [String]
    package var maximumPlaces: Int
    package var selfLoops: Bool
    package var nullData: Bool
    package var quiet: Bool
    /// How long to wait for another process's lock on the graph, in seconds.
    package var lockTimeout: Int64

    /// Resolves options; throws `UsageError` for bad values.
    package init(_ parsed: ParsedArguments, context: ToolContext) throws(UsageError) {
        typealias F = RouteGraphVisitFlags
        graph = try parsed.value(of: GraphLocation.flag)
        forget = try parsed.value(of: F.forget)
        places = parsed.positionals
        if places.isEmpty && forget.isEmpty {
            // Visits would be read from the keyboard, silently: say how to call the tool.
            if context.inputIsTerminal { throw UsageError("no PLACE given, and standard input is a terminal") }
            places = ["-"]
        }
        timestamped = try parsed.value(of: F.timestamped)
        newTrip = try parsed.value(of: F.newTrip)
        selfLoops = try parsed.value(of: F.selfLoops)
        nullData = try parsed.value(of: F.nullData)
        quiet = try parsed.value(of: F.quiet)
        time = context.now()
        if let at = try parsed.value(of: F.at) {
            if timestamped { throw UsageError("--at and --timestamped cannot be used together") }
            time = at
        }
        if timestamped && places != ["-"] {
            throw UsageError("--timestamped reads standard input; give no PLACE")
        }
        tripGap = try parsed.value(of: F.tripGap)
        maximumPlaces = try parsed.value(of: F.maxPlaces) ?? RouteGraphVisit.defaultMaximumPlaces
        lockTimeout = try parsed.value(of: F.lockTimeout) ?? GraphFile.defaultLockTimeout
    }
}

/// routegraph-visit's flags, each read as a typed value (see `Flag`).
enum RouteGraphVisitFlags {
    static let at = Flag(
        "at", value: "TIME", help: "the time of the visits: Unix seconds or ISO 8601 (default now)",
        manHelp:
            "Record the visits at TIME instead of now: Unix seconds, or ISO 8601 such as 2024-05-01T08:30:00+02:00 (UTC when no offset is given). For importing old logs. TIME must lie in the years 1970 to 9999 (0 to 253402300799); a time outside is refused with status 2, and nothing is recorded.",
        expected: "Unix seconds or ISO 8601 from 1970 to 9999, such as 2024-05-01T08:30:00Z", parse: TimeText.timestamp)
    static let timestamped = Flag(
        "timestamped", short: "t", help: "each input line is TIME<TAB>PLACE",
        manHelp:
            "Each line of standard input is TIME, a tab, and PLACE, with TIME as for --at (years 1970 to 9999), so a whole history is imported in one call. One bad line refuses the whole batch."
    )
    static let newTrip = Flag("new-trip", short: "N", help: "the first visit starts a trip: no edge from the last place")
    static let tripGap = Flag(
        "trip-gap", value: "DURATION", help: "a visit more than DURATION after the last one starts a trip (off)",
        manHelp:
            "A visit more than DURATION after the previous one starts a new trip, with no edge from the previous place. DURATION is seconds, or a number followed by s, m, h, d or w (3h). Off by default.",
        expected: "a duration such as 90, 30m, 3h or 2d", parse: TimeText.duration)
    static let forget = Flag(
        "forget", values: "PLACE", help: "remove PLACE and all its edges (repeatable)", completion: .places,
        expected: "a place name", parse: RouteGraphVisit.placeName)
    static let maxPlaces = Flag(
        "max-places", value: "N", help: "keep at most N places, dropping the least used (default 50000; 0: no limit)",
        manHelp:
            "Keep at most N places: after the visits, drop the least used places (fewest visits plus edge weights; ties: used longest ago) and their edges. The default, 50000, holds years of daily use; 0 means no limit. The last place is never dropped.",
        expected: "a number ≥ 0"
    ) { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
    static let selfLoops = Flag("self-loops", help: "record an edge when a place follows itself")
    static let nullData = Flag("null-data", short: "z", help: "input places end with NUL, not newline")
    static let quiet = Flag("quiet", short: "q", help: "do not warn about places to forget that are unknown")
    static let lockTimeout = Flag(
        "lock-timeout", value: "DURATION", help: "give up after waiting DURATION for another visit's lock (default 30s)",
        manHelp:
            "While another process changes the graph, a visit waits for it, saying so on standard error after a second. After DURATION (30s by default; seconds, or a number followed by s, m, h, d or w) it gives up with status 2 and records nothing.",
        expected: "a duration such as 5, 30s or 2m", parse: TimeText.duration)

    /// The table, in `--help` order.
    static let table: [FlagSpec] = [
        GraphLocation.flag.spec, at.spec, timestamped.spec, newTrip.spec, tripGap.spec, forget.spec, maxPlaces.spec,
        selfLoops.spec, nullData.spec, quiet.spec, lockTimeout.spec,
    ]
}
