/// Whether the region part of a GeoNames row's searchable text can hold one of a few query
/// words, answered once per (country, admin-1) pair and then looked up.
///
/// A dump row holds codes (`BR`, `27`), but the text a query matches (`SearchText`) holds
/// the names they stand for:
///
///     CC  country  A1  region           query  sao paulo
///     BR  Brazil       São Paulo        → every row in BR.27 can match on its region alone
///
/// The region text depends only on the pair, so there are a few thousand distinct answers
/// for millions of rows. Each is computed with one single-word `LineMatcher` per word over
/// each field of the region text (a query word never spans a tab, so a word matches the
/// text exactly when it matches one of its fields), and kept in a direct-mapped table.
final class RegionWordCache {
    /// Slots in the table: a power of two above the number of admin-1 regions in the world
    /// (about 4,000), so that collisions are rare.
    static let slotBits = 13
    /// Codes longer than this are answered without the table (they do not fit its keys;
    /// GeoNames' admin-1 codes have 2–3 characters).
    static let maximumAdmin1Length = 5

    private let matchers: [LineMatcher]
    private let names: RegionNames?
    private let keys: UnsafeMutablePointer<UInt64>
    private let answers: UnsafeMutablePointer<Bool>

    /// A cache of whether a region's text can hold any of `words` (folded query words),
    /// with region and country names from `names`.
    init(words: [[UInt8]], names: RegionNames?) {
        matchers = words.map { LineMatcher(MatchQuery(String(decoding: $0, as: UTF8.self), mode: .all)) }
        self.names = names
        let slots = 1 << Self.slotBits
        keys = .allocate(capacity: slots)
        keys.initialize(repeating: 0, count: slots)
        answers = .allocate(capacity: slots)
        answers.initialize(repeating: false, count: slots)
    }

    deinit {
        keys.deallocate()
        answers.deallocate()
    }

    /// Whether the region text of a row with these country and admin-1 codes can hold one
    /// of the words.
    @inline(__always)
    func holdsWord(country: UnsafeBufferPointer<UInt8>, admin1: UnsafeBufferPointer<UInt8>) -> Bool {
        guard country.count <= 2, admin1.count <= Self.maximumAdmin1Length else {
            return compute(country: country, admin1: admin1)
        }
        // The bytes, then their lengths and a used-slot bit above them.
        var key: UInt64 = 0
        for b in country { key = key << 8 | UInt64(b) }
        for b in admin1 { key = key << 8 | UInt64(b) }
        let lengths = UInt64(country.count) << 56 | UInt64(admin1.count) << 59
        key |= lengths | 1 << 63
        let slot = Int(truncatingIfNeeded: (key &* GazetteerFingerprint.multiplier) >> UInt64(64 - Self.slotBits))
        if keys[slot] == key { return answers[slot] }
        let answer = compute(country: country, admin1: admin1)
        keys[slot] = key
        answers[slot] = answer
        return answer
    }

    /// The answer, from the fields `SearchText.append` adds after a dump row's names.
    func compute(country: UnsafeBufferPointer<UInt8>, admin1: UnsafeBufferPointer<UInt8>) -> Bool {
        var fields = [country]
        if let names {
            fields.append(names.countryName(code: country))
            fields.append(names.admin1Name(country: country, code: admin1))
        }
        if SearchText.isLetterCode(admin1) { fields.append(admin1) }
        let abbreviation = SearchText.abbreviation(country: country, admin1: admin1)
        return matchers.contains { matcher in
            fields.contains { !$0.isEmpty && matcher.matches($0) }
                || abbreviation?.withUnsafeBufferPointer { matcher.matches($0) } == true
        }
    }
}
