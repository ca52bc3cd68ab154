/// The postings of the query's pieces, united: every row that holds a word each piece
/// starts, in row order (so importance order), with what the postings tell of it
/// (`Candidate`). The candidate source every search can fall back on.
///
/// A piece's candidates are the rows of every word it prefixes (one binary search for
/// the range of words), and, when the query has several pieces, the rows of every area
/// (country, region) those words qualify: a piece in a place's qualifiers only never
/// carries a match alone (`paris tx`: `tx` holds Paris, Texas through Texas).
///
/// The union is made one of two ways. Bitmaps of every row cost their pages whatever
/// the query (7 MB at 12 M rows); so when the query's rarest piece
/// has few postings, its rows are sorted into a list instead and the other pieces'
/// postings are looked up in a hash table of them (`paris` at 12 M rows: a third of the
/// time). An estimate of both costs chooses; the answers are the same (tests
/// force each way).
struct PostingsUnion: CandidateSource {
    let search: PlaceSearch
    let index: PlacesIndex
    /// Each piece's range of words and exact word.
    let words: [(range: Range<Int>, exact: Int?)]
    /// The rows the query may spell a name of whole, ascending (`wholeRows`).
    let whole: [UInt32]
    /// Each piece's areas, whose rows hold it in their qualifiers (none for one piece).
    let areas: [[Int]]

    init(search: PlaceSearch, index: PlacesIndex) {
        self.search = search
        self.index = index
        words = search.pieces.map { index.words(withPrefix: $0) }
        whole = Self.wholeRows(words, pieces: search.pieces, index: index)
        areas = search.pieces.count > 1 ? words.map { index.areas(ofWords: $0.range) } : words.map { _ in [] }
    }

    /// A row's flags in the union (bits of one `UInt8`).
    private static let holdsAll: UInt8 = 1, ownAny: UInt8 = 2, nameAll: UInt8 = 4, nameAny: UInt8 = 8, exactBit: UInt8 = 16,
        startsAny: UInt8 = 32

    mutating func feed(_ collector: inout IndexCollector) throws(GazetteerError) -> Bool {
        let totals = words.indices.map { index.postingTotal(words[$0].range) + index.rowTotal(inAreas: areas[$0]) }
        let fewest = totals.min() ?? 0
        let listCost = fewest * (Int.bitWidth - fewest.leadingZeroBitCount) + 16 * (totals.reduce(0, +) - fewest)
        /// Offers one row; false when the walk stops.
        func offer(_ r: Int, _ flags: UInt8) throws(GazetteerError) -> Bool {
            if r <= collector.consideredThrough { return true }
            // A row no piece names (every piece in qualifiers only) cannot match.
            guard flags & Self.nameAny != 0 else { return true }
            // Once names begun are out of reach, only rows that may be whole are left.
            if !collector.prefixesMayEnter && flags & Self.exactBit == 0 { return true }
            // (For one piece in the row's own name, whether it begins it, exactly.)
            let starts = search.pieces.count > 1 || flags & Self.startsAny != 0 || flags & Self.ownAny == 0
            let candidate = RowCandidate(
                row: r, mayBeOwn: flags & Self.ownAny != 0, mayBeWhole: flags & Self.exactBit != 0,
                mayCoverAll: flags & Self.nameAll != 0, mayStart: starts)
            return try collector.consider(candidate)
        }
        guard search.unitesInBitmaps ?? (listCost >= index.rowCount / 4) else {
            for (row, flags) in sparseUnion(totals: totals) {
                if try !offer(Int(row), flags) { break }
            }
            return true
        }
        // A search with a floor (a query's later spelling) or a list filled by another
        // source unites only the rows that may still enter: `st l` after `saint l` and
        // `sankt l` at 12 M rows, a hundredth of them.
        let maps = unitedBitmaps(rows: collector.rowLimit())
        for i in maps.holds.indices {
            var bits = maps.holds[i]
            while bits != 0 {
                let b = bits.trailingZeroBitCount
                bits &= bits - 1
                let bit: UInt64 = 1 << UInt64(b)
                var flags = Self.holdsAll
                if maps.ownAny[i] & bit != 0 { flags |= Self.ownAny }
                if maps.nameAll[i] & bit != 0 { flags |= Self.nameAll }
                if maps.nameAny[i] & bit != 0 { flags |= Self.nameAny }
                if maps.exact[i] & bit != 0 { flags |= Self.exactBit }
                if maps.startsAny[i] & bit != 0 { flags |= Self.startsAny }
                if try !offer(i << 6 | b, flags) { return true }
            }
        }
        return true
    }

