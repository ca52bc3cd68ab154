/// Directory listings and file kinds, for smartgrep's `-r`; whether a folder is private to
/// its user.

/// What a directory entry is.
package enum FileKind: Sendable, Equatable {
    case regular, directory, symbolicLink, other
}

/// One entry of a directory: its name and its kind (not following a symbolic link).
package struct DirectoryEntry: Sendable, Equatable {
    package var name: String
    package var kind: FileKind
}

/// A file's device and inode: the same directory reached twice (a symbolic link loop).
package struct FileIdentity: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
}

extension Platform {
    /// Whether `path` is a directory (following symbolic links).
    package static func isDirectory(_ path: String) -> Bool { kind(of: path) == .directory }

    /// The kind of the file at `path`, following symbolic links (`.other` when there is none).
    package static func kind(of path: String) -> FileKind { (try? systemStatus(path))?.kind ?? .other }

    /// The entries of the directory at `path` (without `.` and `..`), sorted by the bytes
    /// of their names, each with its kind as `lstat` sees it.
    package static func directoryEntries(_ path: String) throws(SystemError) -> [DirectoryEntry] { try directoryListing(path).entries }

    /// The directory at `path` (following a symbolic link): its identity and its entries
    /// (without `.` and `..`), sorted by the bytes of their names, each with its kind as
    /// `lstat` sees it.
    ///
    /// The kind comes from the directory entry itself (`d_type`) where the file system
    /// gives it, and the identity from the open directory: smartgrep -r makes no `stat`
    /// call for a file it then opens, and one for a directory (the C headers: 7.9k calls
    /// fewer than one `lstat` an entry and a `stat` a directory).
    package static func directoryListing(_ path: String) throws(SystemError) -> (identity: FileIdentity, entries: [DirectoryEntry]) {
        // The names are sorted as bytes in one buffer, then made strings: comparing the
        // strings themselves (a retain and release each) was 6 % of `smartgrep -rI zebra
        // /usr/share`.
        var names: [UInt8] = []
        var listed: [(start: Int, count: Int, kind: FileKind?)] = []
        let status = try systemReadDirectory(path) { name, kind in
            listed.append((names.count, name.count, kind))
            names.append(contentsOf: name)
        }
        names.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress
            listed.sort { a, b in
                let common = min(a.count, b.count)
                if common > 0, let base {
                    let order = systemCompareBytes(base + a.start, base + b.start, common)
                    if order != 0 { return order < 0 }
                }
                return a.count < b.count
            }
        }
        // A file system without entry types (some network ones): ask lstat.
        let prefix = path.hasSuffix("/") ? path : path + "/"
        let entries = listed.map { item in
            let name = String(decoding: names[item.start..<item.start + item.count], as: UTF8.self)
            var kind = item.kind ?? .other
            if item.kind == nil, let status = try? systemStatus(prefix + name, followingLinks: false) { kind = status.kind }
            return DirectoryEntry(name: name, kind: kind)
        }
        return (FileIdentity(device: status.device, inode: status.inode), entries)
    }

    /// Why the folder `path` is not a private folder of this process's user, or nil when
    /// it is: a folder (not a symbolic link to one) that the user owns and no one else
    /// can write to. What another user could plant or swap in it (a cache file that
    /// decides search results, a link to the user's `~/.ssh`) is then not read or written.
    package static func privateFolderProblem(_ path: String) -> String? {
        let status: FileStatus
        do throws(SystemError) {
            status = try systemStatus(path, followingLinks: false)
        } catch {
            return "it cannot be looked at (\(FileSystemError.reason(error.code)))"
        }
        if status.kind == .symbolicLink { return "it is a symbolic link" }
        if status.kind != .directory { return "it is not a folder" }
        if status.owner != systemUser() { return "it belongs to another user" }
        if status.permissions & 0o022 != 0 { return "others can write to it" }  // S_IWGRP | S_IWOTH
        return nil
    }
}
