import Testing
import WayfindTestSupport

@testable import WayfindCore

/// Runs the matcher on a Swift string.
func matches(_ query: String, _ line: String, mode: WordMode = .all) -> Bool {
    let matcher = LineMatcher(MatchQuery(query, mode: mode))
    var line = line
    return line.withUTF8 { matcher.matches($0) }
}

/// The ranges a match highlights, as substrings of the line.
func highlighted(_ query: String, _ line: String, mode: WordMode = .all) -> [String]? {
    let matcher = LineMatcher(MatchQuery(query, mode: mode))
    let bytes = Array(line.utf8)
    let ok = bytes.withUnsafeBufferPointer { matcher.matches($0, recordRanges: true) }
    guard ok else { return nil }
    return matcher.ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
}

@Suite struct LineMatcherTests {
    @Test(arguments: [
        // Rule 1: no words matches everything.
        ("", "anything", true), ("   ", "", true),
        // Rule 2: only at word starts.
        ("he", "heart", true), ("he", "bolt.heart.fill", true), ("he", "checkmark", false),
        ("he", "rectangle.dashed", false),
        // Rule 3: every word must match.
        ("x bin", "xmark.bin", true), ("x bin", "xmark.circle", false), ("x bin", "trash.bin", false),
        // Rule 4: different words.
        ("up up", "arrow.up", false), ("up up", "arrow.up.and.down.righttriangle.up", true),
        // Rule 5: any order.
        ("fill circle sq", "square.circle.fill", true), ("fill circle sq", "circle.fill.square.fill", true),
        // Rule 6: longest first.
        ("p pe", "person.badge.plus", true), ("pe p", "person.badge.plus", true), ("p pe", "person.badge", false),
        // Rule 7 and 8: whitespace in the query.
        ("  x   bin  ", "xmark.bin", true),
        // Rule 9: camelCase humps.
        ("grouped", "systemGroupedBackground", true), ("back sys", "systemGroupedBackground", true),
        ("server", "HTTPServer", true), ("http", "HTTPServer", true), ("tps", "HTTPServer", false),
        ("string", "utf8String", true), ("8", "utf8String", false),
        ("roup", "systemGroupedBackground", false),
        // Rule 10: running on across word boundaries.
        ("xmark.bin", "xmark.bin.circle", true), ("systemgr", "systemGroupedBackground", true),
        ("xmark.bin bin", "xmark.bin.circle", true), ("xmark.bin circ", "xmark.bin.circle", true),
        ("xmark.bin xmark", "xmark.bin.circle", false),
        // Leading punctuation in a query word is dropped.
        (".bin", "xmark.bin", true), ("--help", "use --help", true),
    ])
    func theSeedRulesHold(query: String, line: String, expected: Bool) {
        #expect(matches(query, line) == expected, "query '\(query)' line '\(line)'")
    }

    @Test(arguments: [
        ("sao", "São Paulo", true), ("séarch", "search", true), ("STRASSE", "Straße", true),
        ("zurich", "Zürich", true), ("zurich", "Zu\u{308}rich", true), ("zür", "Zu\u{308}rich", true),
        ("lodz", "Łódź", true), ("malmo", "Malmö", true), ("aero", "Ærøskøbing", true),
        ("krakow", "Kraków, Małopolskie, Poland", true), ("małopolskie", "Malopolskie", true),
        ("PAULO", "são paulo", true), ("москва", "Москва", true),
    ])
    func caseAndAccentsAreIgnoredInBothDirections(query: String, line: String, expected: Bool) {
        #expect(matches(query, line) == expected, "query '\(query)' line '\(line)'")
    }

    @Test func wordModesSplitAsDocumented() {
        #expect(matches("grouped", "systemGroupedBackground", mode: .punct) == false)
        #expect(matches("bin", "xmark.bin", mode: .punct))
        #expect(matches("bin", "xmark.bin", mode: .space) == false)
        #expect(matches("bin", "xmark bin", mode: .space))
        #expect(matches(".bash", "a .bashrc file", mode: .space))
        #expect(matches("xmark.b", "xmark.bin", mode: .space))
    }

