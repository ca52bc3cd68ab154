import WayfindCore

/// What smartgrep reads, in the order it prints: the FILEs named, and with -r the files
/// under directories, in name order.

/// One step of a smartgrep run: a file to search, or a message of the walk's.
enum SmartgrepItem {
    /// A file to open and search (`-` is standard input).
    case file(String)
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

    /// Calls `visit` with each file to search and each message, in order, until it
    /// returns false.
    func run(_ visit: (SmartgrepItem) -> Bool) {
        if options.implicitWorkingDirectory && !walk("", ancestors: [], visit) { return }
        for file in options.files {
            if file != "-" && isExcluded(file, explicit: true) { continue }
            if file != "-" && (options.recursion != nil || options.skipsDirectories) && Platform.isDirectory(file) {
                if options.recursion != nil && !walk(file, ancestors: [], visit) { return }
                continue
            }
            if !visit(.file(file)) { return }
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

    /// Visits the files under `directory` (`""`: the working directory, named without
    /// `./`), in name order, as -r or -R says; false when `visit` said stop.
    ///
    /// A directory reached again below itself (a symbolic link to an ancestor, under -R)
    /// gets grep's warning, once where the loop closes, and is not entered: the exit status
    /// stays as it is, as in grep. An unreadable directory gets one message and makes the
    /// status 2; the walk goes on.
    private func walk(_ directory: String, ancestors: [FileIdentity], _ visit: (SmartgrepItem) -> Bool) -> Bool {
        let listing: (identity: FileIdentity, entries: [DirectoryEntry])
        do {
            listing = try Platform.directoryListing(directory.isEmpty ? "." : directory)
        } catch {
            return visit(.message("\(directory): \(error.description)", isError: true))
        }
        if ancestors.contains(listing.identity) {
            return visit(.message("\(directory): warning: recursive directory loop", isError: false))
        }
        let inside = ancestors + [listing.identity]
        for entry in listing.entries {
            let path = directory.isEmpty ? entry.name : directory.hasSuffix("/") ? directory + entry.name : directory + "/" + entry.name
            var kind = entry.kind
            if kind == .symbolicLink {
                guard options.recursion == .followingLinks else { continue }
                kind = Platform.kind(of: path)
            }
            switch kind {
            case .directory:
                if options.excludeDirectoryGlobs.contains(where: { Platform.matchesGlob($0, entry.name) }) { continue }
                if !walk(path, ancestors: inside, visit) { return false }
            case .regular:
                if !isExcluded(path, name: entry.name, explicit: false) && !visit(.file(path)) { return false }
            default: continue
            }
        }
        return true
    }
}
