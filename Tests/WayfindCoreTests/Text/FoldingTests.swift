// Tests of UnicodeFolding and its generated tables (Sources/WayfindUnicodeData/unicode_tables.c).
//
// Foundation (here and in ReferenceMatcher) is the reference the tables must agree with.
//
// ## Where our folding deliberately differs from Foundation on letters
//
// (Details and counts in Tests/Generators/generate-unicode-tables.swift.) With
// F = Foundation's `folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)`
// of the letter's case round trip (the lowercase of its uppercase, so that ᾀ folds like its
// uppercase ἈΙ, to αι, and ᲀ like В, to в; Foundation alone folds ᾀ to α and keeps ᲀ):
//   1. Extra folds (`ReferenceMatcher.extraFolds`, checked against the generator's table):
//      letters readers see as accented that Unicode does not decompose. Ours is F with every
//      scalar in the extra table replaced by its value: ł → l (F: ł), Ł → l (F: ł),
//      Ǿ → o (F: ø), ǣ → ae (F: æ).
//   2. F leaves the letter unchanged, but our rule (lowercase, canonical decomposition, drop
//      marks; Hangul syllables kept whole) changes it:
//      a. canonical decompositions Foundation on Linux does not apply: CJK compatibility
//         ideographs, Hebrew presentation forms, kana with voiced marks (が → か), Indic
//         nukta letters, Arabic hamza/madda letters, some Tibetan, Balinese, Kaithi, Myanmar
//         and Tamil letters;
//      b. case pairs newer than Foundation's tables (U+1C89, U+A7CB…, Garay, Beria Erfe).
// Everywhere else ours equals F exactly, scalar for scalar. `foundationAgreement` prints
// how many letters fall in each group.
import Foundation
import Testing
import WayfindCLI
import WayfindCore
import WayfindTestSupport

/// The folding rules as `ReferenceMatcher` (WayfindTestSupport) states them, from
/// Foundation and the standard library, seen scalar by scalar.
private enum FoldingReference {
    /// The reference's extra-fold table, by scalar value.
    static let extraFolds: [UInt32: String] = Dictionary(
        uniqueKeysWithValues: ReferenceMatcher.extraFolds.map { ($0.key.value, $0.value) })

    static func isLetter(_ s: Unicode.Scalar) -> Bool {
        [.lowercase, .uppercase, .otherLetter].contains(ReferenceMatcher.classOf(s))
    }

    static func isMark(_ s: Unicode.Scalar) -> Bool { ReferenceMatcher.classOf(s) == .mark }

    static func expectedClass(_ s: Unicode.Scalar) -> ScalarClass {
        switch ReferenceMatcher.classOf(s) {
        case .uppercase: return .uppercase
        case .lowercase: return .lowercase
        case .otherLetter: return .uncasedLetter
        case .digit: return .digit
        case .mark: return .mark
        case .separator: return .separator
        }
    }

    /// Foundation's folding of the letter's case round trip.
    static func foundation(_ s: Unicode.Scalar) -> [Unicode.Scalar] {
        Array(
            ReferenceMatcher.caseRoundTrip(s).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                .unicodeScalars)
    }

    static func nfd(_ s: Unicode.Scalar) -> [Unicode.Scalar] {
        Array(String(s).decomposedStringWithCanonicalMapping.unicodeScalars)
    }

    static func withExtras(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        scalars.flatMap { extraFolds[$0.value].map { Array($0.unicodeScalars) } ?? [$0] }
    }

    /// Our rule without Foundation: extra folds, else the case round trip, canonically
    /// decompose, fold marks (Hangul syllables excepted), repeated until stable.
    static func rule(_ input: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: input)
        return Array(ReferenceMatcher.normalize(String(view)).unicodeScalars)
    }
}

/// The bytes of a folded form, for the standard library's validating UTF-8 decoder.
private struct FoldedByteIterator: IteratorProtocol {
    var bits: UInt64
    var remaining: Int
    mutating func next() -> UInt8? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        defer { bits >>= 8 }
        return UInt8(truncatingIfNeeded: bits)
    }
}

