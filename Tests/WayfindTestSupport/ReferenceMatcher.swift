import Foundation

/// smartgrep's matching rule, written to be obviously correct rather than fast: the
/// reference the fast paths are checked against. It shares no code with WayfindCore: it
/// folds with Foundation and the standard library's Unicode data, splits words with the
/// documented rule over an array of characters, and finds an assignment of query words to
/// distinct word starts with the textbook augmenting-path matching.
///
/// The rules, as the README and `man smartgrep` state them:
/// - A query splits at whitespace into words. Each word loses marks from its front (no
///   word of a line starts with one), and outside `space` mode also the characters that
///   cannot be part of a word (neither letter, digit nor mark) from both ends. Words left
///   empty are dropped; no words match all.
/// - Folding: letters in `extraFolds` become their value; other letters are made the
///   lowercase of their uppercase, folded by Foundation (`.caseInsensitive`,
///   `.diacriticInsensitive`), then again case-round-tripped, decomposed and stripped of
///   marks, repeatedly, with `extraFolds` applied; other characters get the same but
///   Foundation. Marks fold to nothing (but U+0345, which folds to ι as its uppercase Ι
///   does). Hangul syllables stay whole.
/// - Classes (general category): Lu, Lt uppercase; Ll lowercase; Lo, Lm other letters;
///   Nd digit; M* mark; the rest separator. An invalid byte is a separator that matches
///   nothing. In `space` mode, whitespace separates and every other character but a mark
///   is part of a word. A character that folds to nothing and is not a mark is ignored.
/// - A word starts at a letter or digit after a separator (or the line's start); in
///   `all` mode also at an uppercase letter after a lowercase or other letter or a digit,
///   and at an uppercase letter after an uppercase one when a lowercase letter follows.
///   Marks are skipped when looking at neighbours.
/// - A query word fits at a word start when the folded text from there begins with it.
///   The line matches when every query word fits at a different word start.
public final class ReferenceMatcher {
    /// Where lines split into words.
    public enum Mode: String, CaseIterable, Sendable {
        case all, punct, space
    }

    /// Letters readers see as accented that Unicode does not decompose (the documented
    /// list and the rest of the generator's table).
    public static let extraFolds: [Unicode.Scalar: String] = {
        let pairs: [(UInt32, String)] = [
            (0x0141, "l"), (0x0142, "l"), (0x00D8, "o"), (0x00F8, "o"), (0x0110, "d"), (0x0111, "d"),
            (0x0126, "h"), (0x0127, "h"), (0x0131, "i"), (0x00C6, "ae"), (0x00E6, "ae"), (0x0152, "oe"),
            (0x0153, "oe"), (0x00DE, "th"), (0x00FE, "th"), (0x00DF, "ss"), (0x1E9E, "ss"), (0x00D0, "d"),
            (0x00F0, "d"), (0x013F, "l"), (0x0140, "l"), (0x0166, "t"), (0x0167, "t"), (0x0132, "ij"),
            (0x0133, "ij"), (0x0237, "j"), (0x0243, "b"), (0x0180, "b"), (0x0197, "i"), (0x0268, "i"),
            (0x023D, "l"), (0x019A, "l"), (0x01B5, "z"), (0x01B6, "z"), (0x01E4, "g"), (0x01E5, "g"),
            (0x023B, "c"), (0x023C, "c"), (0x0246, "e"), (0x0247, "e"), (0x0248, "j"), (0x0249, "j"),
            (0x024C, "r"), (0x024D, "r"), (0x024E, "y"), (0x024F, "y"), (0x0244, "u"), (0x0289, "u"),
            (0x023A, "a"), (0x2C65, "a"), (0x023E, "t"), (0x2C66, "t"), (0x2C63, "p"), (0x1D7D, "p"),
        ]
        return Dictionary(uniqueKeysWithValues: pairs.map { (Unicode.Scalar($0.0)!, $0.1) })
    }()

    /// A character's class for word splitting.
    public enum Class: Sendable { case separator, lowercase, uppercase, otherLetter, digit, mark }

    /// One character of a line: its class and its folded bytes (nil: an invalid byte).
    struct Character {
        var cls: Class
        var folded: [UInt8]?
    }

    /// A line split and folded: the folded text, and where each word starts in it.
    public struct Line {
        /// The folded bytes; an invalid byte is 0xFF, which no query contains.
        public var folded: [UInt8]
        /// Offsets in `folded` where words start.
        public var starts: [Int]
        /// Offsets in `folded` where a word may end: the line's end, and the start of a
        /// separator or of a word (never inside one character's folded form).
        public var ends: Set<Int> = []
    }

    private var foldCache: [Unicode.Scalar: [UInt8]] = [:]

    /// A matcher with an empty fold cache (not shared: make one per thread).
    public init() {}

