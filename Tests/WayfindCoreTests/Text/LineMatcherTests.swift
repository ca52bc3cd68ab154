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
        ("xmark.bin bin", "xmark.bin.circle", false), ("xmark.bin circ", "xmark.bin.circle", true),
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

/// An independent, slow matcher for rules 1-9: split the line into words, then search all
/// assignments of query words to distinct words.
func bruteForceMatches(_ query: [String], _ line: String, separators: Set<Character>) -> Bool {
    let words = line.split(whereSeparator: { separators.contains($0) }).map { $0.lowercased() }
    let query = query.map { $0.lowercased() }
    var used = [Bool](repeating: false, count: words.count)
    func assign(_ i: Int) -> Bool {
        if i == query.count { return true }
        for (j, w) in words.enumerated() where !used[j] && w.hasPrefix(query[i]) {
            used[j] = true
            if assign(i + 1) { return true }
            used[j] = false
        }
        return false
    }
    return assign(0)
}

@Suite struct LineMatcherPropertyTests {
    @Test(arguments: [WordMode.punct, .space])
    func longestFirstGreedyEqualsAFullMatching(mode: WordMode) {
        var rng = SplitMix64(seed: mode == .punct ? 42 : 7)
        let letters = Array("abcAB")
        let separators: [Character] = mode == .punct ? [" ", ".", "-"] : [" "]
        var agreed = 0
        for _ in 0..<20_000 {
            let wordCount = Int.random(in: 0...5, using: &rng)
            var line = ""
            for w in 0..<wordCount {
                if w > 0 { line.append(separators.randomElement(using: &rng)!) }
                for _ in 0..<Int.random(in: 1...3, using: &rng) { line.append(letters.randomElement(using: &rng)!) }
            }
            var query: [String] = []
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                var q = ""
                for _ in 0..<Int.random(in: 1...3, using: &rng) { q.append(letters.randomElement(using: &rng)!) }
                query.append(q)
            }
            let expected = bruteForceMatches(query, line, separators: Set(separators))
            let actual = matches(query.joined(separator: " "), line, mode: mode)
            #expect(actual == expected, "query \(query) line '\(line)'")
            if actual == expected { agreed += 1 }
            if actual != expected { return }
        }
        #expect(agreed == 20_000)
    }
}

@Suite struct LineMatcherPathTests {
    /// ASCII lines without highlighting take a shortcut that never lists the line's words;
    /// it must agree with the word-start path on every line, camelCase and run-ons included.
    @Test(arguments: [WordMode.all, .punct, .space])
    func theDirectPathAgreesWithTheWordStartPath(mode: WordMode) {
        var rng = SplitMix64(seed: 2024)
        let alphabet = Array("abAB.x -1")
        for _ in 0..<20_000 {
            let line = String((0..<Int.random(in: 0...14, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            let query = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                String((0..<Int.random(in: 1...4, using: &rng)).map { _ in alphabet.filter { $0 != " " }.randomElement(using: &rng)! })
            }.joined(separator: " ")
            let matcher = LineMatcher(MatchQuery(query, mode: mode))
            let bytes = Array(line.utf8)
            let direct = bytes.withUnsafeBufferPointer { matcher.matches($0, recordRanges: false) }
            let listed = bytes.withUnsafeBufferPointer { matcher.matches($0, recordRanges: true) }
            #expect(direct == listed, "query '\(query)' line '\(line)' mode \(mode)")
            if direct != listed { return }
        }
    }
}
