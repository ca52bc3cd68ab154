import Foundation
import Testing
import WayfindTestSupport

/// The README's examples are run, so they cannot go stale: in every indented code block, a
/// line `$ COMMAND` is run (the commands of one block in one bash, in order, from the
/// repository's root, with the built tools first on PATH, a home folder of its own and
/// TZ=UTC), and the indented lines after it, up to the next command or the block's end,
/// must be its standard output, byte for byte. A line `...` stands for any number of
/// lines, and `...` inside a line for any text: long outputs are shown in part.
@Suite struct ReadmeExamplesTests {
    /// One command of the README and what it prints.
    struct Example: CustomStringConvertible {
        var line: Int
        var command: String
        var expected: [String]
        var description: String { "README.md:\(line): $ \(command)" }
    }

    /// The README's examples, by code block.
    static func blocks(of text: String) -> [[Example]] {
        var blocks: [[Example]] = []
        var current: [Example] = []
        var indent: Int? = nil
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let spaces = line.prefix { $0 == " " }.count
            let body = line.dropFirst(spaces)
            if let indent, spaces >= indent, !body.isEmpty {
                if body.hasPrefix("$ ") {
                    current.append(Example(line: number + 1, command: String(body.dropFirst(2)), expected: []))
                } else if !current.isEmpty {
                    current[current.count - 1].expected.append(String(line.dropFirst(indent)))
                }
                continue
            }
            if !current.isEmpty { blocks.append(current) }
            current = []
            indent = nil
            if spaces >= 4 && body.hasPrefix("$ ") {
                indent = spaces
                current = [Example(line: number + 1, command: String(body.dropFirst(2)), expected: [])]
            }
        }
        if !current.isEmpty { blocks.append(current) }
        return blocks
    }

    /// Whether `actual` is what `expected` shows (`...` as described above).
    static func matches(_ actual: ArraySlice<String>, _ expected: ArraySlice<String>) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "..." {
            return (actual.startIndex...actual.endIndex).contains { matches(actual[$0...], expected.dropFirst()) }
        }
        guard let line = actual.first, lineMatches(line, first) else { return false }
        return matches(actual.dropFirst(), expected.dropFirst())
    }

    static func lineMatches(_ line: String, _ pattern: String) -> Bool {
        let parts = pattern.components(separatedBy: "...")
        guard parts.count > 1 else { return line == pattern }
        var rest = Substring(line)
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        for part in parts.dropFirst().dropLast() {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.hasSuffix(parts.last!)
    }

    static let readme = (try? String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    static let marker = "\u{1E}README-EXAMPLE-END\u{1E}"

    @Test func theReadmeHasExamplesToRun() {
        #expect(Self.blocks(of: Self.readme).joined().count >= 10)
    }

    @Test(arguments: blocks(of: readme).enumerated().map { $0 })
    func everyReadmeExamplePrintsWhatTheReadmeShows(block: (offset: Int, element: [Example])) async throws {
        let home = try TestFiles.directory()
        let script = block.element.map { "\($0.command)\nprintf '%s\\n' '\(Self.marker)'" }.joined(separator: "\n")
        let environment = [
            "PATH": Binaries.directory.path + ":/usr/bin:/bin", "HOME": home.path, "TZ": "UTC", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8",
            "TERM": "dumb",
        ]
        let r = try await TestProcess.run(
            "/bin/bash", ["-c", script], environment: environment, currentDirectory: Repository.root, timeout: 120)
        var outputs = r.out.components(separatedBy: Self.marker + "\n")
        if outputs.last == "" { outputs.removeLast() }
        #expect(outputs.count == block.element.count, "\(block.element[0]): the block stopped early: \(r.stderr)")
        for (example, output) in zip(block.element, outputs) {
            var lines = output.components(separatedBy: "\n")
            if lines.last == "" { lines.removeLast() }
            #expect(
                Self.matches(lines[...], example.expected[...]),
                "\(example) printed\n\(lines.joined(separator: "\n"))\nwhere the README shows\n\(example.expected.joined(separator: "\n"))")
        }
    }

    @Test func theWildcardsMatchWhatTheySay() {
        #expect(Self.matches(["a", "b", "c"], ["a", "..."]))
        #expect(Self.matches(["a", "b", "c"], ["...", "c"]))
        #expect(!Self.matches(["a", "b"], ["a", "c"]))
        #expect(Self.matches([], []))
        #expect(!Self.matches(["a"], []))
        #expect(Self.lineMatches("{\"x\":1,\"y\":2,\"z\":3}", "{\"x\":1,...,\"z\":3}"))
        #expect(!Self.lineMatches("{\"x\":1}", "{\"y\"...}"))
    }
}
