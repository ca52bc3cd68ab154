/// Searching a gazetteer through its index: the planner. It picks the candidate sources
/// for the query, in turn, until one says the answer is final; every row they offer goes
/// to the one collector (`IndexCollector`), which ranks it as the scan would.
///
///     near a location, one piece           GridWalk, nearest cells first
///     one piece of one to three bytes      PrefixListSource, its most important rows
///     anything (and what is left)          PostingsUnion, every row of the pieces
extension PlaceSearch {
    /// Searches the gazetteer `tsv` through its `index` (the embedded one, or a file's).
    /// `schema`: the TSV's columns, if known (else read from its first line).
    package func search(
        index: PlacesIndex, tsv: UnsafeBufferPointer<UInt8>, path: String = EmbeddedGazetteer.path, schema: GazetteerSchema? = nil
    ) throws(GazetteerError) -> SearchResult {
        var result = SearchResult(fingerprint: index.fingerprint)
        guard !isEmpty else { return result }
        result.collections = collections(among: index.categories)
        guard let schema = schema ?? GazetteerSchema.detect(firstLine: Self.firstLine(tsv))?.schema else { throw .unknownFormat(path: path) }
        var collector = IndexCollector(search: self, index: index, tsv: tsv, row: PlaceRow(schema: schema, path: path))
        if var grid = GridWalk(search: self, index: index), try grid.feed(&collector) {
            return try collector.finish(result)
        }
        if var list = PrefixListSource(search: self, index: index), try list.feed(&collector) {
            return try collector.finish(result)
        }
        var union = PostingsUnion(search: self, index: index)
        _ = try union.feed(&collector)
        return try collector.finish(result)
    }
}