/// The assigned scalars, sorted into letters and others, in one pass shared by the tests.
private enum Census {
    static let (letters, nonLetters): ([Unicode.Scalar], [Unicode.Scalar]) = {
        var letters: [Unicode.Scalar] = []
        var nonLetters: [Unicode.Scalar] = []
        for v in UInt32(0x80)...0x10FFFF {
            guard let s = Unicode.Scalar(v) else { continue }
            switch s.properties.generalCategory {
            case .unassigned, .privateUse: continue
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
                letters.append(s)
            default:
                nonLetters.append(s)
            }
        }
        return (letters, nonLetters)
    }()
}

/// Our folding, as scalars (`nil` if the bytes are not valid UTF-8).
private func ourFold(_ value: UInt32) -> [Unicode.Scalar]? {
    let folded = UnicodeFolding.foldedBytes(of: value)
    var bytes = FoldedByteIterator(bits: folded.rawValue, remaining: folded.count)
    var decoder = Unicode.UTF8()
    var scalars: [Unicode.Scalar] = []
    while true {
        switch decoder.decode(&bytes) {
        case .scalarValue(let s): scalars.append(s)
        case .emptyInput: return scalars
        case .error: return nil
        }
    }
}

private func ourFold(_ text: String) -> String {
    var bytes: [UInt8] = []
    for s in text.unicodeScalars { UnicodeFolding.appendFolded(s.value, to: &bytes) }
    return String(decoding: bytes, as: UTF8.self)
}

private func hex(_ scalars: [Unicode.Scalar]) -> String {
    scalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
}

private func hex(_ value: UInt32) -> String { "U+" + String(value, radix: 16, uppercase: true) }

@Suite("Folding")
struct FoldingTests {
    // MARK: - Examples

    static let words: [(String, String)] = [
        ("São Paulo", "sao paulo"),
        ("Zürich", "zurich"),  // NFC
        ("Zu\u{308}rich", "zurich"),  // NFD
        ("Straße", "strasse"),
        ("STRASSE", "strasse"),
        ("GROẞE", "grosse"),
        ("Kraków", "krakow"),
        ("Łódź Wrocław", "lodz wroclaw"),
        ("Malmö", "malmo"),
        ("Ærø", "aero"),
        ("Þingvellir", "thingvellir"),
        ("Kırıkkale", "kirikkale"),
        ("İstanbul", "istanbul"),
        ("Ħamrun", "hamrun"),
        ("Đakovo", "dakovo"),
        ("Œuvre", "oeuvre"),
        ("Reykjavík Ísafjörður", "reykjavik isafjordur"),
        ("Ångström Ǿresund", "angstrom oresund"),
        ("ΑΘΗΝΑ Ἀθῆναι", "αθηνα αθηναι"),
        ("ΣΟΦΟΣ σοφός", "σοφοσ σοφοσ"),  // final sigma folds like Foundation: ς → σ
        ("ᾀ ἈΙ ᲀ В", "αι αι в в"),  // like their uppercase forms
        ("МОСКВА Ёлка", "москва елка"),
        ("Йошкар-Ола", "иошкар-ола"),  // Й is И + breve, like Foundation
        ("東京 北京", "東京 北京"),
        ("ﬁle ﬀ", "file ff"),
        ("が か\u{3099}", "か か"),  // kana voicing mark, NFC and NFD
        ("ＰＡＲＩＳ ｐａｒｉｓ １２", "paris paris 12"),  // fullwidth, as an input method types
        ("ｶﾀｶﾅ カタカナ", "カタカナ カタカナ"),  // halfwidth katakana
        ("Ⅻ Ⓐ", "ⅻ ⓐ"),
        ("a ≠ b", "a = b"),
        ("abc-XYZ_019 \t!~", "abc-xyz_019 \t!~"),
    ]