    // MARK: - Folding

    /// The folded UTF-8 of one scalar.
    public func fold(_ scalar: Unicode.Scalar) -> [UInt8] {
        if let cached = foldCache[scalar] { return cached }
        let result = Array(Self.foldUncached(scalar).utf8)
        foldCache[scalar] = result
        return result
    }

    /// The folded UTF-8 of a string (scalar by scalar).
    public func fold(_ text: String) -> [UInt8] {
        text.unicodeScalars.flatMap { fold($0) }
    }

    static func foldUncached(_ scalar: Unicode.Scalar) -> String {
        if let extra = extraFolds[scalar] { return extra }
        switch classOf(scalar) {
        case .mark:
            return markFold(scalar)
        case .lowercase, .uppercase, .otherLetter:
            return normalize(caseRoundTrip(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
        default:
            return normalize(String(scalar))
        }
    }

    /// Nothing, unless the mark's case round trip is a letter (U+0345 → ι).
    static func markFold(_ scalar: Unicode.Scalar) -> String {
        let trip = caseRoundTrip(scalar)
        return trip.unicodeScalars.contains { classOf($0) == .mark } ? "" : trip
    }

    /// The lowercase of the uppercase: a letter and its uppercase end up the same.
    public static func caseRoundTrip(_ scalar: Unicode.Scalar) -> String {
        String(scalar).uppercased().lowercased()
    }

    /// Case round trip, decompose, drop marks, apply `extraFolds`, fullwidth and halfwidth
    /// forms to their ordinary ones, until nothing changes.
    public static func normalize(_ text: String) -> String {
        var current = text
        while true {
            var next = ""
            for scalar in current.unicodeScalars {
                if let extra = extraFolds[scalar] {
                    next += extra
                    continue
                }
                if (0xFF01...0xFF5E).contains(scalar.value) || (0xFF61...0xFF9D).contains(scalar.value) {
                    // Fullwidth ASCII and halfwidth katakana but its voicing marks: their
                    // ordinary forms (Ａ → A).
                    next += String(scalar).decomposedStringWithCompatibilityMapping
                    continue
                }
                if (0xAC00...0xD7A3).contains(scalar.value) {  // Hangul syllables stay whole
                    next.unicodeScalars.append(scalar)
                    continue
                }
                let lowered = caseRoundTrip(scalar).decomposedStringWithCanonicalMapping
                for s in lowered.unicodeScalars {
                    if classOf(s) == .mark { next += markFold(s) } else { next.unicodeScalars.append(s) }
                }
            }
            if next.unicodeScalars.elementsEqual(current.unicodeScalars) { return next }
            current = next
        }
    }

    public static func classOf(_ scalar: Unicode.Scalar) -> Class {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .titlecaseLetter: return .uppercase
        case .lowercaseLetter: return .lowercase
        case .otherLetter, .modifierLetter: return .otherLetter
        case .decimalNumber: return .digit
        case .nonspacingMark, .spacingMark, .enclosingMark: return .mark
        default: return .separator
        }
    }

    // MARK: - Lines

    /// The characters of a line and the indices of those that start words.
    private func split(_ bytes: [UInt8], mode: Mode) -> (characters: [Character], scalars: [Unicode.Scalar?], starts: [Int]) {
        var characters: [Character] = []
        var scalars: [Unicode.Scalar?] = []
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        decoding: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                var cls = Self.classOf(scalar)
                if mode == .space && cls != .mark { cls = scalar.properties.isWhitespace ? .separator : .lowercase }
                let folded = fold(scalar)
                if folded.isEmpty && cls != .mark { continue }  // invisible
                characters.append(Character(cls: cls, folded: folded))
                scalars.append(scalar)
            case .error:
                characters.append(Character(cls: mode == .space ? .lowercase : .separator, folded: nil))
                scalars.append(nil)
            case .emptyInput:
                break decoding
            }
        }
        // Neighbours skip marks.
        let visible = characters.indices.filter { characters[$0].cls != .mark }
        var starts: [Int] = []
        for (n, i) in visible.enumerated() {
            let current = characters[i].cls
            let previous = n > 0 ? characters[visible[n - 1]].cls : .separator
            let next = n + 1 < visible.count ? characters[visible[n + 1]].cls : .separator
            if current == .separator { continue }
            if previous == .separator {
                starts.append(i)
            } else if mode == .all && current == .uppercase {
                if previous != .uppercase || next == .lowercase { starts.append(i) }
            }
        }
        return (characters, scalars, starts)
    }

    /// Splits and folds a line (raw bytes; invalid UTF-8 allowed).
    public func line(_ bytes: [UInt8], mode: Mode) -> Line {
        let (characters, _, startIndices) = split(bytes, mode: mode)
        let startSet = Set(startIndices)
        var folded: [UInt8] = []
        var starts: [Int] = []
        var ends: Set<Int> = []
        for (i, c) in characters.enumerated() {
            if startSet.contains(i) { starts.append(folded.count) }
            let bytes = c.folded ?? [0xFF]
            if !bytes.isEmpty && (c.cls == .separator || startSet.contains(i)) { ends.insert(folded.count) }
            folded += bytes
        }
        ends.insert(folded.count)
        return Line(folded: folded, starts: starts, ends: ends)
    }

    /// The words of a line as they are written (each from its start to the next start
    /// or separator, marks included; characters that fold to nothing left out).
    public func words(_ text: String, mode: Mode) -> [String] {
        let (characters, scalars, starts) = split(Array(text.utf8), mode: mode)
        return starts.enumerated().map { n, start in
            let limit = n + 1 < starts.count ? starts[n + 1] : characters.count
            var word = String.UnicodeScalarView()
            var i = start
            while i < limit && characters[i].cls != .separator {
                if let scalar = scalars[i] { word.append(scalar) }
                i += 1
            }
            return String(word)
        }
    }

    // MARK: - Queries

    /// The folded words of a query.
    public func queryWords(_ query: String, mode: Mode) -> [[UInt8]] {
        query.split(whereSeparator: { $0.isWhitespace }).compactMap { part in
            var scalars = Array(part.unicodeScalars)
            // Marks leave the front in every mode (no word starts with one); other
            // non-word characters leave both ends outside `space` mode.
            let trimmed: Set<Class> = mode == .space ? [.mark] : [.separator, .mark]
            while let first = scalars.first, trimmed.contains(Self.classOf(first)) { scalars.removeFirst() }
            if mode != .space {
                while let last = scalars.last, Self.classOf(last) == .separator { scalars.removeLast() }
            }
            let word = scalars.flatMap { fold($0) }
            return word.isEmpty ? nil : word
        }
    }

    // MARK: - Matching

    /// Whether every query word fits at a different word start of `line`: a matching of
    /// query words to word starts that covers every query word, found with augmenting
    /// paths (Kuhn's algorithm, polynomial even when many words fit many starts).
    public func matches(_ words: [[UInt8]], _ line: Line) -> Bool {
        let fits: [[Int]] = words.map { word in
            line.starts.indices.filter { k in
                let s = line.starts[k]
                return line.folded.count - s >= word.count && line.folded[s..<(s + word.count)].elementsEqual(word)
            }
        }
        var owner: [Int: Int] = [:]  // word start -> the query word placed there
        func place(_ w: Int, _ seen: inout Set<Int>) -> Bool {
            for k in fits[w] where seen.insert(k).inserted {
                if let other = owner[k], !place(other, &seen) { continue }
                owner[k] = w
                return true
            }
            return false
        }
        return words.indices.allSatisfy { w in
            var seen = Set<Int>()
            return place(w, &seen)
        }
    }

    /// How much of a word a query word must match: smartgrep's default, `-w`, `-x`.
    public enum Fit: Sendable, CaseIterable { case prefix, word, line }

    /// Whether the query words match the line with `fit`: with `.word` each query word
    /// must fit at a word start and end where a word ends; with `.line` also some such
    /// assignment's matched parts (a word start up to the query word's length) must hold
    /// every word start of the line. Found by trying every assignment (queries are short).
    public func matches(_ words: [[UInt8]], _ line: Line, fit: Fit) -> Bool {
        if fit == .prefix { return matches(words, line) }
        if words.isEmpty { return fit == .word || line.starts.isEmpty }
        let fits: [[Int]] = words.map { word in
            line.starts.indices.filter { k in
                let s = line.starts[k]
                return line.folded.count - s >= word.count && line.folded[s..<(s + word.count)].elementsEqual(word)
                    && line.ends.contains(s + word.count)
            }
        }
        var used = Set<Int>()
        var parts: [Range<Int>] = []
        func assign(_ w: Int) -> Bool {
            if w == words.count {
                return fit == .word || line.starts.allSatisfy { s in parts.contains { $0.contains(s) } }
            }
            for k in fits[w] where !used.contains(k) {
                used.insert(k)
                parts.append(line.starts[k]..<(line.starts[k] + words[w].count))
                if assign(w + 1) { return true }
                used.remove(k)
                parts.removeLast()
            }
            return false
        }
        return assign(0)
    }

    /// Whether `query` matches the line `bytes` in `mode`.
    public func matches(query: String, line bytes: [UInt8], mode: Mode) -> Bool {
        matches(queryWords(query, mode: mode), line(bytes, mode: mode))
    }

    /// Whether `query` matches `text` in `mode`.
    public func matches(query: String, line text: String, mode: Mode) -> Bool {
        matches(query: query, line: Array(text.utf8), mode: mode)
    }
}
