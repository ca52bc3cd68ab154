/// Fuzz target `gazetteer`: arbitrary `--places` files and queries.
///
/// An input is a query line and a gazetteer file:
///
///     paris<TAB>48.85,2.35          the query; after a tab, a --location (optional)
///     name<TAB>latitude<TAB>…       everything after the first newline: the --places file
///
/// For each input, magickey-suggest runs in process (as TSV, and when it finds something
/// as --json too), and then:
///
/// - it exits 0 with suggestions, 1 silently, or 2 with one short `tool: message` line
///   (and a usage hint for a bad --location) and nothing on stdout; a trap is a crash;
/// - every key it prints, magickey-find given the same file finds: a place key gives
///   exactly one place, with the label suggest showed; a collection key gives places;
/// - its TSV lines and its --json output piped into magickey-find give exit 0, no
///   message, and the same places.
///
/// - the file's index (`PlacesIndex`, as `PlacesIndexCache` builds it) finds the same
///   places, ranks, keys and collections as the scan (`PlaceSearch`), and the index cut
///   short is refused, never read.
///
/// The --places bytes also go to the CSV reader of GTFS stops.txt files (`checkCSV`):
/// whatever it reads, written back with quotes, reads back the same; and a stops.txt
/// gives the same TSV, or the same error, read whole or in blocks cut after any newline.
/// (A places file with a `stop_…` header runs through the tools as above, too.)
///
/// A broken invariant prints what differed and aborts, so libFuzzer keeps the input.

import Glibc
import WayfindPlacesData

/// Files the tools read and write, in one folder per fuzzing process.
private enum FuzzFiles {
    static let folder: String = {
        var template = Array("/tmp/wayfind-fuzz-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { fail("cannot make a temporary folder") }
        return String(cString: made)
    }()
    static let places = folder + "/places.tsv"
    static let input = folder + "/stdin"
    static let output = folder + "/stdout"
    static let errors = folder + "/stderr"

    static func write(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if fd < 0 { fail("cannot write \(path)") }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n <= 0 { fail("cannot write \(path)") }
            done += n
        }
        close(fd)
    }

    static func read(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        if fd < 0 { fail("cannot read \(path)") }
        defer { close(fd) }
        let size = Int(lseek(fd, 0, SEEK_END))
        lseek(fd, 0, SEEK_SET)
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while count < size {
                let n = Glibc.read(fd, buffer.baseAddress! + count, size - count)
                if n <= 0 { break }
                count += n
            }
        }
    }
}

/// What one in-process run of a tool gave.
private struct ToolRun: CustomStringConvertible {
    var status: Int32
    var stdout: [UInt8]
    var stderr: [UInt8]
    var out: String { String(decoding: stdout, as: UTF8.self) }
    /// The lines of stdout, split at newline bytes: as Characters, `\r\n` is one and
    /// would not split (an id may end in a carriage return).
    var lines: [ArraySlice<UInt8>] { Array(stdout.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()) }
    var description: String {
        "status \(status)\n--- stdout\n\(out)--- stderr\n\(String(decoding: stderr, as: UTF8.self))"
    }
}

