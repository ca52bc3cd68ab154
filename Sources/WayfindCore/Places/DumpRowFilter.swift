/// Decides from a GeoNames dump row's raw columns, before the row is split or matched,
/// whether it can be one of a search's results.
///
/// # Why
///
/// A 200 MB dump has 1.5 million rows and a query names a few of them, so the scan is as
/// fast as its answer for the rows that cannot be results. Matching a row in full means
/// splitting it, looking up its region and country names and folding its text: a few
/// microseconds, which over every row is seconds. Raw bytes alone do not tell: `paris`
/// occurs in the time zone of every French row (`Europe/Paris`), `s` in nearly every row,
/// and `sao paulo` matches every row of São Paulo state through a region name the row
/// does not hold (it has `BR`, `27`).
///
/// # The checks, cheapest first
///
/// Each is necessary for a row to be a result, so a row failing one is skipped; a row
/// passing them all is matched in full by `PlaceSearch`, which has the last word.
///
/// 1. **It could enter the top N.** Once the top N is full, a row must rank before its
///    last entry. Everything in a `RankKey` but the tier comes from a few columns
///    (population, feature code, coordinates with `--location`), so the best key the row
///    could have is known before matching:
///
///        top 5 for `springfield`: tier 0, importance 160k   row: Lyon, importance 500k
///        → Lyon could still beat it only as a whole-name match (tier 0): check on
///
///    When the row would need tier 0 (a whole-name match) to get in, its name or one of
///    its alternate names must be spelled by the query words alone, so every character of
///    that name must fold to bytes of the query words, or be a separator (`mayBeSpelled`).
///    For `s` that fails at `B` of Beijing: a prefix query over a large dump skips almost
///    every row here.
/// 2. **Its anchor word can match.** The query word holding the rarest byte (the
///    `CandidateFinder` anchor) must start a word of the name columns or of the region
///    text. The scanner looks for anchor hits only between the start of the name and the
///    end of the alternate names, so `Europe/Paris` no longer counts; the region text is
///    answered per (country, admin-1) pair by `RegionWordCache`.
///
/// The whole-name part of check 1 runs after check 2, unless the anchor byte is so common
/// that hits are in every row (`denseAnchorRank`). Every row is still split and checked
/// (`PlaceRow.split`: its columns located, its name and coordinates checked): that, the
/// fingerprint and the row loop are most of what a scan now costs.
///
/// The scanner also hands every row's feature code here, so that the collections a query
/// names come from every row, not only from the rows matched.
final class DumpRowFilter {
    /// GeoNames' columns that the checks read.
    static let nameColumn = GazetteerSchema.geonames.column(.name)!
    static let alternateNamesColumn = GazetteerSchema.geonames.column(.alternateNames)!
    static let featureCodeColumn = GazetteerSchema.geonames.column(.featureCode)!
    static let countryColumn = GazetteerSchema.geonames.column(.countryCode)!
    static let admin1Column = GazetteerSchema.geonames.column(.admin1Code)!
    static let populationColumn = GazetteerSchema.geonames.column(.population)!
    /// Feature codes are packed into a UInt64 key with their length: at most 7 bytes
    /// (GeoNames' have up to 5).
    static let maximumPackedCode = 7

    /// Anchor bytes at least this common (`ByteFrequency`: e t a o i n s r l c d, the
    /// commonest letters) hit nearly every row, so for them the whole-name check, which
    /// fails at the first letter of most names, runs before hits are looked for.
    static let denseAnchorRank = 150

    /// Whether `mayBeWholeName` is cheaper than looking for anchor hits (see
    /// `denseAnchorRank`).
    let checksWholeNameFirst: Bool
    /// The key a row must rank before to be a result: the last of a full top N, else nil.
    var threshold: RankKey? = nil
    private let bias: LocationBias
    /// 256 flags: the bytes a name spelled by the query words alone can hold (the query's
    /// folded bytes, both cases of its letters, and ASCII separators).
    private let spellable: UnsafeMutablePointer<Bool>
    /// Whether the region text can hold the anchor word, per region; nil without an anchor.
    private let regions: RegionWordCache?
    /// The anchor byte, when collections are tracked.
    private let trackedByte: UInt8?
    /// Importance factors by packed feature code.
    private var factors: [UInt64: Double] = [:]
    private var lastCode: UInt64 = 0
    private var lastFactor = 1.0
    private var seenCodes: Set<UInt64> = []
    /// The categories of populated places (`PlaceCategory.populatedPlaceCategories`) that
    /// the query names and no row has shown yet.
    private var pendingPopulated: [String]
    /// Categories of feature codes seen that a query may name, in file order (see
    /// `noteFeatureCode`).
    private(set) var categories: [String] = []