    /// Bitmaps of the first `rows` rows: those that hold every piece, and of those,
    /// whether some piece is in their own name, every piece in a name, some piece in a
    /// name, and whether the query may spell a name of theirs whole.
    private func unitedBitmaps(rows: Int) -> (
        holds: [UInt64], ownAny: [UInt64], nameAll: [UInt64], nameAny: [UInt64], exact: [UInt64], startsAny: [UInt64]
    ) {
        let rowMask = ~PlacesIndex.postingFlags
        let rowCount = UInt32(rows)
        let wordsPerRow = (Int(rowCount) + 63) / 64
        var holds = [UInt64](repeating: 0, count: wordsPerRow)
        var ownAny = [UInt64](repeating: 0, count: wordsPerRow)
        var nameAll = [UInt64](repeating: 0, count: wordsPerRow)
        var nameAny = [UInt64](repeating: 0, count: wordsPerRow)
        var startsAny = [UInt64](repeating: 0, count: wordsPerRow)
        var pieceHolds = [UInt64](repeating: 0, count: wordsPerRow)
        var pieceName = [UInt64](repeating: 0, count: wordsPerRow)
        for (piece, (range, _)) in words.enumerated() {
            for i in 0..<wordsPerRow {
                pieceHolds[i] = 0
                pieceName[i] = 0
            }
            for w in range {
                for posting in index.postings(ofWord: w) {
                    let row = posting & rowMask
                    // Postings ascend: the rest are past the end.
                    guard row < rowCount else { break }
                    let (i, bit) = (Int(row) >> 6, UInt64(1) << UInt64(row & 63))
                    if piece > 0 && holds[i] & bit == 0 { continue }
                    pieceHolds[i] |= bit
                    pieceName[i] |= bit
                    if posting & PlacesIndex.notOwnName == 0 { ownAny[i] |= bit }
                    if posting & PlacesIndex.startsOwnName != 0 { startsAny[i] |= bit }
                }
            }
            for area in areas[piece] {
                for row in index.rows(inArea: area) {
                    guard row < rowCount else { break }
                    let (i, bit) = (Int(row) >> 6, UInt64(1) << UInt64(row & 63))
                    if piece > 0 && holds[i] & bit == 0 { continue }
                    pieceHolds[i] |= bit
                }
            }
            for i in 0..<wordsPerRow {
                holds[i] = pieceHolds[i]
                nameAll[i] = piece == 0 ? pieceName[i] : nameAll[i] & pieceName[i]
                nameAny[i] |= pieceName[i]
            }
        }
        var exact = [UInt64](repeating: 0, count: wordsPerRow)
        for row in whole where row < rowCount { exact[Int(row) >> 6] |= 1 << UInt64(row & 63) }
        return (holds, ownAny, nameAll, nameAny, exact, startsAny)
    }

    /// The rows of the union, ascending, each with its flags: the piece of fewest
    /// postings gives the rows, sorted; the others' postings are looked up in a hash
    /// table of them.
    private func sparseUnion(totals: [Int]) -> [(UInt32, UInt8)] {
        guard let first = totals.indices.min(by: { totals[$0] < totals[$1] }) else { return [] }
        let rowMask = ~PlacesIndex.postingFlags
        let rowCount = UInt32(index.rowCount)
        // The first piece's rows, each with its posting's flags (merged over its words).
        var keyed: [UInt64] = []
        keyed.reserveCapacity(totals[first])
        for w in words[first].range {
            for posting in index.postings(ofWord: w) where posting & rowMask < rowCount {
                keyed.append(UInt64(posting & rowMask) << 8 | UInt64(Self.pieceFlags(posting)))
            }
        }
        for area in areas[first] {
            for row in index.rows(inArea: area) where row < rowCount { keyed.append(UInt64(row) << 8) }
        }
        keyed.sort()
        var rows: [UInt32] = []
        var flags: [UInt8] = []
        for key in keyed {
            let row = UInt32(key >> 8)
            let f = UInt8(key & 0xFF)
            if rows.last == row {
                flags[flags.count - 1] |= f
            } else {
                rows.append(row)
                flags.append(f)
            }
        }
        // nameAll starts as the first piece's name bit.
        for i in flags.indices where flags[i] & Self.nameAny != 0 { flags[i] |= Self.nameAll }
        var alive = [Bool](repeating: true, count: rows.count)
        // Open addressing: slot → row + 1 (0: empty), at most half full.
        let bits = max(4, Int.bitWidth - rows.count.leadingZeroBitCount + 1)
        let slotMask = (1 << bits) - 1
        var slots = [UInt32](repeating: 0, count: 1 << bits)
        var slotRows = [Int32](repeating: 0, count: 1 << bits)
        func slot(_ row: UInt32) -> Int { Int(truncatingIfNeeded: (UInt64(row) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits)) }
        for (i, row) in rows.enumerated() {
            var h = slot(row)
            while slots[h] != 0 { h = (h + 1) & slotMask }
            slots[h] = row + 1
            slotRows[h] = Int32(i)
        }
        func position(_ row: UInt32) -> Int? {
            var h = slot(row)
            while slots[h] != 0 {
                if slots[h] == row + 1 { return Int(slotRows[h]) }
                h = (h + 1) & slotMask
            }
            return nil
        }
        for (piece, (range, _)) in words.enumerated() where piece != first {
            var pieceFlags = [UInt8](repeating: 0, count: rows.count)
            var holds = [Bool](repeating: false, count: rows.count)
            for w in range {
                for posting in index.postings(ofWord: w) {
                    guard let i = position(posting & rowMask) else { continue }
                    holds[i] = true
                    pieceFlags[i] |= Self.pieceFlags(posting)
                }
            }
            for area in areas[piece] {
                for row in index.rows(inArea: area) {
                    if let i = position(row) { holds[i] = true }
                }
            }
            for i in rows.indices {
                alive[i] = alive[i] && holds[i]
                flags[i] |= pieceFlags[i] & (Self.ownAny | Self.nameAny | Self.startsAny)
                if pieceFlags[i] & Self.nameAny == 0 { flags[i] &= ~Self.nameAll }
            }
        }
        for row in whole {
            if let i = position(row) { flags[i] |= Self.exactBit }
        }
        return rows.indices.filter { alive[$0] }.map { (rows[$0], flags[$0] | Self.holdsAll) }
    }

