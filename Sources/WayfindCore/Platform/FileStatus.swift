#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stat` tells of which version of which file a path names: enough to notice that
/// it changed (a long-running reader, such as a search box's process, reads a file again
/// only then).
package struct FileStatus: Sendable, Equatable {
    /// Device, inode, size, modification and change times (seconds and nanoseconds): a
    /// write moves the change time, which no one can set back.
    package var stamp: [Int64]

    /// The file's size in bytes.
    package var size: Int { Int(stamp[2]) }
    /// The file's device and inode: which file it is, whatever its contents.
    package var device: UInt64 { UInt64(bitPattern: stamp[0]) }
    package var inode: UInt64 { UInt64(bitPattern: stamp[1]) }

    /// The status of the file at `path`, following symbolic links; nil when there is none
    /// (or it cannot be looked at).
    package static func of(_ path: String) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let (m, c) = (info.st_mtimespec, info.st_ctimespec)
        #else
            let (m, c) = (info.st_mtim, info.st_ctim)
        #endif
        return FileStatus(stamp: [
            Int64(info.st_dev), Int64(bitPattern: UInt64(info.st_ino)), Int64(info.st_size), Int64(m.tv_sec), Int64(m.tv_nsec),
            Int64(c.tv_sec), Int64(c.tv_nsec),
        ])
    }
}
