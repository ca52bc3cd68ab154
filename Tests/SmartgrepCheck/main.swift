// smartgrep-check: checks smartgrep on the real name lists, against the reference matcher.
//
//     smartgrep-check --bin DIR [--root DIR] [--seed N] [--queries N] [--checks self,binary,paths]
//
// `make test` runs it after the unit and end-to-end tests (it needs the release build:
// it runs millions of searches). Three checks, each over every list (Tests/Data/README.md):
//
// 1. Self-match, in-process: for every line, in every word mode, every word of the line,
//    each of its prefixes, and its upper-cased, folded and NFD forms must select the line.
//    Lines that make the same query are searched together, in list order, through the same
//    search loop the tool runs (so a line is first, last or in between, with or without a
//    final newline); every tenth query also reads its input a few bytes at a time, so
//    lines cross read-block boundaries.
// 2. Differential, the built binary: random queries made from the lines (several words,
//    words of other lines, random cuts, mixed case and accents, punctuation around words)
//    with -v, -c and --field, each run by the real `smartgrep` over a window of the list;
//    the output must be exactly what the reference matcher selects.
// 3. Mapped file or pipe: queries over a file big enough to be mapped give the same output
//    read from the file, from a pipe and in memory with odd read sizes.
//
// Any difference is printed (query, mode, line) and the exit status is 1. Keep each
// difference found as a named regression test in the unit tests.
import Dispatch
import Foundation
import WayfindCore
import WayfindCLI
import WayfindTestSupport

// MARK: - Command line

struct Settings {
    var bin = ""
    var root = FileManager.default.currentDirectoryPath
    var seed: UInt64 = 2026
    var queries = 2_000  // per list in the differential check
    var checks: Set<String> = ["self", "binary", "paths"]
}

var parsedSettings = Settings()
var argumentIterator = CommandLine.arguments.dropFirst().makeIterator()
while let argument = argumentIterator.next() {
    switch argument {
    case "--bin": parsedSettings.bin = argumentIterator.next() ?? ""
    case "--root": parsedSettings.root = argumentIterator.next() ?? parsedSettings.root
    case "--seed": parsedSettings.seed = UInt64(argumentIterator.next() ?? "") ?? parsedSettings.seed
    case "--queries": parsedSettings.queries = Int(argumentIterator.next() ?? "") ?? parsedSettings.queries
    case "--checks": parsedSettings.checks = Set((argumentIterator.next() ?? "").split(separator: ",").map(String.init))
    default:
        FileHandle.standardError.write(Data("smartgrep-check: unknown argument \(argument)\n".utf8))
        exit(2)
    }
}
let settings = parsedSettings
guard !settings.bin.isEmpty else {
    FileHandle.standardError.write(Data("smartgrep-check: --bin DIR (the folder of the built smartgrep) is required\n".utf8))
    exit(2)
}
let smartgrepPath = settings.bin + "/smartgrep"

// MARK: - The lists

/// One list of lines, and the field smartgrep matches (`--field`) if any.
struct NameList {
    var name: String
    var lines: [String]
    var field: Int? = nil
    /// The text matched in a line: the field, or the line.
    func matched(_ line: String) -> String {
        guard let field else { return line }
        let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
        return parts.count >= field ? String(parts[field - 1]) : ""
    }
}

func readLines(_ path: String) -> [String] {
    guard let text = try? String(contentsOfFile: settings.root + "/" + path, encoding: .utf8) else {
        FileHandle.standardError.write(Data("smartgrep-check: cannot read \(path)\n".utf8))
        exit(2)
    }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
}

let places = Array(readLines("Sources/WayfindPlacesData/places.tsv").dropFirst())
let column = { (n: Int) in places.map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[n]) } }
/// The lists whose lines are matched whole.
let lists: [NameList] = [
    NameList(name: "city-names-diacritics.txt", lines: readLines("Tests/Data/city-names-diacritics.txt")),
    NameList(name: "places.tsv name", lines: column(1)),
    NameList(name: "places.tsv asciiname", lines: column(2)),
    NameList(name: "unicode-names.tsv", lines: readLines("Tests/Data/unicode-names.tsv")),
    NameList(name: "debian-package-names.txt", lines: readLines("Tests/Data/debian-package-names.txt")),
    NameList(name: "python-stdlib-names.txt", lines: readLines("Tests/Data/python-stdlib-names.txt")),
    NameList(name: "sf-symbols-ios14.txt", lines: readLines("Tests/EndToEndTests/Fixtures/sf-symbols-ios14.txt")),
]
/// Lists searched with `--field`.
let fieldLists: [NameList] = [
    NameList(name: "places.tsv --field=2", lines: places, field: 2),
    NameList(name: "places.tsv --field=3", lines: places, field: 3),
    NameList(name: "unicode-names.tsv --field=3", lines: readLines("Tests/Data/unicode-names.tsv"), field: 3),
]

