/// The text of a row that query words match: its names (`PlaceMatch` tells them apart)
/// and its qualifiers, region and country.
///
///     names       name  asciiname  codes  alternatenames  rare_alternatenames
///                 Paris Paris             Lutece,…
///     qualifiers  CC  CCC  country and its other names  A1  abbreviation  region
///                 US  USA  United States, America, …     TX                Texas
///
/// so `paris tx`, `paris texas`, `paris usa` and `lutece` all find Paris, Texas. The admin-1
/// code is included only when it is letters (US states, Canadian provinces): GeoNames'
/// numeric codes (`11`, `A8`) mean nothing to a reader. A country goes by every name
/// `--country` takes (`Country.table`: `czech republic`, `ivory coast`). The timezone,
/// feature code and other columns are left out, so `europe` does not match every
/// European town.
package enum SearchText {
    /// Appends `row`'s searchable text to `text`, fields separated by tabs: its names,
    /// then its qualifiers. `names` fills the country and region names a GeoNames dump
    /// lacks. Without `alternates`, no alternate names: the place's own text.
    package static func append(_ row: PlaceRow, names: RegionNames?, alternates: Bool = true, to text: inout [UInt8]) {
        appendField(row.field(.name), to: &text)
        appendField(row.field(.asciiName), to: &text)
        if row.schema.column(.codes) != nil { appendField(row.field(.codes), to: &text) }
        if alternates {
            appendField(row.field(.alternateNames), to: &text)
            if row.schema.column(.rareAlternateNames) != nil { appendField(row.field(.rareAlternateNames), to: &text) }
        }
        for field in qualifiers(row, names: names) { field.withUnsafeBufferPointer { appendField($0, to: &text) } }
    }

    /// The row's qualifiers, one field each: its country's code, alpha-3 code, name (its
    /// own column's, or from `names` for a dump) and every other name `--country` takes;
    /// its region's code when that is letters, the abbreviation people type, and its
    /// name.
    package static func qualifiers(_ row: PlaceRow, names: RegionNames?) -> [[UInt8]] {
        var fields: [[UInt8]] = []
        let cc = row.field(.countryCode)
        if !cc.isEmpty {
            fields.append(Array(cc))
            let code = String(decoding: cc, as: UTF8.self)
            if let alpha3 = Country.alpha3(code) { fields.append(Array(alpha3.utf8)) }
            for name in Country.names(ofCode: code) { fields.append(Array(name.utf8)) }
        }
        if row.schema.column(.countryName) != nil {
            fields.append(Array(row.field(.countryName)))
        } else if let names {
            fields.append(Array(names.countryName(code: cc)))
        }
        let a1 = row.field(.admin1Code)
        if isLetterCode(a1) { fields.append(Array(a1)) }
        if let abbreviation = abbreviation(country: cc, admin1: a1) { fields.append(abbreviation) }
        if row.schema.column(.admin1Name) != nil {
            fields.append(Array(row.field(.admin1Name)))
        } else if let names {
            fields.append(Array(names.admin1Name(country: cc, code: a1)))
        }
        return fields.filter { !$0.isEmpty }
    }

    /// The short name people type for a row's country or region that the gazetteer
    /// spells otherwise: `usa`, `uk` and `uae`, and the postal abbreviations of Canada's
    /// provinces and Australia's states, whose GeoNames codes are numbers (`02` for
    /// British Columbia). So `chicago usa`, `london uk`, `vancouver bc` and `sydney nsw`
    /// find their places, in the embedded gazetteer and in every `--places` file alike.
    package static func abbreviation(country: UnsafeBufferPointer<UInt8>, admin1: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard country.count == 2 else { return nil }
        switch (country[0], country[1]) {
        case (0x55, 0x53): return countryAbbreviations[0]  // US
        case (0x47, 0x42): return countryAbbreviations[1]  // GB
        case (0x41, 0x45): return countryAbbreviations[2]  // AE
        case (0x43, 0x41): return regionAbbreviation(admin1, in: canadianProvinces)  // CA
        case (0x41, 0x55): return regionAbbreviation(admin1, in: australianStates)  // AU
        default: return nil
        }
    }

    private static let countryAbbreviations = ["USA", "UK", "UAE"].map { Array($0.utf8) }
    /// GeoNames' admin-1 codes `01`… of Canada, in order (`06` is unused).
    private static let canadianProvinces = ["AB", "BC", "MB", "NB", "NL", "", "NS", "ON", "PE", "QC", "SK", "YT", "NT", "NU"]
        .map { Array($0.utf8) }
    /// GeoNames' admin-1 codes `01`… of Australia, in order.
    private static let australianStates = ["ACT", "NSW", "NT", "QLD", "SA", "TAS", "VIC", "WA"].map { Array($0.utf8) }

    private static func regionAbbreviation(_ code: UnsafeBufferPointer<UInt8>, in table: [[UInt8]]) -> [UInt8]? {
        guard code.count == 2, code[0] &- 0x30 < 10, code[1] &- 0x30 < 10 else { return nil }
        let number = Int(code[0] &- 0x30) * 10 + Int(code[1] &- 0x30)
        guard number >= 1, number <= table.count, !table[number - 1].isEmpty else { return nil }
        return table[number - 1]
    }

    /// Whether an admin-1 code is letters (`TX`), which a reader may type, rather than
    /// GeoNames' numbers (`11`, `A8`).
    @inline(__always)
    static func isLetterCode(_ code: UnsafeBufferPointer<UInt8>) -> Bool {
        !code.isEmpty && code.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }
    }

    private static func appendField(_ bytes: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        if !text.isEmpty { text.append(0x09) }
        text.append(contentsOf: bytes)
    }

    /// The folded words of `text`, split where `LineMatcher` (mode `all`) splits a line: a
    /// query word prefixes one of these exactly when it matches that word alone.
    ///
    /// With `joined`, also each word run on to the next separator where it ends at a
    /// camelCase or script join without one (`capitals` as well as `ca` and `pitals` for
    /// `caPitals`, `mcallen` for `McAllen`), and each word run on across an apostrophe
    /// between letters (`luan` as well as `lu` and `an` for `Lu’an`, `maanshan` for
    /// `Ma’anshan`, `ohare` for `O'Hare`), which people leave out when they type: a query
    /// word may match across such a join, so the index keeps these forms too.
    ///
    /// With `acrossApostrophes` (and `joined` then ignored), the words of the name as
    /// typed without its apostrophes: each run of words joined by them is one word
    /// (`luan`; `coxs`, `bazar` for `Cox’s Bāzār`), the rest as without. What a name
    /// spelled whole may also be typed as (`spellingWords`).
    package static func words(_ text: UnsafeBufferPointer<UInt8>, joined: Bool = false, acrossApostrophes: Bool = false) -> [[UInt8]] {
        var words: [[UInt8]] = []
        forEachWord(text, joined: joined, acrossApostrophes: acrossApostrophes) {
            words.append(Array($0)); return true
        }
        return words
    }

    /// The apostrophes a word may be run on across (`words(_:joined:)`): the ASCII one
    /// and the typographic ones (’ ‘). `apostropheLength(in:at:)` knows the same three
    /// by their UTF-8 bytes (a test holds them together).
    static func isApostrophe(_ scalar: UInt32) -> Bool { scalar == 0x27 || scalar == 0x2019 || scalar == 0x2018 }

    /// The length in bytes of the apostrophe (`isApostrophe`) at `i` of `text`, if one
    /// starts there: ' is 27, ’ and ‘ are E2 80 99 and E2 80 98.
    @inline(__always)
    static func apostropheLength(in text: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        switch text[i] {
        case 0x27: return 1
        case 0xE2: return i + 2 < text.count && text[i + 1] == 0x80 && (text[i + 2] == 0x98 || text[i + 2] == 0x99) ? 3 : nil
        default: return nil
        }
    }

    /// `text` without its apostrophes, as a row or a region's name reads to someone who
    /// types names without them; nil when it has none.
    static func withoutApostrophes(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var kept: [UInt8]? = nil
        var start = 0
        var i = 0
        while i < text.count {
            guard let length = apostropheLength(in: text, at: i) else {
                i += 1
                continue
            }
            if kept == nil { kept = [] }
            kept!.append(contentsOf: text[start..<i])
            i += length
            start = i
        }
        kept?.append(contentsOf: text[start...])
        return kept
    }

    /// Calls `body` with each of `words(text, joined:, acrossApostrophes:)` in turn,
    /// until it returns false, without keeping them all: a name of a million words is
    /// checked in the memory of its folded text.
    @discardableResult
    package static func forEachWord(
        _ text: UnsafeBufferPointer<UInt8>, joined: Bool = false, acrossApostrophes: Bool = false, _ body: (ArraySlice<UInt8>) -> Bool
    ) -> Bool {
        var folded: [UInt8] = []
        var isBreak: [Bool] = []
        // Whether each folded byte is of an apostrophe (only when joins are wanted).
        let wantsApostrophes = joined || acrossApostrophes
        var isApostropheByte: [Bool] = []
        // At most one word start per scalar, and one more when the text ends.
        var starts = [Int32](repeating: 0, count: text.count + 1)
        var startCount = 0
        var tracker = WordStartTracker(camelCase: true)
        guard var p = text.baseAddress else { return true }
        let end = p + text.count
        while p < end {
            let (value, length) = UTF8Decoding.decode(p, end: end)
            let position = Int32(folded.count)
            var cls = ScalarClass.separator
            if value == UTF8Decoding.invalid {
                folded.append(0xFF)
                isBreak.append(true)
                if wantsApostrophes { isApostropheByte.append(false) }
            } else {
                let (c, form) = UnicodeFolding.lookup(value)
                cls = c
                let apostrophe = wantsApostrophes && c == .separator && isApostrophe(value)
                for i in 0..<form.count {
                    folded.append(form[i])
                    isBreak.append(c == .separator)
                    if wantsApostrophes { isApostropheByte.append(apostrophe) }
                }
            }
            if Int32(folded.count) > position || cls == .mark {
                starts.withUnsafeMutableBufferPointer { buffer in
                    tracker.advance(cls, at: position, into: buffer.baseAddress!, count: &startCount)
                }
            }
            p += length
        }
        starts.withUnsafeMutableBufferPointer { buffer in
            tracker.finish(into: buffer.baseAddress!, count: &startCount)
        }
        /// The word from `s` to `e` run on across the apostrophes between letters after
        /// it, and where the run ends; nil when no apostrophe and letter follow.
        func runAcrossApostrophes(_ s: Int, _ e: Int) -> (word: [UInt8], end: Int)? {
            var word: [UInt8]? = nil
            var q = e
            while q < folded.count && isApostropheByte[q] {
                var r = q
                while r < folded.count && isApostropheByte[r] { r += 1 }
                guard r < folded.count && !isBreak[r] else { break }
                var t = r
                while t < folded.count && !isBreak[t] { t += 1 }
                if word == nil { word = Array(folded[s..<e]) }
                word! += folded[r..<t]
                q = t
            }
            return word.map { ($0, q) }
        }
        // The end of the last run across apostrophes: the words inside it start none.
        var runEnd = 0
        for k in 0..<startCount {
            let s = Int(starts[k])
            let limit = k + 1 < startCount ? Int(starts[k + 1]) : folded.count
            var e = s
            while e < limit && !isBreak[e] { e += 1 }
            if acrossApostrophes {
                guard s >= runEnd, e > s else { continue }
                if let (word, end) = runAcrossApostrophes(s, e) {
                    runEnd = end
                    if !body(word[...]) { return false }
                } else if !body(folded[s..<e]) {
                    return false
                }
                continue
            }
            if e > s && !body(folded[s..<e]) { return false }
            if joined && e == limit && e > s {
                var run = e
                while run < folded.count && !isBreak[run] { run += 1 }
                if run > e && !body(folded[s..<run]) { return false }
            }
            // (From the first word of a chain only: `maanshan`, not `anshan`, for
            // Ma’an’shan, as a row read without its apostrophes holds it.)
            if joined && e > s && s >= runEnd, let (word, end) = runAcrossApostrophes(s, e) {
                runEnd = end
                if !body(word[...]) { return false }
            }
        }
        return true
    }

    /// Whether a word of `text` (`words(_:joined: true)`, so also of `words(_:)`) may
    /// begin with one of `pieces`: false only when none can. Every such word is a run of
    /// `text` folded with its apostrophes left out, so this folds it into `scratch` (kept
    /// by the caller, so that no name costs an allocation) and looks for each piece in
    /// it: most of a place's hundreds of alternate names are then never split.
    static func mayHoldWord(startingWithOneOf pieces: [[UInt8]], in text: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8]) -> Bool {
        scratch.removeAll(keepingCapacity: true)
        guard var p = text.baseAddress else { return false }
        let end = p + text.count
        while p < end {
            let (value, length) = UTF8Decoding.decode(p, end: end)
            p += length
            if value == UTF8Decoding.invalid {
                scratch.append(0xFF)
                continue
            }
            let (c, form) = UnicodeFolding.lookup(value)
            if c == .separator {
                if !isApostrophe(value) { scratch.append(0x20) }
                continue
            }
            for i in 0..<form.count { scratch.append(form[i]) }
        }
        return scratch.withUnsafeBufferPointer { folded in
            pieces.contains { piece in
                guard let first = piece.first, piece.count <= folded.count else { return piece.isEmpty }
                for start in 0...(folded.count - piece.count) where folded[start] == first {
                    if piece.indices.allSatisfy({ folded[start + $0] == piece[$0] }) { return true }
                }
                return false
            }
        }
    }

    /// The words a query must hold to spell the name `form` whole (a whole-name match,
    /// tier 0 of `RankKey`): its `words`, but a last word `city` after others is left
    /// out, as people leave it out: `new york` spells New York City, `mexico` Mexico City
    /// and `salt lake` Salt Lake City (`new york city` still does). Without this, a
    /// gazetteer whose New York City has no alternate name `New York` (GeoNames'
    /// cities500) ranked York, Nebraska, whose alternate names include it, first.
    ///
    /// An alternate name that is a code (`isCode`: `SAN`, `LON`, `NYC`) spells nothing:
    /// GeoNames gives cities their airport codes, and `san` near San Francisco put San
    /// Diego first, `lon` London before the London a user stood in. Codes still match as
    /// prefixes, ranked by importance (`nyc` finds New York City).
    ///
    /// With `acrossApostrophes`, the words of the name typed without its apostrophes
    /// (`luan` spells Lu’an, `maanshan` Ma’anshan): a name is spelled whole by either.
    package static func spellingWords(
        _ form: UnsafeBufferPointer<UInt8>, alternate: Bool = false, acrossApostrophes: Bool = false
    ) -> [[UInt8]] {
        if alternate && isCode(form) { return [] }
        var words = words(form, acrossApostrophes: acrossApostrophes)
        if words.count > 1, words.last == optionalLastWord { words.removeLast() }
        return words
    }

    /// Whether `form` holds an apostrophe (`isApostrophe`), so that a name without one
    /// is split once.
    static func holdsApostrophe(_ form: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = form.baseAddress else { return false }
        return Platform.findByte(0x27, in: base, count: form.count) != nil
            || nextTypographicApostrophe(from: base, to: base + form.count) != nil
    }

    /// The first ’ or ‘ (`apostropheLength` 3) from `start` to `end`.
    static func nextTypographicApostrophe(from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        var p = start
        while let e2 = Platform.findByte(0xE2, in: p, count: end - p) {
            if apostropheLength(in: UnsafeBufferPointer(start: e2, count: end - e2), at: 0) == 3 { return e2 }
            p = e2 + 1
        }
        return nil
    }

    /// Whether every word of `spellingWords(form, alternate:)`, with or without
    /// `acrossApostrophes`, is in `pieces`: the name typed whole. Checked word by word, so
    /// a name of a million words costs no more memory than its folded text.
    package static func isSpelled(_ form: UnsafeBufferPointer<UInt8>, alternate: Bool, by pieces: Set<[UInt8]>) -> Bool {
        if alternate && isCode(form) { return false }
        return isSpelled(form, by: pieces, acrossApostrophes: false)
            || (holdsApostrophe(form) && isSpelled(form, by: pieces, acrossApostrophes: true))
    }

    /// `isSpelled` for one way of splitting the name.
    private static func isSpelled(_ form: UnsafeBufferPointer<UInt8>, by pieces: Set<[UInt8]>, acrossApostrophes: Bool) -> Bool {
        var count = 0
        var lastIsCity = false
        let complete = forEachWord(form, acrossApostrophes: acrossApostrophes) { word in
            // A `city` after others is left out when it is the last word, so it is
            // checked only once another word follows it.
            if lastIsCity && !pieces.contains(optionalLastWord) { return false }
            lastIsCity = count > 0 && word.elementsEqual(optionalLastWord)
            count += 1
            return lastIsCity || pieces.contains(Array(word))
        }
        return complete && count > 0
    }

    /// Whether an alternate name is a code rather than a name: two to four capital letters
    /// A–Z (`SAN`, `NYC`, `UTR`).
    package static func isCode(_ form: UnsafeBufferPointer<UInt8>) -> Bool {
        (2...4).contains(form.count) && form.allSatisfy { $0 &- 0x41 < 26 }
    }

    /// The words people write for a word of a name, both ways (folded): `st petersburg`
    /// finds Saint Petersburg, `saint petersburg` St. Petersburg (Florida), `sankt` and
    /// `saint` each other, and `ft` and `mt` Fort and Mount. GeoNames lists such
    /// spellings as alternate names for some places only (`st petersburg` found St.
    /// Petersburg, Florida, but not Saint Petersburg, Russia, in cities500).
    static let abbreviationSwaps: [String: [String]] = [
        "saint": ["st", "sankt"], "st": ["saint", "sankt"], "sankt": ["saint", "st"],
        "sainte": ["ste"], "ste": ["sainte"],
        "fort": ["ft"], "ft": ["fort"],
        "mount": ["mt"], "mt": ["mount"],
    ]

    /// The words for "city" written onto a name in Korean and Chinese (`포항시`, `北京市`):
    /// GeoNames lists the name with it for some places only (Pohang has `포항`), so a
    /// query word ending in one is also searched without it, as `spellingWords` lets a
    /// last word `city` go.
    static let citySuffixes: Set<Character> = ["시", "市"]

    /// `text` with the characters a CJK input method types in full width in their
    /// ordinary forms, so that what is read before the folding (commas, spaces, hyphens,
    /// codes in capitals, `st`) reads them too: ＡＢＣ！ as ABC!, the ideographic space
    /// U+3000 and the no-break space as a space, the ideographic comma 、 as a comma.
    /// (The folding tables fold the same letters the same way: `widthFold` in the
    /// generator.)
    package static func ordinaryWidths(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= 0xA0 }) else { return text }
        var scalars = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            switch u.value {
            case 0xFF01...0xFF5E: scalars.append(Unicode.Scalar(u.value - 0xFEE0)!)
            case 0x3000, 0xA0: scalars.append(" ")
            case 0x3001: scalars.append(",")
            default: scalars.append(u)
            }
        }
        return String(scalars)
    }

    /// Whether the last word of a text typed into a search box is finished: the text
    /// ends in whitespace (`queryVariants` swaps it then).
    package static func endsWithFinishedWord(_ text: String) -> Bool {
        text.last?.isWhitespace == true
    }

    /// The most texts a query is searched as (`queryVariants`).
    static let maximumQueryVariants = 6

    /// The texts a query is searched as: itself, then the same with its words that have
    /// `abbreviationSwaps` swapped, in every combination, then each of those with its
    /// hyphens as spaces (`new-york` is also `new york`); at most `maximumQueryVariants`
    /// in all. Words end at whitespace, `-` and `.` (`st-etienne`, `St.Louis`); a word
    /// counts once something follows it, the last word only when `lastWordComplete` (a
    /// suggestion's last word may still be being typed: `st` may become `stockholm`). A
    /// full stop after a swapped word goes (`Mt. Vernon`: `mount Vernon`).
    package static func queryVariants(_ text: String, lastWordComplete: Bool) -> [String] {
        // The words, each with the separators that follow it.
        var words: [(word: String, separator: String)] = []
        for character in text {
            let isSeparator = character.isWhitespace || character == "-" || character == "."
            if words.isEmpty || (!isSeparator && !words[words.count - 1].separator.isEmpty) { words.append(("", "")) }
            if isSeparator { words[words.count - 1].separator.append(character) } else { words[words.count - 1].word.append(character) }
        }
        var variants = [""]
        for (word, separator) in words {
            let complete = !separator.isEmpty || lastWordComplete
            var pieces = [word + separator]
            for swap in complete ? abbreviationSwaps[word.lowercased()] ?? [] : [] {
                var rest = Substring(separator)
                if rest.first == "." { rest = rest.dropFirst() }
                pieces.append(swap + (rest.isEmpty && separator != "" ? " " : rest))
            }
            if word.count >= 2, let last = word.last, citySuffixes.contains(last) { pieces.append(word.dropLast() + separator) }
            variants = variants.flatMap { prefix in pieces.map { prefix + $0 } }
            if variants.count > maximumQueryVariants { variants.removeLast(variants.count - maximumQueryVariants) }
        }
        // A hyphen may join words a name spells apart (`new-york`, `Санкт-Петербург`): each
        // variant with hyphens is also searched with spaces, after every variant as typed.
        // (Its hyphens as spaces all at once: a matcher splits a name's words at hyphens
        // anyway, so a query word of two may only fit a name that has the hyphen.)
        if text.contains("-") {
            let spaced = variants.map { String($0.map { $0 == "-" ? " " : $0 }) }.filter { !variants.contains($0) }
            variants += spaced.prefix(max(0, maximumQueryVariants - variants.count))
        }
        return variants
    }

    /// The last word a name may be spelled without (see `spellingWords`).
    static let optionalLastWord = Array("city".utf8)

    /// The words a name begins with, of `form` split as `words(form, joined: true)` gives
    /// `words`: its first word, and the same run on through a camelCase or script join
    /// (`mc`, `mcallen` for McAllen); and so for each part after a comma (`Москва, Курский
    /// вокзал`, a station named after its city, also begins at `курский`). A query word
    /// that starts one of them begins the name (`PlaceMatch.atStart`).
    package static func startWords(_ form: UnsafeBufferPointer<UInt8>, words: [[UInt8]]) -> [[UInt8]] {
        func firstWords(_ words: [[UInt8]]) -> ArraySlice<[UInt8]> {
            guard let first = words.first else { return [] }
            return words.count > 1 && words[1].count > first.count && words[1].starts(with: first) ? words.prefix(2) : words.prefix(1)
        }
        var starts = Array(firstWords(words))
        guard form.contains(0x2C) else { return starts }
        for part in form.split(separator: 0x2C).dropFirst() {
            starts += firstWords(Self.words(UnsafeBufferPointer(rebasing: part), joined: true))
        }
        return starts
    }

    /// `words` of a string.
    package static func words(_ text: String) -> [[UInt8]] {
        var text = text
        return text.withUTF8 { words($0) }
    }
}

/// Country and region names by code, for gazetteers (GeoNames dumps) that have only codes.
package protocol RegionNames {
    /// The country's name for an ISO code (`FR` → `France`), or empty.
    func countryName(code: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>
    /// The admin-1 region's name (`US`, `TX` → `Texas`), or empty.
    func admin1Name(country: UnsafeBufferPointer<UInt8>, code: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>
}
