/// Building an index (`PlacesIndex`) from a gazetteer's rows: `make places-index` for the
/// embedded one, `PlacesIndexCache` for a `--places` file, `Geocoder(tsv:)` for bytes.
///
/// The builder takes rows as `GazetteerScanner` splits them (`PlaceRow`), whatever the
/// file's format: a new format only has to produce rows. Memory stays near the index's
/// own size: each row keeps its six numbers and its word numbers (4 bytes each), words
/// are numbered as they come (one dictionary), and the postings are filled in place once
/// the rows are sorted by importance, with no second copy of the index.
extension PlacesIndex {
    /// The index of the TSV `bytes`, as `places.index` stores it.
    package static func build(tsv bytes: UnsafeBufferPointer<UInt8>) throws(GazetteerError) -> [UInt8] {
        var scanner = GazetteerScanner(path: "places.tsv", matcher: nil)
        let builder = Builder(names: nil)
        try scanner.scan(bytes: bytes) { row, _ throws(GazetteerError) in
            try builder.add(row)
            return true
        }
        return builder.finish(tsvSize: bytes.count, fingerprint: scanner.fingerprint.value, source: SourceIdentity(), path: "").bytes()
    }

    /// The index of the gazetteer open as `descriptor` (read to its end), with the country
    /// and region names a dump lacks from `names`; `path` names it in messages, and
    /// `sourcePath` (its absolute path) and `source` in the index. `progress` hears the
    /// bytes read so far now and then.
    package static func build(
        reading descriptor: FileDescriptor, path: String, names: RegionNames?, source: SourceIdentity, sourcePath: String = "",
        progress: ((Int) -> Void)? = nil
    ) throws(GazetteerError) -> Image {
        var scanner = GazetteerScanner(path: path, matcher: nil)
        let builder = Builder(names: names)
        var count = 0
        try scanner.scan(descriptor) { row, _ throws(GazetteerError) in
            try builder.add(row)
            count += 1
            if count & 0xFFFF == 0 { progress?(row.offset) }
            return true
        }
        return builder.finish(tsvSize: scanner.bytesRead, fingerprint: scanner.fingerprint.value, source: source, path: sourcePath)
    }

    /// An index's bytes in sections, ready to be written (`pieces`) or joined (`bytes`).
    package final class Image {
        private var parts: [UnsafeMutableRawBufferPointer] = []

        /// Takes `words` as the next section.
        func append(_ words: UnsafeMutableBufferPointer<UInt32>) {
            parts.append(UnsafeMutableRawBufferPointer(words))
        }

        /// Copies `words` as the next section.
        func append(_ words: [UInt32]) {
            let part = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: words.count)
            _ = part.initialize(from: words)
            append(part)
        }

        /// Copies `bytes`, padded with zeros to a multiple of four, as the next section.
        func append(bytes: [UInt8]) {
            let padded = (bytes.count + 3) & ~3
            let part = UnsafeMutableRawBufferPointer.allocate(byteCount: padded, alignment: 4)
            part.copyBytes(from: bytes)
            if padded > bytes.count { part[bytes.count...].initializeMemory(as: UInt8.self, repeating: 0) }
            parts.append(part)
        }

        /// The sections, in order.
        package var pieces: [UnsafeRawBufferPointer] { parts.map { UnsafeRawBufferPointer($0) } }

        /// The size of the index.
        package var count: Int { parts.reduce(0) { $0 + $1.count } }