// MARK: - Reporting

final class Report: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var failures: [String] = []
    private(set) var counts: [String: Int] = [:]

    func fail(_ text: String) {
        lock.lock()
        if failures.count < 40 { failures.append(text) } else { failures.append("") }
        lock.unlock()
    }

    func add(_ key: String, _ n: Int) {
        lock.lock()
        counts[key, default: 0] += n
        lock.unlock()
    }
}

let report = Report()
func show(_ text: String) -> String {
    let shown = text.unicodeScalars.map { $0.properties.generalCategory == .control ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
        .joined()
    return "'\(shown)'"
}

func mode(_ m: ReferenceMatcher.Mode) -> String { "--words=\(m.rawValue)" }

// MARK: - 1. Self-match

/// The queries a word must be found by: its prefixes (itself among them), its upper-cased,
/// folded and NFD forms.
func selfQueries(_ word: String, reference: ReferenceMatcher) -> [String] {
    var queries: [String] = []
    var end = word.unicodeScalars.startIndex
    while end < word.unicodeScalars.endIndex {
        word.unicodeScalars.formIndex(after: &end)
        queries.append(String(word.unicodeScalars[..<end]))
    }
    queries.append(String(decoding: reference.fold(word), as: UTF8.self))
    if word.utf8.contains(where: { $0 >= 0x80 }) { queries.append(word.decomposedStringWithCanonicalMapping) }
    queries.append(word.uppercased())
    return queries
}

extension Array where Element == Int32 {
    /// Appends `value` unless it is already the last element (a line makes the same query
    /// from several words).
    mutating func appendIfNotLast(_ value: Int32) {
        if last != value { append(value) }
    }
}

func checkSelfMatch(_ list: NameList, _ wordMode: ReferenceMatcher.Mode) {
    let reference = ReferenceMatcher()
    var groups: [String: [Int32]] = [:]
    for (i, line) in list.lines.enumerated() {
        for word in reference.words(line, mode: wordMode) {
            for q in selfQueries(word, reference: reference) {
                let index = Int32(i)
                groups[q, default: []].appendIfNotLast(index)
            }
        }
    }
    var generator = SplitMix64(seed: settings.seed &+ UInt64(list.name.utf8.count))
    guard var options = try? Smartgrep.options([mode(wordMode), "--", "x"]) else { fatalError("options refused") }
    let queryMode = WordMode(rawValue: wordMode.rawValue)!
    var searches = 0
    var pairs = 0
    for (query, members) in groups {
        var block = members.map { list.lines[Int($0)] }.joined(separator: "\n")
        let terminated = generator.next() % 2 == 0
        if terminated { block += "\n" }
        options.query = MatchQuery(query, mode: queryMode)
        options.readSize = generator.next() % 10 == 0 ? Int(generator.next() % 40) + 1 : RecordReader.defaultReadSize
        let (output, status) = block.utf8.withContiguousStorageIfAvailable {
            Smartgrep.search($0, options: options)
        }!
        searches += 1
        pairs += members.count
        let expected = terminated ? block : block + "\n"
        if status != .success || output != Array(expected.utf8) {
            let selected = Set(String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init))
            let missed = members.map { list.lines[Int($0)] }.filter { !selected.contains($0) }
            report.fail(
                "self-match \(list.name) \(mode(wordMode)) query \(show(query)) (read size \(options.readSize)) "
                    + "did not select \(missed.prefix(3).map(show).joined(separator: ", "))")
        }
    }
    report.add("self-match searches", searches)
    report.add("self-match (line, query) pairs", pairs)
}

// MARK: - 2. Differential against the built binary

