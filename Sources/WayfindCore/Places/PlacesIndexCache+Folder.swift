/// The cache folder as a whole: what is in it (`wayfind --list-cache`), pruning what no
/// longer serves (after every index is written), and clearing it (`wayfind --clear-cache`).
///
/// Only files of wayfind's own names are ever touched: `places-*.index` (an index of a
/// `--places` file), `graph-*.contents` (what older versions kept of a route graph) and
/// what a killed save of either left (`….tmp.` and random characters). Anything else in
/// the folder, and anything that is not a regular file, is left alone.
extension PlacesIndexCache {
    /// One of wayfind's files in the cache folder.
    package struct Entry: Sendable, Equatable {
        /// The file's name in the folder.
        package var name: String
        /// Its size in bytes.
        package var size: Int
        /// What it is for, in a word or two.
        package var kind: String
        /// The file it was made from, when known.
        package var source: String?
        /// Whether it still serves: nil when it does, else why not (what pruning removes).
        package var stale: String?
    }

    /// Whether `name` is one of wayfind's cache files (or a leftover of a killed save of one).
    static func isOurs(_ name: String) -> Bool {
        guard name.hasPrefix("places-") || name.hasPrefix("graph-") else { return false }
        return name.hasSuffix(".index") || name.hasSuffix(".contents") || isLeftover(name)
    }

    /// Whether `name` is what a killed save left: `NAME.tmp.` and random characters.
    static func isLeftover(_ name: String) -> Bool {
        name.split(separator: ".", omittingEmptySubsequences: false).dropLast().dropFirst().contains("tmp")
    }

    /// wayfind's files in `folder`, by name.
    package static func entries(in folder: String) -> [Entry] {
        let names = ((try? Platform.directoryEntries(folder)) ?? []).filter { $0.kind == .regular && isOurs($0.name) }.map(\.name)
        return names.compactMap { name in
            let path = folder + "/" + name
            guard let status = FileStatus.of(path) else { return nil }
            var entry = Entry(name: name, size: status.size, kind: "", source: nil, stale: nil)
            if isLeftover(name) {
                (entry.kind, entry.stale) = ("unfinished save", "left by a save that did not finish")
            } else if name.hasSuffix(".contents") {
                (entry.kind, entry.stale) = ("route graph contents", "no longer used")
            } else {
                entry.kind = "places index"
                if let file = try? FileSystem.mapFile(at: path),
                    let index = PlacesIndex(file.bytes.assumingMemoryBound(to: UInt8.self))
                {
                    entry.source = index.sourcePath.isEmpty ? nil : index.sourcePath
                    entry.stale = staleness(of: index)
                } else {
                    entry.stale = "damaged, or of another version of wayfind"
                }
            }
            return entry
        }
    }

    /// Why `index` no longer serves its file, or nil when it does: the file is gone, is
    /// another file now, or changed (stat only; the sample of its bytes is checked on use).
    static func staleness(of index: PlacesIndex) -> String? {
        guard !index.sourcePath.isEmpty, let status = FileStatus.of(index.sourcePath) else { return "its file is gone" }
        let s = index.source
        guard status.device == s.device && status.inode == s.inode else { return "its file was replaced" }
        let expected: [Int64] = [
            Int64(bitPattern: s.device), Int64(bitPattern: s.inode), Int64(index.tsvSize), s.modificationSeconds,
            Int64(s.modificationNanoseconds), s.changeSeconds, Int64(s.changeNanoseconds),
        ]
        return status.stamp == expected ? nil : "its file changed"
    }

    /// Removes from `folder` every file of ours that no longer serves (see `entries`),
    /// except `keeping`: so the folder holds at most one index per file in use. Returns
    /// the names removed.
    @discardableResult
    package static func prune(_ folder: String, keeping: String? = nil) -> [String] {
        let stale = entries(in: folder).filter { $0.stale != nil && $0.name != keeping }
        return stale.compactMap { remove(folder + "/" + $0.name) ? $0.name : nil }
    }

    /// Removes every file of ours from `folder`. Returns the names removed.
    @discardableResult
    package static func clear(_ folder: String) -> [String] {
        entries(in: folder).compactMap { remove(folder + "/" + $0.name) ? $0.name : nil }
    }

    private static func remove(_ path: String) -> Bool {
        (try? Platform.removeFile(path)) != nil
    }
}
