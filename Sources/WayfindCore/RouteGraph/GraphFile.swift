/// A route graph stored in a file, read and changed safely by many processes at once.
///
/// `update(_:)` is the only way to change the file: it takes an exclusive lock on the
/// sidecar `FILE.lock`, reads and parses the file, lets the caller change the graph,
/// and saves it only if it changed, atomically, keeping the previous version as
/// `FILE.bak` (see `FileSystem.writeAtomically`). Because the whole read-change-write
/// happens under the lock, concurrent visits from many shells are all counted.
///
/// `load()` takes no lock: saves replace the file by an atomic rename, so a reader
/// always sees one complete version, and suggestions work even in a directory the user
/// cannot write (no lock file needs creating).
///
/// A missing file is an empty graph. A file that cannot be parsed is never
/// overwritten: `update` fails before calling the body, with the position of the error
/// and how to recover.
///
/// When the path is a symbolic link (a graph kept in a dotfiles repository, say), the
/// link is followed once, at creation: the lock, the temporary file, the backup and the
/// rename all happen next to the real file, so the link stays a link.
public struct GraphFile: Sendable {
    /// The graph file's path.
    public let path: String

    /// A graph file at `path`; nothing is touched until it is loaded or updated.
    public init(path: String) {
        self.path = path
    }

    /// A graph file at `path`, or at what it points to when it is a symbolic link.
    public init(resolving path: String) throws(GraphFileError) {
        do {
            self.path = try FileSystem.resolvingSymbolicLinks(path)
        } catch {
            throw .fileSystem(error)
        }
    }

    /// The sidecar file that `update(_:)` locks.
    public var lockPath: String { path + ".lock" }
    /// The previous version of the file, kept by every save.
    public var backupPath: String { path + ".bak" }

    /// Reads the graph without locking; an empty graph if the file does not exist.
    public func load() throws(GraphFileError) -> RouteGraph {
        let mapped: FileBytes?
        do {
            mapped = try FileSystem.mapFile(at: path)
        } catch {
            throw .fileSystem(error)
        }
        guard let mapped else { return RouteGraph() }
        return try load(mapped)
    }

    /// The stamp (see `FileStamp`) of a graph file that the fast paths may read without
    /// checking it again: in the writer's exact shape (`RouteGraph.scannedSuggestions`),
    /// every byte valid, no name escaped, one record per place, and its `successors`
    /// block (if any) exactly the last place's edge lines. Set by a suggestion scan
    /// that checked all that, by a save of a whole graph whose names need no escapes
    /// (`json()` writes one record per place), and by a patched save (a patch is only
    /// made of a stamped file or of one it checked the same way, and keeps all that).
    static let checkedStamp = "user.wayfind.checked"

    /// The suggestions for `request` (see `RouteGraph.suggestions(for:filter:)`), read
    /// without locking; found by a scan of the file when its shape allows
    /// (`RouteGraph.scannedSuggestions`), else from a full load.
    ///
    /// A file stamped as checked with its current identity gets its edge lines skimmed
    /// instead of checked. A scan that checks a whole unstamped file stamps it (when the
    /// user may), so the next one can skim.
    public func suggestions(
        for request: SuggestionRequest, filter: ((String) -> Bool)? = nil
    ) throws(GraphFileError) -> [Suggestion] {
        let mapped: FileBytes?
        do {
            mapped = try FileSystem.mapFile(at: path, stamp: Self.checkedStamp, lazilyIfStamped: true)
        } catch {
            throw .fileSystem(error)
        }
        guard let mapped else { return RouteGraph().suggestions(for: request, filter: filter) }
        if mapped.isStamped {
            // From the last place, a stamped file's `successors` block and records (its
            // end) are all that is read; anything else reads the whole file.
            if request.from != nil || RouteGraph.successorsFromTail(mapped.bytes) == nil { mapped.populate() }
            if let skimmed = withExtendedLifetime(
                mapped,
                {
                    RouteGraph.scannedSuggestions(in: mapped.bytes, for: request, filter: filter, edgesChecked: true)
                })
            {
                return skimmed
            }
            mapped.populate()
        }
        var vouching = false
        let scanned = withExtendedLifetime(mapped) {
            RouteGraph.scannedSuggestions(in: mapped.bytes, for: request, filter: filter, vouching: &vouching)
        }
        if let scanned {
            if !mapped.isStamped && vouching {
                FileStamp.set(path: path, name: Self.checkedStamp, identity: mapped.identity)
            }
            return scanned
        }
        return try load(mapped).suggestions(for: request, filter: filter)
    }

