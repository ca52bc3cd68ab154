/// Keeps an index (`PlacesIndex`) of every `--places` file in the user's cache, so that
/// only the first search of a file reads all of it.
///
///     ${XDG_CACHE_HOME:-$HOME/.cache}/wayfind/places-<device and inode, hashed>.index
///
/// The first use builds the index (one pass over the file, minutes for 12 million rows;
/// a note on stderr says so, with a percentage on a terminal), writes it atomically (a
/// temporary file renamed over the name, so two first runs at once leave one whole index,
/// never a mixed one) and maps it. Later uses map it and check that it is still the
/// file's: the header holds the file's device, inode, size, modification time and a
/// sample fingerprint (`sampleFingerprint`, a few blocks hashed); any difference builds
/// it again, under the same name, so the cache holds one index per file. A cache file
/// that is cut short, damaged in its header or of another version fails
/// `PlacesIndex.init` and is rebuilt too.
///
/// The index stores the file's full fingerprint, the one magicKeys carry, and byte
/// offsets and line numbers as the scan reports them, so keys made through the index or
/// by scanning are the same and stay valid as long as the file is unchanged.
///
/// Writing an index prunes the folder (`prune`): indexes of files that are gone, were
/// replaced or changed, and what killed saves left, are removed, so the folder holds
/// one index per file in use. `wayfind --list-cache` shows it, `--clear-cache` empties it.
///
/// Small files (`minimumIndexedSize`) and standard input are scanned, as is any file when
/// there is no cache directory (neither `XDG_CACHE_HOME` nor `HOME`). When the cache
/// cannot be written (a read-only home), the file is scanned with a one-line note.
package enum PlacesIndexCache {
    /// Files smaller than this are scanned: reading 4 MiB costs a few milliseconds, as an
    /// index does, and a cache file per small file would only fill the cache.
    package static let minimumIndexedSize = 4 << 20
    /// The bytes `sampleFingerprint` hashes at the start and at the end of the file, and
    /// in each of `sampleBlocks` blocks between: an edit that keeps the size and the
    /// modification time (rare: `touch -r`) is caught when it falls in a sample.
    static let sampleEdge = 1 << 16
    static let sampleBlock = 1 << 12
    static let sampleBlocks = 62

    /// A gazetteer file with its index, both mapped (alive as long as this is).
    package final class IndexedFile {
        package let file: FileMapping
        let indexFile: FileMapping
        package let index: PlacesIndex
        /// Where the index is.
        package let cachePath: String

        init?(file: FileMapping, indexFile: FileMapping, cachePath: String) {
            guard let index = PlacesIndex(indexFile.bytes.assumingMemoryBound(to: UInt8.self)) else { return nil }
            (self.file, self.indexFile, self.index, self.cachePath) = (file, indexFile, index, cachePath)
        }

        /// The file's bytes.
        package var tsv: UnsafeBufferPointer<UInt8> { file.bytes.assumingMemoryBound(to: UInt8.self) }
    }

    /// The file `path` with its index, built now if the cache has none for this version of
    /// the file; nil when it is to be scanned (standard input, small files, no cache, or a
    /// cache that cannot be written: then after a note on `access.notes`). Notes begin
    /// `access.tool:`. With `access.readOnly` (magickey-cgi, which writes nothing) only
    /// an index already kept is used: nil, silently, when there is none.
    /// Throws what the gazetteer's rows are wrong with (as a scan would).
    package static func open(
        _ path: String, access: GazetteerAccess, names: RegionNames?, minimumSize: Int = minimumIndexedSize
    ) throws(GazetteerError) -> IndexedFile? {
        // A GTFS stops.txt is scanned: its rows are CSV, read as TSV lines made from them,
        // and an index points at rows of the file itself.
        guard path != "-", let file = try? FileSystem.mapFile(at: path), file.bytes.count >= max(minimumSize, 1),
            !GTFSStops.isHeader(PlaceSearch.firstLine(file.bytes.assumingMemoryBound(to: UInt8.self))),
            let folder = access.cacheFolder
        else { return nil }
        let id = file.identity
        var source = PlacesIndex.SourceIdentity()
        source.device = id.device
        source.inode = id.inode
        source.modificationSeconds = id.seconds
        source.modificationNanoseconds = id.nanoseconds
        source.changeSeconds = id.changeSeconds
        source.changeNanoseconds = id.changeNanoseconds
        source.sample = sampleFingerprint(file.bytes.assumingMemoryBound(to: UInt8.self))
        var nameHash = GazetteerFingerprint()
        nameHash.update(Array("\(id.device):\(id.inode)".utf8))
        let cachePath = folder + "/places-" + GazetteerFingerprint.hex(nameHash.value) + ".index"
        func note(_ message: String) {
            let line = Array("\(access.tool): \(message)\n".utf8)
            line.withUnsafeBytes { try? access.notes.writeAll($0.baseAddress!, count: $0.count) }
        }
        // Only a folder of the user's own, which no one else can write to and which is
        // not a link: an index decides what a search finds, and a save writes where the
        // folder leads.
        do {
            // (Read-only, a missing folder is a folder without the index: found below.)
            if !access.readOnly { try FileSystem.createDirectories(folder) }
        } catch {
            note("cannot keep an index of \(MessageValue.plain(path)) (\(error.description)); searching the whole file")
            return nil
        }
        if let problem = Platform.privateFolderProblem(folder) {
            if access.readOnly { return nil }
            note("not using the cache folder \(MessageValue.plain(folder)): \(problem); searching the whole file")
            return nil
        }
        if let indexFile = try? FileSystem.mapFile(at: cachePath, followingLinks: false), indexFile.isPrivateToCurrentUser,
            let indexed = IndexedFile(file: file, indexFile: indexFile, cachePath: cachePath),
            indexed.index.source == source, indexed.index.tsvSize == id.size
        {
            return indexed
        }
        if access.readOnly { return nil }
        guard FileSystem.isWritableDirectory(folder) else {
            note("cannot keep an index of \(MessageValue.plain(path)) (\(MessageValue.plain(folder)) is not writable); searching the whole file")
            return nil
        }
        // A disk too full for the index would fail after the minutes a build takes, on
        // every run: a note and the scan instead.
        let needed = id.size / 4 * 3 + (1 << 20)
        if let free = Platform.freeBytes(at: folder), free < needed {
            note(
                "not enough free space in \(MessageValue.plain(folder)) to keep an index of \(MessageValue.plain(path)) (about \(needed / 1_000_000 + 1) MB); searching the whole file"
            )
            return nil
        }
        let megabytes = (id.size + 500_000) / 1_000_000
        note("indexing \(MessageValue.plain(path)) (\(megabytes) MB) for fast search; once, kept in \(MessageValue.plain(cachePath))")
        let terminal = access.notes.isTerminal
        func endProgress() {
            if terminal { try? access.notes.writeAll([0x0A], count: 1) }
        }
        var shown = -1
        let image: PlacesIndex.Image
        do {
            let descriptor = try FileDescriptor.openForReading(path)
            defer { descriptor.close() }
            let sourcePath = Platform.canonicalPath(path) ?? path
            image = try PlacesIndex.build(reading: descriptor, path: path, names: names, source: source, sourcePath: sourcePath) { done in
                guard terminal else { return }
                let percent = 100 * done / max(id.size, 1)
                if percent != shown {
                    shown = percent
                    let line = Array("\r\(access.tool): indexing: \(percent)%".utf8)
                    line.withUnsafeBytes { try? access.notes.writeAll($0.baseAddress!, count: $0.count) }
                }
            }
        } catch let error as GazetteerError {
            endProgress()
            if case .tooLargeToIndex = error {
                note("\(error.description); searching the whole file")
                return nil
            }
            throw error
        } catch {
            throw .cannotRead(path: path, reason: "\(error)".lowercasedFirst())
        }
        endProgress()
        guard !file.hasChanged else {
            note("\(MessageValue.plain(path)) changed while it was indexed; searching the whole file")
            return nil
        }
        do {
            try FileSystem.writeAtomically(pieces: image.pieces, to: cachePath, privately: true)
        } catch {
            note("cannot keep an index of \(MessageValue.plain(path)) (\(error.description)); searching the whole file")
            return nil
        }
        // The folder stays bounded: indexes of files that are gone or changed go.
        prune(folder, keeping: FileSystem.name(of: cachePath))
        guard let indexFile = try? FileSystem.mapFile(at: cachePath, followingLinks: false),
            let indexed = IndexedFile(file: file, indexFile: indexFile, cachePath: cachePath)
        else { return nil }
        return indexed
    }

    /// A fingerprint of the file's first and last `sampleEdge` bytes and `sampleBlocks`
    /// blocks spread between, with its size: cheap to take on every run (about 0.5 MB
    /// read), unlike the fingerprint of every byte.
    package static func sampleFingerprint(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var f = GazetteerFingerprint()
        let n = bytes.count
        f.update(Array("\(n)".utf8))
        func take(_ start: Int, _ count: Int) {
            let s = max(0, min(start, n)), e = max(s, min(start + count, n))
            f.update(UnsafeBufferPointer(rebasing: bytes[s..<e]))
        }
        take(0, sampleEdge)
        for i in 1...sampleBlocks { take(n / (sampleBlocks + 1) * i, sampleBlock) }
        take(n - sampleEdge, sampleEdge)
        return f.value
    }
}

/// What a search of a gazetteer file needs from the process that runs it: where `-`
/// reads from, where notes go (indexing, a cache not used) and the cache folder. A tool
/// makes it from its context (`ToolContext.gazetteerAccess`), an app from its own.
package struct GazetteerAccess: Sendable {
    /// What the path `-` reads.
    package var standardInput: FileDescriptor
    /// Where notes go, one line each, beginning `tool:`.
    package var notes: FileDescriptor
    /// The folder indexes are kept in; nil: none, files are scanned.
    package var cacheFolder: String?
    /// The name notes begin with.
    package var tool: String
    /// Whether the search writes nothing: an index already kept is used, none is built.
    package var readOnly = false

    /// Access with these parts.
    package init(
        standardInput: FileDescriptor = .standardInput, notes: FileDescriptor = .standardError, cacheFolder: String?,
        tool: String = "wayfind", readOnly: Bool = false
    ) {
        self.readOnly = readOnly
        self.standardInput = standardInput
        self.notes = notes
        self.cacheFolder = cacheFolder
        self.tool = tool
    }
}
