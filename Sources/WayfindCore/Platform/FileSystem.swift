import WayfindSystemC

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-file reads and crash-safe whole-file saves.
///
/// A save never changes the file in place. It goes:
///
/// 1. write the new bytes to a temporary file in the same directory and `fsync` it, so
///    the data is on disk before any name points at it. The temporary file is either
///    created with `O_CREAT|O_EXCL|O_NOFOLLOW` and mode 0600, so nothing already at that
///    path (a stale file, a planted symlink) is ever opened or followed, or it is the
///    *spare* left by an earlier save (below), reused only when it is a regular file of
///    ours with no other name and nobody else has it open or mapped (a write lease
///    proves that), so no reader can ever see it change;
/// 2. swap it with the target (`renameat2(RENAME_EXCHANGE)`), which is atomic: readers
///    see the old file or the new one, never a mix, and the old version is now at the
///    temporary name;
/// 3. swap that with `FILE.bak`, so the backup is the previous version and the temporary
///    name holds the one before it: the spare for the next save (with no backup yet, it
///    simply becomes the backup);
/// 4. `fsync` the directory, so the renames themselves survive a crash.
///
/// At every moment the target and the backup are complete versions; only the spare is
/// ever half-written. Reusing the spare instead of unlinking the old backup and writing
/// a new file saves the file system freeing and allocating the file's blocks: for a
/// 14 MB graph that was 16 of 40 ms. Into the spare, only the blocks that differ from
/// what it holds are written (`ChangedBlockWriter`): a visit then writes, and waits for
/// the disk to take, a few pages instead of the whole file. Where the swap is not
/// supported, the classic way is taken: hard-link the target as `FILE.bak`, then
/// `rename` the temporary file over the target.
///
/// Any failure before the target changes removes the temporary file and leaves the
/// target and the backup as they were. `SIGXFSZ` is ignored, so a write past
/// `ulimit -f` fails with `EFBIG` and gets the same clean-up instead of killing the
/// process.
///
/// Saving into an existing file keeps its permission bits (someone may have made it
/// 0640 on purpose); a new file is 0600, as a visit log is private.
public enum FileSystem {
    /// The default permissions of files this module creates.
    public static let privateFileMode: mode_t = 0o600
    /// The permissions of directories this module creates.
    public static let privateDirectoryMode: mode_t = 0o700