    private func load(_ mapped: FileBytes) throws(GraphFileError) -> RouteGraph {
        do {
            return try withExtendedLifetime(mapped) { () throws(RouteGraphDecodingError) in
                try RouteGraph(json: mapped.bytes)
            }
        } catch {
            switch error {
            case .invalid(let jsonError):
                throw .corrupt(path: path, error: jsonError, hasBackup: FileSystem.isRegularFile(at: backupPath))
            case .unsupportedVersion(let found, let supported):
                throw .unsupportedVersion(path: path, found: found, supported: supported)
            }
        }
    }

    /// Locks the file, reads the graph, lets `body` change it, saves it if it changed
    /// (its `revision` moved),
    /// and unlocks; returns what `body` returns. Missing directories are created (0700).
    ///
    /// Throws `GraphFileError` for file problems (then `body` may not have run) and
    /// whatever `body` throws (then nothing is saved).
    @discardableResult
    public func update<Result>(_ body: (inout RouteGraph) throws -> Result) throws -> Result {
        try update(patching: { _, _ in nil }, body)
    }

    /// Like `update(_:)`, but first offers the file's bytes (and whether it carries the
    /// checked stamp with its current identity) to `patch`, which may describe
    /// the change as a `FilePatch` of them (with the result to return); when it does, the
    /// patched file is saved (same lock, same atomic save, same backup) and `body` never
    /// runs; when it returns nil, the graph is loaded and `body` changes it.
    @discardableResult
    public func update<Result>(
        patching patch: (UnsafeRawBufferPointer, Bool) -> (FilePatch, Result)?, _ body: (inout RouteGraph) throws -> Result
    ) throws -> Result {
        let lock: FileLock
        do {
            try FileSystem.createDirectories(FileSystem.directory(of: path))
            lock = try FileLock(exclusiveAt: lockPath)
        } catch {
            throw GraphFileError.fileSystem(error)
        }
        let mapped: FileBytes?
        do {
            mapped = try FileSystem.mapFile(at: path, stamp: Self.checkedStamp)
        } catch {
            throw GraphFileError.fileSystem(error)
        }
        if let mapped, let (fix, result) = withExtendedLifetime(mapped, { patch(mapped.bytes, mapped.isStamped) }) {
            // The new pieces go into one buffer, so every piece is a pointer that stays
            // valid through the save.
            let old = mapped.bytes
            var added = 0
            for case .new(let bytes) in fix.pieces { added += bytes.count }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(added, 1), alignment: 1)
            defer { buffer.deallocate() }
            var used = 0
            let pieces = fix.pieces.map { piece -> UnsafeRawBufferPointer in
                switch piece {
                case .old(let range):
                    return UnsafeRawBufferPointer(rebasing: old[range])
                case .new(let bytes):
                    let target = UnsafeMutableRawBufferPointer(rebasing: buffer[used..<used + bytes.count])
                    target.copyBytes(from: bytes)
                    used += bytes.count
                    return UnsafeRawBufferPointer(target)
                }
            }
            do {
                try withExtendedLifetime(mapped) { () throws(FileSystemError) in
                    try FileSystem.writeAtomically(pieces: pieces, to: path, backupPath: backupPath, stamp: Self.checkedStamp)
                }
            } catch {
                throw GraphFileError.fileSystem(error)
            }
            lock.release()
            return result
        }
        var graph = try mapped.map { mapped throws(GraphFileError) in try load(mapped) } ?? RouteGraph()
        let revision = graph.revision
        let result = try body(&graph)
        if graph.revision != revision {
            do {
                try FileSystem.writeAtomically(
                    graph.json(), to: path, backupPath: backupPath, stamp: Self.checkedStamp,
                    vouching: graph.namesAreWrittenPlain)
            } catch {
                throw GraphFileError.fileSystem(error)
            }
        }
        lock.release()
        return result
    }
}
