import WayfindCore

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
            spelling used last is the one shown. A place name must be valid UTF-8, \
            without a NUL byte, and at most 4096 bytes long; other control characters \
            (a directory name may hold ESC or BEL) are kept, and routegraph-suggest(1) \
            shows them escaped on a terminal.
            """,
        flags: RouteGraphVisitFlags.table + [StandardFlags.help(), StandardFlags.version, StandardFlags.generate],
        positionalCompletion: .places,
        manSections: [
            ManSection(
                "BATCHES",
                """
                Visits are recorded in batches, each one locked read-modify-write of the \
                graph file, saved atomically: the PLACEs given, and the places read from \
                standard input as they come, a batch every 10000 places or every second, \
                whichever comes first (a second after the batch's first place was read). So \
                an endless input ('tail -f log | routegraph-visit') is recorded as it comes, \
                in memory that does not grow, and a line longer than a place name can be is \
                refused as soon as it is read that far. Killed, routegraph-visit loses at \
                most the batch in flight; the batches before it are saved.

                A place name that is not valid (see DESCRIPTION), or a line that is not \
                TIME<TAB>PLACE with --timestamped, is an error that stops the input (exit \
                status 2): its batch is not recorded, and the message says from which line \
                on nothing was. Every PLACE on the command line is checked before anything \
                is recorded.
                """)
        ] + GraphLocation.manSections + [
            ManSection(
                "EXIT STATUS",
                """
                0 if a visit was recorded or a place forgotten, 1 if there was nothing to \
                record (empty input, or only unknown places to forget), 2 if an error \
                occurred. On error the batch in flight is not recorded (see BATCHES) and the \
                graph file is left as that batch found it. \
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

                Add a directory to those the shell set-up learned for cd, and forget the \
                current one:

                  routegraph-visit --learned cd ~/src/wayfind
                  routegraph-visit --learned cd --forget .
                """),
            ManSection("SEE ALSO", "routegraph-suggest(1), routegraph(5), zoxide(1)"),
        ]
    )

    /// Runs routegraph-visit with `arguments` (without argv[0]) in `context`.
    package static func run(_ arguments: [String], context: ToolContext) -> ExitStatus {
        runTool(spec, arguments: arguments, context: context) { parsed, _, errors in
            let options = try RouteGraphVisitOptions(parsed, context: context)
            // Every PLACE given is checked before anything is recorded.
            var arguments: [VisitRequest.Visit?] = []
            for place in options.places {
                arguments.append(
                    place == "-" ? nil : VisitRequest.Visit(place: try checkedName(place, where: "place name"), time: options.time))
            }
            let file = try GraphLocation.file(explicit: options.graph, learned: options.learned, environment: context.environment)
            var recorder = VisitRecorder(file: file, options: options, errors: errors, timeZone: context.timeZone)
            for visit in arguments {
                if let visit {
                    try recorder.add(visit)
                } else {
                    try streamVisits(from: context.standardInput, options: options, into: &recorder)
                }
            }
            try recorder.save()
            if !options.quiet {
                for place in recorder.unknown { errors.report("no such place to forget: \(MessageValue.quoted(place))") }
            }
            let forgotten = options.forget.count - recorder.unknown.count
            return recorder.recorded + forgotten > 0 ? .success : .nothingFound
        }
    }

    /// How many places a batch holds at most: a batch is one locked read-modify-write of
    /// the graph file, and an import of a million visits is a hundred of them. With names
    /// of at most `maximumNameBytes`, it bounds the memory a batch takes to 40 MB (for
    /// names of a few dozen bytes, about a megabyte).
    package static let batchPlaces = 10_000
    /// How long the first place of a batch waits for the batch to be saved, at most, in
    /// milliseconds: `tail -f log | routegraph-visit` records each place within a second.
    package static let batchMilliseconds: Int64 = 1000

    /// A place name from the command line or input, checked: not empty once trimmed, not
    /// absurdly long, and without a NUL byte (which `-z` output uses to end a name).
    static func checkedName(
        _ name: String, where origin: @autoclosure () -> String, notRecorded: String = "; nothing was recorded"
    ) throws -> String {
        let count = name.utf8.count
        if count > maximumNameBytes {
            throw ToolError(
                "\(origin()): a place name of \(count) bytes is longer than the limit of \(maximumNameBytes)\(notRecorded)")
        }
        if name.utf8.contains(0) {
            throw ToolError("\(origin()): the place name contains a NUL byte\(notRecorded)")
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

    /// The longest time field of a `--timestamped` line: ISO 8601 with nanoseconds and an
    /// offset is 35 bytes; the rest leaves room for blanks around it.
    static let maximumTimeBytes = 64

    /// Reads the visits on standard input as they come, one per line (or NUL-terminated
    /// record), trimmed, empty ones skipped, with `--timestamped` `TIME<TAB>PLACE`, and
    /// hands them to `recorder`, which saves them in batches. Memory stays bounded
    /// whatever the input: a line is refused as soon as it is longer than a name can be,
    /// and while the input pauses, the batch waiting is saved once it is a second old.
    static func streamVisits(from input: FileDescriptor, options: RouteGraphVisitOptions, into recorder: inout VisitRecorder)
        throws
    {
        let terminator: UInt8 = options.nullData ? 0 : 0x0A
        let lineLimit = maximumNameBytes + (options.timestamped ? maximumTimeBytes + 1 : 0)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var line: [UInt8] = []
        var lineNumber = 0
        func origin() -> String { "standard input, \(options.nullData ? "record" : "line") \(lineNumber)" }
        while true {
            if let deadline = recorder.deadline {
                let left = deadline - Platform.monotonicMilliseconds()
                if left <= 0 || !input.waitForInput(milliseconds: Int(left)) {
                    try recorder.save()
                    continue
                }
            }
            let result = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) -> Int in try input.read(into: buffer.baseAddress!, count: buffer.count) }
            }
            let count: Int
            switch result {
            case .success(let read): count = read
            case .failure(let error): throw ToolError("standard input: \(error.description)\(recorder.notRecorded)")
            }
            if count == 0 { break }
            var start = 0
            while start < count {
                let end = chunk[start..<count].firstIndex(of: terminator) ?? count
                line += chunk[start..<end]
                if line.count > lineLimit {
                    lineNumber += 1
                    throw ToolError(
                        "\(origin()): a \(options.timestamped ? "line" : "place name") longer than the limit of "
                            + "\(options.timestamped ? lineLimit : maximumNameBytes) bytes\(recorder.notRecorded)")
                }
                guard end < count else { break }
                lineNumber += 1
                if let visit = try visit(in: line, origin: origin(), options: options, recorder: recorder) {
                    try recorder.add(visit, line: lineNumber)
                }
                line.removeAll(keepingCapacity: true)
                start = end + 1
            }
        }
        if !line.isEmpty {
            lineNumber += 1
            if let visit = try visit(in: line, origin: origin(), options: options, recorder: recorder) {
                try recorder.add(visit, line: lineNumber)
            }
        }
    }

    /// The visit on one line of input; nil for a line to skip (empty, or only blanks).
    private static func visit(in line: [UInt8], origin: @autoclosure () -> String, options: RouteGraphVisitOptions, recorder: VisitRecorder)
        throws -> VisitRequest.Visit?
    {
        if line.isEmpty { return nil }
        var time = options.time
        var nameBytes = line[...]
        if options.timestamped {
            guard let tab = line.firstIndex(of: 0x09) else {
                if line.allSatisfy(TextFolding.isASCIIWhitespace) { return nil }
                throw ToolError("\(origin()): expected TIME<TAB>PLACE\(recorder.notRecorded)")
            }
            let timeText = String(decoding: line[line.startIndex..<tab], as: UTF8.self)
            guard let parsed = TimeText.timestamp(trimmed(timeText)) else {
                throw ToolError(
                    "\(origin()): invalid time \(MessageValue.quoted(timeText)) (expected Unix seconds or ISO 8601 from 1970 to 9999)\(recorder.notRecorded)"
                )
            }
            time = parsed
            nameBytes = line[(tab + 1)...]
        }
        guard let name = String(validating: nameBytes, as: UTF8.self) else {
            throw ToolError("\(origin()): the place name is not valid UTF-8\(recorder.notRecorded)")
        }
        if name.utf8.count <= maximumNameBytes && RouteGraph.placeKey(name).isEmpty {
            if options.timestamped {
                throw ToolError("\(origin()): empty place name\(recorder.notRecorded)")
            }
            return nil
        }
        return VisitRequest.Visit(place: try checkedName(name, where: origin(), notRecorded: recorder.notRecorded), time: time)
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
    /// The learned command whose graph this is (`--learned CMD`).
    package var learned: String?
    /// The current directory (`$PWD`), from which `--learned cd` takes relative ones.
    package var currentDirectory: String?
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
        learned = try parsed.value(of: GraphLocation.learnedFlag)
        if graph != nil && learned != nil { throw UsageError("--learned and --graph cannot be used together") }
        let current = context.environment["PWD"]
        currentDirectory = current
        forget = try parsed.value(of: F.forget)
        if learned == LearnedCommand.directories {
            forget = try forget.map { (name) throws(UsageError) in
                guard let directory = LearnedCommand.directory(name, from: current) else {
                    throw UsageError(Self.noCurrentDirectory(name))
                }
                return directory
            }
        }
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

    /// Whether the places are directories (`--learned cd`), named as cd names them.
    var learnsDirectories: Bool { learned == LearnedCommand.directories }

    /// Why the relative directory `name` has no absolute path.
    static func noCurrentDirectory(_ name: String) -> String {
        "--learned cd: cannot tell where \(MessageValue.quoted(name)) is: $PWD is not an absolute path"
    }
}

/// routegraph-visit's flags, each read as a typed value (see `Flag`).
enum RouteGraphVisitFlags {
    static let at = Flag.at(
        help: "the time of the visits: Unix seconds or ISO 8601 (default now)",
        manHelp:
            "Record the visits at TIME instead of now: Unix seconds, or ISO 8601 such as 2024-05-01T08:30:00+02:00 (UTC when no offset is given). For importing old logs. TIME must lie in the years 1970 to 9999 (0 to 253402300799); a time outside is refused with status 2, and nothing is recorded."
    )
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
        GraphLocation.flag.spec, GraphLocation.learnedFlag.spec, at.spec, timestamped.spec, newTrip.spec, tripGap.spec,
        forget.spec, maxPlaces.spec, selfLoops.spec, nullData.spec, quiet.spec, lockTimeout.spec,
    ]
}

/// The visits read so far and not yet saved, and what the saves so far did: visits are
/// recorded in batches (`RouteGraphVisit.batchPlaces` places, or what came within
/// `batchMilliseconds`), each one locked read-modify-write of the graph, so an endless
/// input is recorded as it comes and a kill loses at most the batch in flight.
struct VisitRecorder {
    let file: GraphFile
    let options: RouteGraphVisitOptions
    let errors: ErrorReporter
    /// The time zone whose local hour each visit is counted in.
    let timeZone: LocalTimeZone
    /// The visits of the batch in flight.
    private(set) var pending: [VisitRequest.Visit] = []
    /// When the batch in flight must be saved (monotonic milliseconds), if it has a visit.
    private(set) var deadline: Int64? = nil
    /// The input line of the batch's first visit, if it came from standard input.
    private var firstLine: Int? = nil
    /// How many saves ran (the first also forgets, and may start a new trip).
    private var batches = 0
    /// The visits recorded so far.
    private(set) var recorded = 0
    /// The places to forget that were unknown.
    private(set) var unknown: [String] = []

    init(file: GraphFile, options: RouteGraphVisitOptions, errors: ErrorReporter, timeZone: LocalTimeZone) {
        (self.file, self.options, self.errors, self.timeZone) = (file, options, errors, timeZone)
    }

    /// What an error message on input says was recorded: nothing, or what came before
    /// the batch in flight.
    var notRecorded: String {
        guard batches > 0 else { return "; nothing was recorded" }
        if let firstLine { return "; nothing from line \(firstLine) on was recorded" }
        return "; the batch in flight was not recorded"
    }

    /// Adds a visit to the batch in flight, saving the batch when it is full. With
    /// `--learned cd`, the place is a directory that must exist, named as cd names it.
    mutating func add(_ visit: VisitRequest.Visit, line: Int? = nil) throws {
        var visit = visit
        if options.learnsDirectories {
            guard let directory = LearnedCommand.directory(visit.place, from: options.currentDirectory) else {
                throw UsageError(RouteGraphVisitOptions.noCurrentDirectory(visit.place))
            }
            guard Platform.isDirectory(directory) else {
                throw ToolError("\(MessageValue.escapingControlCharacters(directory)): no such directory\(notRecorded)")
            }
            visit.place = directory
        }
        if pending.isEmpty {
            deadline = Platform.monotonicMilliseconds() + RouteGraphVisit.batchMilliseconds
            firstLine = line
        }
        pending.append(visit)
        if pending.count >= RouteGraphVisit.batchPlaces { try save() }
    }

    /// Saves the batch in flight: the visits, and in the first batch the places to
    /// forget. The first save runs even with nothing to record (so that a damaged graph
    /// file is reported).
    mutating func save() throws {
        guard !pending.isEmpty || batches == 0 else { return }
        let first = batches == 0
        // The first batch forgets, and may start a new trip.
        let request = VisitRequest(
            visits: pending, forget: first ? options.forget : [], newTrip: first && options.newTrip,
            tripGap: options.tripGap, selfLoops: options.selfLoops, maxPlaces: options.maximumPlaces, timeZone: timeZone)
        let file = file
        let errors = errors
        let waiting = { errors.report("waiting for the lock on \(file.lockPath), which another process holds") }
        let outcome: VisitOutcome
        do {
            outcome = try file.record(request, lockTimeout: options.lockTimeout, waiting: waiting)
        } catch {
            throw ToolError(error.description(notRecorded: notRecorded))
        }
        batches += 1
        recorded += outcome.recorded
        if first { unknown = outcome.unknown }
        pending.removeAll(keepingCapacity: true)
        deadline = nil
        firstLine = nil
    }
}
