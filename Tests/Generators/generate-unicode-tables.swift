// Generator for Sources/WayfindUnicodeData/unicode_tables.c (the tables, as constant C
// arrays that the binary uses in place) and Sources/WayfindCore/Text/UnicodeTables.generated.swift
// (their sizes and Unicode version, for Swift).
//
// Not part of any SwiftPM target. Run it with
//     Tests/Generators/run-generate-unicode-tables.sh
// which compiles this file with `swiftc -O` into a temporary directory and runs it
// (the Makefile's `make tables` calls that script).
//
// Usage of the compiled binary: generate-unicode-tables OUTPUT.swift OUTPUT.c
//                            or: generate-unicode-tables --stats   (sizes for other block sizes)
//
// ## What is computed, per scalar value 0...0x10FFFF
//
// Class (from the standard library's `Unicode.Scalar.Properties.generalCategory`):
//   Lu, Lt → uppercase; Ll → lowercase; Lo, Lm → uncasedLetter; Nd → digit;
//   Mn, Mc, Me → mark; everything else (unassigned, surrogates, …) → separator.
//
// Folded form (a sequence of scalars, stored as UTF-8):
//   * surrogates (not scalars) → nothing;
//   * combining marks (M*) → nothing, except U+0345 COMBINING GREEK YPOGEGRAMMENI → ι (the
//     one mark whose case round trip is a letter; see `markFold`);
//   * letters (L*): if in `extraFolds` below → that value; otherwise, when Foundation's
//     `folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)` of the
//     letter's case round trip (the lowercase of its uppercase) differs from the letter,
//     `normalize(Foundation's result)`; otherwise `normalize([letter])`;
//   * everything else: `normalize([scalar])`.
//   `normalize` repeats until nothing changes: each scalar in `extraFolds` is replaced by its
//   value; a fullwidth ASCII character or halfwidth katakana by its ordinary form
//   (`widthFold`: Ａ → A, ｶ → カ); any other scalar is replaced by its case round trip, canonically decomposed,
//   with combining marks folded (dropped, but U+0345). Hangul syllables are left alone (their canonical
//   decomposition is conjoining jamo, not a letter plus accents; Foundation keeps them too).
//   The case round trip makes upper-casing harmless: ᾀ and its uppercase ἈΙ both fold to
//   αι, ᲀ (a variant of в) and its uppercase В both to в; the lowercase alone (and
//   Foundation alone) fold ᾀ to α and ᲀ to itself. The generator checks that every letter
//   folds like its uppercase.
//
// ## Where the result differs from Foundation's folding, on letters (the agreement test in
// ## Tests/WayfindCoreTests/Text/FoldingTests.swift checks exactly these rules)
//
// Measured with Swift 6.3.1 on Linux (standard library Unicode 17.0): of 145,620 letters,
// 144,366 fold exactly as Foundation folds them; the others are
//   1. extra folds (58 letters: those of `extraFolds` and those Foundation folds to one of
//      them): the table goes further than Foundation, which keeps ł, ø, đ, ħ, ı, æ, œ, þ,
//      ð, … (after lowercasing the capital). Where Foundation's result contains such a
//      letter (Ǿ → ø, ǣ → æ, Ł → ł), ours continues with the extra value (Ǿ → o, ǣ → ae,
//      Ł → l). ß and ẞ are in the table but agree with Foundation (→ ss).
//   2. letters Foundation on Linux leaves unchanged and our rule changes (1,196 letters):
//      a. canonical decompositions Foundation does not apply (1,141): CJK compatibility
//         ideographs (1,002; 豈 U+F900 → U+8C48, a singleton decomposition); Hebrew
//         presentation forms with dagesh or points (שׁ → ש); kana with (semi-)voiced marks
//         (が → か, ぱ → は, ゞ → ゝ); Devanagari, Bengali, Gurmukhi, Oriya nukta letters
//         (क़ → क); Arabic letters with hamza or madda (أ → ا); Tibetan, Balinese, Kaithi,
//         Myanmar and Tamil letters whose decomposition ends in a vowel sign or mark
//         (ஔ → ஒ). This keeps folding invariant under canonical equivalence:
//         "か\u{3099}" (NFD) folds like "が" (NFC), because the mark folds to nothing;
//      b. case pairs newer than Foundation's tables (55): U+1C89, U+A7CB…U+A7DC, Garay,
//         Beria Erfe capitals; ours lowercases them, Foundation leaves them.
//   Foundation's results never contain uppercase letters or marks (`fold` checks it), so
//   "apply the rest of our rule to Foundation's result" only matters through `extraFolds`.
//   Non-letters are folded by `normalize` alone; Foundation is not consulted. (It agrees on
//   Roman numerals Ⅻ → ⅻ, circled letters Ⓐ → ⓐ, ≠ → =, ; for U+037E, but maps marks to
//   marks where ours drops them, and leaves e.g. ↚ and ≄ alone where ours drops the
//   overlay mark as it would in their NFD forms.)
import Foundation

