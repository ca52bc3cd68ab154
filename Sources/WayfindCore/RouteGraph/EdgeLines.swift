#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `edges` array of a graph file in the writer's exact shape, one line per edge:
///
///     {
///       "edges": [
///         {"destination":"Airport","lastVisitedAt":1700003600,"origin":"City Center","weight":12},
///         {"destination":"Harbour","origin":"Old Town","weight":3}
///       ],
///
/// read by the fast paths (a visit that patches the file, suggestions by scanning it).
/// Every byte is checked as the full reader would check it, but nothing is decoded or
/// copied: each line is remembered by where its names are.
struct EdgeLine {
    /// The line's `{`.
    var start: Int32
    /// The destination's bytes (between the quotes).
    var destination: Int32
    var destinationCount: Int32
    /// The origin's bytes.
    var origin: Int32
    var originCount: Int32

    /// Where some bytes of the file are (a struct: arrays of ranges or tuples cost a
    /// run-time metadata instantiation at every start).
    struct Span {
        var start: Int32
        var count: Int32

        func bytes(in file: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: file.baseAddress.map { $0 + Int(start) }, count: Int(count))
        }
    }

    func destination(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: bytes.baseAddress.map { $0 + Int(destination) }, count: Int(destinationCount))
    }

    func origin(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: bytes.baseAddress.map { $0 + Int(origin) }, count: Int(originCount))
    }
}

/// The second half of a split scan: its visitor, and where its lines ended (nil if
/// they did not hold). Shared with the thread that scans it, which alone touches it
/// until joined.
///
/// `Visitor` is deliberately unconstrained: a generic requirement would have the runtime
/// check the conformance when it first builds the class's metadata, which searches every
/// conformance record in the binary (75 k instructions, and their pages faulted in).
private final class EdgeLineHalf<Visitor>: @unchecked Sendable {
    var visitor: Visitor
    var end: Int? = nil

    init(_ visitor: Visitor) {
        self.visitor = visitor
    }
}

/// What a scan of the edge lines does with each line as it is checked.
protocol EdgeLineVisitor: ~Copyable {
    mutating func visit(_ index: Int, _ line: EdgeLine)
}

/// A visitor that can also skim a file whose edge lines were checked before
/// (`skimEdgeLines`): it sees only the lines whose origin it wants.
protocol EdgeLineSkimmer: EdgeLineVisitor {
    /// False if no origin ending with the byte `last`, after the byte `before`, is
    /// wanted (asked first, as it is cheaper than finding where the origin starts).
    /// `before` is the origin's opening quote when the origin is one byte long.
    func mayWant(originEndingWith last: UInt8, after before: UInt8) -> Bool
    mutating func wants(origin: UnsafeRawBufferPointer) -> Bool
}

extension RouteGraph {
    /// Checks edge lines from `reader`'s position (a line's `{`): up to the last one,
    /// or, with `stop`, up to the line that starts at `stop` (which must follow a
    /// separator). Returns how many lines there were, or nil for any other shape.
    @inline(__always)
    static func scanEdgeLineRun<Visitor: EdgeLineVisitor & ~Copyable>(
        _ reader: inout JSONReader, stoppingAt stop: Int?, firstIndex: Int = 0, _ visitor: inout Visitor
    ) -> Int? {
        var count = 0
        while true {
            let start = reader.offset
            guard reader.skipLiteral("{\"destination\":\"") else { return nil }
            let destination = reader.offset
            guard let destinationBytes = reader.plainStringBody() else { return nil }
            if reader.skipLiteral(",\"lastVisitedAt\":") {
                guard reader.skipPlainNonNegativeInteger() else { return nil }
            }
            guard reader.skipLiteral(",\"origin\":\"") else { return nil }
            let origin = reader.offset
            guard let originBytes = reader.plainStringBody(), reader.skipLiteral(",\"weight\":"),
                reader.skipPlainNonNegativeInteger(), reader.skipLiteral("}")
            else { return nil }
            let line = EdgeLine(
                start: Int32(truncatingIfNeeded: start), destination: Int32(truncatingIfNeeded: destination),
                destinationCount: Int32(truncatingIfNeeded: destinationBytes.count),
                origin: Int32(truncatingIfNeeded: origin), originCount: Int32(truncatingIfNeeded: originBytes.count))
            visitor.visit(firstIndex + count, line)
            count += 1
            if reader.skipLiteral(",\n    ") {
                if reader.offset == stop { return count }
                continue
            }
            return stop == nil ? count : nil
        }
    }

