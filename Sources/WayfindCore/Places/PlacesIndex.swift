/// The search index of a gazetteer: of the embedded one, computed ahead of time, and of a
/// `--places` file, built on its first use and kept in the cache (`PlacesIndexCache`).
/// Every search goes through one (`PlaceSearch.search(index:tsv:)`); a file is scanned
/// only when its index cannot be kept.
///
/// # Why an index
///
/// Scanning a gazetteer for a query reads every byte, for every keystroke: seconds for a
/// 1.5 GB GeoNames allCountries dump (bench/results/2026-11-26-places-index.md). The index looks
/// words up by binary search and reads only the rows that can be results, so a query
/// costs about the same at 12 million rows as at 34,000.
///
/// # Words and postings
///
/// Words are the folded words of each row's `SearchText`, split as `LineMatcher` splits,
/// with a GeoNames dump's country and region names resolved at build time (a dump has
/// only `FR`, `11`; the names come from the embedded gazetteer and are kept in the
/// index's region table, so that labels need nothing else). A query word's candidates
/// are the rows of every word it prefixes: one binary search for the range of words,
/// then a union of their posting lists. The words of a row's qualifiers (its country's
/// and region's names and codes) have no postings: they name the row's area, one of a
/// few thousand, whose rows are listed once (`areas(ofWords:)`, `rows(inArea:)`). A query
/// word in a place's qualifiers only never carries a match alone, so only a query of
/// several words reads them (`paris tx`); posted per row, they were 71 % of the postings
/// of a 12 M-row dump (87 M, 350 MB). A posting's `notOwnName` bit tells, without
/// reading the row, whether the word is in the row's alternate names only
/// (`RankKey.ownName`); its `spellsAName` bit, whether a name of the row is that word
/// alone, so that a one-word query reads only the rows it spells whole (`san` spells
/// `San`, Mali, not the 200,000 `San …` places of a 12 M-row dump); its `inShortName`
/// bit, whether a name of the row of one or two words holds it, so that a two-word query
/// reads only the rows it may spell whole (`new york`: not the 100,000 rows of the state
/// of New York, nor `San Jose Creek` for `san jose`).
///
/// The union is made one of two ways. Bitmaps of every row cost their pages whatever the
/// query (7 MB at 12 M rows); so when the query's rarest piece has few postings, its
/// rows are sorted into a list instead and the other pieces' postings are looked up in
/// a hash table of them (`paris` at 12 M rows: a third of the time). An
/// estimate of both costs chooses; the answers are the same (tests force each way).
///
/// # Rows in order of importance
///
/// Rows are numbered by importance (`placeImportance`, highest first; ties keep file
/// order), so every posting list starts with the most important places. A row's rank
/// key can only get worse as the row number grows (same best tier and band, lower
/// importance, later order), so the search stops at the first candidate whose best
/// possible key cannot enter the top N: for `paris` among 12 million rows, after a few
/// dozen. Once no prefix match (tier 1) can enter any more, only rows that may be whole-
/// name matches are still read, and the walk ends when even those are out of reach. Keys stay `(fingerprint, byte offset, line)` as a scan makes them, so a
/// magicKey is the same whether a file was searched through its index or scanned.
///
/// # Short prefixes
///
/// `s` prefixes a quarter of all words: 8 million postings at 12 M rows, whose union alone
/// costs more than the scan's budget. For every prefix of one to three bytes whose words
/// hold more than `prefixListThreshold` postings, the index keeps the first
/// `prefixListLength` rows of that union (ascending, so the most important), with the
/// `notOwnName` bit clear when an own word has the prefix. A one-word query of up to
/// three bytes walks that list instead and usually stops inside it: the 5th best key
/// found is already out of reach for every later row. Only when the list runs out first
/// (a filter such as `--country` rejected most of it, or `--location` wants places the
/// list does not reach) does the search fall back to the union. When the list ends with
/// prefix matches out of reach but a whole-name match still possible (a place called
/// `S`), only the exact word's postings are read on, not the union.
///
/// # Near a location
///
/// With `--location`, a near place may beat a more important one far away (`RankKey`'s
/// score), so row order stops little: `s` near Chicago at 12 M rows walked its 8 million
/// postings, reading each row's coordinate. So the index also keeps a grid of the Earth
/// in cells of one degree, with each cell's rows, ascending, and a 64-bit signature of
/// each: a bit for each of its words' first one to four bytes, hashed
/// (`signature(ofWord:)`). A query of one piece near a location walks the cells nearest first
/// (`GridWalk`), by the least distance a point of the cell can be at
/// (`LocationBias.distanceLowerBound(latitudes:longitudes:)`), reads only the rows whose
/// signature holds every bit of the query's, checks them as a scan does, leaves a cell
/// at its first row that could not enter from there, and stops before a cell from which
/// no place could. Past a budget of rows, or where distance stops counting, the cells
/// walked are skipped and the postings searched for the rest, bounded by the distance
/// reached. Ordering the cells costs a distance for each cell that has rows: a query of
/// fewer postings than the grid has cells (`gridMinimumPostings`) unites them instead,
/// and so does a query of several pieces (walking the grid for `new y` near Chicago read
/// thousands of near rows with `new…` and `y…` words; the union stops sooner).
///
/// # Layout (little-endian, every section 4-byte aligned)
///
///     0    96-byte text line: what this is and how it is made
///     96   34 × UInt32 header: version, rows, words, postings, word bytes,
///          category bytes, region entries, region bytes, TSV size (2 words),
///          fingerprint (2), prefixes, prefix postings, index size (2), the source
///          file's identity (device 2, inode 2, modification time 2 + nanoseconds,
///          sample fingerprint 2, path bytes, change time 2 + nanoseconds:
///          `PlacesIndexCache`), the rules it was made under (2: `rules`), areas,
///          word areas, reserved
///     …    rows: 6 × UInt32 each: TSV offset, latitude × 1e5, longitude × 1e5,
///          population, country code (2 bytes) | category index << 16, line number
///     …    word starts: words + 1 UInt32 offsets into the word bytes, sorted by bytes
///     …    posting starts: words + 1 UInt32; postings: row numbers, ascending per word,
///          with the `postingFlags` bits (`notOwnName` …)
///     …    word bytes, category names (`\n`-terminated), region entries' offsets and
///          bytes: `CC\tname\n` and `CC.A1\tname\n`, sorted
///     …    prefix keys (`packedPrefix`, `truncated` bit set when the list is cut),
///          prefix starts (prefixes + 1), prefix postings
///     …    grid starts (`gridCellCount` + 1, into the entries), grid entries: 3 × UInt32
///          per row (row number, signature's low and high halves), by cell, ascending
///     …    area row starts (areas + 1), area rows (every row once, ascending per
///          area); word areas: 2 × UInt32 per pair (word number, area number), sorted
///     …    the source file's absolute path (empty for the embedded gazetteer)
///
/// A TSV of 4 GiB or more, or of 2²⁹ rows, is not indexed (offsets are 32 bits): it is
/// scanned.
package struct PlacesIndex {
    /// The index format; bump it with the layout.
    package static let version: UInt32 = 10
    /// The bit of a posting set when its word is not in the row's own name (`name`,
    /// `asciiname`): only in its alternate names or its codes. A name
    /// matched by it is not the row's own (`RankKey.ownName`). Row numbers stay below the
    /// flags: a gazetteer has fewer than 2²⁷ rows.
    package static let notOwnName: UInt32 = 1 << 31
    /// The bit of a posting set when a name of the row (its name, ASCII name or an
    /// alternate name) is this word alone: the row is a whole-name match for a one-word
    /// query that is this word.
    package static let spellsAName: UInt32 = 1 << 30
    /// The bit of a posting set when a name of the row (its name, ASCII name or an
    /// alternate name, as `SearchText.spellingWords` splits them: not a code, not a last
    /// `city`) is spelled with one or two different words and this is one of them. Two
    /// different query words spell a name whole only where one has `spellsAName` or both
    /// have this (`PostingsUnion.wholeRows`).
    package static let inShortName: UInt32 = 1 << 29
    /// The bit of a posting set when its word is the first word of the row's own name:
    /// a name begun at its start (`PlaceMatch.atStart`).
    package static let startsOwnName: UInt32 = 1 << 27
    /// The posting bits that are not the row number (a gazetteer has fewer than 2²⁷ rows).
    package static let postingFlags: UInt32 = notOwnName | spellsAName | inShortName | startsOwnName
    /// The text line at the start of the file.
    static let banner = "wayfind places index: written by wayfind from a gazetteer; do not edit"
    static let bannerSize = 96
    static let headerWords = 34
    static let rowWords = 6

    /// Scale of stored coordinates: 5 decimals, as places.tsv has.
    static let coordinateScale = 100_000.0

    /// Prefix lists are kept for prefixes whose words hold more postings than this: below
    /// it the union of the posting lists costs less than reading a list.
    static let prefixListThreshold = 4096
    /// How many rows a prefix list keeps: enough that a top 5 (or 15) is settled inside
    /// it for an unfiltered query, small enough that all lists together stay a few
    /// percent of the index.
    static let prefixListLength = 1024
    /// The longest prefix with a list, in bytes: past three letters the union is small.
    static let longestListedPrefix = 3
    /// The bit of a prefix key set when its list is cut at `prefixListLength`.
    static let truncated: UInt32 = 1 << 31

    /// The location grid: cells of one degree of latitude by one of longitude, row by row
    /// from the South Pole and, in each, from −180° east. A degree (111 km by at most as
    /// much) holds the default distance scale (20 km) in at most four cells, and 64,800 cells
    /// cost 259 KB of starts.
    static let gridLatitudeCells = 180
    static let gridLongitudeCells = 360
    static let gridCellCount = gridLatitudeCells * gridLongitudeCells
    /// A query of one piece near a location walks the grid only when it has more postings than
    /// this, the grid's cells: below, uniting the postings costs less than ordering the
    /// cells (`sa` near Boston in the embedded gazetteer, 8,000 postings, was faster
    /// without the grid: bench/results/2026-11-27-places-index-grid.md).
    static let gridMinimumPostings = gridCellCount
    /// UInt32 words per grid entry: row number, signature low, signature high.
    static let gridEntryWords = 3
    /// How many first bytes of a word its signature tells: four, the longest short query
    /// (`sant` near Chicago read 26,000 rows with three, most of them `san…`); a longer
    /// piece's rows are marked from its postings when few (`GridWalk.markedShare`).
    static let signedPrefix = 4

    let base: UnsafePointer<UInt8>
    let size: Int
    /// Rows, words, postings.
    package let rowCount: Int
    package let wordCount: Int
    let postingCount: Int
    let wordByteCount: Int
    /// The fingerprint of the TSV the index was made from.
    package let fingerprint: UInt64
    /// The size of that TSV.
    package let tsvSize: Int
    /// The identity of the file the index was made from (zeros for the embedded one).
    package let source: SourceIdentity
    /// The category names, by index.
    package let categories: [String]

    let rows: UnsafePointer<UInt32>
    let wordStarts: UnsafePointer<UInt32>
    let postingStarts: UnsafePointer<UInt32>
    let postings: UnsafePointer<UInt32>
    let wordBytes: UnsafePointer<UInt8>
    let regionCount: Int
    let regionStarts: UnsafePointer<UInt32>
    let regionBytes: UnsafePointer<UInt8>
    let regionByteCount: Int
    let prefixCount: Int
    let prefixKeys: UnsafePointer<UInt32>
    let prefixStarts: UnsafePointer<UInt32>
    let prefixPostings: UnsafePointer<UInt32>
    let prefixPostingCount: Int
    let gridStarts: UnsafePointer<UInt32>
    let gridEntries: UnsafePointer<UInt32>
    let areaCount: Int
    let areaRowStarts: UnsafePointer<UInt32>
    let areaRows: UnsafePointer<UInt32>
    let wordAreaCount: Int
    let wordAreas: UnsafePointer<UInt32>

    /// What identifies the file an index was built from: if any of it differs, the file
    /// changed and is indexed again.
    package struct SourceIdentity: Equatable, Sendable {
        package var device: UInt64 = 0
        package var inode: UInt64 = 0
        package var modificationSeconds: Int64 = 0
        package var modificationNanoseconds: UInt32 = 0
        /// The status change time: a write moves it, and no one can set it back (`cp -p`
        /// and `touch -r` set the modification time).
        package var changeSeconds: Int64 = 0
        package var changeNanoseconds: UInt32 = 0
        /// `PlacesIndexCache.sampleFingerprint`: a few blocks of the file, hashed.
        package var sample: UInt64 = 0

        package init() {}
    }

    /// The absolute path of the file the index was made from when it was made (empty for
    /// the embedded gazetteer): a cached index whose file is gone, or is another file
    /// now, is pruned (`PlacesIndexCache.prune`).
    package let sourcePath: String

    /// Reads the index in `bytes` (not copied: they must outlive it), or nil when it is not
    /// an index of this version made under these `rules`, or is cut short or inconsistent.
    package init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count >= Self.bannerSize + 4 * Self.headerWords,
            Int(bitPattern: base) % 4 == 0
        else { return nil }
        self.base = base
        size = bytes.count
        let header = UnsafeRawPointer(base + Self.bannerSize).assumingMemoryBound(to: UInt32.self)
        func h(_ i: Int) -> Int { Int(UInt32(littleEndian: header[i])) }
        func h64(_ i: Int) -> UInt64 { UInt64(h(i)) | UInt64(h(i + 1)) << 32 }
        guard UInt32(h(0)) == Self.version, h64(14) == UInt64(bytes.count), h64(29) == Self.rules else { return nil }
        rowCount = h(1)
        wordCount = h(2)
        postingCount = h(3)
        wordByteCount = h(4)
        let categoryByteCount = h(5)
        regionCount = h(6)
        regionByteCount = h(7)
        tsvSize = Int(truncatingIfNeeded: h64(8))
        guard tsvSize >= 0 else { return nil }
        fingerprint = h64(10)
        prefixCount = h(12)
        prefixPostingCount = h(13)
        var identity = SourceIdentity()
        identity.device = h64(16)
        identity.inode = h64(18)
        identity.modificationSeconds = Int64(bitPattern: h64(20))
        identity.modificationNanoseconds = UInt32(h(22))
        identity.sample = h64(23)
        let pathByteCount = h(25)
        identity.changeSeconds = Int64(bitPattern: h64(26))
        identity.changeNanoseconds = UInt32(h(28))
        areaCount = h(31)
        wordAreaCount = h(32)
        source = identity
        // Every section must fit: a count from a damaged header could point anywhere.
        let sectionWords =
            rowCount * Self.rowWords + 2 * (wordCount + 1) + postingCount + (regionCount + 1) + prefixCount + (prefixCount + 1)
            + prefixPostingCount + (Self.gridCellCount + 1) + Self.gridEntryWords * rowCount + (areaCount + 1) + rowCount
            + 2 * wordAreaCount
        func padded(_ n: Int) -> Int { (n + 3) & ~3 }
        let sectionBytes =
            4 * sectionWords + padded(wordByteCount) + padded(categoryByteCount) + padded(regionByteCount) + padded(pathByteCount)
        guard sectionBytes == bytes.count - Self.bannerSize - 4 * Self.headerWords else { return nil }
        var cursor = UnsafeRawPointer(header + Self.headerWords)
        func take(_ words: Int) -> UnsafePointer<UInt32> {
            let p = cursor.assumingMemoryBound(to: UInt32.self)
            cursor += 4 * words
            return p
        }
        func takeBytes(_ count: Int) -> UnsafePointer<UInt8> {
            let p = cursor.assumingMemoryBound(to: UInt8.self)
            cursor += (count + 3) & ~3
            return p
        }
        rows = take(rowCount * Self.rowWords)
        wordStarts = take(wordCount + 1)
        postingStarts = take(wordCount + 1)
        postings = take(postingCount)
        wordBytes = takeBytes(wordByteCount)
        let categoryBytes = takeBytes(categoryByteCount)
        regionStarts = take(regionCount + 1)
        regionBytes = takeBytes(regionByteCount)
        prefixKeys = take(prefixCount)
        prefixStarts = take(prefixCount + 1)
        prefixPostings = take(prefixPostingCount)
        gridStarts = take(Self.gridCellCount + 1)
        gridEntries = take(Self.gridEntryWords * rowCount)
        areaRowStarts = take(areaCount + 1)
        areaRows = take(rowCount)
        wordAreas = take(2 * wordAreaCount)
        sourcePath = String(decoding: UnsafeBufferPointer(start: takeBytes(pathByteCount), count: pathByteCount), as: UTF8.self)
        // (A cell whose starts go back reads as empty: `gridEntries` never reads outside
        // the entries. Checking all 64,800 here would cost every run of every tool.)
        guard cursor - UnsafeRawPointer(base) == bytes.count, Int(gridStarts[Self.gridCellCount]) == rowCount,
            Int(wordStarts[wordCount]) == wordByteCount, Int(postingStarts[wordCount]) == postingCount,
            Int(regionStarts[regionCount]) == regionByteCount, Int(prefixStarts[prefixCount]) == prefixPostingCount,
            Int(areaRowStarts[areaCount]) == rowCount
        else { return nil }
        // Each name ends in a newline; a gazetteer without categories has one, empty.
        categories = UnsafeBufferPointer(start: categoryBytes, count: categoryByteCount)
            .split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        guard !categories.isEmpty, categories.count < 1 << 16 else { return nil }
    }

    // MARK: Rows

    /// Where row `i` starts in the TSV.
    @inline(__always)
    package func offset(ofRow i: Int) -> Int { Int(rows[i * Self.rowWords]) }

    /// Row `i`'s line number in the TSV, from 1.
    @inline(__always)
    package func line(ofRow i: Int) -> Int { Int(rows[i * Self.rowWords + 5]) }

    /// Row `i`'s coordinate.
    @inline(__always)
    package func coordinate(ofRow i: Int) -> Coordinate {
        Coordinate(
            latitude: Double(Int32(bitPattern: rows[i * Self.rowWords + 1])) / Self.coordinateScale,
            longitude: Double(Int32(bitPattern: rows[i * Self.rowWords + 2])) / Self.coordinateScale)
    }

    /// Row `i`'s population.
    @inline(__always)
    package func population(ofRow i: Int) -> Int { Int(rows[i * Self.rowWords + 3]) }

    /// Row `i`'s country code as two bytes packed (first byte low).
    @inline(__always)
    package func countryCode(ofRow i: Int) -> UInt16 { UInt16(truncatingIfNeeded: rows[i * Self.rowWords + 4]) }

    /// Row `i`'s category index into `categories` (a damaged index may name none: then
    /// the last category stands in).
    @inline(__always)
    package func categoryIndex(ofRow i: Int) -> Int { min(Int(rows[i * Self.rowWords + 4] >> 16), categories.count - 1) }

    // MARK: Words

    /// The bytes of word `w` (empty if the index is damaged there).
    @inline(__always)
    func word(_ w: Int) -> UnsafeBufferPointer<UInt8> {
        let s = Int(wordStarts[w]), e = Int(wordStarts[w + 1])
        guard s <= e, e <= wordByteCount else { return UnsafeBufferPointer(start: wordBytes, count: 0) }
        return UnsafeBufferPointer(start: wordBytes + s, count: e - s)
    }

    /// The rows holding word `w`, ascending, with `postingFlags` (empty if the index is damaged there).
    @inline(__always)
    func postings(ofWord w: Int) -> UnsafeBufferPointer<UInt32> {
        let s = Int(postingStarts[w]), e = Int(postingStarts[w + 1])
        guard s <= e, e <= postingCount else { return UnsafeBufferPointer(start: postings, count: 0) }
        return UnsafeBufferPointer(start: postings + s, count: e - s)
    }

    // MARK: Areas

    /// The rows of area `a`, ascending (empty if the index is damaged there).
    @inline(__always)
    func rows(inArea a: Int) -> UnsafeBufferPointer<UInt32> {
        guard a < areaCount else { return UnsafeBufferPointer(start: areaRows, count: 0) }
        let s = Int(areaRowStarts[a]), e = Int(areaRowStarts[a + 1])
        guard s <= e, e <= rowCount else { return UnsafeBufferPointer(start: areaRows, count: 0) }
        return UnsafeBufferPointer(start: areaRows + s, count: e - s)
    }

    /// The areas the words in `range` qualify (a country or region whose names hold
    /// them), each once, ascending. Qualifier words have no postings: a row holds one
    /// through its area, so a word of `United States` costs one entry per area of the
    /// country, not one per row in it (at 12 M rows, 87 M postings, 350 MB). The pairs
    /// of the range's words are one run: `s` begins 60,000 words.
    func areas(ofWords range: Range<Int>) -> [Int] {
        var low = 0, high = wordAreaCount
        while low < high {
            let mid = (low + high) / 2
            if Int(wordAreas[2 * mid]) < range.lowerBound { low = mid + 1 } else { high = mid }
        }
        var seen = Set<UInt32>()
        while low < wordAreaCount && Int(wordAreas[2 * low]) < range.upperBound {
            seen.insert(wordAreas[2 * low + 1])
            low += 1
        }
        return seen.map { Int($0) }.sorted()
    }

    /// How many rows `areas` hold.
    func rowTotal(inAreas areas: [Int]) -> Int { areas.reduce(0) { $0 + rows(inArea: $1).count } }

    /// How many postings the words in `range` hold.
    func postingTotal(_ range: Range<Int>) -> Int {
        guard !range.isEmpty else { return 0 }
        return min(postingCount, max(0, Int(postingStarts[range.upperBound]) - Int(postingStarts[range.lowerBound])))
    }

    /// The words that start with `prefix`: a range of word numbers, and the word equal to
    /// `prefix` if there is one (it is the range's first).
    package func words(withPrefix prefix: [UInt8]) -> (range: Range<Int>, exact: Int?) {
        let lo = lowerBound(prefix)
        // Words with the prefix follow `lo` contiguously: find where they stop.
        var low = lo, high = wordCount
        while low < high {
            let mid = (low + high) / 2
            if hasPrefix(mid, prefix) { low = mid + 1 } else { high = mid }
        }
        let hi = low
        let exact = lo < hi && word(lo).count == prefix.count ? lo : nil
        return (lo..<hi, exact)
    }

    private func hasPrefix(_ w: Int, _ prefix: [UInt8]) -> Bool {
        let b = word(w)
        guard b.count >= prefix.count else { return false }
        for i in 0..<prefix.count where b[i] != prefix[i] { return false }
        return true
    }

    private func lowerBound(_ key: [UInt8]) -> Int {
        var low = 0, high = wordCount
        while low < high {
            let mid = (low + high) / 2
            if Self.less(word(mid), key) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    static func less(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Bool {
        let n = min(a.count, b.count)
        for i in 0..<n where a[i] != b[i] { return a[i] < b[i] }
        return a.count < b.count
    }

    // MARK: Prefix lists

    /// A prefix of one to three bytes as one number: its bytes, first highest, and its
    /// length, so that keys sort as the prefixes do.
    static func packedPrefix<C: Collection<UInt8>>(_ bytes: C) -> UInt32? {
        guard !bytes.isEmpty, bytes.count <= longestListedPrefix else { return nil }
        var key: UInt32 = 0
        var i = 0
        for b in bytes {
            key |= UInt32(b) << UInt32(8 * (3 - i))
            i += 1
        }
        return key >> 1 | UInt32(bytes.count)
    }

    /// The kept list of `prefix` (see the essay) and whether it was cut, or nil when
    /// the prefix has none.
    func prefixList(_ prefix: [UInt8]) -> (rows: UnsafeBufferPointer<UInt32>, isTruncated: Bool)? {
        guard let key = Self.packedPrefix(prefix) else { return nil }
        var low = 0, high = prefixCount
        while low < high {
            let mid = (low + high) / 2
            if prefixKeys[mid] & ~Self.truncated < key { low = mid + 1 } else { high = mid }
        }
        guard low < prefixCount, prefixKeys[low] & ~Self.truncated == key else { return nil }
        let s = Int(prefixStarts[low]), e = Int(prefixStarts[low + 1])
        guard s <= e, e <= prefixPostingCount else { return nil }
        return (UnsafeBufferPointer(start: prefixPostings + s, count: e - s), prefixKeys[low] & Self.truncated != 0)
    }

    // MARK: Location grid

    /// The grid cell of a point given as stored (degrees × `coordinateScale`).
    @inline(__always)
    static func gridCell(latitude: Int32, longitude: Int32) -> Int {
        let scale = Int(coordinateScale)
        let row = min(gridLatitudeCells - 1, max(0, (Int(latitude) + 90 * scale) / scale))
        let column = min(gridLongitudeCells - 1, max(0, (Int(longitude) + 180 * scale) / scale))
        return row * gridLongitudeCells + column
    }

    /// Row `i`'s grid cell.
    @inline(__always)
    func gridCell(ofRow i: Int) -> Int {
        Self.gridCell(latitude: Int32(bitPattern: rows[i * Self.rowWords + 1]), longitude: Int32(bitPattern: rows[i * Self.rowWords + 2]))
    }

    /// The latitudes and longitudes of cell `cell`'s points, in degrees.
    static func gridBounds(ofCell cell: Int) -> (latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>) {
        let south = Double(cell / gridLongitudeCells - 90), west = Double(cell % gridLongitudeCells - 180)
        // The last row and column also hold the points on their far edge (90°, 180°).
        return (south...south + 1, west...west + 1)
    }

    /// Cell `cell`'s entries: `gridEntryWords` words each (empty if the index is damaged there).
    @inline(__always)
    func gridEntries(ofCell cell: Int) -> UnsafeBufferPointer<UInt32> {
        let s = Int(gridStarts[cell]), e = Int(gridStarts[cell + 1])
        guard s <= e, e <= rowCount else { return UnsafeBufferPointer(start: gridEntries, count: 0) }
        return UnsafeBufferPointer(start: gridEntries + Self.gridEntryWords * s, count: Self.gridEntryWords * (e - s))
    }

    /// How many rows cell `cell` holds.
    @inline(__always)
    func gridRowCount(ofCell cell: Int) -> Int {
        let s = Int(gridStarts[cell]), e = Int(gridStarts[cell + 1])
        return s <= e && e <= rowCount ? e - s : 0
    }

    /// The signature bits of a word, or of a query piece: one for each of its first one to
    /// `signedPrefix` bytes. A row's signature is the union of its words'; a row holding a
    /// word that starts with a piece holds every bit of the piece's.
    static func signature<C: Collection<UInt8>>(ofWord word: C) -> UInt64 {
        var bits: UInt64 = 0
        var hash: UInt32 = 2_166_136_261
        for byte in word.prefix(signedPrefix) {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
            bits |= 1 << UInt64((hash &* 0x9E37_79B1) >> 26)
        }
        return bits
    }

    // MARK: Regions

    private func regionEntry(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let s = Int(regionStarts[i]), e = Int(regionStarts[i + 1])
        guard s < e, e <= regionByteCount else { return UnsafeBufferPointer(start: regionBytes, count: 0) }
        return UnsafeBufferPointer(start: regionBytes + s, count: e - s - 1)
    }

    /// The name stored for `key` (`FR` or `US.TX`), or empty.
    func regionName(_ key: [UInt8]) -> UnsafeBufferPointer<UInt8> {
        var low = 0, high = regionCount
        var probe = key
        probe.append(0x09)
        while low < high {
            let mid = (low + high) / 2
            if Self.less(regionEntry(mid), probe) { low = mid + 1 } else { high = mid }
        }
        if low < regionCount {
            let entry = regionEntry(low)
            if entry.count > probe.count && Array(entry[0..<probe.count]) == probe {
                return UnsafeBufferPointer(rebasing: entry[probe.count...])
            }
        }
        return UnsafeBufferPointer(start: nil, count: 0)
    }
}

extension PlacesIndex: RegionNames {
    package func countryName(code: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard !code.isEmpty else { return UnsafeBufferPointer(start: nil, count: 0) }
        return regionName(Array(code))
    }

    package func admin1Name(country: UnsafeBufferPointer<UInt8>, code: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard !country.isEmpty, !code.isEmpty else { return UnsafeBufferPointer(start: nil, count: 0) }
        return regionName(Array(country) + [0x2E] + Array(code))
    }
}
