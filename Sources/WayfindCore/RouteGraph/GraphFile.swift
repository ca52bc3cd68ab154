/// A route graph stored in a file, read and changed safely by many processes at once.
///
/// `update(_:)` is the only way to change the file: under an exclusive lock on the
/// sidecar `FILE.lock` it reads the file, lets the caller change the graph, and saves it
/// if it changed, atomically, keeping the previous version as `FILE.bak`
/// (`FileSystem.writeAtomically`), so concurrent visits from many shells are all counted.
/// `load()` and `suggestions(for:filter:)` take no lock: a save writes a new file and
/// renames it over the old one, and no file that was the graph is ever written again, so
/// a reader sees one complete version, even in a directory it cannot write. Only when
/// what it read is not a valid graph does a reader take the lock (shared), to tell a
/// damaged file from one that was replaced or rewritten meanwhile (see `read`).
///
/// A missing or empty (0-byte) file is an empty graph. A file that cannot be parsed is
/// never overwritten: `update` fails before calling the body, with the position of the
/// error and, for a file that looks like a graph (a JSON object), how to recover.
/// A symbolic link is followed once, at creation: the lock, the temporary file, the
/// backup and the rename all happen next to the real file, so the link stays a link.
/// A link another user planted in a shared directory is not followed, and no file is
/// created through a dangling link (`update` fails instead).
///
/// An app shares a file with the shell tools (`routegraph-visit --graph FILE`) through
/// this type: the same lock and the same atomic save, so no visit is lost when both
/// write at once, from any number of threads and processes.
///
///     let file = try GraphFile(resolving: path)
///     try file.record(VisitRequest(visits: [.init(place: "Airport", time: now)]))
///     let next = try file.suggestions(for: SuggestionRequest(now: now))
public struct GraphFile: Sendable {
    /// The graph file's path.
    public let path: String
    /// The path given, when it is a symbolic link to `path`.
    let link: String?
    /// How long `update` waits for another process's lock before it gives up, in seconds.
    public static let defaultLockTimeout: Int64 = 30
    /// Whether `update` makes the file's missing folders (mode 0700). The tools make
    /// only those of the default graphs: a folder missing from a path someone typed is
    /// more likely a typo than a wish (`GraphLocation.file`).
    package var makesMissingFolders = true

    /// A graph file at `path`; nothing is touched until it is loaded or updated. A save
    /// replaces a symbolic link at `path` by a file: `init(resolving:)` keeps it.
    public init(path: String) {
        self.path = path
        link = nil
    }

    /// A graph file at `path`, or at what it points to when it is a symbolic link.
    /// Anything but a regular file there (a FIFO, a device, `/dev/stdin` on a pipe) is
    /// refused at once, before it is opened. The tools open their `--graph` this way.
    public init(resolving path: String) throws(GraphFileError) {
        self.path = try Self.fileSystem { () throws(FileSystemError) in
            _ = try FileSystem.regularFileExists(at: path)
            return try FileSystem.resolvingSymbolicLinks(path)
        }
        link = self.path == path ? nil : path
    }

    /// The sidecar file that `update(_:)` locks.
    package var lockPath: String { path + ".lock" }
    /// The previous version of the file, kept by every save.
    package var backupPath: String { path + ".bak" }

    /// Reads the graph without locking; an empty graph if the file does not exist.
    ///
    /// A save never writes into a file that was the graph (it renames a new one over
    /// it), so a reader sees one whole version even while others save.
    public func load() throws(GraphFileError) -> RouteGraph {
        guard let (file, contents) = try read(locked: false) else { return RouteGraph() }
        let graph = RouteGraph(contents: contents, in: file.bytes)
        try checkUnchanged(file)
        return graph
    }

    /// The suggestions for `request` (see `RouteGraph.suggestions(for:filter:)`), read
    /// without locking: from a scan of the file when that can answer
    /// (`RouteGraph.scannedSuggestions`), else from a full load. `filter` keeps only the
    /// places it returns true for.
    public func suggestions(
        for request: SuggestionRequest, filter: ((String) -> Bool)? = nil
    ) throws(GraphFileError) -> [Suggestion] {
        try suggestions(for: request, matching: filter.map(RouteGraph.nameFilter))
    }

