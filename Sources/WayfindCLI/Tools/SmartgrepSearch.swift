import WayfindCore

/// The search loop of smartgrep: read blocks of lines, jump to candidate lines, match them,
/// and print what is selected.
///
/// The loop never looks at most lines one by one: `CandidateFinder` jumps between lines
/// that contain the query's rarest byte, and the lines in between are known not to match.
/// They only need work when they are selected (`-v`) or counted (`-n`).

extension OutputBuffer {
    /// Appends a static string's bytes.
    @inline(__always)
    func write(_ text: StaticString) {
        write(text.utf8Start, count: text.utf8CodeUnitCount)
    }
}

/// A line kept for `-B` from the end of a block the reader has moved past.
struct HeldLine {
    var number: Int
    /// Where it starts in its file (for -b).
    var offset: Int
    var bytes: [UInt8]
}

/// One run of smartgrep over its files.
struct SmartgrepSearch {
    let options: SmartgrepOptions
    var output: OutputBuffer
    let errors: ErrorReporter
    /// One matcher per query.
    let matchers: [LineMatcher]
    /// The matcher, when there is one query (nearly always): the fast paths need it.
    let matcher: LineMatcher?
    let sharedFinder: CandidateFinder?
    /// Whether the matcher must record ranges (colour, rank or -o).
    let wantRanges: Bool
    /// Whether -A, -B or -C was given (even as 0: grep then prints `--` between groups).
    let contextGiven: Bool
    /// Whether every line must be numbered (-n, or context, whose groups need numbers).
    let countsLines: Bool
    /// Whether selected lines are printed (not -c, -l, -L or -q).
    let printsLines: Bool
    /// Whether selected lines are printed as they are, each alone (no --rank, context or -o).
    let printsPlainLines: Bool
    /// Whether printed lines have prefixes (-H, -n, -b): the short path calls `writeHead`
    /// only then, so that it stays short enough to be inlined in the scan loop.
    let hasHead: Bool

    // Per-run state.
    var selectedTotal = 0
    var hadError = false
    var stopAll = false
    /// Whether a line has been printed with context on (the next group gets a `--`).
    var printedGroup = false
    /// The matched ranges and score of the last line, with several queries.
    var ranges: [Range<Int>] = []
    var score = MatchScore()

    // Per-file state.
    var fileName = ""
    var selectedInFile = 0
    var lineNumber = 0
    var stopFile = false
    /// The file has a NUL byte in a block read so far (and -a was not given).
    var isBinary = false
    /// The number of the last line printed (selected or context) in this file, or 0.
    var lastOutputLine = 0
    /// Lines of after-context still to print.
    var afterRemaining = 0
    /// -m's count was reached: only trailing context is left to print.
    var maxReached = false
    /// The block being searched (before-context looks back in it).
    var blockStart: UnsafePointer<UInt8>? = nil
    /// The last lines of earlier blocks, for -B.
    var tail: [HeldLine] = []
    /// A pointer's offset in the file is `offsetBias + Int(bitPattern: pointer)` in the
    /// block being searched (for -b).
    var offsetBias = 0
    /// The size of the file (regular files only; for the padding of -T).
    var fileSize: Int? = nil
    /// The width -T pads line numbers and byte offsets to, or 0.
    var numberWidth = 0

    /// On a thread of a `SmartgrepPool`: the job whose files are being searched, and the pool.
    var job: SmartgrepJob? = nil
    var pool: SmartgrepPool? = nil

    /// Lines held for `--rank`: their rendered bytes and sort keys.
    var ranked: [RankedLine] = []
    let rankedLines = OutputBuffer(collecting: ())

    init(options: SmartgrepOptions, output: OutputBuffer, errors: ErrorReporter) {
        self.options = options
        self.output = output
        self.errors = errors
        matchers = options.queries.map { LineMatcher($0) }
        matcher = matchers.count == 1 ? matchers[0] : nil
        sharedFinder = options.queries.count == 1 ? CandidateFinder(query: options.queries[0]) : nil
        wantRanges = (options.color || options.rank || options.onlyMatching) && !options.invert
        contextGiven = options.contextGiven
        countsLines = options.lineNumbers || contextGiven
        printsLines = !options.quiet && !options.countOnly && options.listFiles == nil
        printsPlainLines = printsLines && !options.rank && !contextGiven && !options.onlyMatching
        hasHead = options.withFilename || options.lineNumbers || options.byteOffsets
    }

