/// The index's location grid (`PlacesIndex`, near a location), walked for a query of one
/// piece near a location, nearest cells first.
///
/// With `--location`, a near place may beat a far one of more importance, so row order
/// stops little: `s` near Chicago at 12 M rows has 8 million postings. The grid keeps
/// each one-degree cell's rows with a signature of their words' first bytes
/// (`PlacesIndex.signature(ofWord:)`); the walk reads, cell by cell, the rows whose
/// signature holds the query's (and, when the query's rows are few, that are among
/// them), and stops when even the most important place of all, spelled whole, could not
/// enter from the next cell's distance. A cell's rows are in importance order, so it
/// leaves a cell at the first row that could not enter from there.
///
/// Past a budget of rows (a query the neighbourhood barely holds), or once distance
/// stops counting (`LocationBias.farDistance`: from there on importance alone orders),
/// it hands over to the other sources: the cells it read are skipped, and every other row
/// is known to be at least as far as the next cell, which the importance-ordered walks
/// bound by (`IndexCollector.minimumDistance`).
struct GridWalk: CandidateSource {
    let search: PlaceSearch
    let index: PlacesIndex

    /// How many of the grid's rows a walk reads at most before it hands over to the
    /// postings: an eighth of the rows (1.5 million at 12 M rows, about 4 ms of reading
    /// signatures), and all of a small gazetteer's.
    static func rowBudget(rows: Int) -> Int { max(1 << 16, rows / 8) }

    /// The piece's rows are marked when its postings are at most this share of the rows
    /// (1 in 16: a bitmap of 1.5 MB and 750,000 postings at 12 M rows).
    static let markedShare = 16

    /// The walk for `search`, when its query is one piece near a location, with more
    /// postings than the grid has cells (below that, uniting them costs less than
    /// ordering the cells: `PlacesIndex.gridMinimumPostings`). Whether the piece is still
    /// being typed does not matter: `st ` and `saint ` near Chicago, typed in full, have
    /// as many postings as `s` (and took 351 and 308 ms at 12 M rows through the postings).
    init?(search: PlaceSearch, index: PlacesIndex) {
        guard search.pieces.count == 1, let location = search.bias.location, abs(location.latitude) <= 90, location.longitude.isFinite
        else { return nil }
        let postings = index.postingTotal(index.words(withPrefix: search.pieces[0]).range)
        guard search.usesGrid ?? (postings > PlacesIndex.gridMinimumPostings) else { return nil }
        (self.search, self.index) = (search, index)
    }

    mutating func feed(_ collector: inout IndexCollector) throws(GazetteerError) -> Bool {
        guard index.rowCount > 0 else { return true }
        let words = [index.words(withPrefix: search.pieces[0])]
        let whole = PostingsUnion.wholeRows(words, pieces: search.pieces, index: index)
        let required = PlacesIndex.signature(ofWord: search.pieces[0])
        // When the piece's rows are few, they are marked, and a signature's false guess
        // costs no line read.
        let members =
            index.postingTotal(words[0].range) <= index.rowCount / Self.markedShare
            ? PostingsUnion.rowBitmap(words[0].range, index: index) : nil
        let mostImportant = collector.importance(ofRow: 0)
        let budget = search.gridRowLimit ?? Self.rowBudget(rows: index.rowCount)
        var walked = [Bool](repeating: false, count: PlacesIndex.gridCellCount)
        var read = 0
        /// Whether a row of `importance` could enter from `distance`, at best.
        func mayEnter(_ importance: Double, from distance: Double, order: Int) -> Bool {
            !collector.isBounded || collector.qualifies(collector.bestKey(ofRow: order, importance: importance, whole: true, from: distance))
        }
        for (cell, distance) in cellsByDistance() {
            if !mayEnter(mostImportant, from: distance, order: 0) { return true }
            // Past the budget, or where distance stops counting, rows are best taken in
            // importance order.
            if read > budget || distance >= LocationBias.farDistance {
                collector.walkedCells = walked
                collector.minimumDistance = distance
                return false
            }
            let entries = index.gridEntries(ofCell: cell)
            var e = 0
            defer { read += e / PlacesIndex.gridEntryWords }
            while e < entries.count {
                let signature = UInt64(entries[e + 1]) | UInt64(entries[e + 2]) << 32
                let r = Int(entries[e])
                e += PlacesIndex.gridEntryWords
                guard signature & required == required else { continue }
                if let members, members[r >> 6] & 1 << UInt64(r & 63) == 0 { continue }
                // A cell's rows come in row order, so in importance order: once the best
                // this one could be at the cell's distance cannot enter, no later one can.
                if collector.isBounded {
                    if !mayEnter(collector.importance(ofRow: r), from: distance, order: r) { break }
                }
                let candidate = RowCandidate(row: r, mayBeWhole: PostingsUnion.contains(whole, UInt32(r)), unverified: true)
                _ = try collector.consider(candidate, ordered: false)
            }
            walked[cell] = true
        }
        return true
    }

    /// The grid's cells that hold rows, nearest first, each with the least distance a
    /// point of it can be at.
    private func cellsByDistance() -> [(Int, Double)] {
        var cells: [(Int, Double)] = []
        for cell in 0..<PlacesIndex.gridCellCount where index.gridRowCount(ofCell: cell) > 0 {
            let (latitudes, longitudes) = PlacesIndex.gridBounds(ofCell: cell)
            cells.append((cell, search.bias.distanceLowerBound(latitudes: latitudes, longitudes: longitudes) ?? 0))
        }
        return cells.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
    }
}