/// Runs `path` with `arguments` and returns its exit status, stdout and stderr.
func run(_ arguments: [String], input: String? = nil, scratch: String) -> (status: Int32, stdout: [UInt8], stderr: [UInt8]) {
    let outPath = scratch + ".out"
    let errPath = scratch + ".err"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var environment: [UnsafeMutablePointer<CChar>?] = [strdup("LC_ALL=C.UTF-8"), nil]
    defer { for p in environment { free(p) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, &environment) == 0 else {
        report.fail("cannot run \(arguments[0])")
        return (-1, [], [])
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    let out = (try? Data(contentsOf: URL(fileURLWithPath: outPath))).map { [UInt8]($0) } ?? []
    let err = (try? Data(contentsOf: URL(fileURLWithPath: errPath))).map { [UInt8]($0) } ?? []
    return (exitStatus, out, err)
}

/// A random query made from the lines of a window.
func makeQuery(
    from line: String, other: String, mode wordMode: ReferenceMatcher.Mode, reference: ReferenceMatcher,
    generator: inout SplitMix64
) -> String {
    var words = reference.words(line, mode: wordMode)
    if words.isEmpty { words = [line] }
    let otherWords = reference.words(other, mode: wordMode)
    func pick<T>(_ items: [T]) -> T { items[Int(generator.next() % UInt64(items.count))] }
    func cut(_ word: String, fromStart: Bool) -> String {
        let scalars = Array(word.unicodeScalars)
        guard !scalars.isEmpty else { return word }
        let from = fromStart ? 0 : Int(generator.next() % UInt64(scalars.count))
        let to = from + 1 + Int(generator.next() % UInt64(scalars.count - from))
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[from..<to])
        return String(view)
    }
    func mix(_ word: String) -> String {
        var out = ""
        for character in word {
            switch generator.next() % 4 {
            case 0: out += character.uppercased()
            case 1: out += character.lowercased()
            case 2: out += String(decoding: reference.fold(String(character)), as: UTF8.self)
            default: out += String(character).decomposedStringWithCanonicalMapping
            }
        }
        return out
    }
    let count = 1 + Int(generator.next() % 3)
    var parts: [String] = []
    for _ in 0..<count { parts.append(pick(words)) }
    switch generator.next() % 7 {
    case 0: break  // whole words of the line
    case 1: parts = parts.map { cut($0, fromStart: true) }  // prefixes
    case 2: parts = parts.map { cut($0, fromStart: false) }  // random cuts, mostly not at a word start
    case 3: parts = parts.map(mix)  // mixed case and accents
    case 4: if !otherWords.isEmpty { parts.append(cut(pick(otherWords), fromStart: true)) }  // a word of another line
    case 5: parts = parts.map { pick(["", "(", "'", "-", "«"]) + $0 + pick([",", ".", ")", "'", "…", ":", ""]) }  // punctuation
    default: parts = [cut(line, fromStart: generator.next() % 2 == 0)]  // a cut of the whole line
    }
    parts.shuffle(using: &generator)
    return parts.joined(separator: generator.next() % 5 == 0 ? "  " : " ")
}

func checkDifferential(_ list: NameList, queries: Int, worker: Int) {
    let reference = ReferenceMatcher()
    var generator = SplitMix64(seed: settings.seed &* 31 &+ UInt64(list.name.utf8.count) &+ UInt64(list.lines.count))
    let scratch = NSTemporaryDirectory() + "smartgrep-check-\(getpid())-\(worker)"
    let windowSize = 100
    let queriesPerWindow = 10
    var done = 0
    while done < queries {
        let start = Int(generator.next() % UInt64(max(list.lines.count - windowSize, 1)))
        let window = Array(list.lines[start..<min(start + windowSize, list.lines.count)])
        let windowPath = scratch + ".txt"
        FileManager.default.createFile(atPath: windowPath, contents: Data((window.joined(separator: "\n") + "\n").utf8))
        var analysed: [ReferenceMatcher.Mode: [ReferenceMatcher.Line]] = [:]
        for _ in 0..<queriesPerWindow {
            let wordMode = ReferenceMatcher.Mode.allCases[Int(generator.next() % 3)]
            let source = list.matched(window[Int(generator.next() % UInt64(window.count))])
            let other = list.matched(list.lines[Int(generator.next() % UInt64(list.lines.count))])
            let query = makeQuery(from: source, other: other, mode: wordMode, reference: reference, generator: &generator)
            var arguments = [smartgrepPath, mode(wordMode)]
            let variant = generator.next() % 4  // 0: plain, 1: -v, 2: -c, 3: -v -c
            if variant == 1 || variant == 3 { arguments.append("-v") }
            if variant >= 2 { arguments.append("-c") }
            if let field = list.field { arguments.append("--field=\(field)") }
            arguments += ["--", query, windowPath]
            let lines = analysed[wordMode] ?? window.map { reference.line(Array(list.matched($0).utf8), mode: wordMode) }
            analysed[wordMode] = lines
            let words = reference.queryWords(query, mode: wordMode)
            if words.isEmpty && !query.allSatisfy(\.isWhitespace) {
                // A query of punctuation alone is refused (it would match every line).
                let result = run(arguments, scratch: scratch)
                if result.status != 2 || !result.stdout.isEmpty {
                    report.fail("differential \(list.name): query \(show(query)) without words: status \(result.status)")
                }
                done += 1
                continue
            }
            let invert = variant == 1 || variant == 3
            var selected: [String] = []
            for (i, line) in lines.enumerated() where reference.matches(words, line) != invert { selected.append(window[i]) }
            let expected = variant >= 2 ? "\(selected.count)\n" : selected.map { $0 + "\n" }.joined()
            let result = run(arguments, scratch: scratch)
            if result.stdout != Array(expected.utf8) || result.status != (selected.isEmpty ? 1 : 0) || !result.stderr.isEmpty {
                let got = Set(String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init))
                let want = Set(selected)
                let diff = want.symmetricDifference(got).prefix(3).map(show).joined(separator: ", ")
                report.fail(
                    "differential \(list.name) \(arguments.dropFirst().dropLast().joined(separator: " ")) "
                        + "query \(show(query)): status \(result.status), lines differing: \(diff) "
                        + String(decoding: result.stderr, as: UTF8.self))
            }
            done += 1
        }
    }
    for suffix in [".txt", ".out", ".err"] { unlink(scratch + suffix) }
    report.add("differential queries (binary runs)", done)
}