    /// Edge lines from this many bytes on are checked by two threads, each with half.
    static let parallelScanBytes = 1 << 20

    /// Checks the file's start and its edge lines, which `headerFromTail` found to end
    /// at `edgesEnd`; true when they hold. From `parallelAbove` bytes of lines on, the
    /// second half goes to another thread with `second`, else every line to `first`.
    static func scanEdgeLines<Visitor: EdgeLineVisitor>(
        _ bytes: UnsafeRawBufferPointer, endingAt edgesEnd: Int, parallelAbove: Int, _ first: inout Visitor,
        _ second: inout Visitor
    ) -> Bool {
        splitEdgeLines(bytes, endingAt: edgesEnd, parallelAbove: parallelAbove, &first, &second) { start, stop, visitor in
            var reader = JSONReader(bytes)
            reader.rewind(to: start)
            return scanEdgeLineRun(&reader, stoppingAt: stop, &visitor) != nil && (stop != nil || reader.offset == edgesEnd)
        }
    }

    /// Runs `run` over the edge lines (from the first line's start, or a line's start, to
    /// the line that starts at a stop, or with no stop to `edgesEnd`) after checking the
    /// file's start: all of them with `first`, or from `parallelAbove` bytes of lines on
    /// the second half on another thread with `second`, split at a line start. True when
    /// the file starts as it should and every run holds.
    private static func splitEdgeLines<Visitor: EdgeLineVisitor>(
        _ bytes: UnsafeRawBufferPointer, endingAt edgesEnd: Int, parallelAbove: Int, _ first: inout Visitor,
        _ second: inout Visitor, meanwhile: () -> Void = {}, meanwhileWeight: Int = 0,
        run: (Int, Int?, inout Visitor) -> Bool
    ) -> Bool {
        var reader = JSONReader(bytes)
        guard bytes.count < Int(Int32.max), edgesEnd <= bytes.count, reader.skipLiteral("{\n  \"edges\": [\n    ")
        else {
            meanwhile()
            return false
        }
        let firstLine = reader.offset
        // This thread also runs `meanwhile`, worth `meanwhileWeight` bytes of lines: its
        // share of the lines plus that weight is the other thread's share (and at least
        // an eighth of the lines).
        let lines = edgesEnd - firstLine
        let firstShare = max(lines / 8, (lines - meanwhileWeight) / 2)
        guard lines >= parallelAbove,
            let split = edgeLineSplit(in: bytes, from: firstLine, end: edgesEnd, after: firstLine + firstShare)
        else {
            meanwhile()
            return run(firstLine, nil, &first)
        }
        // The second half on another thread, from the line that starts at `split`.
        return withoutActuallyEscaping(run) { run in
            let half = EdgeLineHalf(second)
            let runHalf = {
                if run(split, nil, &half.visitor) { half.end = edgesEnd }
            }
            let work = BackgroundWork(runHalf)
            let isParallel = work.start()
            meanwhile()
            let firstHalf = run(firstLine, split, &first)
            if isParallel { work.join() } else { runHalf() }
            second = half.visitor
            return firstHalf && half.end == edgesEnd
        }
    }