    @Test func badBytesNeverMatchLettersAndNeverCrash() {
        let lines: [[UInt8]] = [
            [0xFF, 0x61, 0x62], [0x61, 0x00, 0x62], [0xC3], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80],
            [0xED, 0xA0, 0x80, 0x61], Array("abc\r".utf8), [],
        ]
        for line in lines {
            let matcher = LineMatcher(MatchQuery("a"))
            _ = line.withUnsafeBufferPointer { matcher.matches($0, recordRanges: true) }
        }
        let matcher = LineMatcher(MatchQuery("ab"))
        // The invalid byte separates words: "ab" after 0xFF starts a word.
        #expect([0xFF, 0x61, 0x62].withUnsafeBufferPointer { matcher.matches($0) })
        #expect([0x61, 0x00, 0x62].withUnsafeBufferPointer { matcher.matches($0) } == false)
        #expect(Array("abc\r".utf8).withUnsafeBufferPointer { matcher.matches($0) })
    }

    @Test func matchedRangesPointIntoTheOriginalLine() {
        #expect(highlighted("x bin", "xmark.bin.fill") == ["x", "bin"])
        #expect(highlighted("sao", "São Paulo") == ["São"])
        #expect(highlighted("zu", "Zu\u{308}rich") == ["Zu\u{308}"])
        // A match that ends inside a character's folded form (ß → ss) highlights all of it.
        #expect(highlighted("stras", "Straße") == ["Straß"])
        #expect(highlighted("strass", "Straße") == ["Straß"])
        #expect(highlighted("p pe", "person.badge.plus") == ["pe", "p"])
        #expect(highlighted("systemgr", "systemGroupedBackground") == ["systemGr"])
    }

    @Test func scoresCountWholeWordsAndLineStarts() {
        let matcher = LineMatcher(MatchQuery("heart"))
        var line = "heart.fill"
        #expect(line.withUTF8 { matcher.matches($0, recordRanges: true) })
        #expect(matcher.lastScore.wholeWords == 1)
        #expect(matcher.lastScore.atLineStart)
        line = "bolt.hearts"
        #expect(line.withUTF8 { matcher.matches($0, recordRanges: true) })
        #expect(matcher.lastScore.wholeWords == 0)
        #expect(matcher.lastScore.atLineStart == false)
    }
}

/// The String entry points apps use, on the README's examples.
@Suite("LineMatcher: strings")
struct LineMatcherStringTests {
    @Test func stringsMatchAsBytesDo() {
        #expect(LineMatcher(MatchQuery("x bin")).matches("xmark.bin.fill"))
        #expect(LineMatcher(MatchQuery("sao")).matches("São Paulo"))
        #expect(!LineMatcher(MatchQuery("paulo sao x")).matches("São Paulo"))
        let matcher = LineMatcher(MatchQuery("pau sã"))
        let line = "São Paulo"
        let ranges = matcher.matchedRanges(in: line)
        #expect(ranges?.map { String(line[$0]) } == ["Sã", "Pau"])
        #expect(matcher.matchedRanges(in: "Rio") == nil)
    }
}

/// Found by the matcher fuzz target: in `space` mode a query word that began with U+0345
/// (a mark that folds to ι) kept it, though no word of a line starts with a mark.
@Suite("LineMatcher: a query word starting with a mark")
struct LeadingMarkTests {
    @Test(arguments: WordMode.allCases)
    func aLeadingMarkIsDroppedInEveryMode(mode: WordMode) {
        let reference = ReferenceMatcher()
        for (query, line) in [("\u{345}ib", "x \u{345}ib"), (" \u{345}ib@", "b \u{345}ib@"), ("\u{301}cafe", "cafe")] {
            let expected = reference.matches(query: query, line: Array(line.utf8), mode: ReferenceMatcher.Mode(rawValue: mode.rawValue)!)
            #expect(expected, "\(query) in \(line), \(mode)")
            #expect(LineMatcher(MatchQuery(query, mode: mode)).matches(line) == expected, "\(query) in \(line), \(mode)")
        }
    }
}

/// `LineMatcher.initials`: which letters and digits the words of a line begin with, so
/// that a scan can pass over a name a query cannot match without matching it.
@Suite("LineMatcher: initials")
struct InitialsTests {
    static func bits(_ letters: String) -> UInt64 {
        letters.utf8.reduce(0) { bits, byte in
            bits | (byte >= 0x61 ? 1 << UInt64(byte - 0x61) : 1 << UInt64(26 + byte - 0x30))
        }
    }

    static func initials(_ line: String, mode: WordMode = .all) -> UInt64 {
        var line = line
        return line.withUTF8 { LineMatcher(MatchQuery("", mode: mode)).initials(of: $0) }
    }

