#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock(2)` on a lock file, held until the value is dropped.
///
/// The lock is taken on a *sidecar* file (`routegraph.json.lock`), never on the data
/// file itself. Saving replaces the data file by renaming a new inode over it; a process
/// that had opened the old inode and was waiting for its lock would wake up holding a
/// lock on a file nobody else uses any more, while a newcomer locks the new inode, and
/// both would write. The sidecar is never renamed or deleted, so everyone always locks
/// the same inode. (`flock` locks belong to the open file description, so two threads of
/// one process that each open the lock file also exclude each other.)
public struct FileLock: ~Copyable {
    /// The lock file's path.
    public let path: String
    private let descriptor: Int32

    /// Opens (creating it, mode 0600, never through a symlink) and locks `path`, waiting
    /// as long as another holder keeps it.
    public init(exclusiveAt path: String) throws(FileSystemError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        while flock(descriptor, LOCK_EX) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(descriptor)
            throw .cannotLock(path: path, errno: code)
        }
        self.path = path
        self.descriptor = descriptor
    }

    /// Releases the lock now rather than at the end of the scope.
    public consuming func release() {}

    deinit {
        // Closing the last descriptor of the open file description drops the lock.
        close(descriptor)
    }
}
