/// Directory listings and file kinds, for smartgrep's `-r`; file sizes for the padding of
/// its `-T`; whether a folder is private to its user.

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

    /// The size of the open file `descriptor` when it is a regular file; nil for a pipe,
    /// a terminal or a device (whose size says nothing of what is read).
    package static func regularFileSize(_ descriptor: FileDescriptor) -> Int? { descriptor.regularFileSize }

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
        var entries: [DirectoryEntry] = []
        var unknown: [Int] = []
        let status = try systemReadDirectory(path) { name, kind in
            if kind == nil { unknown.append(entries.count) }
            entries.append(DirectoryEntry(name: String(decoding: name, as: UTF8.self), kind: kind ?? .other))
        }
        // A file system without entry types (some network ones): ask lstat.
        let prefix = path.hasSuffix("/") ? path : path + "/"
        for i in unknown {
            if let status = try? systemStatus(prefix + entries[i].name, followingLinks: false) { entries[i].kind = status.kind }
        }
        entries.sort { bytesPrecede($0.name, $1.name) }
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
