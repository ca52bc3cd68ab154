/// Fuzz target `matcher`: arbitrary lines and queries against `ReferenceMatcher`.
///
/// An input is a query and the lines to search:
///
///     byte 0        the word mode (mod 3: all, punct, space) and the read size (the rest)
///     then a line   the query (must be valid UTF-8, as a command-line argument must be)
///     the rest      the input lines: any bytes, invalid UTF-8, NUL, CR and all
///
/// For each input, every line is matched by `LineMatcher` (with and without ranges) and
/// by the reference; then smartgrep's search loop runs over all the lines, read a few
/// bytes at a time, with and without -v, and must print exactly the lines the reference
/// selects. A difference prints the case and aborts, so libFuzzer keeps the input.

import Glibc

private let reference = ReferenceMatcher()

private func fail(_ message: String) -> Never {
    var text = "matcher fuzz: " + message + "\n"
    text.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func matcherFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size >= 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let mode = WordMode.allCases[Int(bytes[0]) % 3]
    let readSize = 1 + Int(bytes[0]) / 3 % 40
    let rest = bytes.dropFirst()
    let newline = rest.firstIndex(of: 0x0A) ?? rest.endIndex
    guard let query = String(validating: rest[rest.startIndex..<newline], as: UTF8.self), !query.contains("\0") else {
        return 0
    }
    let input = Array(rest[min(newline + 1, rest.endIndex)...])
    var lines = input.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    if input.last == 0x0A || input.isEmpty { lines.removeLast() }  // no line after the last newline

    let referenceMode = ReferenceMatcher.Mode(rawValue: mode.rawValue)!
    let words = reference.queryWords(query, mode: referenceMode)
    let matcher = LineMatcher(MatchQuery(query, mode: mode))
    var expected: [Bool] = []
    for line in lines {
        let want = reference.matches(words, reference.line(line, mode: referenceMode))
        let plain = line.withUnsafeBufferPointer { matcher.matches($0) }
        let ranged = line.withUnsafeBufferPointer { matcher.matches($0, recordRanges: true) }
        if plain != want || ranged != want {
            fail("query \(Array(query.utf8)) mode \(mode) line \(line): reference \(want), matcher \(plain)/\(ranged)")
        }
        expected.append(want)
    }
    for invert in [false, true] {
        guard var options = try? Smartgrep.options(["--words=\(mode.rawValue)", "-a"] + (invert ? ["-v"] : []) + ["--", query]) else {
            // A query of punctuation alone is refused (it would match every line).
            if words.isEmpty { return 0 }
            fail("options refused for query \(Array(query.utf8))")
        }
        options.readSize = readSize
        let (output, _) = input.withUnsafeBufferPointer { Smartgrep.search($0, options: options) }
        let want: [UInt8] = zip(lines, expected).filter { $0.1 != invert }.flatMap { pair -> [UInt8] in pair.0 + [0x0A] }
        if output != want {
            fail("search: query \(Array(query.utf8)) mode \(mode) invert \(invert) read size \(readSize) input \(input): got \(output)")
        }
    }
    return 0
}