    @Test func aLineHasTheFoldedFirstLetterOfEachWord() {
        #expect(Self.initials("São Paulo") == Self.bits("sp"))
        #expect(Self.initials("Ölberg, Köln 7") == Self.bits("ok7"))
        // camelCase humps start words, as the matcher splits them; not in space mode.
        #expect(Self.initials("systemGroupedBackground") == Self.bits("sgb"))
        #expect(Self.initials("systemGroupedBackground", mode: .space) == Self.bits("s"))
        // Words of other scripts have no initial here; a ligature folds to its letters,
        // but Ǆ to ǆ, one letter of its own.
        #expect(Self.initials("東京 Москва") == 0)
        #expect(Self.initials("ﬁsh Ǆemal") == Self.bits("f"))
        #expect(Self.initials("") == 0)
        #expect(LineMatcher(MatchQuery("Bos sä 7")).requiredInitials == Self.bits("bs7"))
        #expect(LineMatcher(MatchQuery("москва b")).requiredInitials == Self.bits("b"))
    }

    /// The rule that makes initials safe to skip by: a line the query matches holds its
    /// initials. Checked on random lines and on queries cut from them, in every mode.
    @Test(arguments: WordMode.allCases)
    func everyMatchHoldsTheQuerysInitials(mode: WordMode) {
        var random = SplitMix64(seed: 37)
        let pieces = [
            "São", "paulo", "Zürich", "ÖL", "berg", "ﬁ", "Ǆ", "straße", "7", "42x", "Москва", "東京", "İs", "mcDonald",
            "o'neil", "\u{301}e", "e\u{301}", "-", ".", " ", "  ", "\t", "·", "_", "\u{00A0}", "ǅ",
        ]
        var matched = 0
        var skipped = 0
        for _ in 0..<3000 {
            let line = (0..<Int.random(in: 1...7, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let words = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                let piece = Array(pieces.randomElement(using: &random)!)
                return String(piece.prefix(Int.random(in: 1...piece.count, using: &random)))
            }
            let matcher = LineMatcher(MatchQuery(words.joined(separator: " "), mode: mode))
            var copy = line
            let lineInitials = copy.withUTF8 { LineMatcher(MatchQuery("", mode: mode)).initials(of: $0) }
            let holds = matcher.requiredInitials & ~lineInitials == 0
            if copy.withUTF8({ matcher.matches($0) }) {
                matched += 1
                #expect(holds, "\(words) in \(line), \(mode)")
            } else if !holds {
                skipped += 1
            }
        }
        // Both kinds of line were met: the test can tell a rule that skips too much.
        #expect(matched > 200 && skipped > 200, "\(matched) matched, \(skipped) skipped")
    }

    /// `--no-ignore-case` keeps case apart and still folds accents. Stated another way: it
    /// is the usual matching after uppercase letters are made letters of their own (A, B,
    /// E, S become the Cyrillic capitals Б, Г, Д, Ж, which no Latin letter folds to, and
    /// É becomes Д with an acute), which the reference judges. On random lines, all modes.
    @Test(arguments: WordMode.allCases)
    func caseSensitiveMatchingIsMatchingWithUppercaseLettersApart(mode: WordMode) {
        let reference = ReferenceMatcher()
        let referenceMode = ReferenceMatcher.Mode(rawValue: mode.rawValue)!
        let apart: [Character: String] = ["A": "Б", "B": "Г", "E": "Д", "S": "Ж", "É": "Д\u{301}"]
        func renamed(_ text: String) -> String { String(text.flatMap { apart[$0] ?? String($0) }) }
        let pieces = ["a", "b", "e", "s", "A", "B", "E", "S", "é", "É", "e\u{301}", "E\u{301}", "ß", "SS", " ", ".", "1", "aB", "Sa"]
        var random = SplitMix64(seed: 42)
        var matched = 0
        var differences: [String] = []
        for _ in 0..<6_000 {
            let line = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let query = (0..<Int.random(in: 1...2, using: &random)).map { _ in
                (0..<Int.random(in: 1...2, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            }.joined(separator: " ")
            let expected = reference.matches(query: renamed(query), line: Array(renamed(line).utf8), mode: referenceMode)
            let matcher = LineMatcher(MatchQuery(query, mode: mode, fit: .prefix, caseSensitive: true))
            let bytes = Array(line.utf8)
            let plain = bytes.withUnsafeBufferPointer { matcher.matches($0) }
            let ranged = bytes.withUnsafeBufferPointer { matcher.matches($0, recordRanges: true) }
            if expected { matched += 1 }
            if plain != expected || ranged != expected {
                differences.append("query '\(query)' line '\(line)': expected \(expected), got \(plain)/\(ranged)")
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differences:\n\(differences.prefix(20).joined(separator: "\n"))")
        #expect(matched > 200, "\(matched) matched")
    }
}
