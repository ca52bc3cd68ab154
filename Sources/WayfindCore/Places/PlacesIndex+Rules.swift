/// The rules an index's contents depend on, as one fingerprint in its header.
///
/// An index bakes in how names are folded and split into words (`SearchText`), which
/// words spell a name whole or begin it, and how rows are ordered by importance
/// (`placeImportance`). A cached `--places` index made under other rules would give
/// silently wrong answers, and a hand-bumped `version` is easy to forget; so the header
/// carries this fingerprint of the rules themselves, and an index stamped with another is
/// not used (`init?(_:)`): the cache rebuilds it, with its usual note.
///
/// It is computed once per process, when an index is opened, from the folding tables, from what the word rules make of probe names
/// that exercise each of them, and from the importance of every category at a few
/// populations: a change to any of them changes it, without a list to keep by hand.
extension PlacesIndex {
    /// The fingerprint of the current rules (computed once, from about 93 KB).
    package static let rules: UInt64 = {
        var fingerprint = GazetteerFingerprint(seed: 0x7275_6C65_7331_0000)  // "rules1"
        fingerprint.update(bytesOf: [UInt64(version)])
        // The folding tables: every scalar's class and folded form.
        let tables = FoldingTables.shared
        fingerprint.update(UnsafeBufferPointer(start: UnsafeRawPointer(tables.stage1).assumingMemoryBound(to: UInt8.self), count: 2 * UnicodeTableData.stage1Count))
        fingerprint.update(UnsafeBufferPointer(start: UnsafeRawPointer(tables.stage2).assumingMemoryBound(to: UInt8.self), count: 2 * UnicodeTableData.stage2Count))
        fingerprint.update(UnsafeBufferPointer(start: UnsafeRawPointer(tables.pool).assumingMemoryBound(to: UInt8.self), count: 8 * UnicodeTableData.poolCount))
        // The word rules, by what they make of names that exercise each of them.
        for probe in probeNames {
            var name = probe
            name.withUTF8 { form in
                let words = SearchText.words(form, joined: true)
                let parts: [[[UInt8]]] = [
                    words, SearchText.words(form), SearchText.spellingWords(form), SearchText.spellingWords(form, alternate: true),
                    SearchText.spellingWords(form, acrossApostrophes: true),
                    SearchText.startWords(form, words: words),
                ]
                for part in parts {
                    for word in part { fingerprint.update(word + [0]) }
                    fingerprint.update([1])
                }
            }
        }
        // The order of rows: each category's importance at a few populations.
        for category in PlaceCategory.embeddedCategories + ["station", "stop", "other"] {
            fingerprint.update(Array(category.utf8))
            for population in [0, 1, 999, 1_000_000] {
                fingerprint.update(bytesOf: [placeImportance(population: population, category: category).bitPattern])
            }
        }
        return fingerprint.value
    }()

    /// Names that exercise the word rules: camelCase and script joins, marks, ligatures,
    /// case forms, apostrophes and hyphens, a last word `city`, commas, codes, digits.
    static let probeNames = [
        "McAllen caPitals São-Paulo O'Hare Ma’an’shan d’Azur", "Baden-Baden, Württemberg", "New York City", "Quezon City Hall",
        "Straße İstanbul Ǆemal ΑΘΗΝΑ Ⅻ ﬁ", "東京都新宿区 서울특별시 Москва, Курский вокзал", "NYC", "SAN", "1st 42nd 7-Eleven",
        "Øresund·Ærø ŁÓDŹ Ångström", "مكة المكرمة", "ગાંધીનગર",
    ]
}

extension GazetteerFingerprint {
    /// Feeds the little-endian bytes of `values`.
    mutating func update(bytesOf values: [UInt64]) {
        for value in values {
            update((0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) })
        }
    }
}
