#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paths and single files: what the tools ask of a path besides reading and saving it.
extension Platform {
    /// The absolute path of `path` with every symbolic link and `.`/`..` resolved
    /// (`realpath(3)`), or nil when there is no such file.
    package static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Removes the directory entry `path` (the file itself when it was its last link).
    package static func removeFile(_ path: String) throws(SystemError) {
        guard unlink(path) == 0 else { throw SystemError(code: errno) }
    }

    /// Why the folder `path` is not a private folder of this process's user, or nil when
    /// it is: a folder (not a symbolic link to one) that the user owns and no one else
    /// can write to. What another user could plant or swap in it (a cache file that
    /// decides search results, a link to the user's `~/.ssh`) is then not read or written.
    package static func privateFolderProblem(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return "it cannot be looked at (\(SystemError(code: errno).description.lowercasedFirst()))" }
        if info.st_mode & S_IFMT == S_IFLNK { return "it is a symbolic link" }
        if info.st_mode & S_IFMT != S_IFDIR { return "it is not a folder" }
        if info.st_uid != geteuid() { return "it belongs to another user" }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 { return "others can write to it" }
        return nil
    }

    /// The bytes free for this process's user on the file system of `path`, or nil when
    /// it cannot be told.
    package static func freeBytes(at path: String) -> Int? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int(clamping: UInt64(info.f_bavail) &* UInt64(info.f_frsize))
    }
}