    /// `scanEdgeLines` for a file whose bytes were checked before and have not changed
    /// since (it carries a stamp, see `GraphFile`): each line's origin is found from the
    /// line's end, without reading the rest,
    ///
    ///     {"destination":"Harbour","lastVisitedAt":1700000000,"origin":"Old Town","weight":3},
    ///                                                                  ↑ origin ↑
    ///
    /// and only the lines whose origin `visitor` wants are read, and checked, in full. In
    /// the writer's shape a name holds neither a quote nor a newline. False when a line
    /// is not in that shape (then check the file).
    ///
    /// `meanwhile` runs on this thread once the second half has started on another (or
    /// first of all, on one thread): other work to overlap with the skim, which takes as
    /// long as skimming `meanwhileWeight` bytes of lines, so this thread skims that many
    /// fewer and the two finish together.
    static func skimEdgeLines<Visitor: EdgeLineSkimmer>(
        _ bytes: UnsafeRawBufferPointer, endingAt edgesEnd: Int, parallelAbove: Int, _ first: inout Visitor,
        _ second: inout Visitor, meanwhile: () -> Void = {}, meanwhileWeight: Int = 0
    ) -> Bool {
        splitEdgeLines(
            bytes, endingAt: edgesEnd, parallelAbove: parallelAbove, &first, &second, meanwhile: meanwhile,
            meanwhileWeight: meanwhileWeight
        ) { start, stop, visitor in
            skimEdgeLineRun(bytes, from: start, stoppingAt: stop, edgesEnd: edgesEnd, &visitor)
        }
    }

    /// For a file whose bytes were checked before (as for `skimEdgeLines`): every edge
    /// line to `first` (and `second`, as `scanEdgeLines` splits them), found by where its
    /// quotes are, without checking its bytes again. False when a line is not in the
    /// writer's shape (then check the file).
    static func locateEdgeLines<Visitor: EdgeLineVisitor>(
        _ bytes: UnsafeRawBufferPointer, endingAt edgesEnd: Int, parallelAbove: Int, _ first: inout Visitor,
        _ second: inout Visitor
    ) -> Bool {
        splitEdgeLines(bytes, endingAt: edgesEnd, parallelAbove: parallelAbove, &first, &second) { start, stop, visitor in
            locateEdgeLineRun(bytes, from: start, stoppingAt: stop, edgesEnd: edgesEnd, &visitor)
        }
    }

    /// Where the line at `start` ends (its newline, nil for the last line) and where its
    /// origin's closing quote is, read back from its end
    /// (`…"origin":"Old Town","weight":3},`); nil when the line does not end so.
    @inline(__always)
    private static func lineEnd(
        at start: Int, edgesEnd: Int, in base: UnsafePointer<UInt8>
    ) -> (newline: Int?, originEnd: Int)? {
        let newline = Platform.findByte(UInt8(ascii: "\n"), in: base + start, count: edgesEnd - start).map { $0 - base }
        // The line's `}`: before the newline's `,`, or (the last line) before the edges' end.
        var position = (newline.map { $0 - 1 } ?? edgesEnd) - 1
        guard position > start, newline == nil || base[position + 1] == UInt8(ascii: ","),
            base[position] == UInt8(ascii: "}")
        else { return nil }
        // Back over the weight's digits and key to the origin's closing quote.
        while position > start, base[position - 1] &- UInt8(ascii: "0") < 10 { position -= 1 }
        position -= weightKey + 1
        guard position > start + originKey, hasBytes(",\"weight\":", at: position + 1, in: base),
            base[position] == UInt8(ascii: "\"")
        else { return nil }
        return (newline, position)
    }

    /// Where the origin that ends at `originEnd` (its closing quote) starts, in the line
    /// at `start`; nil when it is not preceded by its key.
    @inline(__always)
    private static func originStart(endingAt originEnd: Int, lineStart start: Int, in base: UnsafePointer<UInt8>) -> Int? {
        guard
            let open = Platform.findLastByte(UInt8(ascii: "\""), in: base + start, count: originEnd - start)
                .map({ $0 - base }),
            open - start >= originKey, hasBytes("\"origin\":\"", at: open + 1 - originKey, in: base)
        else { return nil }
        return open + 1
    }

    /// The start of the line after the one whose newline is at `newline`, or nil when
    /// the separator is not there.
    @inline(__always)
    private static func nextLine(after newline: Int, edgesEnd: Int, in base: UnsafePointer<UInt8>) -> Int? {
        guard newline + 5 < edgesEnd, hasBytes("    ", at: newline + 1, in: base) else { return nil }
        return newline + 5
    }