// MARK: - Letters readers see as accented that Unicode does not decompose

/// Extra folds applied on top of Foundation's folding. Both cases are listed; the capital
/// would reach the same value anyway through Foundation's lowercasing.
let extraFolds: [UInt32: String] = [
    // Required by the folding contract.
    0x0141: "l", 0x0142: "l",  // Ł ł  L with stroke
    0x00D8: "o", 0x00F8: "o",  // Ø ø  O with stroke
    0x0110: "d", 0x0111: "d",  // Đ đ  D with stroke
    0x0126: "h", 0x0127: "h",  // Ħ ħ  H with stroke
    0x0131: "i",  // ı    dotless i
    0x00C6: "ae", 0x00E6: "ae",  // Æ æ
    0x0152: "oe", 0x0153: "oe",  // Œ œ
    0x00DE: "th", 0x00FE: "th",  // Þ þ  thorn
    0x00DF: "ss", 0x1E9E: "ss",  // ß ẞ  (Foundation agrees)
    // Further letters with a stroke, bar or dot, and ligatures, of Latin orthographies.
    0x00D0: "d", 0x00F0: "d",  // Ð ð  eth (Icelandic, Faroese)
    0x013F: "l", 0x0140: "l",  // Ŀ ŀ  L with middle dot (Catalan)
    0x0166: "t", 0x0167: "t",  // Ŧ ŧ  T with stroke (Sami)
    0x0132: "ij", 0x0133: "ij",  // Ĳ ĳ  ligature IJ (Dutch)
    0x0237: "j",  // ȷ    dotless j
    0x0243: "b", 0x0180: "b",  // Ƀ ƀ  B with stroke
    0x0197: "i", 0x0268: "i",  // Ɨ ɨ  I with stroke
    0x023D: "l", 0x019A: "l",  // Ƚ ƚ  L with bar
    0x01B5: "z", 0x01B6: "z",  // Ƶ ƶ  Z with stroke
    0x01E4: "g", 0x01E5: "g",  // Ǥ ǥ  G with stroke (Sami)
    0x023B: "c", 0x023C: "c",  // Ȼ ȼ  C with stroke
    0x0246: "e", 0x0247: "e",  // Ɇ ɇ  E with stroke
    0x0248: "j", 0x0249: "j",  // Ɉ ɉ  J with stroke
    0x024C: "r", 0x024D: "r",  // Ɍ ɍ  R with stroke
    0x024E: "y", 0x024F: "y",  // Ɏ ɏ  Y with stroke
    0x0244: "u", 0x0289: "u",  // Ʉ ʉ  U bar
    0x023A: "a", 0x2C65: "a",  // Ⱥ ⱥ  A with stroke
    0x023E: "t", 0x2C66: "t",  // Ⱦ ⱦ  T with diagonal stroke
    0x2C63: "p", 0x1D7D: "p",  // Ᵽ ᵽ  P with stroke
]

// MARK: - Per-scalar rules

enum Class: UInt16 { case separator = 0, lowercase, uppercase, uncasedLetter, digit, mark }

func classOf(_ s: Unicode.Scalar) -> Class {
    switch s.properties.generalCategory {
    case .uppercaseLetter, .titlecaseLetter: return .uppercase
    case .lowercaseLetter: return .lowercase
    case .otherLetter, .modifierLetter: return .uncasedLetter
    case .decimalNumber: return .digit
    case .nonspacingMark, .spacingMark, .enclosingMark: return .mark
    default: return .separator
    }
}

func isMark(_ s: Unicode.Scalar) -> Bool { classOf(s) == .mark }

func isLetter(_ s: Unicode.Scalar) -> Bool {
    switch s.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
        return true
    default:
        return false
    }
}

