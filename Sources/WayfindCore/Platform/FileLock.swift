/// An exclusive `flock(2)` on a lock file, held until the value is dropped.
///
/// The lock is taken on a *sidecar* file (`routegraph.json.lock`), never on the data
/// file itself. Saving replaces the data file by renaming a new inode over it; a process
/// that had opened the old inode and was waiting for its lock would wake up holding a
/// lock on a file nobody else uses any more, while a newcomer locks the new inode, and
/// both would write. The sidecar is never renamed or deleted, so everyone always locks
/// the same inode. (`flock` locks belong to the open file description, so two threads of
/// one process that each open the lock file also exclude each other.)
package struct FileLock: ~Copyable {
    private let descriptor: Int32

    /// How long a wait goes before `waiting` is called, in milliseconds.
    static let noticeDelay: Int64 = 1000
    /// The longest pause between two tries, in milliseconds: short, so that a waiter
    /// polling is not much slower to get a lock just released than one the kernel wakes.
    static let longestPause: Int64 = 8

    /// Opens (creating it, mode 0600, never through a symlink) and locks `path`. While
    /// another process holds the lock, it tries again every few milliseconds, calls
    /// `waiting` once after a second, and gives up after `timeout` seconds. (Polling,
    /// not a blocking `flock`: that could only be cut short by a signal.)
    package init(exclusiveAt path: String, timeout: Int64, waiting: () -> Void) throws(FileSystemError) {
        let descriptor = try attempt(
            { .cannotOpen(path: path, errno: $0) }, systemOpen(path, [.readWrite, .create, .noFollow], mode: FileSystem.privateFileMode))
        try Self.lock(descriptor, exclusive: true, path: path, timeout: timeout, waiting: waiting)
        self.descriptor = descriptor
    }

    /// A shared lock on an existing lock file, for a reader that must know that no save
    /// runs; nil when there is no lock file (so no save of ours ever ran), it cannot be
    /// opened (a reader without access), or the lock was not had within `timeout` seconds.
    package init?(sharedAt path: String, timeout: Int64) {
        guard let descriptor = try? systemOpen(path, [.nonBlocking, .noFollow]),
            (try? Self.lock(descriptor, exclusive: false, path: path, timeout: timeout, waiting: {})) != nil
        else { return nil }
        self.descriptor = descriptor
    }

    /// Takes the lock on `descriptor`, polling; closes it on failure.
    private static func lock(_ descriptor: Int32, exclusive: Bool, path: String, timeout: Int64, waiting: () -> Void)
        throws(FileSystemError)
    {
        let start = Platform.monotonicMilliseconds()
        let limit = timeout < Int64.max / 1000 ? timeout * 1000 : .max
        var pause: Int64 = 1
        var noticed = false
        while true {
            do throws(SystemError) {
                if try systemTryLock(descriptor, exclusive: exclusive) { return }
            } catch {
                systemClose(descriptor)
                throw .cannotLock(path: path, errno: error.code)
            }
            let waited = Platform.monotonicMilliseconds() - start
            guard waited < limit else {
                systemClose(descriptor)
                throw .lockTimedOut(path: path, seconds: timeout)
            }
            if !noticed && waited >= Self.noticeDelay {
                noticed = true
                waiting()
            }
            systemSleep(milliseconds: pause)
            pause = min(pause * 2, Self.longestPause)
        }
    }

    /// Releases the lock now rather than at the end of the scope.
    package consuming func release() {}

    deinit {
        // Closing the last descriptor of the open file description drops the lock.
        systemClose(descriptor)
    }
}