    @Test("words fold", arguments: words)
    func wordFolds(input: String, expected: String) {
        let folded = ourFold(input)
        #expect(Array(folded.utf8) == Array(expected.utf8), "\(input) → \(folded), expected \(expected)")
    }

    static let scalars: [(UInt32, ScalarClass, String)] = [
        (0x41, .uppercase, "a"), (0x7A, .lowercase, "z"), (0x35, .digit, "5"), (0x2D, .separator, "-"),
        (0xE3, .lowercase, "a"),  // ã
        (0xC5, .uppercase, "a"),  // Å
        (0x212B, .uppercase, "a"),  // Å ANGSTROM SIGN
        (0xFE, .lowercase, "th"),  // þ
        (0xDE, .uppercase, "th"),  // Þ
        (0x131, .lowercase, "i"),  // ı
        (0x127, .lowercase, "h"),  // ħ
        (0x111, .lowercase, "d"),  // đ
        (0x153, .lowercase, "oe"),  // œ
        (0x142, .lowercase, "l"),  // ł
        (0x141, .uppercase, "l"),  // Ł
        (0x140, .lowercase, "l"),  // ŀ
        (0xDF, .lowercase, "ss"),  // ß
        (0x1E9E, .uppercase, "ss"),  // ẞ
        (0x3C2, .lowercase, "σ"),  // ς
        (0x3A9, .uppercase, "ω"),  // Ω
        (0x1F88, .uppercase, "αι"),  // ᾈ (Lt → uppercase); folds like its uppercase ἈΙ
        (0x1C5, .uppercase, "ǆ"),  // ǅ Lt
        (0x416, .uppercase, "ж"),  // Ж
        (0x2B0, .uncasedLetter, "ʰ"),  // ʰ Lm
        (0x6771, .uncasedLetter, "東"),
        (0xAC00, .uncasedLetter, "가"),  // Hangul syllables stay whole
        (0xF900, .uncasedLetter, "\u{8C48}"),  // CJK compatibility ideograph → its canonical form
        (0x623, .uncasedLetter, "\u{627}"),  // أ → ا
        (0x663, .digit, "٣"),
        (0xFF13, .digit, "3"),  // fullwidth ３
        (0xFF21, .uppercase, "a"),  // fullwidth Ａ
        (0xFF76, .uncasedLetter, "カ"),  // halfwidth ｶ
        (0xFF9E, .uncasedLetter, "\u{FF9E}"),  // halfwidth voicing mark ﾞ (Lm): a letter never folds to nothing
        (0x301, .mark, ""), (0x308, .mark, ""), (0x903, .mark, ""), (0x20DD, .mark, ""),
        (0x3099, .mark, ""), (0x345, .mark, "ι"),  // ypogegrammeni folds like its uppercase Ι
        (0xA0, .separator, "\u{A0}"), (0x2014, .separator, "—"), (0x20AC, .separator, "€"),
        (0x1F600, .separator, "😀"),
        (0x378, .separator, "\u{378}"),  // unassigned
        (0xE000, .separator, "\u{E000}"),  // private use
        (0x10FFFF, .separator, "\u{10FFFF}"),  // noncharacter
        (0xD800, .separator, ""), (0xDFFF, .separator, ""),  // surrogates: not scalars
        (0x110000, .separator, ""), (0xFFFF_FFFF, .separator, ""),
    ]

    @Test("single scalars", arguments: scalars)
    func singleScalar(value: UInt32, expectedClass: ScalarClass, expected: String) {
        #expect(UnicodeFolding.scalarClass(value) == expectedClass, "\(hex(value))")
        var bytes: [UInt8] = []
        UnicodeFolding.appendFolded(value, to: &bytes)
        #expect(bytes == Array(expected.utf8), "\(hex(value)) → \(bytes)")
        let (cls, folded) = UnicodeFolding.lookup(value)
        #expect(cls == expectedClass)
        #expect(folded.bytes == bytes && folded.count == bytes.count)
        #expect(UnicodeFolding.foldedBytes(of: value) == folded)
    }