    /// Opens the regular file at `path` read-only, with its `stat`; nil if there is no
    /// such file. The caller closes the descriptor.
    private static func openRegularFile(at path: String) throws(FileSystemError) -> (Int32, stat)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT { return nil }
            throw .cannotOpen(path: path, errno: code)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw .cannotRead(path: path, errno: code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .notARegularFile(path: path)
        }
        return (descriptor, info)
    }

    /// The whole content of the file at `path`, or nil if there is no such file.
    public static func readFile(at path: String) throws(FileSystemError) -> [UInt8]? {
        guard let (descriptor, info) = try openRegularFile(at: path) else { return nil }
        defer { close(descriptor) }
        // One byte more than the size, so a file that grew is read to its end in one go.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
            let result = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if result == 0 { break }
            if result < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, errno: errno)
            }
            count += result
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// The content of the file at `path`, mapped into memory read-only, or nil if there
    /// is no such file.
    ///
    /// Mapping instead of reading saves a copy and the zeroing of a buffer as large as
    /// the file: for a 14 MB graph that was a fifth of a load. Saves never write into
    /// a file someone has open (they swap a new one in, and reuse an old one only when
    /// a write lease proves nobody holds it), and the file stays open as long as it is
    /// mapped, so the mapped bytes cannot change under the reader.
    ///
    /// With `stamp`, the result also says whether the file carries that stamp (see
    /// `FileStamp`) with its current identity.
    ///
    /// Every page is mapped at once, unless the file carries the stamp and
    /// `lazilyIfStamped`: then pages are mapped as they are read (`FileBytes.populate`
    /// maps them all later), for a reader that may need only the end of the file.
    public static func mapFile(
        at path: String, stamp: String? = nil, lazilyIfStamped: Bool = false
    ) throws(FileSystemError) -> FileBytes? {
        guard let (descriptor, info) = try openRegularFile(at: path) else { return nil }
        // Open as long as the mapping lives: on some file systems (overlayfs) a mapping
        // alone does not count as an opener, and a save decides whether to rewrite an
        // old file by whether anyone has it open.
        let file = OwnedDescriptor(descriptor)
        let identity = FileIdentity(info)
        let isStamped = stamp.map { FileStamp.matches(descriptor, name: $0, identity: identity) } ?? false
        if info.st_size == 0 { return FileBytes(mapping: nil, file: file, identity: identity, isStamped: isStamped) }
        guard
            let mapping = MappedFile(
                FileDescriptor(descriptor), minimumSize: 1, populate: !(isStamped && lazilyIfStamped))
        else {
            throw .cannotRead(path: path, errno: errno)
        }
        return FileBytes(mapping: mapping, file: file, identity: identity, isStamped: isStamped)
    }

    /// Replaces the file at `path` with `bytes` atomically (see the type's description),
    /// first linking the current file as `backupPath` if one is given.
    ///
    /// `temporaryPath` is the first name tried for the temporary file (default
    /// `path + ".tmp"`); if something already exists there, numbered names are tried.
    /// With `stamp`, the new file is stamped with its identity (see `FileStamp`) when the
    /// caller is `vouching` for what it wrote, and carries no such stamp otherwise.
    public static func writeAtomically(
        _ bytes: [UInt8], to path: String, backupPath: String? = nil, temporaryPath: String? = nil,
        stamp: String? = nil, vouching: Bool = true
    ) throws(FileSystemError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(FileSystemError) in
                try writeAtomically(
                    pieces: [buffer], to: path, backupPath: backupPath, temporaryPath: temporaryPath, stamp: stamp,
                    vouching: vouching)
            }
        }
        try result.get()
    }

    /// Replaces the file at `path` with the concatenation of `pieces`, as
    /// `writeAtomically(_:to:backupPath:temporaryPath:)` does; the pieces may point into
    /// a mapping of the old file, which stays valid (the old inode is never written).
    public static func writeAtomically(
        pieces: [UnsafeRawBufferPointer], to path: String, backupPath: String? = nil, temporaryPath: String? = nil,
        stamp: String? = nil, vouching: Bool = true
    ) throws(FileSystemError) {
        ignoreFileSizeSignal()
        // The lease that proves a spare unused is dropped at once, but someone opening
        // the spare in between makes the kernel signal this process (SIGIO, which ends
        // it by default): nothing here uses SIGIO, so it is ignored.
        signal(SIGIO, SIG_IGN)
        var mode = privateFileMode
        var existing = stat()
        let exists = stat(path, &existing) == 0
        if exists {
            guard existing.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
            mode = existing.st_mode & 0o7777
        }
        let spareName = temporaryPath ?? path + ".tmp"
        // Only saves that keep a backup leave a spare, so only they look for one.
        let spare = exists && backupPath != nil ? openSpare(at: spareName) : nil
        let descriptor: Int32
        let temporary: String
        if let spare {
            (descriptor, temporary) = (spare.descriptor, spareName)
        } else {
            (descriptor, temporary) = try createTemporaryFile(preferring: spareName, fallbackPrefix: path + ".tmp")
        }
        var isOpen = true
        var needsCleanup = true
        defer {
            if isOpen { close(descriptor) }
            if needsCleanup { unlink(temporary) }
        }
        if mode != (spare?.mode ?? privateFileMode), fchmod(descriptor, mode) != 0 {
            throw .cannotWrite(path: temporary, errno: errno)
        }
        var size = 0
        for piece in pieces { size += piece.count }
        // Into a spare, only the blocks that differ from what it holds (see
        // `ChangedBlockWriter`); anything else is written whole.
        if let spare, let writer = ChangedBlockWriter(descriptor: descriptor, size: spare.size, path: temporary) {
            try writer.write(pieces)
        } else {
            for piece in pieces { try writeAll(piece, to: descriptor, path: temporary) }
        }
        if let spare, spare.size != size, ftruncate(descriptor, off_t(size)) != 0 {
            throw .cannotWrite(path: temporary, errno: errno)
        }
        if let stamp {
            // After the last write, so the stamp holds the final time. A spare may carry
            // a stamp from its past: this replaces it, or removes it when not vouching.
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw .cannotWrite(path: temporary, errno: errno) }
            if vouching {
                FileStamp.set(descriptor, name: stamp, identity: FileIdentity(info))
            } else if spare != nil {
                FileStamp.remove(descriptor, name: stamp)
            }
        }
        guard fsync(descriptor) == 0 else { throw .cannotSync(path: temporary, errno: errno) }
        isOpen = false
        guard close(descriptor) == 0 else { throw .cannotSync(path: temporary, errno: errno) }
        if exists, let backupPath {
            if exchange(temporary, path) {
                needsCleanup = false
                rotateBackup(from: temporary, to: backupPath, keepingSpare: temporary == spareName)
                try syncDirectory(of: path)
                return
            }
            try linkBackup(of: path, at: backupPath)
        }
        guard rename(temporary, path) == 0 else { throw .cannotRename(from: temporary, to: path, errno: errno) }
        needsCleanup = false
        try syncDirectory(of: path)
    }

    /// The deepest chain of symbolic links followed, as the kernel's own limit (ELOOP).
    private static let maximumLinkHops = 40

    /// `path` with its last component's symbolic links followed (relative targets are
    /// taken from the link's directory); `path` itself when it is not a link or does
    /// not exist. A dangling link resolves to where it points, so a save creates the
    /// file there.
    public static func resolvingSymbolicLinks(_ path: String) throws(FileSystemError) -> String {
        var current = path
        for _ in 0..<maximumLinkHops {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
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

    /// Creates `path` and any missing parents with mode 0700.
    public static func createDirectories(_ path: String) throws(FileSystemError) {
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

    /// Whether `path` names a regular file (following symbolic links).
    public static func isRegularFile(at path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// The directory part of `path`: `a/b` → `a`, `b` → `.`, `/b` → `/`.
    public static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    /// Makes a write beyond `RLIMIT_FSIZE` fail with `EFBIG` instead of killing the
    /// process with `SIGXFSZ`. Process-wide, and harmless to repeat.
    public static func ignoreFileSizeSignal() {
        signal(SIGXFSZ, SIG_IGN)
    }

    // MARK: Steps

    /// How many numbered names to try when the preferred temporary name is taken.
    private static let temporaryNameAttempts = 16

    private static func createTemporaryFile(preferring preferred: String, fallbackPrefix: String)
        throws(FileSystemError) -> (Int32, String)
    {
        var candidate = preferred
        var attempt = 0
        while true {
            let descriptor = open(
                candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, privateFileMode)
            if descriptor >= 0 { return (descriptor, candidate) }
            let code = errno
            attempt += 1
            guard code == EEXIST, attempt < temporaryNameAttempts else {
                throw .cannotOpen(path: candidate, errno: code)
            }
            // Taken: a stale file from a crash, another writer, or something planted.
            // Never reuse it; pick a fresh, unpredictable name.
            candidate = "\(fallbackPrefix).\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
        }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String)
        throws(FileSystemError)
    {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let result = write(descriptor, base + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                throw .cannotWrite(path: path, errno: errno)
            }
            if result == 0 { throw .cannotWrite(path: path, errno: EIO) }
            written += result
        }
    }

    /// The spare a save left at `path`, opened for reading and writing, when it may be
    /// reused: a regular file (not followed if a symlink) owned by this user, with no
    /// other name, that no one else has open or mapped (a reader may still hold it from
    /// when it was the target). Nil otherwise, and then a new temporary file is created.
    ///
    /// Only on local file systems whose leases see every opener, mappings included
    /// (`spareFileSystems`): on overlayfs a mapping whose descriptor was closed does not
    /// count, and on network file systems other machines' openers do not.
    private static func openSpare(at path: String) -> (descriptor: Int32, mode: mode_t, size: Int)? {
        // O_NONBLOCK: a FIFO planted there must fail the open, not block it forever.
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1,
            info.st_uid == geteuid(), reusesSpares(onFileSystem: wayfind_file_system_type(descriptor)),
            wayfind_is_only_opener(descriptor) == 1
        else {
            close(descriptor)
            return nil
        }
        return (descriptor, info.st_mode & 0o7777, Int(info.st_size))
    }

    /// Whether a spare is reused on the file system of this type (`statfs` magic
    /// number): ext2/3/4, XFS, Btrfs and tmpfs, local file systems whose write leases
    /// are refused while any descriptor or mapping of the file exists.
    private static func reusesSpares(onFileSystem type: Int64) -> Bool {
        switch type {
        case 0xEF53, 0x5846_5342, 0x9123_683E, 0x0102_1994: true
        default: false
        }
    }

    /// Swaps the files at `first` and `second` atomically; false, with nothing changed,
    /// when that fails for any reason (no support in the file system or kernel, a
    /// system-call filter, permissions): the caller then links and renames, which
    /// reports a real problem itself.
    private static func exchange(_ first: String, _ second: String) -> Bool {
        wayfind_exchange_paths(first, second) == 0
    }

    /// After the new file was swapped in, `temporary` holds the previous version: swap it
    /// with `backup`, so the backup is the previous version and `temporary` the spare for
    /// the next save (removed unless `keepingSpare`: a randomly named temporary file is
    /// not left behind); with no backup yet, it becomes the backup.
    ///
    /// The new file is already in place, so nothing here fails the save: if the backup
    /// cannot be moved (something removed the temporary file meanwhile), it simply stays
    /// one version older.
    private static func rotateBackup(from temporary: String, to backup: String, keepingSpare: Bool) {
        if wayfind_exchange_paths(temporary, backup) == 0 {
            if !keepingSpare { unlink(temporary) }
            return
        }
        // No backup yet (ENOENT), or it cannot be swapped: the previous version replaces it.
        _ = rename(temporary, backup)
    }

    /// Points `backup` at the current content of `path` (a hard link; a copy where the
    /// file system has no hard links).
    private static func linkBackup(of path: String, at backup: String) throws(FileSystemError) {
        if unlink(backup) != 0 && errno != ENOENT { throw .cannotWrite(path: backup, errno: errno) }
        if link(path, backup) == 0 { return }
        let code = errno
        guard code == EPERM || code == EXDEV || code == EMLINK || code == ENOTSUP || code == EOPNOTSUPP else {
            throw .cannotWrite(path: backup, errno: code)
        }
        guard let old = try readFile(at: path) else { return }
        try writeAtomically(old, to: backup)
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

/// The bytes of a file read by `FileSystem.mapFile(at:)`: a `MappedFile`, or nothing for an
/// empty file (which cannot be mapped).
/// A file descriptor closed when the last reference to it goes.
final class OwnedDescriptor {
    let rawValue: Int32

    init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    deinit {
        close(rawValue)
    }
}

public struct FileBytes {
    /// The mapping, kept alive as long as this value.
    let mapping: MappedFile?
    /// The file, open as long as this value.
    let file: OwnedDescriptor
    /// The file's identity when it was opened.
    public let identity: FileIdentity
    /// Whether it carried the stamp asked for with that identity.
    public let isStamped: Bool

    /// The file's bytes, valid while this value lives.
    public var bytes: UnsafeRawBufferPointer {
        mapping.map { UnsafeRawBufferPointer($0.bytes) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// Maps every page of a file mapped lazily, before reading all of it (one call
    /// instead of a page fault per 64 KiB).
    public func populate() {
        mapping?.populate()
    }
}