// MARK: - 3. Mapped file, pipe and memory

func checkReadingPaths(queries: Int) {
    let reference = ReferenceMatcher()
    var generator = SplitMix64(seed: settings.seed &+ 7)
    let scratch = NSTemporaryDirectory() + "smartgrep-check-\(getpid())-big"
    // Four copies of the Debian names and the cities: 6.6 MB, so the binary maps it.
    let source = lists[4].lines + lists[0].lines
    let text = Array(repeating: source.joined(separator: "\n"), count: 4).joined(separator: "\n")
    let bigPath = scratch + ".txt"
    FileManager.default.createFile(atPath: bigPath, contents: Data(text.utf8))  // no final newline
    for _ in 0..<queries {
        let line = source[Int(generator.next() % UInt64(source.count))]
        let other = source[Int(generator.next() % UInt64(source.count))]
        let query = makeQuery(from: line, other: other, mode: .all, reference: reference, generator: &generator)
        guard var options = try? Smartgrep.options(["-n", "--", query]) else { continue }  // no words: refused
        let mapped = run([smartgrepPath, "-n", "--", query, bigPath], scratch: scratch)
        let piped = run(["/bin/sh", "-c", "cat \"$1\" | \"$0\" -n -- \"$2\"", smartgrepPath, bigPath, query], scratch: scratch)
        options.readSize = 4093 + Int(generator.next() % 5000)
        let (memory, _) = text.utf8.withContiguousStorageIfAvailable { Smartgrep.search($0, options: options) }!
        if mapped.stdout != piped.stdout || mapped.stdout != memory || mapped.status != piped.status {
            report.fail(
                "reading paths disagree on query \(show(query)): mapped \(mapped.stdout.count) bytes, "
                    + "pipe \(piped.stdout.count), memory \(memory.count)")
        }
    }
    for suffix in [".txt", ".out", ".err"] { unlink(scratch + suffix) }
    report.add("reading-path queries (file, pipe, memory)", queries)
}

// MARK: - Run

let began = Date()
var taskList: [@Sendable () -> Void] = []
if settings.checks.contains("binary") {
    for (n, list) in (lists + fieldLists).enumerated() {
        taskList.append { checkDifferential(list, queries: settings.queries, worker: n) }
    }
}
if settings.checks.contains("paths") { taskList.append { checkReadingPaths(queries: 60) } }
if settings.checks.contains("self") {
    for list in lists {
        for wordMode in ReferenceMatcher.Mode.allCases { taskList.append { checkSelfMatch(list, wordMode) } }
    }
}
let tasks = taskList

/// Hands out task numbers to the two workers.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value - 1
    }
}
let counter = Counter()
DispatchQueue.concurrentPerform(iterations: 2) { _ in
    while true {
        let i = counter.next()
        if i >= tasks.count { return }
        tasks[i]()
    }
}
let seconds = Date().timeIntervalSince(began)
let lineCount = lists.reduce(0) { $0 + $1.lines.count }
print("smartgrep-check: \(lists.count) lists, \(lineCount) lines, seed \(settings.seed), \(String(format: "%.1f", seconds)) s")
for (key, value) in report.counts.sorted(by: { $0.key < $1.key }) { print("  \(key): \(value)") }
if report.failures.isEmpty {
    print("smartgrep-check: no differences")
    exit(0)
}
for failure in report.failures where !failure.isEmpty { print("DIFFERENCE \(failure)") }
print("smartgrep-check: \(report.failures.count) differences")
exit(1)
