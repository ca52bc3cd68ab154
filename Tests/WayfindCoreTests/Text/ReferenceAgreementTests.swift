import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// The matcher and the search loop against `ReferenceMatcher` (WayfindTestSupport), which
/// states the rules with Foundation and brute force and shares no code with them. The
/// real-data version of these checks is `smartgrep-check` (run by `make test`).
@Suite struct ReferenceAgreementTests {
    /// Pieces random lines and queries are made of: ASCII letters of both cases, accents
    /// precomposed and combining, letters that fold to two (ß, æ, ᾀ), case pairs Foundation
    /// alone would miss (ᲀ/В), separators ASCII and not, non-breaking space, digits, an
    /// uncased letter, and an invalid byte.
    static let pieces: [[UInt8]] =
        [
            "a", "b", "e", "s", "A", "B", "E", "S", "x", "é", "É", "e\u{301}", "ß", "æ", "ł", "ᾀ", "ΑΙ", "α", "ᲀ", "в",
            "В", " ", " ", ".", "-", "_", "1", "\u{A0}", "’", "中", "@",
        ].map { Array($0.utf8) } + [[0xFF]]

    static func randomText(_ rng: inout SplitMix64, pieces: Int, from alphabet: [[UInt8]] = ReferenceAgreementTests.pieces) -> [UInt8] {
        (0..<pieces).flatMap { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
    }

    /// A query: one to three words of valid pieces.
    static func randomQuery(_ rng: inout SplitMix64) -> String {
        let valid = pieces.filter { $0 != [0xFF] && $0 != Array(" ".utf8) }
        return (0..<(1 + Int(rng.next() % 3))).map { _ in
            String(decoding: randomText(&rng, pieces: 1 + Int(rng.next() % 3), from: valid), as: UTF8.self)
        }.joined(separator: " ")
    }

    @Test(arguments: WordMode.allCases)
    func theMatcherAgreesWithTheReferenceOnRandomLines(mode: WordMode) {
        let reference = ReferenceMatcher()
        let referenceMode = ReferenceMatcher.Mode(rawValue: mode.rawValue)!
        var rng = SplitMix64(seed: 12 + UInt64(mode.rawValue.count))
        var differences: [String] = []
        for _ in 0..<6_000 {
            let line = Self.randomText(&rng, pieces: Int(rng.next() % 9))
            let query = Self.randomQuery(&rng)
            let expected = reference.matches(query: query, line: line, mode: referenceMode)
            let matcher = LineMatcher(MatchQuery(query, mode: mode))
            let plain = line.withUnsafeBufferPointer { matcher.matches($0) }
            let ranged = line.withUnsafeBufferPointer { matcher.matches($0, recordRanges: true) }
            if plain != expected || ranged != expected {
                differences.append("query '\(query)' line \(line): expected \(expected), got \(plain)/\(ranged)")
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differences:\n\(differences.prefix(20).joined(separator: "\n"))")
    }

    /// The search loop jumps between candidate bytes and judges many hits without the
    /// matcher; whole blocks of lines, read a few bytes at a time, must select exactly what
    /// the reference selects, line by line, with -v and -c too.
    @Test(arguments: WordMode.allCases)
    func theSearchLoopAgreesWithTheReferenceOnRandomBlocks(mode: WordMode) throws {
        let reference = ReferenceMatcher()
        let referenceMode = ReferenceMatcher.Mode(rawValue: mode.rawValue)!
        var rng = SplitMix64(seed: 99 + UInt64(mode.rawValue.count))
        let linePieces = Self.pieces.filter { $0 != Array("\n".utf8) }
        var differences: [String] = []
        for round in 0..<1_500 {
            var lines = (0..<(1 + Int(rng.next() % 6))).map { _ in Self.randomText(&rng, pieces: Int(rng.next() % 10), from: linePieces) }
            let query = Self.randomQuery(&rng)
            let invert = round % 3 == 1
            let count = round % 5 == 2
            var arguments = ["--words=\(mode.rawValue)"]
            if invert { arguments.append("-v") }
            if count { arguments.append("-c") }
            let words = reference.queryWords(query, mode: referenceMode)
            // A query of punctuation alone is refused (it would match every line).
            guard var options = try? Smartgrep.options(arguments + ["--", query]) else {
                if !words.isEmpty { differences.append("query '\(query)' \(arguments) refused") }
                continue
            }
            options.readSize = 1 + Int(rng.next() % 24)
            let terminated = rng.next() % 2 == 0
            var input: [UInt8] = Array(lines.joined(separator: [0x0A]))
            if terminated { input.append(0x0A) } else if lines.last == [] { lines.removeLast() }  // no such line
            let selected = lines.filter { reference.matches(words, reference.line($0, mode: referenceMode)) != invert }
            let expected = count ? Array("\(selected.count)\n".utf8) : selected.flatMap { $0 + [0x0A] }
            let (output, status) = input.withUnsafeBufferPointer { Smartgrep.search($0, options: options) }
            if output != expected || status != (selected.isEmpty ? .nothingFound : .success) {
                differences.append("query '\(query)' \(arguments) read size \(options.readSize) lines \(lines): got \(output)")
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differences:\n\(differences.prefix(10).joined(separator: "\n"))")
    }

    /// -w and -x: whole words, assigned by augmenting paths, and the cover of the line,
    /// against the reference's trial of every assignment, through the search loop.
    @Test(arguments: WordMode.allCases)
    func wholeWordsAndLineCoverAgreeWithTheReference(mode: WordMode) throws {
        let reference = ReferenceMatcher()
        let referenceMode = ReferenceMatcher.Mode(rawValue: mode.rawValue)!
        var rng = SplitMix64(seed: 28 + UInt64(mode.rawValue.count))
        let linePieces = Self.pieces.filter { $0 != Array("\n".utf8) }
        var differences: [String] = []
        var selectedAny = 0
        for round in 0..<3_000 {
            let lines = (0..<(1 + Int(rng.next() % 4))).map { _ in Self.randomText(&rng, pieces: Int(rng.next() % 8), from: linePieces) }
            // Queries made from the lines' own text select some lines whole.
            var query = Self.randomQuery(&rng)
            if round % 2 == 0, let line = lines.first, let text = String(validating: line, as: UTF8.self) {
                query = text.split(separator: " ").shuffled(using: &rng).prefix(3).joined(separator: " ")
            }
            let fit: ReferenceMatcher.Fit = round % 3 == 0 ? .line : .word
            let words = reference.queryWords(query, mode: referenceMode)
            guard var options = try? Smartgrep.options(["--words=\(mode.rawValue)", fit == .line ? "-x" : "-w", "--", query])
            else { continue }
            options.readSize = 1 + Int(rng.next() % 24)
            let input: [UInt8] = lines.flatMap { $0 + [0x0A] }
            let selected = lines.filter { reference.matches(words, reference.line($0, mode: referenceMode), fit: fit) }
            selectedAny += selected.isEmpty ? 0 : 1
            let (output, _) = input.withUnsafeBufferPointer { Smartgrep.search($0, options: options) }
            if output != selected.flatMap({ $0 + [0x0A] }) {
                differences.append(
                    "query '\(query)' \(fit) lines \(lines.map { String(decoding: $0, as: UTF8.self) }): got \(String(decoding: output, as: UTF8.self))"
                )
            }
        }
        #expect(selectedAny > 300)
        #expect(differences.isEmpty, "\(differences.count) differences:\n\(differences.prefix(10).joined(separator: "\n"))")
    }
}

/// Lines the checks against the reference found the matcher or the search loop getting
/// wrong, each kept by name.
@Suite struct MatchingRegressionTests {
    func selects(_ query: String, _ text: String, mode: WordMode = .all, readSize: Int = RecordReader.defaultReadSize) throws -> Bool {
        var options = try Smartgrep.options(["--words=\(mode.rawValue)", "--", query])
        options.readSize = readSize
        var input = Array(text.utf8)
        input.append(0x0A)
        return input.withUnsafeBufferPointer { Smartgrep.search($0, options: options) }.status == .success
    }

    /// The search loop jumped to the query's rarest byte and compared the query backwards
    /// from there; a multi-byte character earlier in the word (ń is two bytes, folds to one)
    /// put the comparison off by a byte, and 139 of 1,000 accented place names were missed.
    @Test(arguments: [
        ("gdansk", "Gdańsk"), ("Białystok", "Białystok"), ("Polig", "Polígonos"), ("Ürümqi", "Ürümqi"),
        ("bialystok", "Białystok"), ("gdansk", "Gdan\u{301}sk"),
    ])
    func aMultiByteCharacterBeforeTheRarestByteDoesNotHideTheLine(query: String, line: String) throws {
        #expect(try selects(query, line))
        #expect(try selects(query, "x\n" + line + "\ny", readSize: 3))
    }

    /// `Al ‘Amārah`: a query word that starts with a non-ASCII punctuation mark kept it, and
    /// no word of a line starts with one.
    @Test func aQueryWordLosesNonASCIIPunctuationAtEitherEnd() throws {
        #expect(try selects("Al ‘Amārah", "Al ‘Amārah"))
        #expect(try selects("«paris»", "Paris Texas"))
        #expect(try selects("paris,", "Paris Texas"))
        #expect(MatchQuery("paris, texas").words == MatchQuery("paris texas").words)
        #expect(MatchQuery("c++ .bin --help").words == [Array("help".utf8), Array("bin".utf8), Array("c".utf8)])
        #expect(MatchQuery("c++", mode: .space).words == [Array("c++".utf8)])
    }

    /// The lowercase table was built with signed arithmetic, so every byte below `A` was
    /// "lowercased": `@` became a backtick and never matched itself, a tab compared equal
    /// to `)`.
    @Test func bytesBelowTheLettersCompareAsThemselves() throws {
        #expect(try selects("@", "U+0040\t@\tCOMMERCIAL AT\tPo", mode: .space))
        #expect(try selects("a)b", "a\tb", mode: .space) == false)
        #expect(try selects("a)b", "a)b", mode: .space))
    }

    /// unicode-names.tsv: letters whose uppercase Foundation folds differently (ᾀ → α but
    /// its uppercase ἈΙ → αι; ᲀ → ᲀ but its uppercase В → в) were not found by their
    /// upper-cased name.
    @Test(arguments: [("ἈΙ", "ᾀ"), ("В", "ᲀ"), ("ΑΙ", "ᾳ"), ("αι", "α\u{345}"), ("Σ", "ς")])
    func anUpperCasedWordFindsItsLowercaseOriginal(query: String, line: String) throws {
        #expect(try selects(query, line))
        #expect(try selects(line, query))
    }

    /// A query word may run on across word boundaries; the words it runs over stay free for
    /// other query words, so the rule is exactly "each query word starts a different word"
    /// and the greedy assignment stays exact (`a.b` and `bx` both fit `a.bx a.b`).
    @Test func aRunOnMatchUsesOnlyItsFirstWord() throws {
        #expect(try selects("a.b bx", "a.bx a.b"))
        #expect(try selects("xmark.bin bin", "xmark.bin.circle"))
        #expect(try selects("xmark.bin xmark", "xmark.bin.circle") == false)
    }
}
