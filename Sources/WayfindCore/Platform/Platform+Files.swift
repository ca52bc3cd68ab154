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
}
