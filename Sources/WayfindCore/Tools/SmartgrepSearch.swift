/// The search loop of smartgrep: read blocks of lines, jump to candidate lines, match them,
/// and print what is selected.
///
/// The loop never looks at most lines one by one: `CandidateFinder` jumps between lines
/// that contain the query's rarest byte, and the lines in between are known not to match.
/// They only need work when they are selected (`-v`) or counted (`-n`).

/// grep's default colours (GREP_COLORS ms=01;31:fn=35:ln=32:se=36).
enum Colors {
    static let match: StaticString = "\u{1B}[01;31m\u{1B}[K"
    static let fileName: StaticString = "\u{1B}[35m\u{1B}[K"
    static let lineNumber: StaticString = "\u{1B}[32m\u{1B}[K"
    static let separator: StaticString = "\u{1B}[36m\u{1B}[K"
    static let reset: StaticString = "\u{1B}[m\u{1B}[K"
}

extension OutputBuffer {
    /// Appends a static string's bytes.
    @inline(__always)
    func write(_ text: StaticString) {
        write(text.utf8Start, count: text.utf8CodeUnitCount)
    }
}

/// One run of smartgrep over its files.
struct SmartgrepSearch {
    let options: SmartgrepOptions
    var output: OutputBuffer
    let errors: ErrorReporter
    let matcher: LineMatcher
    let sharedFinder: CandidateFinder?
    /// Whether the matcher must record ranges (colour or rank).
    let wantRanges: Bool

    // Per-run state.
    var selectedTotal = 0
    var hadError = false
    var stopAll = false

    // Per-file state.
    var fileName = ""
    var selectedInFile = 0
    var lineNumber = 0
    var stopFile = false

    /// Lines held for `--rank`: their rendered bytes and sort keys.
    var ranked: [RankedLine] = []
    let rankedLines = OutputBuffer(collecting: ())

    init(options: SmartgrepOptions, output: OutputBuffer, errors: ErrorReporter) {
        self.options = options
        self.output = output
        self.errors = errors
        matcher = LineMatcher(options.query)
        sharedFinder = CandidateFinder(query: options.query)
        wantRanges = (options.color || options.rank) && !options.invert
    }

    mutating func run(context: ToolContext) -> ExitStatus {
        for file in options.files {
            if stopAll { break }
            let descriptor: FileDescriptor
            if file == "-" {
                descriptor = context.standardInput
                fileName = "(standard input)"
            } else {
                do {
                    descriptor = try FileDescriptor.openForReading(file)
                } catch {
                    errors.report("\(file): \(error.description)")
                    hadError = true
                    continue
                }
                fileName = file
            }
            do {
                try search(descriptor)
            } catch {
                errors.report("\(file == "-" ? fileName : file): \(error.description)")
                hadError = true
            }
            if file != "-" { descriptor.close() }
            endFile()
        }
        return finish()
    }

    /// After a file: its count (with `-c`).
    mutating func endFile() {
        if options.countOnly && !options.quiet {
            writeFilePrefix(separator: UInt8(ascii: ":"))
            output.write(decimal: selectedInFile)
            output.write(byte: 0x0A)
            output.endRecord()
        }
        if output.isClosed { stopAll = true }
    }

    /// After the last file: the ranked lines (with `--rank`), and the exit status.
    mutating func finish() -> ExitStatus {
        if options.rank && !options.quiet && !options.countOnly { printRanked() }
        if options.quiet && selectedTotal > 0 { return .success }
        if hadError { return .error }
        return selectedTotal > 0 ? .success : .nothingFound
    }

    // MARK: - Reading

    private mutating func search(_ descriptor: FileDescriptor) throws(ReadError) {
        try search(
            RecordReader(
                descriptor, terminator: options.terminator, readSize: options.readSize,
                maximumRecordLength: options.maximumLineLength))
    }

    /// Searches everything `reader` hands out.
    mutating func search(_ reader: RecordReader) throws(ReadError) {
        selectedInFile = 0
        lineNumber = 0
        stopFile = false
        if options.maxCount == 0 { return }
        while !stopFile && !stopAll, let block = try reader.nextBlock() {
            let base = block.baseAddress!
            let end = base + block.count
            if reader.lastBlockIsUnterminated {
                // The file's last line lacks a terminator: search the complete lines, then
                // that one alone (printed with a terminator, as grep does).
                let lastStart = Platform.findLastByte(options.terminator, in: base, count: block.count).map { $0 + 1 } ?? base
                if lastStart > base { scan(base, end: lastStart, finder: sharedFinder) }
                if !stopFile && !stopAll { handleLine(lastStart, end: end) }
            } else {
                scan(base, end: end, finder: sharedFinder)
            }
        }
    }