    /// The lengths of `,"weight":`, `"origin":"` and `{"destination":"` (constants, not
    /// stored properties: a static `let` costs a `swift_once` on every line).
    private static var weightKey: Int { 10 }
    private static var originKey: Int { 10 }
    private static var destinationKey: Int { 16 }

    /// Skims the edge lines from the one at `start` up to the line that starts at `stop`,
    /// or with no `stop` to the last one, which ends at `edgesEnd`.
    private static func skimEdgeLineRun<Visitor: EdgeLineSkimmer>(
        _ bytes: UnsafeRawBufferPointer, from start: Int, stoppingAt stop: Int?, edgesEnd: Int, _ visitor: inout Visitor
    ) -> Bool {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        var reader = JSONReader(bytes)
        var start = start
        var index = 0
        while start < edgesEnd {
            guard let (newline, originEnd) = lineEnd(at: start, edgesEnd: edgesEnd, in: base) else { return false }
            if visitor.mayWant(originEndingWith: base[originEnd - 1], after: base[originEnd - 2]) {
                guard let origin = originStart(endingAt: originEnd, lineStart: start, in: base) else { return false }
                if visitor.wants(origin: UnsafeRawBufferPointer(rebasing: bytes[origin..<originEnd])) {
                    reader.rewind(to: start)
                    guard scanEdgeLineRun(&reader, stoppingAt: newline.map { $0 + 5 }, firstIndex: index, &visitor) == 1,
                        newline != nil || reader.offset == edgesEnd
                    else { return false }
                }
            }
            guard let newline else { return stop == nil }
            guard let next = nextLine(after: newline, edgesEnd: edgesEnd, in: base) else { return false }
            start = next
            index += 1
            if start == stop { return true }
        }
        return false
    }

    /// Locates the edge lines from the one at `start` up to the line that starts at
    /// `stop`, or with no `stop` to the last one, and hands each to `visitor`.
    private static func locateEdgeLineRun<Visitor: EdgeLineVisitor>(
        _ bytes: UnsafeRawBufferPointer, from start: Int, stoppingAt stop: Int?, edgesEnd: Int, _ visitor: inout Visitor
    ) -> Bool {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        var start = start
        var index = 0
        while start < edgesEnd {
            guard let (newline, originEnd) = lineEnd(at: start, edgesEnd: edgesEnd, in: base),
                let origin = originStart(endingAt: originEnd, lineStart: start, in: base),
                origin - start > destinationKey, hasBytes("{\"destination\":\"", at: start, in: base),
                let destinationEnd = Platform.findByte(
                    UInt8(ascii: "\""), in: base + start + destinationKey, count: origin - start - destinationKey
                ).map({ $0 - base })
            else { return false }
            let destination = start + destinationKey
            let line = EdgeLine(
                start: Int32(truncatingIfNeeded: start), destination: Int32(truncatingIfNeeded: destination),
                destinationCount: Int32(truncatingIfNeeded: destinationEnd - destination),
                origin: Int32(truncatingIfNeeded: origin), originCount: Int32(truncatingIfNeeded: originEnd - origin))
            visitor.visit(index, line)
            guard let newline else { return stop == nil }
            guard let next = nextLine(after: newline, edgesEnd: edgesEnd, in: base) else { return false }
            start = next
            index += 1
            if start == stop { return true }
        }
        return false
    }

    /// Whether the bytes at `position` are `literal`'s (the caller knows they exist).
    @inline(__always)
    private static func hasBytes(_ literal: StaticString, at position: Int, in base: UnsafePointer<UInt8>) -> Bool {
        memcmp(base + position, literal.utf8Start, literal.utf8CodeUnitCount) == 0
    }

