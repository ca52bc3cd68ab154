import WayfindCore

/// How smartgrep prints what it selects: prefixes, colours, context groups, file names
/// and ranked lines.

extension SmartgrepSearch {
    // MARK: - Context

    /// After -m's last line: prints the lines of `[start, end)` as trailing context until
    /// none is left to print, then stops the file.
    mutating func trailingContext(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) {
        var p = start
        while p < end && afterRemaining > 0 && !stopFile {
            let lineEnd = Platform.findByte(options.terminator, in: p, count: end - p) ?? end
            lineNumber += 1
            context(p, end: lineEnd)
            p = lineEnd + 1
        }
        if afterRemaining == 0 { stopFile = true }
    }

    /// A line of after-context.
    mutating func context(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) {
        afterRemaining -= 1
        writeContext(start, count: end - start, number: lineNumber, offset: fileOffset(of: start))
    }

    /// Prints a context line numbered `number`, at byte `offset` of its file (with -o,
    /// prints nothing but still counts for grep's group separators).
    mutating func writeContext(_ start: UnsafePointer<UInt8>, count: Int, number: Int, offset: Int) {
        if isBinary || output.isClosed { return }
        separateGroup(before: number)
        lastOutputLine = number
        if options.onlyMatching { return }
        writeHead(separator: UInt8(ascii: "-"), number: number, offset: offset, hasText: count > 0)
        output.write(start, count: count)
        output.write(byte: options.terminator)
        output.endRecord()
    }

    /// Prints grep's `--` (or --group-separator's) before a line that does not follow the
    /// last one printed.
    ///
    /// On a thread of a pool, the first group of a file cannot know whether an earlier
    /// file printed one: it notes where it starts, and the pool writes the separator
    /// there if so.
    mutating func separateGroup(before number: Int) {
        if printedGroup && (lastOutputLine == 0 || number > lastOutputLine + 1) {
            writeGroupSeparator()
        } else if !printedGroup, let job {
            job.firstGroupAt = output.count
        }
        printedGroup = true
    }

    /// Prints grep's `--` (or --group-separator's) on a line of its own.
    func writeGroupSeparator() {
        guard let separator = options.groupSeparator else { return }
        if options.color { output.write(options.colors.separator) }
        output.write(separator)
        if options.color { output.write(options.colors.reset) }
        output.write(byte: 0x0A)
    }

    /// Prints the before-context of the selected line starting at `lineStart`, numbered
    /// `lineNumber`: the lines after the last one printed, up to -B of them.
    mutating func writeBeforeContext(_ lineStart: UnsafePointer<UInt8>) {
        let first = max(lastOutputLine + 1, lineNumber - options.beforeContext, 1)
        let needed = lineNumber - first
        guard needed > 0, let base = blockStart else { return }
        let t = options.terminator
        var found: [UnsafePointer<UInt8>] = []
        var p = lineStart
        while found.count < needed && p > base {
            let previousStart = Platform.findLastByte(t, in: base, count: p - 1 - base).map { $0 + 1 } ?? base
            found.append(previousStart)
            p = previousStart
        }
        let fromTail = needed - found.count
        if fromTail > 0 {
            for held in tail where held.number >= first && held.number < first + fromTail {
                held.bytes.withUnsafeBufferPointer {
                    writeContext($0.baseAddress ?? lineStart, count: $0.count, number: held.number, offset: held.offset)
                }
            }
        }
        var number = lineNumber - found.count
        var end = lineStart - 1
        var lines: [(UnsafePointer<UInt8>, UnsafePointer<UInt8>)] = []
        for s in found {
            lines.append((s, end))
            end = s - 1
        }
        for (s, e) in lines.reversed() {
            writeContext(s, count: e - s, number: number, offset: fileOffset(of: s))
            number += 1
        }
    }

    /// Keeps the last -B lines of a block searched (those not printed), for a selected
    /// line early in the next block.
    mutating func keepTail(_ base: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) {
        let t = options.terminator
        var kept: [HeldLine] = []
        var lineEnd = end - 1
        var number = lineNumber
        while kept.count < options.beforeContext && number > lastOutputLine {
            let lineStart = Platform.findLastByte(t, in: base, count: lineEnd - base).map { $0 + 1 } ?? base
            let bytes = Array(UnsafeBufferPointer(start: lineStart, count: lineEnd - lineStart))
            kept.append(HeldLine(number: number, offset: fileOffset(of: lineStart), bytes: bytes))
            number -= 1
            if lineStart == base { break }
            lineEnd = lineStart - 1
        }
        tail = Array((tail + kept.reversed()).suffix(options.beforeContext))
    }

    /// A line is selected and more than printing it is asked: -q, -l, -L, -c, --rank,
    /// context, -o, or the file is binary.
    mutating func selectOtherwise(
        _ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, hasRanges: Bool, fieldOffset: Int
    ) {
        if options.quiet {
            stopFile = true
            stopAll = true
            return
        }
        if let listing = options.listFiles {
            if listing == .withMatch { writeFileName() }
            stopFile = true
            return
        }
        if let max = options.maxCount, selectedInFile >= max, !options.rank {
            if options.afterContext > 0 && printsLines && !isBinary { maxReached = true } else { stopFile = true }
        }
        if options.countOnly { return }
        if isBinary {
            report("\(fileName): binary file matches")
            stopFile = true
            return
        }
        if options.rank {
            hold(start, end: end, hasRanges: hasRanges, fieldOffset: fieldOffset)
            return
        }
        if contextGiven {
            if options.beforeContext > 0 { writeBeforeContext(start) }
            separateGroup(before: lineNumber)
            lastOutputLine = lineNumber
            afterRemaining = options.afterContext
        }
        writeSelected(start, end: end, hasRanges: hasRanges, fieldOffset: fieldOffset)
        if output.isClosed {
            stopFile = true
            stopAll = true
        }
    }

