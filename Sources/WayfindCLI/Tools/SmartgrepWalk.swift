import WayfindCore

/// What smartgrep reads, in the order it prints: the FILEs named, and with -r the files
/// under directories, in name order.

/// One step of a smartgrep run: a file to search, or a message of the walk's.
enum SmartgrepItem {
    /// A file to open and search (`-` is standard input). `inTurn`: a FILE named that is
    /// not a regular file (standard input, a FIFO, a device), which may never end or wait
    /// for a writer: on several threads it is opened only once everything before it is
    /// done, as one thread would (after `-q`'s match, never). Any other is a regular file,
    /// as its directory entry or its `stat` said: it is read without a `stat` of its own.
    case file(String, inTurn: Bool = false)
    /// A line for standard error (without `smartgrep: `; not printed with -s);
    /// `isError` makes the exit status 2.
    case message(String, isError: Bool)
}

/// The files a smartgrep run searches, found as `-r`, `-R`, `-d`, `--include`,
/// `--exclude` and `--exclude-dir` say, in the order their output is printed.
///
/// Only regular files are searched under a directory, as grep's `-D skip` has it under
/// recursion: a device, FIFO or socket found there is never opened (reading a FIFO could
/// wait for ever). An entry's kind comes from its directory entry (`d_type`), so a file
/// costs no `stat` before it is opened.
struct SmartgrepWalk {
    let options: SmartgrepOptions
    /// The directories being walked, the innermost last.
    private var frames: [Frame] = []
    /// The next of `options.files` (-1: the working directory first, when it is implied).
    private var nextFile: Int

    /// A directory being walked: its entries, the next one, and the directories it is in
    /// (itself last), to notice a loop.
    private struct Frame {
        let path: String
        let entries: [DirectoryEntry]
        var next = 0
        let inside: [FileIdentity]
    }

    init(options: SmartgrepOptions) {
        self.options = options
        nextFile = options.implicitWorkingDirectory ? -1 : 0
    }

    /// Calls `visit` with each file to search and each message, in order, until it
    /// returns false.
    func run(_ visit: (SmartgrepItem) -> Bool) {
        var walk = self
        while let item = walk.next(), visit(item) {}
    }

    /// The next file to search or message, in order; nil at the end. It can be asked for
    /// one at a time, from any thread (one at a time): the threads of a `SmartgrepPool`
    /// take turns walking.
    mutating func next() -> SmartgrepItem? {
        while true {
            if let last = frames.indices.last {
                guard frames[last].next < frames[last].entries.count else {
                    frames.removeLast()
                    continue
                }
                let entry = frames[last].entries[frames[last].next]
                frames[last].next += 1
                if let item = visit(entry, in: frames[last].path, inside: frames[last].inside) { return item }
                continue
            }
            if nextFile < 0 {
                nextFile = 0
                if let message = enter("", ancestors: []) { return message }
                continue
            }
            guard nextFile < options.files.count else { return nil }
            let file = options.files[nextFile]
            nextFile += 1
            if file != "-" && isExcluded(file, explicit: true) { continue }
            let kind = file == "-" ? FileKind.other : Platform.kind(of: file)
            if kind == .directory && (options.recursion != nil || options.skipsDirectories) {
                if options.recursion != nil, let message = enter(file, ancestors: []) { return message }
                continue
            }
            return .file(file, inTurn: kind != .regular)
        }
    }

    /// What the entry `entry` of `directory` gives: a file to search, or a message of a
    /// directory entered; nil when it gives nothing now (skipped, or a directory entered).
    private mutating func visit(_ entry: DirectoryEntry, in directory: String, inside: [FileIdentity]) -> SmartgrepItem? {
        let path = directory.isEmpty ? entry.name : directory.hasSuffix("/") ? directory + entry.name : directory + "/" + entry.name
        var kind = entry.kind
        if kind == .symbolicLink {
            guard options.recursion == .followingLinks else { return nil }
            kind = Platform.kind(of: path)
        }
        switch kind {
        case .directory:
            if options.excludeDirectoryGlobs.contains(where: { Platform.matchesGlob($0, entry.name) }) { return nil }
            return enter(path, ancestors: inside)
        case .regular:
            return isExcluded(path, name: entry.name, explicit: false) ? nil : .file(path)
        default:
            return nil
        }
    }

    /// Whether `--exclude` (or, under a directory, `--include`) skips the file at `path`,
    /// whose base name is `name` when the walk knows it (splitting the path at each file
    /// was 15 % of a walk of /usr/share with --include).
    private func isExcluded(_ path: String, name: String? = nil, explicit: Bool) -> Bool {
        if options.excludeGlobs.isEmpty && (explicit || options.includeGlobs.isEmpty) { return false }
        let name = name ?? path.split(separator: "/").last.map(String.init) ?? path
        if options.excludeGlobs.contains(where: { Platform.matchesGlob($0, name) }) { return true }
        if !explicit && !options.includeGlobs.isEmpty && !options.includeGlobs.contains(where: { Platform.matchesGlob($0, name) }) {
            return true
        }
        return false
    }

    /// Lists `directory` (`""`: the working directory, named without `./`) to walk its
    /// entries next, in name order; a message instead when it cannot be.
    ///
    /// A directory reached again below itself (a symbolic link to an ancestor, under -R)
    /// gets grep's warning, once where the loop closes, and is not entered: the exit status
    /// stays as it is, as in grep. An unreadable directory gets one message and makes the
    /// status 2; the walk goes on.
    private mutating func enter(_ directory: String, ancestors: [FileIdentity]) -> SmartgrepItem? {
        let listing: (identity: FileIdentity, entries: [DirectoryEntry])
        do {
            listing = try Platform.directoryListing(directory.isEmpty ? "." : directory)
        } catch {
            return .message("\(directory): \(error.description)", isError: true)
        }
        if ancestors.contains(listing.identity) {
            return .message("\(directory): warning: recursive directory loop", isError: false)
        }
        frames.append(Frame(path: directory, entries: listing.entries, inside: ancestors + [listing.identity]))
        return nil
    }
}
