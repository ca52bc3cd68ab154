/// Streams a gazetteer's rows: reads blocks of lines, detects the format from the first
/// line, splits and checks every row, fingerprints every byte, and tells the caller which
/// rows can match a query.
///
/// Most rows cannot match: a `CandidateFinder` jumps between occurrences of the query's
/// rarest byte, a direct check at each hit rejects most of them, and only rows holding a
/// surviving hit are candidates, as in smartgrep's search loop. Every row is split and
/// checked (`PlaceRow.split`), so a broken row is reported with its line number wherever
/// it is, whatever the query; only candidate rows (all rows, with `splitEveryRow`) reach
/// the caller, and only they are matched.

package struct GazetteerScanner {
    /// The file name used in messages (`-` is shown as standard input).
    package let path: String
    /// The query whose candidates to flag, if any; without one every row is a candidate.
    let matcher: LineMatcher?
    /// The fingerprint of every byte read so far.
    package private(set) var fingerprint = GazetteerFingerprint()
    /// How many bytes have been read.
    package private(set) var bytesRead = 0
    /// The schema, once the first line has been read.
    package private(set) var schema: GazetteerSchema? = nil
    /// Whether non-candidate rows are split and passed to the caller too.
    package var splitEveryRow = false
    /// Whether `categories` is kept: the categories of every row, candidate or not (the
    /// collections a query may name, such as `stops`, which no row's text holds).
    package var collectsCategories = false
    /// The names of a GeoNames dump's country and region codes (`SearchText` puts them in
    /// the text a query matches, where the row has only the codes).
    package var names: RegionNames? = nil
    /// Per country and region: whether their qualifiers can hold a query word, so that a
    /// row is a candidate on its region alone (`são paulo` for every row of BR.27). A few
    /// thousand pairs for millions of rows.
    private var qualifierAnswers: [[UInt8]: Bool] = [:]
    private var wordMatchers: [LineMatcher]? = nil
    /// The distinct categories of the rows read so far, in the order first seen (with
    /// `collectsCategories`).
    package private(set) var categories: [String] = []
    /// The raw category values seen (a feature code such as `PPLA2`, packed with its
    /// length when it fits in 8 bytes; longer ones as bytes): most rows only look them up.
    private var seenCategoryCodes: Set<UInt64> = []
    private var seenCategoryValues: Set<[UInt8]> = []

    /// The longest row accepted, in bytes (1 MiB). A GeoNames row is at most about 10 KB
    /// (its alternate names are cut at 10,000 characters); without a limit one huge row,
    /// or input without newlines (`/dev/zero`), would be held and matched whole.
    package static let maximumRowLength = 1 << 20
    /// The longest row accepted by this scanner (settable for tests).
    package var rowLimit = GazetteerScanner.maximumRowLength

    /// A scanner for rows of `path`, flagging candidates for `matcher`.
    package init(path: String, matcher: LineMatcher?) {
        self.path = path
        self.matcher = matcher
    }

    /// Reads `descriptor` to its end, calling `body` for each candidate row (each row,
    /// with `splitEveryRow`) with whether it can match. `body` returns false to stop early (the fingerprint is then incomplete).
    /// A file that shrinks while it is read (rewritten in place, cut by another program)
    /// is reported as such, not as the broken row its cut leaves.
    package mutating func scan(
        _ descriptor: FileDescriptor,
        _ body: (PlaceRow, _ isCandidate: Bool) throws(GazetteerError) -> Bool
    ) throws(GazetteerError) {
        let size = descriptor.regularFileSize
        do {
            try scanAll(descriptor, body)
        } catch {
            switch error {
            case .cannotRead, .tooLargeToIndex, .damagedIndex, .staleIndex: throw error
            default:
                if let size, let now = descriptor.regularFileSize, now < size {
                    throw .cannotRead(path: path, reason: "changed while being read")
                }
                throw error
            }
        }
    }

    private mutating func scanAll(
        _ descriptor: FileDescriptor,
        _ body: (PlaceRow, _ isCandidate: Bool) throws(GazetteerError) -> Bool
    ) throws(GazetteerError) {
        let reader = RecordReader(descriptor, terminator: 0x0A, maximumRecordLength: rowLimit)
        var state = ScanState()
        // A GTFS stops.txt is read as the TSV it gives (see `GTFSStops`).
        var stops: GTFSStops? = nil
        var isFirstBlock = true
        while true {
            let block: UnsafeBufferPointer<UInt8>?
            do {
                block = try reader.nextBlock()
            } catch .recordTooLong(let limit) {
                throw .rowTooLong(path: path, limit: limit)
            } catch {
                throw .cannotRead(path: path, reason: error.description.lowercasedFirst())
            }
            guard let block else { break }
            fingerprint.update(block)
            bytesRead += block.count
            if isFirstBlock {
                isFirstBlock = false
                if GTFSStops.isHeader(PlaceSearch.firstLine(block)) { stops = GTFSStops(path: path, rowLimit: rowLimit) }
            }
            if stops != nil {
                let tsv = try stops!.transcode(block, isFinal: false)
                if try !tsv.withUnsafeBufferPointer({ (b) throws(GazetteerError) in try scanBlock(b, state: &state, body) }) { return }
                continue
            }
            if try !scanBlock(block, state: &state, body) { return }
        }
        if stops != nil {
            let tsv = try stops!.transcode(UnsafeBufferPointer(start: nil, count: 0), isFinal: true)
            if try !tsv.withUnsafeBufferPointer({ (b) throws(GazetteerError) in try scanBlock(b, state: &state, body) }) { return }
        }
        if state.row == nil { throw .unknownFormat(path: path) }
    }

    /// Scans bytes held in memory (the embedded gazetteer, tests).
    package mutating func scan(
        bytes: UnsafeBufferPointer<UInt8>,
        _ body: (PlaceRow, _ isCandidate: Bool) throws(GazetteerError) -> Bool
    ) throws(GazetteerError) {
        fingerprint.update(bytes)
        bytesRead += bytes.count
        var state = ScanState()
        _ = try scanBlock(bytes, state: &state, body)
        if state.row == nil { throw .unknownFormat(path: path) }
    }

    /// Where a scan is: lines and bytes consumed, the row splitter once known.
    struct ScanState {
        var line = 0
        var offset = 0
        var row: PlaceRow? = nil
    }

    private mutating func scanBlock(
        _ block: UnsafeBufferPointer<UInt8>, state: inout ScanState,
        _ body: (PlaceRow, Bool) throws(GazetteerError) -> Bool
    ) throws(GazetteerError) -> Bool {
        guard let start = block.baseAddress, block.count > 0 else { return true }
        let end = start + block.count
        var p = start
        if state.row == nil {
            let lineEnd = Platform.findByte(0x0A, in: p, count: end - p) ?? end
            guard let (schema, isHeader) = GazetteerSchema.detect(firstLine: UnsafeBufferPointer(start: p, count: lineEnd - p)) else {
                throw .unknownFormat(path: path)
            }
            self.schema = schema
            state.row = PlaceRow(schema: schema, path: path)
            if isHeader {
                state.line = 1
                state.offset = lineEnd - start + 1
                p = lineEnd + 1
            }
        }
        let row = state.row!
        let finder = matcher.flatMap { CandidateFinder(query: $0.query) }
        finder?.reset(start, count: block.count)
        let blockOffset = state.offset - (p - start)
        let anchor = finder?.anchorWord.map { matcher!.wordBuffers[$0] }
        let anchorOffset = finder?.anchorOffset ?? 0
        // The next hit that survived the direct check, at or after the current line.
        var hit: UnsafePointer<UInt8>? = p
        var hitIsFresh = false
        // The next ' and the next ’ or ‘ at or after the current line (`wordAcrossApostrophes`).
        var quote = finder == nil ? nil : Platform.findByte(0x27, in: p, count: end - p)
        var typographic = finder == nil ? nil : SearchText.nextTypographicApostrophe(from: p, to: end)
        while p < end {
            let lineEnd = Platform.findByte(0x0A, in: p, count: end - p) ?? end
            state.line += 1
            if lineEnd == p || (lineEnd - p == 1 && p.pointee == 0x0D) {
                p = lineEnd + 1
                continue
            }
            var isCandidate = true
            if finder != nil {
                if !hitIsFresh || (hit != nil && hit! < p) {
                    hit = finder!.nextHit(from: p, matcher: matcher!, anchor: anchor, anchorOffset: anchorOffset, start: start, end: end)
                    hitIsFresh = true
                }
                isCandidate = hit != nil && hit! < lineEnd
            }
            // Every row is split and checked (`PlaceRow.split`); only candidates reach `body`.
            try row.split(UnsafeBufferPointer(start: p, count: lineEnd - p), number: state.line, offset: blockOffset + (p - start))
            if !isCandidate && finder != nil { isCandidate = qualifiersMayHoldAWord(row) }
            if !isCandidate && finder != nil {
                // (Each kind's next one found once per block, not per line.)
                if let q = quote, q < p { quote = Platform.findByte(0x27, in: p, count: end - p) }
                if let t = typographic, t < p { typographic = SearchText.nextTypographicApostrophe(from: p, to: end) }
                if (typographic.map { $0 < lineEnd } ?? false) || (quote.map { $0 < lineEnd } ?? false) {
                    isCandidate = wordAcrossApostrophes(UnsafeBufferPointer(start: p, count: lineEnd - p))
                }
            }
            if collectsCategories { noteCategory(row) }
            if isCandidate || splitEveryRow {
                if try !body(row, isCandidate) { return false }
            }
            p = lineEnd + 1
        }
        state.offset = blockOffset + block.count
        return true
    }

    /// Whether the row's qualifiers (`SearchText.qualifiers`: its country's and region's
    /// names and codes, which a dump row holds only as codes and no row holds in all
    /// their forms) can hold a query word, also read without their apostrophes
    /// (`ohiggins` for O'Higgins, as `wordAcrossApostrophes`): one single-word matcher
    /// per query word over each of them, answered once per country and region.
    private mutating func qualifiersMayHoldAWord(_ row: PlaceRow) -> Bool {
        guard let matchers = singleWordMatchers() else { return true }
        let key = row.qualifierKey
        if let answer = qualifierAnswers[key] { return answer }
        let answer = SearchText.qualifiers(row, names: names).contains { field in
            field.withUnsafeBufferPointer { field in
                Self.holdsAWord(field, matchers)
                    || SearchText.withoutApostrophes(field).map { $0.withUnsafeBufferPointer { Self.holdsAWord($0, matchers) } } == true
            }
        }
        qualifierAnswers[key] = answer
        return answer
    }

    /// Whether a query word may match a word of `line` run on across an apostrophe
    /// (`SearchText.words(_:joined:)`: `maanshan` for Ma’anshan), which the finder, looking
    /// for the word's bytes in a row, cannot see: the line read without its apostrophes.
    /// Only for a line that holds one (the caller knows from the block).
    private mutating func wordAcrossApostrophes(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let matchers = singleWordMatchers(), let stripped = SearchText.withoutApostrophes(line) else { return false }
        return stripped.withUnsafeBufferPointer { Self.holdsAWord($0, matchers) }
    }

    /// One matcher per query word, alone (made on first use), or nil without a query.
    private mutating func singleWordMatchers() -> [LineMatcher]? {
        guard let matcher else { return nil }
        if wordMatchers == nil {
            wordMatchers = matcher.query.words.map { LineMatcher(MatchQuery(String(decoding: $0, as: UTF8.self), mode: .all)) }
        }
        return wordMatchers
    }

    /// Whether one of `matchers` matches `text`.
    private static func holdsAWord(_ text: UnsafeBufferPointer<UInt8>, _ matchers: [LineMatcher]) -> Bool {
        matchers.contains { $0.matches(text) }
    }

    /// Adds the category of `row` to `categories` when it is new.
    private mutating func noteCategory(_ row: PlaceRow) {
        let raw = row.schema.column(.category) != nil ? row.field(.category) : row.field(.featureCode)
        if raw.count < 8 {
            let packed = raw.reduce(UInt64(raw.count)) { $0 << 8 | UInt64($1) }
            guard seenCategoryCodes.insert(packed).inserted else { return }
        } else {
            guard seenCategoryValues.insert(Array(raw)).inserted else { return }
        }
        let category = row.category
        if !category.isEmpty && !categories.contains(category) { categories.append(category) }
    }
}

extension String {
    /// The string with its first letter lowered (`No such file` → `no such file`).
    package func lowercasedFirst() -> String {
        guard let first = first else { return self }
        return first.lowercased() + dropFirst()
    }
}
