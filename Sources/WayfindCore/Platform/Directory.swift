#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Directory listings, file kinds and shell globs, for smartgrep's `-r`; file sizes for
/// the padding of its `-T`.

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
    package static func isDirectory(_ path: String) -> Bool {
        kind(of: path) == .directory
    }

    /// The kind of the file at `path`, following symbolic links (`.other` when there is none).
    package static func kind(of path: String) -> FileKind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .other }
        return kind(info.st_mode)
    }

    private static func kind(_ mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// The size of the open file `descriptor` when it is a regular file; nil for a pipe,
    /// a terminal or a device (whose size says nothing of what is read).
    package static func regularFileSize(_ descriptor: FileDescriptor) -> Int? {
        var info = stat()
        guard fstat(descriptor.rawValue, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The device and inode of `path` (following symbolic links).
    package static func identity(of path: String) throws(SystemError) -> FileIdentity {
        var info = stat()
        guard stat(path, &info) == 0 else { throw SystemError(code: errno) }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The entries of the directory at `path` (without `.` and `..`), sorted by the bytes
    /// of their names, each with its kind as `lstat` sees it.
    package static func directoryEntries(_ path: String) throws(SystemError) -> [DirectoryEntry] {
        try directoryListing(path).entries
    }

    /// The directory at `path` (following a symbolic link): its identity and its entries
    /// (without `.` and `..`), sorted by the bytes of their names, each with its kind as
    /// `lstat` sees it.
    ///
    /// The kind comes from the directory entry itself (`d_type`) where the file system
    /// gives it, and the identity from the open directory: smartgrep -r makes no `stat`
    /// call for a file it then opens, and one for a directory (the C headers: 7.9k calls
    /// fewer than one `lstat` an entry and a `stat` a directory).
    package static func directoryListing(_ path: String) throws(SystemError) -> (identity: FileIdentity, entries: [DirectoryEntry]) {
        guard let directory = opendir(path) else { throw SystemError(code: errno) }
        defer { closedir(directory) }
        var info = stat()
        guard fstat(dirfd(directory), &info) == 0 else { throw SystemError(code: errno) }
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        var entries: [DirectoryEntry] = []
        var unknown: [Int] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw SystemError(code: errno) }
                break
            }
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            let kind: FileKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .regular
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_UNKNOWN):
                kind = .other
                unknown.append(entries.count)
            default: kind = .other
            }
            entries.append(DirectoryEntry(name: name, kind: kind))
        }
        // A file system without entry types (some network ones): ask lstat.
        let prefix = path.hasSuffix("/") ? path : path + "/"
        for i in unknown {
            var info = stat()
            if lstat(prefix + entries[i].name, &info) == 0 { entries[i].kind = kind(info.st_mode) }
        }
        entries.sort { bytesPrecede($0.name, $1.name) }
        return (identity, entries)
    }

    /// Whether the bytes of `a` sort before those of `b` (as `strcmp`): the generic
    /// `utf8.lexicographicallyPrecedes` was 3.7 % of `smartgrep -j 1 -rI lib /usr/share`.
    static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                if common > 0, let p = x.baseAddress, let q = y.baseAddress {
                    let order = memcmp(p, q, common)
                    if order != 0 { return order < 0 }
                }
                return x.count < y.count
            }
        }
    }

    /// Whether `name` matches the shell glob `pattern` (`*`, `?`, `[...]`), as `fnmatch`.
    package static func matchesGlob(_ pattern: String, _ name: String) -> Bool {
        fnmatch(pattern, name, 0) == 0
    }
}