    /// Searches every file the options name, on `options.threads` threads where there
    /// are several files (see `SmartgrepPool`), and returns the exit status.
    mutating func run(context: ToolContext) -> ExitStatus {
        if options.threads != 1 && !options.rank && (options.recursion != nil || options.files.count > 1),
            case let threads = options.threads ?? Platform.processorCount, threads > 1,
            let status = SmartgrepPool.run(self, threads: threads, context: context)
        {
            return status
        }
        SmartgrepWalk(options: options).run { item in
            switch item {
            case .file(let path, let inTurn): searchFile(path, regular: !inTurn, context: context)
            case .message(let text, let isError): walkMessage(text, isError: isError)
            }
            return !stopAll
        }
        return finish()
    }

    /// A message of the walk's: printed unless -s, and an error makes the status 2.
    mutating func walkMessage(_ text: String, isError: Bool) {
        if !options.noMessages { report(text) }
        if isError { hadError = true }
    }

    /// Prints `smartgrep: message` on standard error, or, on a thread of a pool, holds it
    /// with the job's output, to be printed where it came among the lines.
    mutating func report(_ message: String) {
        if let job {
            job.messages.append((output.count, message))
        } else {
            output.flush()
            errors.report(message)
        }
    }

    /// Opens and searches one file (`-` is standard input). `regular`: the walk found it a
    /// regular file, so it needs no `stat` (but for -T's width).
    mutating func searchFile(_ file: String, regular: Bool = false, context: ToolContext) {
        let descriptor: FileDescriptor
        var regularSize: Int? = nil
        let unstatted = regular && !options.initialTab && file != "-"
        if file == "-" {
            descriptor = context.standardInput
            fileName = options.standardInputName
        } else {
            do {
                descriptor =
                    unstatted
                    ? try FileDescriptor.openRegularFile(file) : try FileDescriptor.openForReading(file, regularSize: &regularSize)
            } catch {
                if !options.noMessages { report("\(file): \(error.description)") }
                hadError = true
                // grep opens a directory and fails to read it: the file still has its
                // count (-c prints 0) and lacks a match (-L lists it).
                if error.isDirectoryRead {
                    fileName = file
                    selectedInFile = 0
                    endFile()
                }
                return
            }
            fileName = file
        }
        fileSize = options.initialTab ? (file == "-" ? descriptor.regularFileSize : regularSize) : nil
        do {
            try search(descriptor, regularSize: regularSize, isRegular: unstatted)
        } catch {
            report("\(file == "-" ? fileName : file): \(error.description)")
            hadError = true
        }
        if file != "-" { descriptor.close() }
        endFile()
    }

    /// After a file: its count (with `-c`), its name (with `-L`).
    mutating func endFile() {
        if options.quiet {
        } else if options.listFiles == .withoutMatch {
            if selectedInFile == 0 { writeFileName() }
        } else if options.countOnly && options.listFiles == nil {
            writeFilePrefix(separator: UInt8(ascii: ":"))
            output.write(decimal: selectedInFile)
            output.write(byte: 0x0A)
            output.endRecord()
        }
        if output.isClosed { stopAll = true }
    }

    /// After the last file: the ranked lines (with `--rank`), and the exit status.
    mutating func finish() -> ExitStatus {
        if options.rank && printsLines { printRanked() }
        if options.quiet && selectedTotal > 0 { return .success }
        if hadError { return .error }
        return selectedTotal > 0 ? .success : .nothingFound
    }

    // MARK: - Reading

    private mutating func search(_ descriptor: FileDescriptor, regularSize: Int?, isRegular: Bool) throws(ReadError) {
        try search(
            RecordReader(
                descriptor, terminator: options.terminator, readSize: options.readSize,
                maximumRecordLength: options.maximumLineLength, regularSize: regularSize, isRegular: isRegular))
    }