    /// A filter for `matcher`'s query, with region names from `names`.
    init(matcher: LineMatcher, names: RegionNames?, bias: LocationBias) {
        self.bias = bias
        let words = matcher.query.words
        spellable = .allocate(capacity: 256)
        spellable.initialize(repeating: false, count: 256)
        for b in 0..<128 where ASCIIClasses.of(UInt8(b)) == .separator { spellable[b] = true }
        // A name may end in a word the query need not hold (`SearchText.spellingWords`).
        for word in words + [SearchText.optionalLastWord] {
            for b in word {
                spellable[Int(b)] = true
                if b >= 0x61 && b <= 0x7A { spellable[Int(b - 0x20)] = true }
            }
        }
        pendingPopulated = PlaceCategory.populatedPlaceCategories.filter { PlaceCategory.queryNames(matcher, category: $0) }
        if let finder = CandidateFinder(query: matcher.query) {
            // The anchor word; when it is not ASCII the finder does not say which it is,
            // so every word holding the anchor byte stands in for it.
            let anchors = finder.anchorWord.map { [words[$0]] } ?? words.filter { $0.contains(finder.anchorByte) }
            regions = RegionWordCache(words: anchors, names: names)
            let letters = words.reduce(0) { $0 + $1.count }
            trackedByte = letters >= PlaceCategory.minimumCollectionQueryLength ? finder.anchorByte : nil
            checksWholeNameFirst = ByteFrequency.rank(finder.anchorByte) >= Self.denseAnchorRank
        } else {
            regions = nil
            trackedByte = nil
            checksWholeNameFirst = true
        }
    }

    deinit { spellable.deallocate() }