func isHangulSyllable(_ v: UInt32) -> Bool { v >= 0xAC00 && v <= 0xD7A3 }

/// The case round trip: the lowercase of the uppercase. Unlike the lowercase alone, it
/// gives a letter and its uppercase the same form (ᾀ and its uppercase ἈΙ both become ἀι,
/// ᲀ and В both в), so an upper-cased query finds what the original finds.
func caseRoundTrip(_ s: Unicode.Scalar) -> String {
    var result = String.UnicodeScalarView()
    for u in s.properties.uppercaseMapping.unicodeScalars { result.append(contentsOf: u.properties.lowercaseMapping.unicodeScalars) }
    return String(result)
}

func foundationFold(_ s: Unicode.Scalar) -> [Unicode.Scalar] {
    Array(caseRoundTrip(s).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).unicodeScalars)
}

/// A combining mark folds to nothing, unless its case round trip is a letter: U+0345
/// COMBINING GREEK YPOGEGRAMMENI (the only one) becomes ι, as its uppercase Ι does, so
/// ᾳ, its NFD α + U+0345 and its uppercase ΑΙ all fold to αι.
func markFold(_ u: Unicode.Scalar) -> [Unicode.Scalar] {
    let trip = caseRoundTrip(u).unicodeScalars
    return trip.contains(where: isMark) ? [] : Array(trip)
}

/// The ordinary character of a fullwidth ASCII one (ＰＡＲＩＳ, as a CJK input method
/// types in full width) or of a halfwidth katakana (ｶ → カ): their compatibility
/// decomposition, which is only their width; nil for others. Not the halfwidth voicing
/// marks ﾞ and ﾟ (letters, whose ordinary forms are marks, which fold to nothing: a
/// letter never does).
func widthFold(_ u: Unicode.Scalar) -> [Unicode.Scalar]? {
    guard (0xFF01...0xFF5E).contains(u.value) || (0xFF61...0xFF9D).contains(u.value) else { return nil }
    return Array(String(u).decomposedStringWithCompatibilityMapping.unicodeScalars)
}

/// One step of `normalize` on one scalar.
func normalizeStep(_ u: Unicode.Scalar) -> [Unicode.Scalar] {
    if let extra = extraFolds[u.value] { return Array(extra.unicodeScalars) }
    if let ordinary = widthFold(u) { return ordinary }
    if isHangulSyllable(u.value) { return [u] }
    if isMark(u) { return markFold(u) }
    return caseRoundTrip(u).decomposedStringWithCanonicalMapping.unicodeScalars.flatMap { isMark($0) ? markFold($0) : [$0] }
}

func normalize(_ input: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var current = input
    for _ in 0..<8 {
        let next = current.flatMap(normalizeStep)
        if next == current { return current }
        current = next
    }
    fatalError("normalize does not converge on \(input.map { String($0.value, radix: 16) })")
}

func fold(_ s: Unicode.Scalar) -> [Unicode.Scalar] {
    if isMark(s) { return markFold(s) }
    if isLetter(s) {
        if let extra = extraFolds[s.value] { return Array(extra.unicodeScalars) }
        let f = foundationFold(s)
        if f != [s] {
            precondition(
                !f.contains { $0.properties.changesWhenLowercased || isMark($0) },
                "Foundation's fold of U+\(String(s.value, radix: 16)) has uppercase or marks; review the rules")
            return normalize(f)
        }
    }
    return normalize([s])
}

// MARK: - Table construction

/// A folded form: up to 7 UTF-8 bytes in the low bytes (first byte lowest), count in the top byte.
func packed(_ scalars: [Unicode.Scalar]) -> UInt64 {
    var bytes: [UInt8] = []
    for s in scalars { bytes.append(contentsOf: String(s).utf8) }
    precondition(bytes.count <= 7, "folded form longer than 7 bytes: \(scalars)")
    var value = UInt64(bytes.count) << 56
    for (i, b) in bytes.enumerated() { value |= UInt64(b) << (8 * UInt64(i)) }
    return value
}

let scalarLimit: UInt32 = 0x110000
var entries = [UInt16](repeating: 0, count: Int(scalarLimit))
/// Distinct folded forms. Index 0 means "folds to itself" (its value is never read);
/// index 1 is the empty form (marks, surrogates).
var pool: [UInt64] = [0, 0]
var poolIndex: [UInt64: Int] = [0: 1]
let emptyIndex = 1
var unicodeVersion = (major: 0, minor: 0)
var counts: [String: Int] = [:]
/// Folded forms of the scalars that do not fold to themselves.
var changed: [UInt32: [Unicode.Scalar]] = [:]