    /// Processes `[start, end)`, a run of complete terminated lines. (A mapped file cut
    /// short under us turns its tail into zeros: a missing terminator ends the run.)
    ///
    /// `lineCursor` is the first line not yet decided; `searchFrom` is where the finder
    /// looks next (past hits that a direct check already rejected).
    private mutating func scan(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, finder: CandidateFinder?) {
        let t = options.terminator
        guard let finder else {
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
        // One ASCII query word, nothing to highlight or rank, no field: the direct check
        // is the whole answer.
        let directIsEnough = matcher.wordBuffers.count == 1 && anchor != nil && !wantRanges && options.field == nil
        var lineCursor = start
        var searchFrom = start
        while searchFrom < end && !stopFile {
            guard let hit = finder.next(from: searchFrom) else { break }
            var verdict = DirectVerdict.unknown
            if hit.pointee >= 0x80 {
                if !finder.characterFoldsToAnchor(at: hit) {
                    searchFrom = hit + 1
                    continue
                }
            } else if let anchor {
                verdict = matcher.startsWord(anchor, at: hit - anchorOffset, blockStart: start, blockEnd: end, terminator: t)
                if verdict == .no {
                    searchFrom = hit + 1
                    continue
                }
            }
            let lineStart = Platform.findLastByte(t, in: lineCursor, count: hit - lineCursor).map { $0 + 1 } ?? lineCursor
            let lineEnd = Platform.findByte(t, in: hit, count: end - hit) ?? end
            if lineStart > lineCursor { skipped(lineCursor, end: lineStart) }
            if verdict == .yes && directIsEnough {
                lineNumber += 1
                if !options.invert { select(lineStart, end: lineEnd, hasRanges: false) }
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
        if options.invert {
            var p = start
            while p < end && !stopFile {
                let lineEnd = Platform.findByte(options.terminator, in: p, count: end - p) ?? end
                lineNumber += 1
                select(p, end: lineEnd, hasRanges: false)
                p = lineEnd + 1
            }
        } else if options.lineNumbers {
            lineNumber += countBytes(options.terminator, start, end)
        }
    }

    /// Decides one line `[start, end)` (without its terminator).
    @inline(__always)
    private mutating func handleLine(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) {
        lineNumber += 1
        var line = UnsafeBufferPointer(start: start, count: end - start)
        var fieldOffset = 0
        if let field = options.field {
            guard let range = fieldRange(line, field: field) else {
                if options.invert { select(start, end: end, hasRanges: false) }
                return
            }
            fieldOffset = range.lowerBound
            line = UnsafeBufferPointer(rebasing: line[range])
        }
        let matched = matcher.matches(line, recordRanges: wantRanges)
        if matched != options.invert {
            select(start, end: end, hasRanges: matched && wantRanges, fieldOffset: fieldOffset)
        }
    }

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
        if options.quiet {
            stopFile = true
            stopAll = true
            return
        }
        if let max = options.maxCount, selectedInFile >= max, !options.rank { stopFile = true }
        if options.countOnly { return }
        if options.rank {
            hold(start, end: end, hasRanges: hasRanges, fieldOffset: fieldOffset)
            return
        }
        writeFilePrefix(separator: UInt8(ascii: ":"))
        writeLineNumber()
        writeLine(start, end: end, hasRanges: hasRanges, fieldOffset: fieldOffset)
        output.write(byte: options.terminator)
        output.endRecord()
        if output.isClosed {
            stopFile = true
            stopAll = true
        }
    }

    private func writeFilePrefix(separator: UInt8) {
        guard options.withFilename else { return }
        if options.color { output.write(Colors.fileName) }
        output.write(fileName)
        if options.color { output.write(Colors.reset); output.write(Colors.separator) }
        output.write(byte: separator)
        if options.color { output.write(Colors.reset) }
    }

    private func writeLineNumber() {
        guard options.lineNumbers else { return }
        if options.color { output.write(Colors.lineNumber) }
        output.write(decimal: lineNumber)
        if options.color { output.write(Colors.reset); output.write(Colors.separator) }
        output.write(byte: UInt8(ascii: ":"))
        if options.color { output.write(Colors.reset) }
    }

    private func writeLine(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, hasRanges: Bool, fieldOffset: Int) {
        guard hasRanges && options.color else {
            output.write(start, count: end - start)
            return
        }
        var at = 0
        for r in matcher.ranges {
            let lower = r.lowerBound + fieldOffset
            let upper = r.upperBound + fieldOffset
            if lower > at { output.write(start + at, count: lower - at) }
            output.write(Colors.match)
            output.write(start + lower, count: upper - lower)
            output.write(Colors.reset)
            at = upper
        }
        if end - start > at { output.write(start + at, count: end - start - at) }
    }

    // MARK: - Ranking

    /// A line held for `--rank`.
    struct RankedLine {
        var score: MatchScore
        var order: Int
        var bytes: Range<Int>

        /// The ranking order (see RANKING in the man page): the query matching the line
        /// (or field) whole, more whole words, a match at its first word, fewer words,
        /// then input order.
        static func ranksBefore(_ a: RankedLine, _ b: RankedLine) -> Bool {
            if a.score.coversLine != b.score.coversLine { return a.score.coversLine }
            if a.score.wholeWords != b.score.wholeWords { return a.score.wholeWords > b.score.wholeWords }
            if a.score.atLineStart != b.score.atLineStart { return a.score.atLineStart }
            if a.score.wordCount != b.score.wordCount { return a.score.wordCount < b.score.wordCount }
            return a.order < b.order
        }
    }

    private mutating func hold(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, hasRanges: Bool, fieldOffset: Int) {
        // Render the line (prefixes, colours) into the side buffer now, while its file
        // name and number are at hand.
        let before = rankedLines.count
        let saved = output
        output = rankedLines
        writeFilePrefix(separator: UInt8(ascii: ":"))
        writeLineNumber()
        writeLine(start, end: end, hasRanges: hasRanges, fieldOffset: fieldOffset)
        output = saved
        let score = hasRanges ? matcher.lastScore : MatchScore()
        ranked.append(RankedLine(score: score, order: ranked.count, bytes: before..<rankedLines.count))
    }

    private mutating func printRanked() {
        ranked.sort(by: RankedLine.ranksBefore)
        let limit = options.maxCount ?? ranked.count
        rankedLines.withCollectedBytes { all in
            for line in ranked.prefix(limit) {
                output.write(UnsafeBufferPointer(rebasing: all[line.bytes]))
                output.write(byte: options.terminator)
                output.endRecord()
                if output.isClosed { break }
            }
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
