/// The index's prefix list of a one-piece query of one to three bytes (`PlacesIndex`,
/// short prefixes): the first rows of every word it starts, most important first, kept
/// ready. `s` prefixes a quarter of all words, 8 million postings at 12 M rows, whose
/// union alone costs more than a scan's budget; its list's first thousand rows usually
/// settle a top five.
struct PrefixListSource: CandidateSource {
    let search: PlaceSearch
    let index: PlacesIndex
    let list: UnsafeBufferPointer<UInt32>
    let isTruncated: Bool

    /// The source for `search`, when its query has a prefix list (one piece of one to
    /// three bytes that starts many words).
    init?(search: PlaceSearch, index: PlacesIndex) {
        guard search.pieces.count == 1, let (list, isTruncated) = index.prefixList(search.pieces[0]) else { return nil }
        (self.search, self.index, self.list, self.isTruncated) = (search, index, list, isTruncated)
    }

    /// Walks the list; final when the walk stopped or the list is whole. Past a cut list,
    /// when names begun are out of reach, only the rows the query spells whole are left:
    /// the exact word's, not the union of every word it starts. Otherwise the union goes
    /// on from the list's last row (`IndexCollector.consideredThrough`).
    mutating func feed(_ collector: inout IndexCollector) throws(GazetteerError) -> Bool {
        let rowMask = ~PlacesIndex.postingFlags
        let (_, exact) = index.words(withPrefix: search.pieces[0])
        let exactRows = exact.map { index.postings(ofWord: $0) } ?? UnsafeBufferPointer(start: nil, count: 0)
        var e = 0
        for entry in list {
            let r = Int(entry & rowMask)
            guard r < index.rowCount, r > collector.consideredThrough else { throw .damagedIndex(path: collector.row.path) }
            while e < exactRows.count && Int(exactRows[e] & rowMask) < r { e += 1 }
            let mayBeWhole = e < exactRows.count && Int(exactRows[e] & rowMask) == r && exactRows[e] & PlacesIndex.spellsAName != 0
            collector.consideredThrough = r
            let candidate = RowCandidate(
                row: r, mayBeOwn: entry & PlacesIndex.notOwnName == 0, mayBeWhole: mayBeWhole,
                mayStart: entry & PlacesIndex.startsOwnName != 0 || entry & PlacesIndex.notOwnName != 0)
            if try !collector.consider(candidate) { return true }
        }
        if !isTruncated { return true }
        guard !collector.prefixesMayEnter else { return false }
        for posting in exactRows[e...] where posting & PlacesIndex.spellsAName != 0 {
            let r = Int(posting & rowMask)
            guard r < index.rowCount else { throw .damagedIndex(path: collector.row.path) }
            if r <= collector.consideredThrough { continue }
            let candidate = RowCandidate(row: r, mayBeOwn: posting & PlacesIndex.notOwnName == 0, mayBeWhole: true)
            if try !collector.consider(candidate) { break }
        }
        return true
    }
}