    @Test("the extra-fold table here is the generator's")
    func extraTableMatchesGenerator() throws {
        // Tests/WayfindCoreTests/Text/FoldingTests.swift → repository root
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        let source = try String(
            contentsOf: root.appendingPathComponent("Tests/Generators/generate-unicode-tables.swift"),
            encoding: .utf8)
        let start = try #require(source.range(of: "let extraFolds: [UInt32: String] = ["))
        let end = try #require(source.range(of: "\n]", range: start.upperBound..<source.endIndex))
        var table: [UInt32: String] = [:]
        for match in source[start.upperBound..<end.lowerBound].matches(of: /0x([0-9A-F]+): "([a-z]+)"/) {
            table[UInt32(match.1, radix: 16)!] = String(match.2)
        }
        #expect(table.count > 40)
        let differences = Set(table.keys).union(FoldingReference.extraFolds.keys)
            .filter { table[$0] != FoldingReference.extraFolds[$0] }
            .sorted()
        #expect(differences.isEmpty, "extra tables differ at \(differences.map { hex($0) })")
    }

    // MARK: - Exhaustive

    @Test("ASCII: classes and folds are exact")
    func ascii() {
        for b in 0..<UInt8(0x80) {
            let expectedClass: ScalarClass
            switch b {
            case 0x61...0x7A: expectedClass = .lowercase
            case 0x41...0x5A: expectedClass = .uppercase
            case 0x30...0x39: expectedClass = .digit
            default: expectedClass = .separator
            }
            let lowered = (0x41...0x5A).contains(b) ? b + 0x20 : b
            #expect(UnicodeFolding.asciiClass(b) == expectedClass)
            #expect(UnicodeFolding.scalarClass(UInt32(b)) == expectedClass)
            var bytes: [UInt8] = []
            UnicodeFolding.appendFolded(UInt32(b), to: &bytes)
            #expect(bytes == [lowered])
            #expect(UnicodeFolding.foldedBytes(of: UInt32(b)).bytes == [lowered])
            #expect(UnicodeFolding.lookup(UInt32(b)) == (expectedClass, FoldedScalar(rawValue: 1 << 56 | UInt64(lowered))))
        }
    }

    @Test("classes of all of Unicode follow the general category")
    func classes() {
        var mismatches: [String] = []
        for v in UInt32(0)...0x10FFFF {
            let scalar = Unicode.Scalar(v)
            let expected = scalar == nil ? .separator : FoldingReference.expectedClass(scalar!)
            let (cls, folded) = UnicodeFolding.lookup(v)
            if cls != expected || UnicodeFolding.scalarClass(v) != expected {
                mismatches.append("\(hex(v)): \(cls), expected \(expected)")
            }
            // Marks (but U+0345, which folds to ι) and non-scalars fold to nothing;
            // unassigned and private-use scalars fold to themselves.
            if (expected == .mark && v != 0x345 || scalar == nil) != folded.isEmpty {
                mismatches.append("\(hex(v)): folds to \(folded.count) bytes")
            }
            if let scalar, expected == .separator, folded != FoldedScalar(encoding: v) {
                switch scalar.properties.generalCategory {
                case .unassigned, .privateUse: mismatches.append("\(hex(v)): unassigned/private use changed")
                default: break
                }
            }
        }
        for v: UInt32 in [0x110000, 0x110001, 0x1FFFFF, 0x7FFF_FFFF, 0xFFFF_FFFF] {
            if UnicodeFolding.lookup(v) != (.separator, .empty) { mismatches.append("\(hex(v))") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.joined(separator: "\n"))")
    }

    /// Every letter: ours equals Foundation's folding, except the two documented kinds.
    @Test("letters agree with Foundation's folding")
    func foundationAgreement() {
        var same = 0
        var extra: [String] = []
        var foundationUnchanged: [String] = []
        var width: [String] = []
        var mismatches: [String] = []
        for s in Census.letters {
            let v = s.value
            guard let ours = ourFold(v) else { mismatches.append("\(hex(v)): invalid UTF-8"); continue }
            let f = FoldingReference.foundation(s)
            if ours == f { same += 1; continue }
            let line = "\(hex(v)) \(String(s)): ours \(hex(ours)), Foundation \(hex(f))"
            if f != [s] {
                // Foundation changes the letter: ours must be Foundation's result, with the
                // extra folds applied (Ł → ł → l, Ǿ → ø → o), or for a fullwidth letter, its
                // ordinary form (Ａ → ａ → a).
                if ours == FoldingReference.withExtras(f) {
                    extra.append(line)
                } else if (0xFF21...0xFF5A).contains(v) && ours == FoldingReference.rule(f) {
                    width.append(line)
                } else {
                    mismatches.append(line)
                }
            } else if FoldingReference.extraFolds[v] != nil && ours == FoldingReference.withExtras([s]) {
                extra.append(line)  // ł, ø, … which Foundation keeps
            } else if ours == FoldingReference.rule([s]) {
                foundationUnchanged.append(line)  // 2a/2b in the header comment
            } else {
                mismatches.append(line)
            }
        }
        print(
            "Folding vs Foundation on letters: \(same) equal, \(extra.count) extra folds, \(width.count) fullwidth, "
                + "\(foundationUnchanged.count) that Foundation leaves unchanged, \(mismatches.count) mismatches")
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.joined(separator: "\n"))")
        // Every letter of the extra table is one of the exceptions (or agrees: ß, ẞ).
        #expect(extra.count + 2 >= FoldingReference.extraFolds.count)
        #expect(same > 140_000)
        // Ａ…Ｚ fold to a…z, where Foundation only lowercases them (ａ…ｚ, which it
        // keeps, count with the letters Foundation leaves unchanged).
        #expect(width.count == 26)
    }