private func run(_ tool: ([String], ToolContext) -> ExitStatus, _ arguments: [String], input: [UInt8] = []) -> ToolRun {
    FuzzFiles.write(input, to: FuzzFiles.input)
    let inputFD = open(FuzzFiles.input, O_RDONLY)
    let outputFD = open(FuzzFiles.output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let errorFD = open(FuzzFiles.errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    if inputFD < 0 || outputFD < 0 || errorFD < 0 { fail("cannot open the standard streams' files") }
    let context = ToolContext(
        standardInput: FileDescriptor(inputFD), standardOutput: FileDescriptor(outputFD), standardError: FileDescriptor(errorFD))
    let status = tool(arguments, context)
    close(inputFD)
    close(outputFD)
    close(errorFD)
    return ToolRun(status: status.rawValue, stdout: FuzzFiles.read(FuzzFiles.output), stderr: FuzzFiles.read(FuzzFiles.errors))
}

private func fail(_ message: String) -> Never {
    var text = "gazetteer fuzz: \(message)\n"
    text.withUTF8 { _ = Glibc.write(2, $0.baseAddress!, $0.count) }
    abort()
}

/// The longest line a message may be: a fixed text, a path and values cut by
/// `MessageValue` (80 characters and a length).
private let longestMessageLine = 600

/// Checks the shape every run has: 0 with output, 1 with none and no message, 2 with
/// short message lines and no output.
private func checkShape(_ r: ToolRun, tool: String, what: String) {
    let messages = r.stderr.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map {
        String(decoding: $0, as: UTF8.self)
    }
    // An answer may come with the notes of what looks wrong (`MagickeyOptions.whatLooksWrong`).
    let onlyNotes = messages.allSatisfy { $0.hasPrefix("\(tool): --location ") || $0.hasPrefix("\(tool): no place of ") }
    switch r.status {
    case 0:
        if r.stdout.isEmpty || !onlyNotes { fail("\(what): exit 0 needs output and no message but a note\n\(r)") }
    case 1:
        if !r.stdout.isEmpty || !onlyNotes { fail("\(what): exit 1 must be silent but for a note\n\(r)") }
    case 2:
        if !r.stdout.isEmpty { fail("\(what): exit 2 with output\n\(r)") }
        guard let first = messages.first, first.hasPrefix("\(tool): "), r.stderr.last == 0x0A else {
            fail("\(what): exit 2 without a '\(tool): ' message line\n\(r)")
        }
        for line in messages where line.utf8.count > longestMessageLine || (line != first && !line.hasPrefix("Try '")) {
            fail("\(what): a message line too long, or more than a message and a usage hint\n\(r)")
        }
    default:
        fail("\(what): exit status \(r.status)\n\(r)")
    }
}

private let installEmbeddedGazetteer: Void = {
    EmbeddedGazetteer.install(
        tsv: UnsafeBufferPointer(start: wayfind_places_tsv(), count: wayfind_places_tsv_count()),
        index: UnsafeBufferPointer(start: wayfind_places_index(), count: wayfind_places_index_count()))
}()

/// The CSV reader's invariants on `bytes` (see the top of the file).
private func checkCSV(_ bytes: [UInt8]) {
    if case .success(let records) = CSVReader.records(bytes) {
        var written: [UInt8] = []
        for (r, record) in records.enumerated() {
            if r > 0 { written += Array("\r\n".utf8) }
            for (f, field) in record.enumerated() {
                if f > 0 { written.append(0x2C) }
                written.append(0x22)
                for b in field { written += b == 0x22 ? [0x22, 0x22] : [b] }
                written.append(0x22)
            }
        }
        guard case .success(let again) = CSVReader.records(written), again == records else {
            fail("CSV written back with quotes reads differently: \(bytes) -> \(written)")
        }
    }
    guard bytes.withUnsafeBufferPointer({ GTFSStops.isHeader(PlaceSearch.firstLine($0)) }) else { return }
    func transcoded(cuts: [Int]) -> Result<[UInt8], GazetteerError> {
        var stops = GTFSStops(path: "stops.txt", rowLimit: 1 << 20)
        var output: [UInt8] = []
        var start = 0
        do {
            for end in cuts + [bytes.count] {
                output += try bytes[start..<end].withUnsafeBufferPointer { (b) throws(GazetteerError) in
                    try stops.transcode(b, isFinal: false)
                }
                start = end
            }
            output += try stops.transcode(UnsafeBufferPointer(start: nil, count: 0), isFinal: true)
        } catch {
            return .failure(error)
        }
        return .success(output)
    }
    let whole = transcoded(cuts: [])
    let newlines = bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }.filter { $0 < bytes.count }
    if transcoded(cuts: newlines) != whole { fail("a stops.txt read line by line differs from it read whole") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func gazetteerFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    _ = installEmbeddedGazetteer
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let firstLine = String(decoding: bytes[..<newline], as: UTF8.self)
    let placesBytes = Array(bytes[min(newline + 1, bytes.count)...])
    FuzzFiles.write(placesBytes, to: FuzzFiles.places)
    checkCSV(placesBytes)
    let parts = firstLine.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
    var options = ["--places", FuzzFiles.places, "-n", "15"]
    if parts.count == 2 { options += ["--location", String(parts[1])] }
    let query = ["--", String(parts[0])]

    let suggested = run(MagickeySuggest.run, options + query)
    checkShape(suggested, tool: "magickey-suggest", what: "suggest")
    // Most inputs are not gazetteers: --json is run (and compared) only for those that are.
    guard suggested.status == 0 else { return 0 }
    let suggestedJSON = run(MagickeySuggest.run, options + ["--json"] + query)
    checkShape(suggestedJSON, tool: "magickey-suggest", what: "suggest --json")
    if suggestedJSON.status != 0 { fail("suggest and suggest --json disagree\n\(suggested)\n\(suggestedJSON)") }

    checkIndexAgreesWithScan(query: String(parts[0]), location: parts.count == 2 ? String(parts[1]) : nil)

    let places = ["--places", FuzzFiles.places]
    for line in suggested.lines {
        let fields = line.split(separator: 0x09, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let line = String(decoding: line, as: UTF8.self)
        guard fields.count == 3, fields[2] == "true" || fields[2] == "false" else {
            fail("a suggestion is not text, key, isCollection: \(line)")
        }
        let found = run(MagickeyFind.run, places + [String(fields[1])])
        checkShape(found, tool: "magickey-find", what: "find \(fields[1])")
        if found.status != 0 { fail("suggest printed a key that find does not find: \(line)\n\(found)") }
        if fields[2] == "false" {
            // Bytes, not Strings: String equality would take é for e and a combining accent.
            let labels = found.lines.map { Array($0.split(separator: 0x09, omittingEmptySubsequences: false)[0]) }
            if labels != [Array(fields[0].utf8)] { fail("find gives another place than suggest named: \(line)\n\(found)") }
        }
    }
    let fromLines = run(MagickeyFind.run, places, input: suggested.stdout)
    checkShape(fromLines, tool: "magickey-find", what: "suggest | find")
    if fromLines.status != 0 { fail("find does not take suggest's output\n\(suggested)\n\(fromLines)") }
    let fromJSON = run(MagickeyFind.run, places, input: suggestedJSON.stdout)
    if fromJSON.status != 0 || fromJSON.stdout != fromLines.stdout {
        fail("suggest --json | find differs from suggest | find\n\(fromLines)\n\(fromJSON)")
    }
    return 0
}

/// The file's index, built in memory, finds what the scan finds (the cache only maps it).
private func checkIndexAgreesWithScan(query: String, location: String?) {
    var coordinate: Coordinate? = nil
    if let location {
        let numbers = location.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: " ")) }
        guard numbers.count == 2 else { return }
        coordinate = Coordinate(latitude: numbers[0], longitude: numbers[1])
    }
    let names = try? EmbeddedGazetteer.index()
    // A GTFS stops.txt is never indexed (PlacesIndexCache scans it).
    let isStops = FuzzFiles.read(FuzzFiles.places).withUnsafeBufferPointer {
        !$0.isEmpty && GTFSStops.isHeader(PlaceSearch.firstLine($0))
    }
    if isStops { return }
    func search() -> PlaceSearch {
        PlaceSearch(text: query, bias: LocationBias(location: coordinate, radius: nil), filters: PlaceFilters(), limit: 15)
    }
    guard let descriptor = try? FileDescriptor.openForReading(FuzzFiles.places) else { fail("cannot reopen the file") }
    defer { descriptor.close() }
    guard let scanned = try? search().search(scanning: descriptor, path: FuzzFiles.places, names: names) else { return }
    guard let again = try? FileDescriptor.openForReading(FuzzFiles.places) else { fail("cannot reopen the file") }
    defer { again.close() }
    let image: PlacesIndex.Image
    do {
        image = try PlacesIndex.build(reading: again, path: FuzzFiles.places, names: names, source: .init())
    } catch {
        fail("the scan read the file but the index builder refused it: \(error)")
    }
    let indexBytes = image.bytes()
    let tsv = FuzzFiles.read(FuzzFiles.places)
    let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: indexBytes.count + tsv.count)
    defer { storage.deallocate() }
    _ = storage.initialize(from: indexBytes + tsv)
    let indexPart = UnsafeBufferPointer(rebasing: storage[..<indexBytes.count])
    guard let index = PlacesIndex(indexPart) else { fail("an index just built is refused") }
    for cut in [0, indexBytes.count / 3, indexBytes.count - 4] where cut >= 0 {
        if PlacesIndex(UnsafeBufferPointer(rebasing: indexPart[..<cut])) != nil { fail("an index cut at \(cut) bytes is accepted") }
    }
    let viaIndex: SearchResult
    do {
        viaIndex = try search().search(index: index, tsv: UnsafeBufferPointer(rebasing: storage[indexBytes.count...]), path: FuzzFiles.places)
    } catch {
        fail("the index search failed where the scan did not: \(error)")
    }
    func describe(_ r: SearchResult) -> String {
        (r.places.map { "\($0.place.label) @\($0.place.offset):\($0.place.line) \($0.rank.tier) \($0.rank.ownName) \($0.matched ?? "-")" }
            + r.collections + [String(r.fingerprint)]).joined(separator: "\n")
    }
    if describe(viaIndex) != describe(scanned) {
        fail("index and scan disagree for \(query)\n--- index\n\(describe(viaIndex))\n--- scan\n\(describe(scanned))")
    }
    // Both ways of uniting posting lists, forced.
    for bitmaps in [true, false] {
        let forced = search()
        forced.unitesInBitmaps = bitmaps
        guard let found = try? forced.search(index: index, tsv: UnsafeBufferPointer(rebasing: storage[indexBytes.count...]), path: FuzzFiles.places)
        else { fail("the index search failed with bitmaps \(bitmaps)") }
        if describe(found) != describe(scanned) {
            fail("index (bitmaps \(bitmaps)) and scan disagree for \(query)\n--- index\n\(describe(found))\n--- scan\n\(describe(scanned))")
        }
    }
    // The grid walk forced, whole and handing over to the postings after a few rows.
    for rows in [nil, 2] as [Int?] {
        let forced = search()
        forced.usesGrid = true
        forced.gridRowLimit = rows
        guard let found = try? forced.search(index: index, tsv: UnsafeBufferPointer(rebasing: storage[indexBytes.count...]), path: FuzzFiles.places)
        else { fail("the index search failed with the grid (budget \(String(describing: rows)))") }
        if describe(found) != describe(scanned) {
            fail("index (grid, budget \(String(describing: rows))) and scan disagree for \(query)\n--- index\n\(describe(found))\n--- scan\n\(describe(scanned))")
        }
    }
}