    /// What one posting tells: a name of the row holds the word (`nameAny`: every
    /// posting), its own name does (`ownAny`), or begins with it (`startsAny`).
    private static func pieceFlags(_ posting: UInt32) -> UInt8 {
        nameAny | (posting & PlacesIndex.notOwnName == 0 ? ownAny : 0) | (posting & PlacesIndex.startsOwnName != 0 ? startsAny : 0)
    }

    /// The rows the query may spell a name of whole, ascending, from its pieces' exact
    /// words (see `PlacesIndex.spellsAName` and `inShortName`): one query word, its
    /// postings with `spellsAName`; two different ones, those of either with it and the
    /// rows that hold both with `inShortName` (a name of the two); more, every row of an
    /// exact word. A row the query spells whole is among them (`PlaceMatch.whole`).
    static func wholeRows(_ words: [(range: Range<Int>, exact: Int?)], pieces: [[UInt8]], index: PlacesIndex) -> [UInt32] {
        let rowMask = ~PlacesIndex.postingFlags
        let rowCount = UInt32(index.rowCount)
        func rows(_ word: Int?, _ flag: UInt32) -> [UInt32] {
            guard let word else { return [] }
            var rows: [UInt32] = []
            for posting in index.postings(ofWord: word) where posting & flag == flag && posting & rowMask < rowCount {
                rows.append(posting & rowMask)
            }
            return rows
        }
        /// The ascending rows in `a` or (`both`: and) `b`.
        func merge(_ a: [UInt32], _ b: [UInt32], both: Bool) -> [UInt32] {
            var out: [UInt32] = []
            var i = 0, j = 0
            while i < a.count || j < b.count {
                if j == b.count || (i < a.count && a[i] < b[j]) {
                    if !both { out.append(a[i]) }
                    i += 1
                } else if i == a.count || b[j] < a[i] {
                    if !both { out.append(b[j]) }
                    j += 1
                } else {
                    out.append(a[i])
                    i += 1
                    j += 1
                }
            }
            return out
        }
        guard let first = words.first else { return [] }
        let distinct = Set(pieces).count
        if distinct == 1 { return rows(first.exact, PlacesIndex.spellsAName) }
        if words.count == 2 && distinct == 2 {
            let (a, b) = (words[0].exact, words[1].exact)
            let spelled = merge(rows(a, PlacesIndex.spellsAName), rows(b, PlacesIndex.spellsAName), both: false)
            return merge(spelled, merge(rows(a, PlacesIndex.inShortName), rows(b, PlacesIndex.inShortName), both: true), both: false)
        }
        return words.reduce([]) { merge($0, rows($1.exact, 0), both: false) }
    }

    /// Whether the ascending `rows` hold `row`.
    /// A bitmap of the rows holding a word of the range `words`.
    static func rowBitmap(_ words: Range<Int>, index: PlacesIndex) -> [UInt64] {
        let rowMask = ~PlacesIndex.postingFlags
        let rowCount = UInt32(index.rowCount)
        var bits = [UInt64](repeating: 0, count: (Int(rowCount) + 63) / 64)
        for w in words {
            for posting in index.postings(ofWord: w) {
                let row = posting & rowMask
                guard row < rowCount else { break }
                bits[Int(row) >> 6] |= 1 << UInt64(row & 63)
            }
        }
        return bits
    }

    static func contains(_ rows: [UInt32], _ row: UInt32) -> Bool {
        var low = 0, high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid] < row { low = mid + 1 } else { high = mid }
        }
        return low < rows.count && rows[low] == row
    }
}
