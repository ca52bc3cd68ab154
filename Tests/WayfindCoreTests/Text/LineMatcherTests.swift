import Testing
import WayfindTestSupport

@testable import WayfindCLI
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