    /// `suggestions(for:filter:)` with a filter on the bytes of names.
    package func suggestions(for request: SuggestionRequest, matching filter: RouteGraph.NameFilter?) throws(GraphFileError)
        -> [Suggestion]
    {
        let stringFilter = filter.map(RouteGraph.stringFilter)
        // First only the edges leaving the from-place; should the scan need others, or
        // the from-place not be the one guessed, every edge.
        let edges = GraphFileContents.edges(for: request, filtered: filter != nil)
        guard let (file, contents) = try read(locked: false, edges: edges) else {
            return RouteGraph().suggestions(for: request, filter: stringFilter)
        }
        let suggestions = try withExtendedLifetime(file) { () throws(GraphFileError) -> [Suggestion] in
            if let suggestions = RouteGraph.scannedSuggestions(contents, in: file.bytes, for: request, filter: filter) {
                return suggestions
            }
            guard contents.keptOrigin != nil else {
                return RouteGraph(contents: contents, in: file.bytes).suggestions(for: request, filter: stringFilter)
            }
            // A file cut short since the first read is one that changed, not a damaged one.
            let reread = Result { () throws(GraphFileError) in try self.contents(of: file, edges: .every) }
            if case .failure = reread, file.wasCutShort || file.hasChanged { throw .fileSystem(.changedWhileRead(path: path)) }
            let whole = try reread.get()
            return RouteGraph.scannedSuggestions(whole, in: file.bytes, for: request, filter: filter)
                ?? RouteGraph(contents: whole, in: file.bytes).suggestions(for: request, filter: stringFilter)
        }
        try checkUnchanged(file)
        return suggestions
    }

    /// Fails with `missingFolder` when the file's folder does not exist.
    package func checkFolder() throws(GraphFileError) {
        let folder = FileSystem.directory(of: path)
        if !Platform.isDirectory(folder) { throw .missingFolder(path: path, folder: folder) }
    }

    /// Locks the file, reads the graph, lets `body` change it, saves it if it changed
    /// (its `revision` moved), and unlocks; returns what `body` returns. Missing
    /// directories are created (0700), unless `makesMissingFolders` is off.
    ///
    /// Throws `GraphFileError` for file problems (then `body` may not have run) and
    /// whatever `body` throws (then nothing is saved). Another process's lock is waited
    /// for at most `defaultLockTimeout` seconds. `body` runs under the lock: keep it short.
    ///
    ///     try file.update { graph in graph.visit("Home", at: now) }
    @discardableResult
    public func update<Result>(_ body: (inout RouteGraph) throws -> Result) throws -> Result {
        try update(patching: { _, _ in nil }, body)
    }

    /// Like `update(_:)`, but first offers the file's contents to `patch`, which may
    /// describe the change as changes to the file's bytes (and the result to return):
    /// then the changed file is saved (same lock, same atomic save, same backup) and
    /// `body` never runs. When it returns nil, or the file is missing or empty, the graph
    /// is loaded and `body` changes it. A lock held by another process is waited for at
    /// most `lockTimeout` seconds, and `waiting` is called once a second has passed.
    @discardableResult
    func update<Result>(
        lockTimeout: Int64 = defaultLockTimeout, waiting: () -> Void = {},
        patching patch: (GraphFileContents, UnsafeRawBufferPointer) -> ([FileChange], Result)?,
        _ body: (inout RouteGraph) throws -> Result
    ) throws -> Result {
        // What is there is checked before anything is created next to it: a regular file
        // or nothing (but not through a link), and a graph when no lock file says it is ours.
        let exists = try Self.fileSystem { () throws(FileSystemError) in try FileSystem.regularFileExists(at: path) }
        if !exists, let link { throw GraphFileError.fileSystem(.danglingLink(path: link, target: path)) }
        if exists, (try? FileSystem.regularFileExists(at: lockPath)) != true { _ = try load() }
        if !makesMissingFolders { try checkFolder() }
        let lock = try Self.fileSystem { () throws(FileSystemError) in
            if makesMissingFolders { try FileSystem.createDirectories(FileSystem.directory(of: path)) }
            return try FileLock(exclusiveAt: lockPath, timeout: lockTimeout, waiting: waiting)
        }
        var graph = RouteGraph()
        if let (file, contents) = try read(locked: true) {
            if let (changes, result) = patch(contents, file.bytes) {
                // The old bytes go from the mapping to the new file as they are.
                try withExtendedLifetime(file) { () throws(GraphFileError) in
                    let saved = FileChange.withPieces(of: file.bytes, with: changes[...]) { pieces in
                        Swift.Result { () throws(GraphFileError) in try save(pieces, readFrom: file) }
                    }
                    try saved.get()
                }
                lock.release()
                return result
            }
            graph = RouteGraph(contents: contents, in: file.bytes)
            try checkUnchanged(file)
        }
        let revision = graph.revision
        let result = try body(&graph)
        if graph.revision != revision {
            try graph.json().withUnsafeBytes { bytes in Swift.Result { () throws(GraphFileError) in try save([bytes]) } }.get()
        }
        lock.release()
        return result
    }

    /// Records `request` (`RouteGraph.record(_:)`) under the lock, as `update` does. One
    /// visit to a file in the writer's layout is saved as the few lines it changes
    /// (`RouteGraph.visitPatch`), anything else by loading and saving the whole graph:
    /// the same result either way. A lock held by another process is waited for at most
    /// `lockTimeout` seconds, and `waiting` is called once a second has passed.
    @discardableResult
    public func record(
        _ request: VisitRequest, lockTimeout: Int64 = defaultLockTimeout, waiting: () -> Void = {}
    ) throws(GraphFileError) -> VisitOutcome {
        do {
            return try update(lockTimeout: lockTimeout, waiting: waiting) { contents, bytes in
                RouteGraph.visitPatch(contents, in: bytes, request).map { ($0, VisitOutcome(recorded: 1, unknown: [])) }
            } _: { graph in
                graph.record(request)
            }
        } catch let error as GraphFileError {
            throw error
        } catch {
            preconditionFailure("recording visits throws only file errors: \(error)")
        }
    }