    /// Searches everything `reader` hands out.
    mutating func search(_ reader: RecordReader) throws(ReadError) {
        selectedInFile = 0
        lineNumber = 0
        stopFile = false
        isBinary = false
        lastOutputLine = 0
        afterRemaining = 0
        maxReached = false
        tail.removeAll()
        if options.initialTab {
            // grep's width: the digits of the largest offset, or line number, the file can
            // have (a pipe's could be any: 19 digits).
            let largest = fileSize.map { $0 + (options.lineNumbers ? 1 : 0) } ?? Int.max
            numberWidth = String(largest).utf8.count
        }
        var consumed = 0
        if options.maxCount == 0 { return }
        // NUL bytes make a file binary, as in grep, except where NUL ends records (-z).
        let checksBinary =
            (printsLines || options.binaryFiles == .withoutMatch) && options.binaryFiles != .text && options.terminator != 0
        while !stopFile && !stopAll, let block = try reader.nextBlock() {
            let base = block.baseAddress!
            let end = base + block.count
            offsetBias = consumed &- Int(bitPattern: base)
            consumed += block.count
            // (As grep, which looks at all it read: the unfinished line held back too.)
            if checksBinary && !isBinary
                && (Platform.findByte(0, in: base, count: block.count) != nil || reader.heldBack.contains(0))
            {
                isBinary = true
                if options.binaryFiles == .withoutMatch {
                    // grep -I: the file has no selected line, whatever was selected before.
                    selectedTotal -= selectedInFile
                    selectedInFile = 0
                    return
                }
            }
            blockStart = base
            if maxReached {
                trailingContext(base, end: end)
            } else {
                // A last line without a terminator is a line all the same (printed with
                // one, as grep does), and goes through the finder like the others: matched
                // whole each time, it was a third of 'smartgrep -r lib /usr/share/man'
                // (21k .gz files, each ending in a line of binary data).
                scan(base, end: end, finder: sharedFinder)
                if options.beforeContext > 0 && !stopFile && !reader.lastBlockIsUnterminated { keepTail(base, end: end) }
            }
            if let job, let pool, !pool.blockSearched(job, output: output) { stopAll = true }
        }
    }

    /// Processes `[start, end)`, a run of complete terminated lines. (A mapped file cut
    /// short under us turns its tail into zeros: a missing terminator ends the run.)
    ///
    /// `lineCursor` is the first line not yet decided; `searchFrom` is where the finder
    /// looks next (past hits that a direct check already rejected).
    private mutating func scan(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, finder: CandidateFinder?) {
        let t = options.terminator
        guard let finder, let matcher else {
            // Every line is a candidate.
            var p = start
            while p < end && !stopFile {
                let lineEnd = Platform.findByte(t, in: p, count: end - p) ?? end
                handleLine(p, end: lineEnd)
                p = lineEnd + 1
            }
            return
        }
        finder.reset(start, count: end - start)
        let anchorOffset = finder.anchorOffset
        let anchor = finder.anchorWord.map { matcher.wordBuffers[$0] }
        // One ASCII query word matching prefixes, nothing to highlight or rank, no field:
        // the direct check is the whole answer.
        let directIsEnough =
            matcher.wordBuffers.count == 1 && anchor != nil && !wantRanges && options.field == nil
            && matcher.query.fit == .prefix
        var lineCursor = start
        var searchFrom = start
        while searchFrom < end && !stopFile {
            if maxReached {
                trailingContext(lineCursor, end: end)
                return
            }
            guard let hit = finder.next(from: searchFrom) else { break }
            var verdict = DirectVerdict.unknown
            if let anchor {
                verdict = matcher.startsWord(
                    anchor, hit: hit, anchorOffset: anchorOffset, blockStart: start, blockEnd: end, terminator: t)
                if case .no = verdict {  // (`==` across modules is a call through a witness)
                    searchFrom = hit + 1
                    continue
                }
            } else if hit.pointee >= 0x80 && !finder.characterFoldsToAnchor(at: hit) {
                searchFrom = hit + 1
                continue
            }
            let lineStart = Platform.findLastByte(t, in: lineCursor, count: hit - lineCursor).map { $0 + 1 } ?? lineCursor
            let lineEnd = Platform.findByte(t, in: hit, count: end - hit) ?? end
            if lineStart > lineCursor { skipped(lineCursor, end: lineStart) }
            if stopFile { return }
            if case .yes = verdict, directIsEnough && !maxReached {
                lineNumber += 1
                if !options.invert {
                    select(lineStart, end: lineEnd, hasRanges: false)
                } else if afterRemaining > 0 {
                    context(lineStart, end: lineEnd)
                }
            } else {
                handleLine(lineStart, end: lineEnd)
            }
            lineCursor = lineEnd + 1
            searchFrom = lineCursor
        }
        if lineCursor < end && !stopFile { skipped(lineCursor, end: end) }
    }