        /// The sections joined.
        package func bytes() -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(count)
            for part in parts { out += part }
            return out
        }

        deinit { for part in parts { part.deallocate() } }
    }

    /// Collects rows, then lays the index out (`finish`).
    package final class Builder {
        private let names: RegionNames?
        /// `PlacesIndex.rowWords` numbers per row, in file order: offset, latitude, longitude,
        /// population, country code | category << 16, line.
        private var rows: [UInt32] = []
        private var importance: [Double] = []
        private var categories: [String] = []
        private var categoryIndex: [String: Int] = [:]
        private var lastCategoryField: [UInt8] = [0xFF]
        private var lastCategory = 0
        private var regions: [String: String] = [:]
        private var regionsSeen: Set<[UInt8]> = []
        private var wordIDs: [[UInt8]: UInt32] = [:]
        private var wordList: [[UInt8]] = []
        /// Each row's word numbers, with the posting's `postingFlags`.
        private var wordsOfRows: [UInt32] = []
        /// Where each row's words end in `wordsOfRows`.
        private var rowWordEnds: [UInt32] = []
        /// Each area's number, by its qualifier key (`PlaceRow.qualifierKey`), and its
        /// qualifier words' numbers, by area.
        private var areaNumbers: [[UInt8]: UInt32] = [:]
        private var areaWords: [[UInt32]] = []
        /// Each row's area, in file order.
        private var areaOfRows: [UInt32] = []
        private var ownIDs: [UInt32] = []
        private var alternateIDs: [UInt32] = []
        private var spelled: [UInt32] = []
        private var named: [UInt32] = []

        /// A builder taking country and region names from `names` where rows lack them.
        package init(names: RegionNames?) { self.names = names }

        /// Adds a row.
        package func add(_ row: PlaceRow) throws(GazetteerError) {
            guard row.offset < 1 << 32, rows.count / PlacesIndex.rowWords < Int(PlacesIndex.startsOwnName) else {
                throw .tooLargeToIndex(path: row.path)
            }
            let categoryField = row.schema.column(.category) != nil ? row.field(.category) : row.field(.featureCode)
            if !categoryField.elementsEqual(lastCategoryField) {
                lastCategoryField = Array(categoryField)
                let category = row.category
                if let c = categoryIndex[category] {
                    lastCategory = c
                } else {
                    categories.append(category)
                    categoryIndex[category] = categories.count - 1
                    lastCategory = categories.count - 1
                }
            }
            let cc = row.field(.countryCode)
            let packedCode = UInt32(cc.count > 0 ? cc[0] : 0) | UInt32(cc.count > 1 ? cc[1] : 0) << 8
            let population = UInt32(clamping: row.population)
            rows += [
                UInt32(row.offset),
                UInt32(bitPattern: Int32((row.coordinate.latitude * coordinateScale).rounded())),
                UInt32(bitPattern: Int32((row.coordinate.longitude * coordinateScale).rounded())),
                population,
                packedCode | UInt32(lastCategory) << 16,
                UInt32(truncatingIfNeeded: row.line),
            ]
            importance.append(placeImportance(population: Int(population), category: categories[lastCategory]))
            noteRegion(row, code: cc)
            ownIDs.removeAll(keepingCapacity: true)
            alternateIDs.removeAll(keepingCapacity: true)
            spelled.removeAll(keepingCapacity: true)
            named.removeAll(keepingCapacity: true)
            // A name spelled by one word alone (`San`, `Bora Bora`, `Mexico City`: see
            // `SearchText.spellingWords`) marks that word's posting.
            func noteForm(_ form: UnsafeBufferPointer<UInt8>, alternate: Bool = false) {
                // (Both ways a name is spelled: with its apostrophes, and typed without.)
                for across in SearchText.holdsApostrophe(form) ? [false, true] : [false] {
                    let words = SearchText.spellingWords(form, alternate: alternate, acrossApostrophes: across)
                    if let first = words.first, words.allSatisfy({ $0 == first }) { spelled.append(number(first)) }
                    // The words of a name of one or two words (`inShortName`).
                    if let first = words.first, words.allSatisfy({ $0 == first || $0 == words.last }) {
                        for word in [first, words.last!] {
                            let id = number(word)
                            if !named.contains(id) { named.append(id) }
                        }
                    }
                }
                for word in SearchText.words(form, joined: true) {
                    let id = number(word)
                    if ownIDs.contains(id) { continue }
                    if !alternate {
                        ownIDs.append(id)
                    } else if !alternateIDs.contains(id) {
                        alternateIDs.append(id)
                    }
                }
            }
            noteForm(row.field(.name))
            noteForm(row.field(.asciiName))
            // Codes name the place only typed in capitals, whole: not its own name's
            // words, but each a name of one word.
            for code in PlaceMatcher.list(row, .codes) {
                for word in SearchText.words(code) {
                    let id = number(word)
                    spelled.append(id)
                    if !ownIDs.contains(id) && !alternateIDs.contains(id) { alternateIDs.append(id) }
                }
            }
            for field in [PlaceField.alternateNames, .rareAlternateNames] {
                for form in PlaceMatcher.list(row, field) { noteForm(form, alternate: true) }
            }
            // The first words of the own name (as `PlaceMatch` splits it).
            var starts: [UInt32] = []
            for field in [PlaceField.name, .asciiName] {
                let form = row.field(field)
                for word in SearchText.startWords(form, words: SearchText.words(form, joined: true)) { starts.append(number(word)) }
            }
            func flags(_ id: UInt32) -> UInt32 {
                (spelled.contains(id) ? spellsAName : 0) | (named.contains(id) ? inShortName : 0)
                    | (starts.contains(id) ? startsOwnName : 0)
            }
            for id in ownIDs { wordsOfRows.append(id | flags(id)) }
            for id in alternateIDs where !ownIDs.contains(id) { wordsOfRows.append(id | notOwnName | flags(id)) }
            areaOfRows.append(area(of: row))
            guard wordsOfRows.count < 1 << 32, wordList.count < Int(startsOwnName) else { throw .tooLargeToIndex(path: row.path) }
            rowWordEnds.append(UInt32(wordsOfRows.count))
        }

        /// The number of the row's area: its country and region, with the word numbers of
        /// their names (`SearchText.qualifiers`), made once per area: a dump has millions
        /// of rows and a few thousand areas.
        private func area(of row: PlaceRow) -> UInt32 {
            let key = row.qualifierKey
            if let area = areaNumbers[key] { return area }
            var ids: [UInt32] = []
            for field in SearchText.qualifiers(row, names: names) {
                for word in field.withUnsafeBufferPointer({ SearchText.words($0, joined: true) }) where !ids.contains(number(word)) {
                    ids.append(number(word))
                }
            }
            let area = UInt32(areaWords.count)
            areaNumbers[key] = area
            areaWords.append(ids)
            return area
        }

        private func number(_ word: [UInt8]) -> UInt32 {
            if let id = wordIDs[word] { return id }
            let id = UInt32(wordList.count)
            wordIDs[word] = id
            wordList.append(word)
            return id
        }

        /// Keeps the country and region names of the row's codes: its own columns, or
        /// `names` for a dump.
        private func noteRegion(_ row: PlaceRow, code cc: UnsafeBufferPointer<UInt8>) {
            guard !cc.isEmpty else { return }
            let a1 = row.field(.admin1Code)
            var key = Array(cc)
            key.append(0x2E)
            key += a1
            guard regionsSeen.insert(key).inserted else { return }
            let code = String(decoding: cc, as: UTF8.self)
            let country =
                row.schema.column(.countryName) != nil
                ? row.string(.countryName) : String(decoding: names?.countryName(code: cc) ?? .init(start: nil, count: 0), as: UTF8.self)
            if !country.isEmpty && regions[code] == nil { regions[code] = country }
            guard !a1.isEmpty else { return }
            let region =
                row.schema.column(.admin1Name) != nil
                ? row.string(.admin1Name)
                : String(decoding: names?.admin1Name(country: cc, code: a1) ?? .init(start: nil, count: 0), as: UTF8.self)
            if !region.isEmpty { regions[code + "." + String(decoding: a1, as: UTF8.self)] = region }
        }

        /// The index of the rows added, for a TSV of `tsvSize` bytes with `fingerprint`.
        package func finish(tsvSize: Int, fingerprint: UInt64, source: SourceIdentity, path: String) -> Image {
            let rowCount = rows.count / PlacesIndex.rowWords
            // Rows by importance, highest first; ties in file order.
            var order = [UInt32](unsafeUninitializedCapacity: rowCount) { buffer, count in
                for i in 0..<rowCount { buffer[i] = UInt32(i) }
                count = rowCount
            }
            importance.withUnsafeBufferPointer { importance in
                order.sort { a, b in
                    let ia = importance[Int(a)], ib = importance[Int(b)]
                    return ia != ib ? ia > ib : a < b
                }
            }
            importance = []
            wordIDs = [:]
            // Words in byte order.
            let wordCount = wordList.count
            let sortedWords = (0..<wordCount).sorted { wordList[$0].lexicographicallyPrecedes(wordList[$1]) }
            var newID = [UInt32](repeating: 0, count: wordCount)
            for (position, old) in sortedWords.enumerated() { newID[old] = UInt32(position) }
            var counts = [Int](repeating: 0, count: wordCount)
            for entry in wordsOfRows { counts[Int(newID[Int(entry & ~postingFlags)])] += 1 }
            var postingStarts = [UInt32](repeating: 0, count: wordCount + 1)
            var wordStarts = [UInt32](repeating: 0, count: wordCount + 1)
            var wordBytes: [UInt8] = []
            for (position, old) in sortedWords.enumerated() {
                postingStarts[position + 1] = postingStarts[position] + UInt32(counts[position])
                wordBytes += wordList[old]
                wordStarts[position + 1] = UInt32(wordBytes.count)
            }
            // Prefix lists: which prefixes get one, and each word's (up to three).
            var totals: [UInt32: Int] = [:]
            var wordPrefixes = [UInt32](repeating: 0, count: 3 * wordCount)
            for (position, old) in sortedWords.enumerated() {
                let word = wordList[old]
                for length in 1...min(longestListedPrefix, word.count) where length == word.count || word[length] & 0xC0 != 0x80 {
                    let key = packedPrefix(word[..<length])!
                    totals[key, default: 0] += counts[position]
                    wordPrefixes[3 * position + length - 1] = key
                }
            }
            // Each word's grid signature, by its number as added.
            let wordSignatures = wordList.map { signature(ofWord: $0) }
            wordList = []
            let listed = totals.filter { $0.value > prefixListThreshold }.keys.sorted()
            var listOfKey: [UInt32: Int32] = [:]
            for (i, key) in listed.enumerated() { listOfKey[key] = Int32(i) }
            var wordLists = [Int32](repeating: -1, count: 3 * wordCount)
            for i in 0..<wordPrefixes.count where wordPrefixes[i] != 0 { wordLists[i] = listOfKey[wordPrefixes[i]] ?? -1 }
            wordPrefixes = []
            var lists = [[UInt32]](repeating: [], count: listed.count)
            var listCut = [Bool](repeating: false, count: listed.count)
            var lastRow = [UInt32](repeating: .max, count: listed.count)
            // The grid: each cell's rows, in row order (so ascending), each with its signature.
            var gridStarts = [UInt32](repeating: 0, count: gridCellCount + 1)
            func gridCell(ofAdded i: Int) -> Int {
                PlacesIndex.gridCell(
                    latitude: Int32(bitPattern: rows[i * PlacesIndex.rowWords + 1]),
                    longitude: Int32(bitPattern: rows[i * PlacesIndex.rowWords + 2]))
            }
            for i in 0..<rowCount { gridStarts[gridCell(ofAdded: i) + 1] += 1 }
            for c in 0..<gridCellCount { gridStarts[c + 1] += gridStarts[c] }
            var gridCursor = gridStarts
            let gridEntries = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: gridEntryWords * rowCount)
            // Postings in row order, so each list comes out ascending.
            let postingCount = Int(postingStarts[wordCount])
            let postings = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: postingCount)
            var cursor = postingStarts
            for r in 0..<rowCount {
                let i = Int(order[r])
                let start = i == 0 ? 0 : Int(rowWordEnds[i - 1])
                var rowSignature: UInt64 = 0
                defer {
                    let cell = gridCell(ofAdded: i)
                    let at = gridEntryWords * Int(gridCursor[cell])
                    gridCursor[cell] += 1
                    gridEntries[at] = UInt32(r)
                    gridEntries[at + 1] = UInt32(truncatingIfNeeded: rowSignature)
                    gridEntries[at + 2] = UInt32(truncatingIfNeeded: rowSignature >> 32)
                }
                for k in start..<Int(rowWordEnds[i]) {
                    let entry = wordsOfRows[k]
                    rowSignature |= wordSignatures[Int(entry & ~postingFlags)]
                    let w = Int(newID[Int(entry & ~postingFlags)])
                    // A prefix list's entry for a row keeps `notOwnName` only when every
                    // word of the row with the prefix has it.
                    let kind = entry & notOwnName
                    let start = entry & startsOwnName
                    postings[Int(cursor[w])] = UInt32(r) | (entry & postingFlags)
                    cursor[w] += 1
                    for j in 0..<3 {
                        let p = Int(wordLists[3 * w + j])
                        guard p >= 0 else { continue }
                        if lastRow[p] != UInt32(r) {
                            lastRow[p] = UInt32(r)
                            if lists[p].count < prefixListLength { lists[p].append(UInt32(r) | kind | start) } else { listCut[p] = true }
                        } else if let last = lists[p].last, last & ~postingFlags == UInt32(r) {
                            lists[p][lists[p].count - 1] = UInt32(r) | (last & kind) | (last & startsOwnName) | start
                        }
                    }
                }
            }
            wordsOfRows = []
            rowWordEnds = []
            let areas = areaSections(order: order, newID: newID)
            let sortedRows = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: rows.count)
            for r in 0..<rowCount {
                let i = Int(order[r])
                for k in 0..<PlacesIndex.rowWords { sortedRows[r * PlacesIndex.rowWords + k] = rows[i * PlacesIndex.rowWords + k] }
            }
            rows = []
            order = []

            var prefixKeys: [UInt32] = [], prefixStarts: [UInt32] = [0], prefixPostings: [UInt32] = []
            for (i, key) in listed.enumerated() {
                prefixKeys.append(key | (listCut[i] ? PlacesIndex.truncated : 0))
                prefixPostings += lists[i]
                prefixStarts.append(UInt32(prefixPostings.count))
            }
            return assemble(
                rows: sortedRows, words: (wordStarts, wordBytes), postings: (postingStarts, postings),
                prefixes: (prefixKeys, prefixStarts, prefixPostings), grid: (gridStarts, gridEntries), areas: areas, tsvSize: tsvSize,
                fingerprint: fingerprint, source: source, path: path)
        }

        /// The area sections: each area's rows (by their numbers in `order`, ascending),
        /// and the pairs of a word (numbered `newID`) and an area it qualifies, sorted.
        private func areaSections(
            order: [UInt32], newID: [UInt32]
        ) -> (rowStarts: [UInt32], rows: UnsafeMutableBufferPointer<UInt32>, words: [UInt32]) {
            var rowStarts = [UInt32](repeating: 0, count: areaWords.count + 1)
            for area in areaOfRows { rowStarts[Int(area) + 1] += 1 }
            for a in areaWords.indices { rowStarts[a + 1] += rowStarts[a] }
            var cursor = rowStarts
            let rows = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: order.count)
            for (r, i) in order.enumerated() {
                let area = Int(areaOfRows[Int(i)])
                rows[Int(cursor[area])] = UInt32(r)
                cursor[area] += 1
            }
            var pairs: [UInt64] = []
            for (area, ids) in areaWords.enumerated() {
                for id in ids { pairs.append(UInt64(newID[Int(id)]) << 32 | UInt64(area)) }
            }
            pairs.sort()
            return (rowStarts, rows, pairs.flatMap { [UInt32(truncatingIfNeeded: $0 >> 32), UInt32(truncatingIfNeeded: $0)] })
        }

        /// The index's file: its sections in order after the banner and the header, which
        /// says where each ends.
        private func assemble(
            rows sortedRows: UnsafeMutableBufferPointer<UInt32>, words: (starts: [UInt32], bytes: [UInt8]),
            postings: (starts: [UInt32], all: UnsafeMutableBufferPointer<UInt32>),
            prefixes: (keys: [UInt32], starts: [UInt32], postings: [UInt32]),
            grid: (starts: [UInt32], entries: UnsafeMutableBufferPointer<UInt32>),
            areas: (rowStarts: [UInt32], rows: UnsafeMutableBufferPointer<UInt32>, words: [UInt32]),
            tsvSize: Int, fingerprint: UInt64,
            source: SourceIdentity, path: String
        ) -> Image {
            let categoryBytes = Array(categories.map { $0 + "\n" }.joined().utf8)
            var regionBytes: [UInt8] = [], regionStarts: [UInt32] = [0]
            let regionLines = regions.map { Array("\($0.key)\t\($0.value)\n".utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
            for line in regionLines {
                regionBytes += line
                regionStarts.append(UInt32(regionBytes.count))
            }

            let image = Image()
            var banner = Array(PlacesIndex.banner.utf8)
            banner += [UInt8](repeating: 0x20, count: bannerSize - 1 - banner.count)
            banner.append(0x0A)
            image.append(bytes: banner)
            let headerIndex = 1
            image.append([UInt32](repeating: 0, count: headerWords))
            image.append(sortedRows)
            image.append(words.starts)
            image.append(postings.starts)
            image.append(postings.all)
            image.append(bytes: words.bytes)
            image.append(bytes: categoryBytes)
            image.append(regionStarts)
            image.append(bytes: regionBytes)
            image.append(prefixes.keys)
            image.append(prefixes.starts)
            image.append(prefixes.postings)
            image.append(grid.starts)
            image.append(grid.entries)
            image.append(areas.rowStarts)
            image.append(areas.rows)
            image.append(areas.words)
            let pathBytes = Array(path.utf8)
            image.append(bytes: pathBytes)
            func split(_ v: UInt64) -> [UInt32] { [UInt32(truncatingIfNeeded: v), UInt32(truncatingIfNeeded: v >> 32)] }
            var header: [UInt32] = [
                version, UInt32(sortedRows.count / PlacesIndex.rowWords), UInt32(words.starts.count - 1), UInt32(postings.all.count),
                UInt32(words.bytes.count), UInt32(categoryBytes.count), UInt32(regionLines.count), UInt32(regionBytes.count),
            ]
            header += split(UInt64(tsvSize)) + split(fingerprint)
            header += [UInt32(prefixes.keys.count), UInt32(prefixes.postings.count)]
            header += split(UInt64(image.count))
            header += split(source.device) + split(source.inode) + split(UInt64(bitPattern: source.modificationSeconds))
            header += [source.modificationNanoseconds] + split(source.sample)
            header += [UInt32(pathBytes.count)] + split(UInt64(bitPattern: source.changeSeconds)) + [source.changeNanoseconds]
            header += split(PlacesIndex.rules)
            header += [UInt32(areas.rowStarts.count - 1), UInt32(areas.words.count / 2)]
            header += [UInt32](repeating: 0, count: headerWords - header.count)
            image.setHeader(header, at: headerIndex)
            return image
        }
    }
}

extension PlacesIndex.Image {
    /// Fills the header section (written as zeros before the size was known).
    func setHeader(_ header: [UInt32], at part: Int) {
        precondition(header.count == PlacesIndex.headerWords)
        let target = UnsafeMutableRawPointer(mutating: pieces[part].baseAddress!).assumingMemoryBound(to: UInt32.self)
        for (i, v) in header.enumerated() { target[i] = v.littleEndian }
    }
}