    /// Writes `pieces` as the new file (see `FileSystem.writeAtomically`), removing
    /// first what saves that died left; fails, writing nothing, when `file`, whose bytes
    /// the pieces may show, was cut short meanwhile.
    private func save(_ pieces: [UnsafeRawBufferPointer], readFrom file: FileMapping? = nil) throws(GraphFileError) {
        try Self.fileSystem { () throws(FileSystemError) in
            try FileSystem.writeAtomically(pieces: pieces, to: path, backupPath: backupPath, removingLeftovers: true) {
                () throws(FileSystemError) in
                if file?.wasCutShort == true { throw .changedWhileRead(path: path) }
            }
        }
    }

    /// How many times a reader opens the file again when the path came to name another
    /// file while it read (each time a save came in between).
    static let readAttempts = 4
    /// How long a reader waits for a save to finish before it judges a file it could not
    /// read, in seconds; after that it judges without the lock.
    static let readerLockTimeout: Int64 = 5

    /// The file and what it holds; nil when there is no file, or an empty one (an empty
    /// graph).
    ///
    /// What fails to read is judged before it is reported: `locked` (the caller holds the
    /// exclusive lock) or else under a shared lock (so that no save of ours runs), a path
    /// that names another file by now is read again; a file written or cut short since it
    /// was opened is `changedWhileRead`; only a file that is the same, unchanged, and
    /// still not a graph is reported as damaged, with the advice that goes with that.
    private func read(
        locked: Bool, edges: GraphFileContents.EdgeSelection = .every
    ) throws(GraphFileError) -> (FileMapping, GraphFileContents)? {
        // Held (when taken) until the judgement is made.
        var sharedLock: FileLock? = nil
        var judging = locked
        var attempt = 0
        while true {
            attempt += 1
            let mapped = try Self.fileSystem { () throws(FileSystemError) in try FileSystem.mapFile(at: path) }
            guard let file = mapped, !file.bytes.isEmpty else {
                // Empty is a graph; but an empty file cut short was not empty when opened.
                if let file = mapped, file.hasChanged { throw .fileSystem(.changedWhileRead(path: path)) }
                return nil
            }
            let parsed = Result { () throws(GraphFileError) -> GraphFileContents in
                try contents(of: file, edges: edges)
            }
            if case .success(let contents) = parsed, !file.wasCutShort { return (file, contents) }
            if !judging {
                judging = true
                sharedLock = FileLock(sharedAt: lockPath, timeout: Self.readerLockTimeout)
            }
            if !file.isStill(at: path) && attempt < Self.readAttempts { continue }
            if file.hasChanged { throw .fileSystem(.changedWhileRead(path: path)) }
            _ = try parsed.get()
            _ = consume sharedLock
            throw .fileSystem(.changedWhileRead(path: path))
        }
    }

    /// Fails when `file` was cut short since it was read: what was taken from it may hold
    /// zeros in place of the bytes lost.
    private func checkUnchanged(_ file: FileMapping) throws(GraphFileError) {
        if file.wasCutShort { throw .fileSystem(.changedWhileRead(path: path)) }
    }

    /// What `body` returns; its failure as a `GraphFileError`.
    private static func fileSystem<T: ~Copyable>(_ body: () throws(FileSystemError) -> T) throws(GraphFileError) -> T {
        do {
            return try body()
        } catch {
            throw .fileSystem(error)
        }
    }

    /// Reads `file` as a graph file; throws why it is not one.
    private func contents(of file: FileMapping, edges: GraphFileContents.EdgeSelection)
        throws(GraphFileError) -> GraphFileContents
    {
        let bytes = file.bytes
        let result = Result { () throws(RouteGraphDecodingError) -> GraphFileContents in
            try RouteGraph.contents(of: bytes, edges: edges)
        }
        switch result {
        case .success(let value):
            return value
        case .failure(.invalid(let error)):
            // A graph file is a JSON object: anything else is probably the wrong file,
            // and not one to move away or restore.
            guard bytes.first(where: { !TextFolding.isASCIIWhitespace($0) }) == UInt8(ascii: "{") else {
                throw .notAGraph(path: path, reason: "\(error)")
            }
            throw .corrupt(path: path, error: error, hasBackup: (try? FileSystem.regularFileExists(at: backupPath)) == true)
        case .failure(.notAGraph):
            throw .notAGraph(path: path, reason: "\(RouteGraphDecodingError.notAGraph)")
        case .failure(.unsupportedVersion(let found, let supported)):
            throw .unsupportedVersion(path: path, found: found, supported: supported)
        }
    }
}