for v in 0..<scalarLimit {
    guard let s = Unicode.Scalar(v) else {
        // Surrogate code points: separators that fold to nothing.
        entries[Int(v)] = Class.separator.rawValue | UInt16(emptyIndex << 3)
        continue
    }
    if let age = s.properties.age, (age.major, age.minor) > unicodeVersion { unicodeVersion = age }
    let cls = classOf(s)
    let folded = fold(s)
    var index = 0
    if folded != [s] {
        let p = packed(folded)
        if let i = poolIndex[p] {
            index = i
        } else {
            index = pool.count
            poolIndex[p] = index
            pool.append(p)
        }
        counts["changed \(cls)", default: 0] += 1
        changed[v] = folded
    }
    precondition(index < 1 << 13, "too many distinct folded forms")
    entries[Int(v)] = cls.rawValue | UInt16(index << 3)
}

// Two-level table: stage1[v >> shift] is a block number, stage2[block << shift | low bits].
func buildTwoLevel(shift: Int) -> (stage1: [UInt16], stage2: [UInt16]) {
    let blockSize = 1 << shift
    var stage1: [UInt16] = []
    var stage2: [UInt16] = []
    var blocks: [[UInt16]: Int] = [:]
    for start in stride(from: 0, to: Int(scalarLimit), by: blockSize) {
        let block = Array(entries[start..<start + blockSize])
        if let b = blocks[block] {
            stage1.append(UInt16(b))
        } else {
            let b = blocks.count
            precondition(b < 1 << 16)
            blocks[block] = b
            stage1.append(UInt16(b))
            stage2.append(contentsOf: block)
        }
    }
    return (stage1, stage2)
}

// MARK: - Checks

/// Upper-casing a letter never changes its folded form.
for v in 0..<scalarLimit {
    guard let s = Unicode.Scalar(v), isLetter(s) else { continue }
    let upper = s.properties.uppercaseMapping.unicodeScalars.flatMap { fold($0) }
    precondition(upper == fold(s), "U+\(String(v, radix: 16)) folds apart from its uppercase")
}

/// The folded form of every scalar is final: folding it again, scalar by scalar, changes
/// nothing, and it contains no uppercase letters and no marks.
for (v, folded) in changed {
    for u in folded {
        precondition(changed[u.value] == nil, "fold is not idempotent on U+\(String(v, radix: 16))")
        precondition(
            !u.properties.changesWhenLowercased && !isMark(u),
            "fold of U+\(String(v, radix: 16)) has uppercase or marks")
    }
}

let arguments = CommandLine.arguments
if arguments.count == 2 && arguments[1] == "--stats" {
    for shift in 4...10 {
        let (s1, s2) = buildTwoLevel(shift: shift)
        print("shift \(shift): stage1 \(s1.count) stage2 \(s2.count) blocks \(s2.count >> shift) bytes \(2 * (s1.count + s2.count))")
    }
    var runs = 1
    for i in 1..<entries.count where entries[i] != entries[i - 1] { runs += 1 }
    print("runs \(runs) pool \(pool.count) (\(8 * pool.count) bytes) unicode \(unicodeVersion)")
    for (k, v) in counts.sorted(by: { $0.key < $1.key }) { print(k, v) }
    exit(0)
}
guard arguments.count == 3 else {
    print("usage: generate-unicode-tables OUTPUT.swift OUTPUT.c | --stats")
    exit(2)
}

// MARK: - Output

let blockShift = 7
let (stage1, stage2) = buildTwoLevel(shift: blockShift)
let blockSize = 1 << blockShift
let byteCount = 2 * (stage1.count + stage2.count) + 8 * pool.count
let header = """
    GENERATED by Tests/Generators/run-generate-unicode-tables.sh (Tests/Generators/generate-unicode-tables.swift). Do not edit.

    Per-scalar class and folded form for `UnicodeFolding`, from the standard library's Unicode
    \(unicodeVersion.major).\(unicodeVersion.minor) properties and Foundation's folding; see the generator for the rules.
    \(stage1.count) stage-1 and \(stage2.count) stage-2 UInt16 entries (blocks of \(blockSize)), \(pool.count) folded forms:
    \(byteCount) bytes of constant C arrays (Sources/WayfindUnicodeData/unicode_tables.c), used in place.
    """