    /// The self-match promise: a word's upper-cased form finds what the word finds.
    @Test("every letter folds like its uppercase")
    func lettersFoldLikeTheirUppercase() {
        var problems: [String] = []
        for s in Census.letters {
            let upper = ourFold(String(s).uppercased())
            let own = ourFold(String(s))
            if upper != own { problems.append("\(hex(s.value)) \(String(s)) → \(own), uppercase → \(upper)") }
        }
        #expect(problems.isEmpty, "\(problems.count) letters:\n\(problems.prefix(50).joined(separator: "\n"))")
    }

    /// Every assigned scalar: the rule holds for non-letters too, folded forms are valid UTF-8
    /// with no uppercase and no marks, folding is idempotent and respects canonical equivalence.
    /// (Unassigned and private-use scalars are checked in `classes`.)
    @Test("folded forms are final and canonical")
    func foldedFormsAreFinal() {
        var problems: [String] = []
        for s in Census.letters + Census.nonLetters {
            let v = s.value
            guard let ours = ourFold(v) else { problems.append("\(hex(v)): invalid UTF-8"); continue }
            if !FoldingReference.isLetter(s) && ours != FoldingReference.rule([s]) {
                problems.append("\(hex(v)): non-letter folds to \(hex(ours)), rule says \(hex(FoldingReference.rule([s])))")
            }
            for u in ours {
                if u.properties.changesWhenLowercased || FoldingReference.isMark(u) {
                    problems.append("\(hex(v)): folded form \(hex(ours)) has uppercase or marks")
                }
                if ourFold(u.value) != [u] {
                    problems.append("\(hex(v)): folded form \(hex(ours)) folds further")
                }
            }
            // Unified ideographs and Hangul syllables (kept whole) need no NFD check.
            if s.properties.isUnifiedIdeograph || (0xAC00...0xD7A3).contains(v) { continue }
            let decomposed = FoldingReference.nfd(s)
            if decomposed != [s] {
                let viaNFD = decomposed.flatMap { ourFold($0.value) ?? [] }
                if viaNFD != ours { problems.append("\(hex(v)): \(hex(ours)) but its NFD folds to \(hex(viaNFD))") }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.prefix(200).joined(separator: "\n"))")
    }
}