    /// Column `c` of the row at `line` whose column starts are `starts`.
    @inline(__always)
    static func column(_ c: Int, _ line: UnsafePointer<UInt8>, _ starts: UnsafePointer<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: line + starts[c], count: starts[c + 1] - 1 - starts[c])
    }

    /// Where the anchor word must be found if the region text cannot hold it: from the
    /// name to the end of the alternate names.
    @inline(__always)
    static func nameSpan(_ starts: UnsafePointer<Int>) -> Range<Int> {
        starts[nameColumn]..<(starts[alternateNamesColumn + 1] - 1)
    }

    /// Whether the region text of the row can hold the anchor word.
    @inline(__always)
    func regionHoldsAnchor(_ line: UnsafePointer<UInt8>, _ starts: UnsafePointer<Int>) -> Bool {
        guard let regions else { return true }
        return regions.holdsWord(
            country: Self.column(Self.countryColumn, line, starts), admin1: Self.column(Self.admin1Column, line, starts))
    }

    // MARK: Rank

    /// How a row could still become a result, judged by its rank alone.
    enum RankChance {
        /// It ranks after `threshold` even as a whole-name match.
        case none
        /// It ranks before `threshold` whether or not the query spells its name.
        case any
        /// Only as a whole-name match (tier 0): see `mayBeWholeName`.
        case onlyAsWholeName
    }

    /// Whether the row at `offset`, at `coordinate`, could rank before `threshold` (check 1
    /// of the essay). The distance is computed only when the importance leaves it open.
    @inline(__always)
    func rankChance(_ line: UnsafePointer<UInt8>, _ starts: UnsafePointer<Int>, coordinate: Coordinate, offset: Int) -> RankChance {
        guard let threshold else { return .any }
        let population = PlaceRow.parsePopulation(Self.column(Self.populationColumn, line, starts))
        let importance = Double(population + 1) * factor(Self.column(Self.featureCodeColumn, line, starts))
        // Band 0 is the best a row can have: most rows are ruled out before any trigonometry.
        var probe = RankKey(tier: 0, band: 0, importance: importance, order: offset)
        guard probe < threshold else { return .none }
        if bias.location != nil {
            probe.band = bias.band(of: coordinate)
            guard probe < threshold else { return .none }
        }
        probe.tier = 1
        return probe < threshold ? .any : .onlyAsWholeName
    }

    /// `PlaceCategory.importanceFactor` of the category a feature code maps to, computed
    /// once per code.
    @inline(__always)
    private func factor(_ code: UnsafeBufferPointer<UInt8>) -> Double {
        guard let key = Self.pack(code) else {
            return PlaceCategory.importanceFactor(PlaceCategory.fromFeatureCode(code))
        }
        if key == lastCode { return lastFactor }
        let f: Double
        if let known = factors[key] {
            f = known
        } else {
            f = PlaceCategory.importanceFactor(PlaceCategory.fromFeatureCode(code))
            factors[key] = f
        }
        lastCode = key
        lastFactor = f
        return f
    }

    /// A short code's bytes and length as one number (never 0), or nil when it is long.
    @inline(__always)
    static func pack(_ code: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard code.count <= maximumPackedCode else { return nil }
        var key = UInt64(code.count + 1) << 56
        for (i, b) in code.enumerated() { key |= UInt64(b) << UInt64(8 * i) }
        return key
    }

    /// Whether the name, the ASCII name or an alternate name may be spelled by the query
    /// words alone (`PlaceSearch.tier` would give 0).
    func mayBeWholeName(_ line: UnsafePointer<UInt8>, _ starts: UnsafePointer<Int>) -> Bool {
        for c in Self.nameColumn..<Self.alternateNamesColumn where mayBeSpelled(Self.column(c, line, starts)) {
            return true
        }
        let alternates = Self.column(Self.alternateNamesColumn, line, starts)
        var formStart = 0
        for i in 0...alternates.count where i == alternates.count || alternates[i] == 0x2C {
            if i > formStart && mayBeSpelled(UnsafeBufferPointer(rebasing: alternates[formStart..<i])) { return true }
            formStart = i + 1
        }
        return false
    }

    /// Whether every character of `form` is a separator or a combining mark, or folds to
    /// bytes of the query words: otherwise a word of the form is no query word.
    func mayBeSpelled(_ form: UnsafeBufferPointer<UInt8>) -> Bool {
        guard var p = form.baseAddress, form.count > 0 else { return false }
        let end = p + form.count
        while p < end {
            let b = p.pointee
            if b < 0x80 {
                if !spellable[Int(b)] { return false }
                p += 1
                continue
            }
            let (value, length) = UTF8Decoding.decode(p, end: end)
            p += length
            if value == UTF8Decoding.invalid { continue }
            let (scalarClass, folded) = UnicodeFolding.lookup(value)
            if scalarClass == .separator || scalarClass == .mark { continue }
            var raw = folded.rawValue
            for _ in 0..<folded.count {
                if !spellable[Int(UInt8(truncatingIfNeeded: raw))] { return false }
                raw >>= 8
            }
        }
        return true
    }

    // MARK: Collections

    /// Notes the row's feature code if its category could be one the query names.
    ///
    /// A dump's categories are `capital`, `admin_seat`, `section` and `city` (for the PPL
    /// codes and an empty code) or a feature code in lower case (`stm`). The first four
    /// are noted when a row has them and the query names them (`pendingPopulated`), so
    /// that a collection is offered only if magickey-find will find places in it; once
    /// they are seen, a PPL code costs three byte comparisons. A query names any other
    /// code only if the code holds the anchor byte, so only such codes are kept.
    @inline(__always)
    func noteFeatureCode(_ line: UnsafePointer<UInt8>, _ starts: UnsafePointer<Int>) {
        let code = Self.column(Self.featureCodeColumn, line, starts)
        let isPopulated = code.isEmpty || (code.count >= 3 && code[0] == 0x50 && code[1] == 0x50 && code[2] == 0x4C)  // PPL…
        if isPopulated {
            guard !pendingPopulated.isEmpty else { return }
        } else {
            guard let trackedByte else { return }
            // Both cases of a letter; a non-ASCII byte might lower-case to it.
            guard code.contains(where: { $0 | 0x20 == trackedByte || $0 >= 0x80 }) else { return }
        }
        if let key = Self.pack(code) {
            guard seenCodes.insert(key).inserted else { return }
        }
        let category = PlaceCategory.fromFeatureCode(code)
        if isPopulated {
            guard let i = pendingPopulated.firstIndex(of: category) else { return }
            pendingPopulated.remove(at: i)
        }
        if !categories.contains(category) { categories.append(category) }
    }
}