    /// Where to split the edge lines between `from` and `end` for two threads: the start
    /// of the first line after `after` (default the middle; just after `},\n    `), or nil. Strings
    /// cannot hold a newline, so in a valid file these bytes only ever end a line; in
    /// any other file one of the two scans fails.
    static func edgeLineSplit(in bytes: UnsafeRawBufferPointer, from: Int, end: Int, after: Int? = nil) -> Int? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), end <= bytes.count else { return nil }
        var position = min(max(after ?? from + (end - from) / 2, from), end)
        while position < end {
            guard let newline = Platform.findByte(UInt8(ascii: "\n"), in: base + position, count: end - position) else {
                return nil
            }
            let index = newline - base
            if index >= 2, index + 5 < end, base[index - 2] == UInt8(ascii: "}"), base[index - 1] == UInt8(ascii: ","),
                UnsafeRawBufferPointer(rebasing: bytes[index + 1..<index + 6]).elementsEqual("    {".utf8)
            {
                return index + 5
            }
            position = index + 1
        }
        return nil
    }

    /// The header lines between `edges` and `places`, found from the end of the file, and
    /// where the first record starts:
    ///
    ///       ],                                  ← `edgesEnd` is at the newline before
    ///       "lastVisitedAt": 1700003600,
    ///       "lastVisitedLocation": "Airport",   ← `lastName`
    ///       "places": [
    ///         {"lastVisitedAt":1700003600,"name":"Airport","visits":12},
    ///         …
    ///
    /// The records come last and are short next to the edges, so a scan can know the
    /// last place before it reads the edges. Nothing before the header has been checked:
    /// a caller must find the same `edgesEnd` by scanning the edges forward. Nil when
    /// the lines are not there.
    static func headerFromTail(
        _ bytes: UnsafeRawBufferPointer
    ) -> (edgesEnd: Int, lastName: UnsafeRawBufferPointer?, recordsStart: Int)? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        // Back from the end to the `[` of the `  "places": [` line (the records hold one
        // only inside a name), then line by line, up to three, to the `  ],` that ends
        // the edges.
        let placesHeader = "  \"places\": [\n"
        var end = bytes.count
        var placesLine: Int? = nil
        while placesLine == nil {
            guard let bracket = Platform.findLastByte(UInt8(ascii: "["), in: base, count: end) else { return nil }
            let position = bracket - base
            let lineStart = position - (placesHeader.utf8.count - 2)
            if lineStart >= 1, base[lineStart - 1] == UInt8(ascii: "\n"), position + 1 < bytes.count,
                UnsafeRawBufferPointer(rebasing: bytes[lineStart..<position + 2]).elementsEqual(placesHeader.utf8)
            {
                placesLine = lineStart
                end = lineStart - 1
            } else {
                end = position
            }
        }
        var linesAbove = 0
        while end > 0 {
            guard let newline = Platform.findLastByte(UInt8(ascii: "\n"), in: base, count: end) else { return nil }
            let line = UnsafeRawBufferPointer(rebasing: bytes[newline - base + 1..<end])
            end = newline - base
            guard line.elementsEqual("  ],".utf8) else {
                linesAbove += 1
                if linesAbove > 2 { return nil }
                continue
            }
            var reader = JSONReader(bytes)
            reader.rewind(to: end)
            guard reader.skipLiteral("\n  ],\n") else { return nil }
            if reader.skipLiteral("  \"lastVisitedAt\": ") {
                guard reader.skipPlainNonNegativeInteger(), reader.skipLiteral(",\n") else { return nil }
            }
            var lastName: UnsafeRawBufferPointer? = nil
            if reader.skipLiteral("  \"lastVisitedLocation\": \"") {
                guard let name = reader.plainStringBody(), reader.skipLiteral(",\n") else { return nil }
                lastName = name
            }
            guard reader.offset == placesLine, reader.skipLiteral("  \"places\": [\n    ") else { return nil }
            return (end, lastName, reader.offset)
        }
        return nil
    }

    /// The end of a file in the writer's shape, from just after the last place record's
    /// `}`: the `places` array's close, the `successors` block if there is one (a copy
    /// of the edge lines that leave the last place), and the version,
    ///
    ///       ],
    ///       "successors": [
    ///         {"destination":"Airport","lastVisitedAt":1700000000,"origin":"City Center","weight":11}
    ///       ],
    ///       "version": 1
    ///     }
    ///
    /// (or `"successors": [],`). Each successor line is checked as an edge line and
    /// shown to `visitor`. Returns where the successor lines are (from the first one's
    /// `{` to the last one's `}`; empty for `[]`), `nil` inside when there is no block,
    /// or nil when the end is not in that shape.
    static func readFileEnd<Visitor: EdgeLineVisitor>(
        _ reader: inout JSONReader, _ visitor: inout Visitor
    ) -> Range<Int>?? {
        guard reader.skipLiteral("\n  ],\n") else { return nil }
        var successors: Range<Int>? = nil
        if reader.skipLiteral("  \"successors\": [") {
            if reader.skipLiteral("],\n") {
                successors = reader.offset - 3..<reader.offset - 3
            } else {
                guard reader.skipLiteral("\n    ") else { return nil }
                let start = reader.offset
                guard scanEdgeLineRun(&reader, stoppingAt: nil, &visitor) != nil else { return nil }
                successors = start..<reader.offset
                guard reader.skipLiteral("\n  ],\n") else { return nil }
            }
        }
        guard reader.skipLiteral("  \"version\": 1\n}\n"), reader.offset == reader.bytes.count else { return nil }
        return .some(successors)
    }

    /// The successor lines of a file in the writer's shape (see `readFileEnd`), found
    /// from its end without reading the records before them: from the first line's `{`
    /// to the last one's `}`, empty for `[]`; nil when the file does not end with such a
    /// block. The lines are only located here: a caller reads them with
    /// `scanEdgeLineRun`, which checks them.
    static func successorsFromTail(_ bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        func endsWith(_ literal: StaticString, before end: Int) -> Bool {
            end >= literal.utf8CodeUnitCount && hasBytes(literal, at: end - literal.utf8CodeUnitCount, in: base)
        }
        let versionLine: StaticString = "\n  \"version\": 1\n}\n"
        guard endsWith(versionLine, before: bytes.count) else { return nil }
        var end = bytes.count - versionLine.utf8CodeUnitCount
        let empty: StaticString = "\n  \"successors\": [],"
        if endsWith(empty, before: end) { return end - 2..<end - 2 }
        // Back over `  ],` and then line by line over edge lines, up to the key's line;
        // any other line (a place record, when there is no block) ends the search.
        guard endsWith("\n  ],", before: end) else { return nil }
        end -= 5
        let last = end
        while true {
            guard let newline = Platform.findLastByte(UInt8(ascii: "\n"), in: base, count: end).map({ $0 - base })
            else { return nil }
            if endsWith("\n  \"successors\": [", before: end) {
                return end + 5 <= last ? end + 5..<last : nil
            }
            guard end - newline > 21, hasBytes("    {\"destination\":\"", at: newline + 1, in: base) else { return nil }
            end = newline
        }
    }

    /// The time and weight of `line`, which `scanEdgeLines` has checked, and the
    /// position just after its `}`.
    static func values(of line: EdgeLine, in bytes: UnsafeRawBufferPointer) -> (time: Int64?, weight: Int64, end: Int)? {
        var reader = JSONReader(bytes)
        // A time lies between the destination's closing quote and the origin's key.
        var time: Int64? = nil
        let originKey = ",\"origin\":\"".utf8.count
        let destinationEnd = Int(line.destination + line.destinationCount) + 1
        if Int(line.origin) - originKey > destinationEnd {
            reader.rewind(to: destinationEnd)
            guard reader.skipLiteral(",\"lastVisitedAt\":"), let value = reader.plainNonNegativeInteger() else { return nil }
            time = value
        }
        reader.rewind(to: Int(line.origin + line.originCount) + 1)
        guard reader.skipLiteral(",\"weight\":"), let weight = reader.plainNonNegativeInteger(), reader.skipLiteral("}")
        else { return nil }
        return (time, weight, reader.offset)
    }
}