let headerLines = header.split(separator: "\n", omittingEmptySubsequences: false)

/// `values` as C hex literals of `digits` digits, `perLine` to a line, indented by four spaces;
/// `label(i)`, when not nil, is written as a comment line before value `i`.
func hexLines(_ values: [UInt64], digits: Int, perLine: Int, label: (Int) -> String?) -> String {
    var lines: [String] = []
    var i = 0
    while i < values.count {
        if let text = label(i) { lines.append("    // \(text)") }
        let end = min(i + perLine, values.count)
        let literals = values[i..<end].map { value -> String in
            let hex = String(value, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: max(0, digits - hex.count)) + hex + ","
        }
        lines.append("    " + literals.joined(separator: " "))
        i = end
    }
    return lines.joined(separator: "\n")
}

func scalarLabel(_ value: Int) -> String {
    let hex = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}

/// Values per line: 8 stage-1 entries cover 1,024 scalar values, 8 stage-2 entries are a
/// sixteenth of a block.
let entriesPerLine = 8
let stage1Text = hexLines(stage1.map(UInt64.init), digits: 4, perLine: entriesPerLine) { i in
    i % (8 * entriesPerLine) == 0 ? "scalar values from \(scalarLabel(i << blockShift))" : nil
}
let stage2Text = hexLines(stage2.map(UInt64.init), digits: 4, perLine: entriesPerLine) { i in
    i % blockSize == 0 ? "block \(i >> blockShift)" : nil
}
let poolText = hexLines(pool, digits: 16, perLine: 4) { i in i % 64 == 0 ? "forms from \(i)" : nil }

let cOutput = """
    \(headerLines.map { $0.isEmpty ? "//" : "// " + $0 }.joined(separator: "\n"))
    #include "WayfindUnicodeData.h"

    /* Stage 1: for each block of \(blockSize) scalar values, the number of its block in stage 2. */
    const uint16_t wayfind_fold_stage1_data[] = {
    \(stage1Text)
    };
    _Static_assert(sizeof wayfind_fold_stage1_data == \(stage1.count) * sizeof(uint16_t), "stage 1 length");

    /* Stage 2: the distinct blocks of entries; an entry is a class (bits 0-2) and a pool index. */
    const uint16_t wayfind_fold_stage2_data[] = {
    \(stage2Text)
    };
    _Static_assert(sizeof wayfind_fold_stage2_data == \(stage2.count) * sizeof(uint16_t), "stage 2 length");

    /* The distinct folded forms: UTF-8 bytes from the lowest byte up, the count in the top byte.
     * Form 0 is never read (index 0 means "folds to itself"); form 1 is the empty form. */
    const uint64_t wayfind_fold_pool_data[] = {
    \(poolText)
    };
    _Static_assert(sizeof wayfind_fold_pool_data == \(pool.count) * sizeof(uint64_t), "pool length");

    """

let swiftOutput = """
    \(headerLines.map { $0.isEmpty ? "//" : "// " + $0 }.joined(separator: "\n"))

    /// The constants of the folding tables in `WayfindUnicodeData`, which `FoldingTables`
    /// (UnicodeFolding.swift) reads in place.
    enum UnicodeTableData {
        /// The Unicode version of the scalar properties the tables were generated from.
        static let unicodeVersion = (major: \(unicodeVersion.major), minor: \(unicodeVersion.minor))
        /// log2 of the stage-2 block size.
        static var blockShift: UInt32 { \(blockShift) }
        /// The number of entries of `wayfind_fold_stage1()`.
        static let stage1Count = \(stage1.count)
        /// The number of entries of `wayfind_fold_stage2()`.
        static let stage2Count = \(stage2.count)
        /// The number of folded forms of `wayfind_fold_pool()`.
        static let poolCount = \(pool.count)
    }

    """

for (path, text) in [(arguments[1], swiftOutput), (arguments[2], cOutput)] {
    do {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
        print("cannot write \(path): \(error)")
        exit(1)
    }
}
print(
    "wrote \(arguments[1]) and \(arguments[2]): \(stage1.count) + \(stage2.count) entries,",
    "\(pool.count) folded forms, \(byteCount) bytes")
