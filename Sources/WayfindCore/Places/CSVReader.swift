/// Splits CSV (RFC 4180) into records of fields, one record at a time, as GTFS feeds
/// write it.
///
///     stop_id,stop_name,stop_lat          three fields
///     S1,"Main St, ""North""",36.4        `Main St, "North"`: a quoted field may hold
///                                         commas and doubled quotes
///     S2,"Line one                        a quoted field may hold a newline: the record
///     line two",36.5                      ends at the newline outside quotes
///
/// Records end at `\n` or `\r\n` outside quotes; a carriage return elsewhere is data. A
/// quote inside an unquoted field is data (`5" gauge`), as most writers and readers
/// take it. Two things are errors, since no reading of them is right: a quoted field
/// that is never closed, and text after a closing quote (`"a"b,`). The bytes are not
/// decoded: invalid UTF-8 passes through for the caller to judge.
package enum CSVReader {
    /// What one call to `record` found.
    package enum Outcome: Equatable, Sendable {
        /// A record of `fields`: it ends at `end` (after its newline) and held `lines`
        /// newlines (its own and those inside quoted fields; 0 for a last record without one).
        case record(end: Int, lines: Int)
        /// The bytes end inside the record, and more may come (`isFinal` false).
        case incomplete
        /// The bytes are not CSV, `lines` newlines after the record's first line.
        case malformed(Problem, lines: Int)
    }

    /// Why bytes are not CSV.
    package enum Problem: Equatable, Sendable, CustomStringConvertible {
        /// A field opens with a quote that no quote closes.
        case unclosedQuote
        /// A closing quote is followed by something other than a comma or the record's end.
        case textAfterClosingQuote

        /// A lowercase message.
        package var description: String {
            switch self {
            case .unclosedQuote: "a quoted field is not closed"
            case .textAfterClosingQuote: "text after a closing quote (a quote inside a quoted field is written \"\")"
            }
        }
    }

    private static let quote: UInt8 = 0x22
    private static let comma: UInt8 = 0x2C
    private static let newline: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D

    /// Reads the record starting at `start` of `bytes` into `fields` (the first
    /// `fieldCount` of them; the arrays are reused from call to call, so a long file
    /// allocates little). `isFinal` tells that no bytes follow `bytes`: then a record may
    /// end without a newline. `start` must be below `bytes.count`.
    package static func record(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, isFinal: Bool, fields: inout [[UInt8]], fieldCount: inout Int
    ) -> Outcome {
        let n = bytes.count
        var i = start
        var lines = 0
        fieldCount = 0
        while true {
            if fields.count == fieldCount { fields.append([]) }
            fields[fieldCount].removeAll(keepingCapacity: true)
            fieldCount += 1
            let k = fieldCount - 1
            if i < n && bytes[i] == quote {
                i += 1
                // An unclosed quote is reported where it opened.
                let openedAt = lines
                while true {
                    guard i < n else { return isFinal ? .malformed(.unclosedQuote, lines: openedAt) : .incomplete }
                    let c = bytes[i]
                    if c == quote {
                        if i + 1 < n && bytes[i + 1] == quote {
                            fields[k].append(quote)
                            i += 2
                            continue
                        }
                        // A quote last in the bytes may be the first of a doubled one.
                        if i + 1 == n && !isFinal { return .incomplete }
                        i += 1
                        break
                    }
                    if c == newline { lines += 1 }
                    fields[k].append(c)
                    i += 1
                }
                guard i < n else { return isFinal ? .record(end: i, lines: lines) : .incomplete }
                switch bytes[i] {
                case comma:
                    i += 1
                    continue
                case newline:
                    return .record(end: i + 1, lines: lines + 1)
                case carriageReturn where i + 1 < n && bytes[i + 1] == newline:
                    return .record(end: i + 2, lines: lines + 1)
                case carriageReturn where i + 1 == n && !isFinal:
                    return .incomplete
                default:
                    return .malformed(.textAfterClosingQuote, lines: lines)
                }
            }
            while i < n {
                let c = bytes[i]
                if c == comma { break }
                if c == newline {
                    if fields[k].last == carriageReturn { fields[k].removeLast() }
                    return .record(end: i + 1, lines: lines + 1)
                }
                fields[k].append(c)
                i += 1
            }
            if i == n {
                guard isFinal else { return .incomplete }
                if fields[k].last == carriageReturn { fields[k].removeLast() }
                return .record(end: n, lines: lines)
            }
            i += 1  // the comma
        }
    }

    /// Every record of `bytes` (all of a file), or the problem and the line it is on
    /// (from 1). For tests and the fuzz target; `GTFSStops` reads block by block.
    package static func records(_ bytes: [UInt8]) -> Result<[[[UInt8]]], LineProblem> {
        bytes.withUnsafeBufferPointer { buffer in
            var records: [[[UInt8]]] = []
            var fields: [[UInt8]] = []
            var count = 0
            var start = 0
            var line = 1
            while start < buffer.count {
                switch record(in: buffer, from: start, isFinal: true, fields: &fields, fieldCount: &count) {
                case .record(let end, let lines):
                    records.append(Array(fields[..<count]))
                    start = end
                    line += lines
                case .malformed(let problem, let lines):
                    return .failure(LineProblem(problem: problem, line: line + lines))
                case .incomplete:
                    preconditionFailure("a final record is never incomplete")
                }
            }
            return .success(records)
        }
    }

    /// A problem and its line.
    package struct LineProblem: Error, Equatable {
        /// What is wrong.
        package var problem: Problem
        /// The line it is on, from 1.
        package var line: Int
    }
}
