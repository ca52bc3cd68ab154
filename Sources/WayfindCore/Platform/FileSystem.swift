#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-file reads and crash-safe whole-file saves.
///
/// A save never changes the file in place: (1) write the new bytes to a temporary file in
/// the same directory and `fsync` it; (2) hard-link the current file as `FILE.bak.new`,
/// if a backup is asked for; (3) `rename` the temporary file over the target, atomically
/// (readers see the old file or the new one, never a mix); (4) rename the old backup to
/// `FILE.tmp`, the *spare*, and `FILE.bak.new` to `FILE.bak`; (5) `fsync` the directory.
///
/// The temporary file is the spare when it can be reused, else a new file created with
/// `O_CREAT|O_EXCL|O_NOFOLLOW`, mode 0600 (nothing at that path, a stale file or a planted
/// symlink, is ever opened or followed). A spare is reused only when it is a regular file
/// of this user's with no other name that nobody holds: readers keep a shared `flock` on
/// the file while they read it (`mapFile`), and a save that cannot take an exclusive one
/// on the spare writes a new file instead. Into a reused spare only the 4 KiB blocks that
/// differ are written: a visit to a 14 MB graph writes and syncs a few blocks, and frees
/// and allocates none (a new file's save alone costs more than `zoxide add` at 10,000).
///
/// A failure before the target changes removes the temporary file and leaves target and
/// backup as they were. `SIGXFSZ` is ignored, so a write past `ulimit -f` fails with
/// `EFBIG` and gets the same clean-up. An existing file's permission bits are kept; a new
/// file is 0600, as a visit log is private.
package enum FileSystem {
    /// The default permissions of files this module creates.
    package static let privateFileMode: mode_t = 0o600
    /// The permissions of directories this module creates.
    package static let privateDirectoryMode: mode_t = 0o700

    /// The content of the regular file at `path`, mapped read-only (no copy: the pages
    /// are the page cache's), or nil if there is no such file. The file stays open under a
    /// shared `flock` while the mapping lives, and saves never write into a file held so;
    /// where the file system has no such locks, it is read without.
    package static func mapFile(at path: String) throws(FileSystemError) -> FileMapping? {
        // O_NONBLOCK: a FIFO opens at once (to be refused), instead of waiting for a writer.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT { return nil }
            throw .cannotOpen(path: path, errno: code)
        }
        var info = stat()
        let code = fstat(descriptor, &info) == 0 ? 0 : errno
        guard code == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw code != 0 ? .cannotRead(path: path, errno: code) : .notARegularFile(path: path)
        }
        while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
        let size = Int(info.st_size)
        guard size > 0 else { return FileMapping(descriptor: descriptor, bytes: UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            let code = errno
            close(descriptor)
            throw .cannotRead(path: path, errno: code)
        }
        return FileMapping(descriptor: descriptor, bytes: UnsafeRawBufferPointer(start: address, count: size))
    }

    /// The whole content of the regular file at `path`, or nil if there is no such file.
    package static func readFile(at path: String) throws(FileSystemError) -> [UInt8]? {
        try mapFile(at: path).map { Array($0.bytes) }
    }

    /// Replaces the file at `path` with `bytes` atomically (see the type's description),
    /// keeping the current file as `backupPath` if one is given.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, backupPath: String? = nil)
        throws(FileSystemError)
    {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(FileSystemError) in try writeAtomically(pieces: [buffer], to: path, backupPath: backupPath) }
        }.get()
    }

    /// Replaces the file at `path` with the concatenation of `pieces`, as
    /// `writeAtomically(_:to:backupPath:)` does; the pieces may point into a mapping of the
    /// file being replaced, which is never written.
    package static func writeAtomically(pieces: [UnsafeRawBufferPointer], to path: String, backupPath: String? = nil)
        throws(FileSystemError)
    {
        // A write beyond RLIMIT_FSIZE fails with EFBIG instead of killing the process
        // (process-wide, and harmless to repeat).
        signal(SIGXFSZ, SIG_IGN)
        var mode = privateFileMode
        var existing = stat()
        let exists = stat(path, &existing) == 0
        if exists {
            guard existing.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
            // Root may write anything: the owner's write bit says whether the file may change.
            guard existing.st_mode & S_IWUSR != 0 else { throw .readOnly(path: path) }
            mode = existing.st_mode & 0o7777
        }
        let spareName = path + ".tmp"
        // Only saves that keep a backup rotate a spare.
        let spare: Spare = exists && backupPath != nil ? openSpare(at: spareName) : .absent
        let descriptor: Int32
        let temporary: String
        // What the temporary file holds: a reused spare its old bytes and mode, a new file nothing.
        var (held, heldMode) = (0, privateFileMode)
        if case .free(let file, let size, let spareMode) = spare {
            (descriptor, temporary, held, heldMode) = (file, spareName, size, spareMode)
        } else {
            (descriptor, temporary) = try createTemporaryFile(near: path, preferring: spare == .absent)
        }
        var needsCleanup = true
        defer {
            if needsCleanup { unlink(temporary) }
            // Closing drops the lock on a reused spare: only once it is the target.
            close(descriptor)
        }
        try writeChangedBlocks(pieces, to: descriptor, holding: held, path: temporary)
        if heldMode != mode, fchmod(descriptor, mode) != 0 { throw .cannotWrite(path: temporary, errno: errno) }
        guard fsync(descriptor) == 0 else { throw .cannotSync(path: temporary, errno: errno) }
        guard let backupPath, exists else {
            guard rename(temporary, path) == 0 else { throw .cannotRename(from: temporary, to: path, errno: errno) }
            needsCleanup = false
            try syncDirectory(of: path)
            return
        }
        let newBackup = backupPath + ".new"
        let hasNewBackup = try linkBackup(of: path, at: newBackup)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(newBackup)
            throw .cannotRename(from: temporary, to: path, errno: code)
        }
        needsCleanup = false
        // The new file is in place: from here on nothing fails the save. The old backup
        // becomes the next spare (unless something not ours sits at its name), and the
        // previous version the backup.
        if hasNewBackup {
            if spare != .foreign { _ = rename(backupPath, spareName) }
            _ = rename(newBackup, backupPath)
        }
        try syncDirectory(of: path)
    }

    /// The deepest chain of symbolic links followed, as the kernel's own limit (ELOOP).
    private static let maximumLinkHops = 40

    /// `path` with its last component's symbolic links followed (relative targets are
    /// taken from the link's directory); `path` itself when it is not a link or does
    /// not exist. A dangling link resolves to where it points. A link that
    /// `mayFollowLink` forbids is not followed: `.untrustedLink`.
    package static func resolvingSymbolicLinks(_ path: String) throws(FileSystemError) -> String {
        var current = path
        for _ in 0..<maximumLinkHops {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            // Another user's link in a directory we cannot stat is not followed either.
            var folder = stat()
            let user = geteuid()
            let trusted =
                info.st_uid == user
                || (stat(directory(of: current), &folder) == 0
                    && mayFollowLink(owner: info.st_uid, directoryMode: folder.st_mode, directoryOwner: folder.st_uid, user: user))
            guard trusted else { throw .untrustedLink(path: current, owner: info.st_uid) }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw .cannotRead(path: current, errno: errno) }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("/") {
                current = target
            } else {
                let directory = directory(of: current)
                current = directory == "." && !current.hasPrefix("./") ? target : directory + "/" + target
            }
        }
        throw .cannotOpen(path: path, errno: ELOOP)
    }

    /// Whether a symbolic link owned by `owner`, in a directory with `directoryMode` owned
    /// by `directoryOwner`, may be followed on behalf of `user`.
    ///
    /// The kernel's `protected_symlinks` rule, applied by us because we read the link
    /// ourselves (`readlink`), where the kernel's check does not apply: a link is followed
    /// when the user owns it, or when it sits in a directory that is neither writable by
    /// others nor sticky, or when the link's owner also owns the directory. Else whoever
    /// can write to a shared directory such as /tmp could plant `trips.json -> ~/.ssh/config`
    /// and point the user's next save at any file of theirs. (The kernel asks for sticky
    /// *and* world-writable; either one is enough here, the stricter reading.)
    ///
    ///     link owner  directory          user   followed
    ///     1000        1777 root          1000   yes: the user's own link
    ///     65534       1777 root          1000   no: another user's, in /tmp
    ///     65534       0777 root          1000   no: world-writable, not sticky
    ///     65534       1755 root          1000   no: sticky, not world-writable
    ///     65534       1777 65534         1000   yes: the directory's owner's link
    ///     0           0755 root          1000   yes: /dev/stdin, a link of root's in /dev
    package static func mayFollowLink(owner: uid_t, directoryMode: mode_t, directoryOwner: uid_t, user: uid_t) -> Bool {
        owner == user || directoryMode & (S_ISVTX | S_IWOTH) == 0 || owner == directoryOwner
    }

    /// Creates `path` and any missing parents with mode 0700.
    package static func createDirectories(_ path: String) throws(FileSystemError) {
        var info = stat()
        if stat(path, &info) == 0 { return }
        let parent = directory(of: path)
        if parent != path && parent != "." && parent != "/" {
            try createDirectories(parent)
        }
        if mkdir(path, privateDirectoryMode) != 0 && errno != EEXIST {
            throw .cannotCreateDirectory(path: path, errno: errno)
        }
    }

    /// Whether a regular file is at `path` (links followed); throws `.notARegularFile`
    /// for anything else (a directory, FIFO or device), without opening it.
    package static func regularFileExists(at path: String) throws(FileSystemError) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
        return true
    }

    /// The directory part of `path`: `a/b` → `a`, `b` → `.`, `/b` → `/`.
    package static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    // MARK: Steps

    /// What is at the spare's name.
    private enum Spare: Equatable {
        /// Nothing: a new temporary file takes the name.
        case absent
        /// A spare that may be rewritten, open for reading and writing and locked; its
        /// size and mode.
        case free(Int32, size: Int, mode: mode_t)
        /// A spare of ours that a reader holds: a new file is written elsewhere, and the
        /// old backup replaces it.
        case held
        /// Something else (a symlink, a FIFO, another user's file, a file with another
        /// name): never written, never replaced.
        case foreign
    }

    /// The spare at `path` and whether it can be reused (see the type's description).
    private static func openSpare(at path: String) -> Spare {
        // O_NONBLOCK: a FIFO planted there must fail or return at once, not block.
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT ? .absent : .foreign }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1,
            info.st_uid == geteuid()
        else {
            close(descriptor)
            return .foreign
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return .held
        }
        return .free(descriptor, size: Int(info.st_size), mode: info.st_mode & 0o7777)
    }

    /// How many numbered names to try when the preferred temporary name is taken.
    private static let temporaryNameAttempts = 16

    /// A new, empty temporary file next to `path`: `path.tmp` when `preferring` it and it
    /// is free, else a numbered name (never reusing what is there: a stale file from a
    /// crash, or something planted).
    private static func createTemporaryFile(near path: String, preferring: Bool) throws(FileSystemError) -> (Int32, String) {
        func numbered() -> String { "\(path).tmp.\(getpid()).\(UInt32.random(in: 0...UInt32.max))" }
        var candidate = preferring ? path + ".tmp" : numbered()
        var attempt = 0
        while true {
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, privateFileMode)
            if descriptor >= 0 { return (descriptor, candidate) }
            let code = errno
            attempt += 1
            guard code == EEXIST, attempt < temporaryNameAttempts else {
                throw .cannotOpen(path: candidate, errno: code)
            }
            candidate = numbered()
        }
    }

    /// The unit compared and written in a reused spare: a page, what the kernel writes back.
    private static let blockSize = 4096

    /// Makes the file open at `descriptor`, which holds `size` bytes, hold exactly the
    /// concatenation of `pieces`, writing only the blocks that differ (and truncating what
    /// is beyond). The file is compared through a read-only mapping, block by block of the
    /// new bytes; a run of differing blocks within a piece goes in one write.
    private static func writeChangedBlocks(
        _ pieces: [UnsafeRawBufferPointer], to descriptor: Int32, holding size: Int, path: String
    ) throws(FileSystemError) {
        var old = UnsafeRawBufferPointer(start: nil, count: 0)
        if size > 0, let address = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), address != MAP_FAILED {
            old = UnsafeRawBufferPointer(start: address, count: size)
        }
        defer { if let base = old.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), old.count) } }
        var offset = 0
        for piece in pieces {
            // Where in `piece` the run of differing blocks not yet written began.
            var run: Int? = nil
            var index = 0
            while index < piece.count {
                let at = offset + index
                let end = index + min(blockSize - at % blockSize, piece.count - index)
                let same =
                    at + (end - index) <= old.count
                    && Platform.bytesEqual(
                        UnsafeRawBufferPointer(rebasing: piece[index..<end]), UnsafeRawBufferPointer(rebasing: old[at..<at + end - index]))
                if !same, run == nil { run = index }
                if same, let start = run {
                    try writeAll(UnsafeRawBufferPointer(rebasing: piece[start..<index]), to: descriptor, at: offset + start, path: path)
                    run = nil
                }
                index = end
            }
            if let start = run {
                try writeAll(UnsafeRawBufferPointer(rebasing: piece[start...]), to: descriptor, at: offset + start, path: path)
            }
            offset += piece.count
        }
        if size != offset, ftruncate(descriptor, off_t(offset)) != 0 {
            throw .cannotWrite(path: path, errno: errno)
        }
    }

    /// Writes all of `bytes` at `offset` of the file open at `descriptor`.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int, path: String)
        throws(FileSystemError)
    {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let result = pwrite(descriptor, base + written, bytes.count - written, off_t(offset + written))
            if result < 0 {
                if errno == EINTR { continue }
                throw .cannotWrite(path: path, errno: errno)
            }
            if result == 0 { throw .cannotWrite(path: path, errno: EIO) }
            written += result
        }
    }

    /// Points `backup` at the current content of `path`: a hard link, or a copy where the
    /// file system has no hard links; false when there is no such file any more.
    private static func linkBackup(of path: String, at backup: String) throws(FileSystemError) -> Bool {
        // A stale one, from a save killed before it renamed it.
        if unlink(backup) != 0 && errno != ENOENT { throw .cannotWrite(path: backup, errno: errno) }
        if link(path, backup) == 0 { return true }
        let code = errno
        guard code == EPERM || code == EXDEV || code == EMLINK || code == ENOTSUP || code == EOPNOTSUPP else {
            throw .cannotWrite(path: backup, errno: code)
        }
        guard let old = try readFile(at: path) else { return false }
        try writeAtomically(old, to: backup)
        return true
    }

    private static func syncDirectory(of path: String) throws(FileSystemError) {
        let directory = directory(of: path)
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: directory, errno: errno) }
        defer { close(descriptor) }
        // Some file systems cannot sync directories (EINVAL); nothing more can be done there.
        if fsync(descriptor) != 0 && errno != EINVAL {
            throw .cannotSync(path: directory, errno: errno)
        }
    }
}

/// A file mapped by `FileSystem.mapFile(at:)`: its bytes, valid as long as this lives,
/// with the file open (and locked) as long.
package final class FileMapping {
    /// The file's bytes.
    package let bytes: UnsafeRawBufferPointer
    private let descriptor: Int32

    init(descriptor: Int32, bytes: UnsafeRawBufferPointer) {
        self.descriptor = descriptor
        self.bytes = bytes
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
        close(descriptor)
    }
}
