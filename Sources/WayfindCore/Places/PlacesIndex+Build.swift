/// Building `places.index` from a TSV gazetteer (`make places-index`, and the test that
/// checks the committed index is current).
extension PlacesIndex {
    /// The index of the TSV `bytes`, as `places.index` stores it.
    package static func build(tsv bytes: UnsafeBufferPointer<UInt8>) throws(GazetteerError) -> [UInt8] {
        var scanner = GazetteerScanner(path: "places.tsv", matcher: nil)
        var rows: [UInt32] = []
        var categories: [String] = []
        var categoryIndex: [String: Int] = [:]
        var regions: [String: String] = [:]
        var postingsByWord: [[UInt8]: [UInt32]] = [:]
        var text: [UInt8] = []
        var rowNumber: UInt32 = 0
        try scanner.scan(bytes: bytes) { row, _ throws(GazetteerError) in
            let category = row.category
            let c =
                categoryIndex[category]
                ?? {
                    categories.append(category)
                    categoryIndex[category] = categories.count - 1
                    return categories.count - 1
                }()
            let cc = Array(row.field(.countryCode))
            let packedCode = UInt32(cc.count > 0 ? cc[0] : 0) | UInt32(cc.count > 1 ? cc[1] : 0) << 8
            rows += [
                UInt32(row.offset),
                UInt32(bitPattern: Int32((row.coordinate.latitude * coordinateScale).rounded())),
                UInt32(bitPattern: Int32((row.coordinate.longitude * coordinateScale).rounded())),
                UInt32(clamping: row.population),
                packedCode | UInt32(c) << 16,
            ]
            let code = row.string(.countryCode)
            if !code.isEmpty {
                let country = row.string(.countryName)
                if !country.isEmpty { regions[code] = country }
                let a1 = row.string(.admin1Code), region = row.string(.admin1Name)
                if !a1.isEmpty && !region.isEmpty { regions[code + "." + a1] = region }
            }
            text.removeAll(keepingCapacity: true)
            SearchText.append(row, names: nil, alternates: false, to: &text)
            let own = Set(text.withUnsafeBufferPointer { SearchText.words($0) })
            text.removeAll(keepingCapacity: true)
            SearchText.append(row, names: nil, to: &text)
            for word in Set(text.withUnsafeBufferPointer { SearchText.words($0) }) {
                postingsByWord[word, default: []].append(rowNumber | (own.contains(word) ? 0 : alternateOnly))
            }
            rowNumber += 1
            return true
        }
        let words = postingsByWord.keys.sorted { $0.lexicographicallyPrecedes($1) }
        var wordStarts: [UInt32] = [0], postingStarts: [UInt32] = [0]
        var wordBytes: [UInt8] = [], postings: [UInt32] = []
        for word in words {
            wordBytes += word
            wordStarts.append(UInt32(wordBytes.count))
            postings += postingsByWord[word]!
            postingStarts.append(UInt32(postings.count))
        }
        let categoryBytes = Array(categories.map { $0 + "\n" }.joined().utf8)
        var regionBytes: [UInt8] = [], regionStarts: [UInt32] = [0]
        let regionLines = regions.map { Array("\($0.key)\t\($0.value)\n".utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        for line in regionLines {
            regionBytes += line
            regionStarts.append(UInt32(regionBytes.count))
        }
        let fingerprint = scanner.fingerprint.value

        var out = Array(banner.utf8)
        out += [UInt8](repeating: 0x20, count: bannerSize - 1 - out.count)
        out.append(0x0A)
        let header: [UInt32] = [
            version, UInt32(rows.count / rowWords), UInt32(words.count), UInt32(postings.count),
            UInt32(wordBytes.count), UInt32(categoryBytes.count), UInt32(regionLines.count),
            UInt32(regionBytes.count), UInt32(bytes.count),
            UInt32(truncatingIfNeeded: fingerprint), UInt32(truncatingIfNeeded: fingerprint >> 32),
            0, 0, 0, 0, 0,
        ]
        func put(_ values: [UInt32]) {
            for v in values { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        }
        func putBytes(_ b: [UInt8]) {
            out += b
            out += [UInt8](repeating: 0, count: (4 - b.count % 4) % 4)
        }
        put(header)
        put(rows)
        put(wordStarts)
        put(postingStarts)
        put(postings)
        putBytes(wordBytes)
        putBytes(categoryBytes)
        put(regionStarts)
        putBytes(regionBytes)
        return out
    }
}