    /// Lines in `[start, end)` are known not to match.
    @inline(__always)
    private mutating func skipped(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) {
        if maxReached {
            trailingContext(start, end: end)
        } else if options.invert {
            var p = start
            while p < end && !stopFile {
                if maxReached {
                    trailingContext(p, end: end)
                    return
                }
                let lineEnd = Platform.findByte(options.terminator, in: p, count: end - p) ?? end
                lineNumber += 1
                select(p, end: lineEnd, hasRanges: false)
                p = lineEnd + 1
            }
        } else if afterRemaining > 0 {
            // The first lines are after-context; the rest are only counted.
            var p = start
            while p < end && afterRemaining > 0 && !stopFile {
                let lineEnd = Platform.findByte(options.terminator, in: p, count: end - p) ?? end
                lineNumber += 1
                context(p, end: lineEnd)
                p = lineEnd + 1
            }
            if p < end { lineNumber += countBytes(options.terminator, p, end) }
        } else if countsLines {
            lineNumber += countBytes(options.terminator, start, end)
        }
    }

    /// Decides one line `[start, end)` (without its terminator).
    @inline(__always)
    private mutating func handleLine(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) {
        if maxReached {
            trailingContext(start, end: end)
            return
        }
        lineNumber += 1
        var line = UnsafeBufferPointer(start: start, count: end - start)
        var fieldOffset = 0
        if let field = options.field {
            guard let range = fieldRange(line, field: field) else {
                if options.invert {
                    select(start, end: end, hasRanges: false)
                } else if afterRemaining > 0 {
                    context(start, end: end)
                }
                return
            }
            fieldOffset = range.lowerBound
            line = UnsafeBufferPointer(rebasing: line[range])
        }
        let matched = matches(line)
        if matched != options.invert {
            select(start, end: end, hasRanges: matched && wantRanges, fieldOffset: fieldOffset)
        } else if afterRemaining > 0 {
            context(start, end: end)
        }
    }

    /// Whether any query matches `line`; with `wantRanges`, `currentRanges` and
    /// `currentScore` then say where and how well.
    @inline(__always)
    private mutating func matches(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        if let matcher { return matcher.matches(line, recordRanges: wantRanges) }
        var any = false
        if wantRanges { ranges.removeAll(keepingCapacity: true) }
        for m in matchers where m.matches(line, recordRanges: wantRanges) {
            if !wantRanges { return true }
            if !any { score = m.lastScore }
            any = true
            ranges += m.ranges
        }
        if any && ranges.count > 1 { ranges = LineMatcher.merged(ranges) }
        return any
    }

    /// Where `p`, in the block being searched, is in its file.
    @inline(__always)
    func fileOffset(of p: UnsafePointer<UInt8>) -> Int { offsetBias &+ Int(bitPattern: p) }

    /// The matched ranges of the last line matched.
    var currentRanges: [Range<Int>] { matcher?.ranges ?? ranges }
    /// The ranking facts of the last line matched.
    var currentScore: MatchScore { matcher?.lastScore ?? score }

    /// The byte range of field `field` (1-based) of `line`, or nil if the line has fewer.
    private func fieldRange(_ line: UnsafeBufferPointer<UInt8>, field: Int) -> Range<Int>? {
        var start = 0
        var index = 1
        let count = line.count
        guard let base = line.baseAddress else { return field == 1 ? 0..<0 : nil }
        while index < field {
            guard let d = Platform.findByte(options.delimiter, in: base + start, count: count - start) else { return nil }
            start = d - base + 1
            index += 1
        }
        let end = Platform.findByte(options.delimiter, in: base + start, count: count - start).map { $0 - base } ?? count
        return start..<end
    }

    // MARK: - Output

    /// A line is selected: count it, and print or hold it.
    @inline(__always)
    private mutating func select(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, hasRanges: Bool, fieldOffset: Int = 0) {
        selectedInFile += 1
        selectedTotal += 1
        guard printsPlainLines && !isBinary else {
            selectOtherwise(start, end: end, hasRanges: hasRanges, fieldOffset: fieldOffset)
            return
        }
        // The common case, kept as short as it was before context, -o, -l and binary files.
        if let max = options.maxCount, selectedInFile >= max { stopFile = true }
        if hasHead { writeHead(separator: UInt8(ascii: ":"), number: lineNumber, offset: fileOffset(of: start), hasText: end > start) }
        writeLine(start, end: end, hasRanges: hasRanges, fieldOffset: fieldOffset)
        output.write(byte: options.terminator)
        output.endRecord()
        if output.isClosed {
            stopFile = true
            stopAll = true
        }
    }
}

/// Counts `byte` in `[start, end)`.
@inline(__always)
func countBytes(_ byte: UInt8, _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Int {
    var count = 0
    var p = start
    while p < end {
        guard let hit = Platform.findByte(byte, in: p, count: end - p) else { break }
        count += 1
        p = hit + 1
    }
    return count
}