    /// Prints a selected line with its prefixes, or with -o its matched parts.
    func writeSelected(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, hasRanges: Bool, fieldOffset: Int) {
        if options.onlyMatching {
            guard hasRanges else { return }
            for r in currentRanges {
                let part = start + r.lowerBound + fieldOffset
                writeHead(separator: UInt8(ascii: ":"), number: lineNumber, offset: fileOffset(of: part), hasText: !r.isEmpty)
                if options.color { output.write(options.colors.match) }
                output.write(part, count: r.count)
                if options.color { output.write(options.colors.reset) }
                output.write(byte: options.terminator)
                output.endRecord()
            }
            return
        }
        writeHead(separator: UInt8(ascii: ":"), number: lineNumber, offset: fileOffset(of: start), hasText: end > start)
        writeLine(start, end: end, hasRanges: hasRanges, fieldOffset: fieldOffset)
        output.write(byte: options.terminator)
        output.endRecord()
    }

    /// Prints the file's name alone (-l, -L), ended by a newline, or a NUL with -Z.
    func writeFileName() {
        if options.color { output.write(options.colors.fileName) }
        output.write(fileName)
        if options.color { output.write(options.colors.reset) }
        output.write(byte: options.nullAfterFileName ? 0 : 0x0A)
        output.endRecord()
    }

    /// Prints a line's prefixes as grep's print_line_head does: the file name, the line
    /// `number` and the byte `offset`, each as asked and followed by `separator` (`:` for a
    /// selected line, `-` for context; a NUL after the name with -Z), then -T's tab unless
    /// the line has no text.
    @inline(never)
    func writeHead(separator: UInt8, number: Int, offset: Int, hasText: Bool) {
        writeFilePrefix(separator: separator)
        if options.lineNumbers { writeNumber(number, color: options.colors.lineNumber, separator: separator) }
        if options.byteOffsets { writeNumber(offset, color: options.colors.byteOffset, separator: separator) }
        if options.initialTab && hasText && (options.withFilename || options.lineNumbers || options.byteOffsets) {
            output.write(byte: 0x09)
        }
    }

    /// Prints the file name and `separator` (with -H), or the name and a NUL (-Z).
    func writeFilePrefix(separator: UInt8) {
        guard options.withFilename else { return }
        if options.color { output.write(options.colors.fileName) }
        output.write(fileName)
        if options.color { output.write(options.colors.reset) }
        if options.nullAfterFileName {
            output.write(byte: 0)
            return
        }
        writeSeparator(separator)
    }

    /// Prints a line number or byte offset, padded to `numberWidth`, and `separator`.
    private func writeNumber(_ number: Int, color: String, separator: UInt8) {
        if options.color { output.write(color) }
        if numberWidth > 0 {
            var digits = 1
            var rest = number / 10
            while rest != 0 {
                digits += 1
                rest /= 10
            }
            for _ in digits..<max(digits, numberWidth) { output.write(byte: 0x20) }
        }
        output.write(decimal: number)
        if options.color { output.write(options.colors.reset) }
        writeSeparator(separator)
    }

    private func writeSeparator(_ separator: UInt8) {
        if options.color { output.write(options.colors.separator) }
        output.write(byte: separator)
        if options.color { output.write(options.colors.reset) }
    }

    func writeLine(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, hasRanges: Bool, fieldOffset: Int) {
        guard hasRanges && options.color else {
            output.write(start, count: end - start)
            return
        }
        var at = 0
        for r in currentRanges {
            let lower = r.lowerBound + fieldOffset
            let upper = r.upperBound + fieldOffset
            if lower > at { output.write(start + at, count: lower - at) }
            output.write(options.colors.match)
            output.write(start + lower, count: upper - lower)
            output.write(options.colors.reset)
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

    mutating func hold(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, hasRanges: Bool, fieldOffset: Int) {
        // Render the line (prefixes, colours) into the side buffer now, while its file
        // name and number are at hand.
        let before = rankedLines.count
        let saved = output
        output = rankedLines
        writeSelected(start, end: end, hasRanges: hasRanges, fieldOffset: fieldOffset)
        output = saved
        let score = hasRanges ? currentScore : MatchScore()
        ranked.append(RankedLine(score: score, order: ranked.count, bytes: before..<rankedLines.count))
    }

    mutating func printRanked() {
        ranked.sort(by: RankedLine.ranksBefore)
        let limit = options.maxCount ?? ranked.count
        rankedLines.withCollectedBytes { all in
            for line in ranked.prefix(limit) {
                output.write(UnsafeBufferPointer(rebasing: all[line.bytes]))
                output.endRecord()
                if output.isClosed { break }
            }
        }
    }
}
