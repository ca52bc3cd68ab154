import Foundation
import Testing
import WayfindTestSupport

/// The size budgets of STYLE.md: no source file over 600 lines, no function over 150.
/// (Generated files keep their generators' layout and are left out.)
@Suite struct BudgetTests {
    static let fileLines = 600
    static let functionLines = 150

    /// Every hand-written source file under Sources/: its path and its text.
    static func sources() throws -> [(path: String, text: String)] {
        let root = Repository.root.appendingPathComponent("Sources")
        let paths = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return try paths.filter { $0.hasSuffix(".swift") && !$0.hasSuffix(".generated.swift") }.sorted().map {
            ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// The functions of `text` longer than `limit` lines, as `line N: M lines`: from a line
    /// declaring a `func`, `init` or `subscript` to the brace that closes its body
    /// (braces in comments and string literals do not count).
    static func longFunctions(_ text: String, limit: Int) -> [String] {
        let lines = LayeringTests.code(text).split(separator: "\n", omittingEmptySubsequences: false)
        var found: [String] = []
        for (start, line) in lines.enumerated() {
            let words = line.split { !$0.isLetter && !$0.isNumber && $0 != "_" }
            guard words.contains(where: { $0 == "func" || $0 == "init" || $0 == "subscript" }) else { continue }
            var depth = 0
            var opened = false
            var end = start
            scan: while end < lines.count {
                for c in lines[end] {
                    if c == "{" { (depth, opened) = (depth + 1, true) } else if c == "}" { depth -= 1 }
                    if opened && depth == 0 { break scan }
                }
                // A requirement or a declaration without a body.
                if !opened && end > start + 8 { break }
                end += 1
            }
            if opened && end - start + 1 > limit { found.append("line \(start + 1): \(end - start + 1) lines") }
        }
        return found
    }

    @Test func noSourceFileIsOverItsBudget() throws {
        let long = try Self.sources().compactMap { source -> String? in
            let count = source.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            return count > Self.fileLines ? "\(source.path): \(count) lines" : nil
        }
        #expect(long.isEmpty, "over \(Self.fileLines) lines:\n\(long.joined(separator: "\n"))")
    }

    @Test func noFunctionIsOverItsBudget() throws {
        let long = try Self.sources().flatMap { source in
            Self.longFunctions(source.text, limit: Self.functionLines).map { "\(source.path): \($0)" }
        }
        #expect(long.isEmpty, "over \(Self.functionLines) lines:\n\(long.joined(separator: "\n"))")
    }

    @Test func aLongFunctionIsCaughtAndBracesInTextAreNot() {
        let body = (0..<5).map { _ in "    let s = \"{\" // }\n" }.joined()
        let text = "struct A {\n    func f() {\n" + body + "    }\n    func g()\n}\n"
        #expect(Self.longFunctions(text, limit: 7) == [])
        #expect(Self.longFunctions(text, limit: 6) == ["line 2: 7 lines"])
    }
}
