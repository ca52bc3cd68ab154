#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-file reads and crash-safe whole-file saves.
///
/// A save never changes a file in place: (1) write the new bytes to a new temporary file
/// in the same directory, created with `O_CREAT|O_EXCL|O_NOFOLLOW`, mode 0600, under a
/// name no one can guess (`FILE.tmp.` and twelve random letters and digits: nothing at
/// that path, a stale file from a crash or something planted, is ever opened or followed),
/// and `fsync` it, having removed, if asked, what killed saves left
/// (`removeLeftovers(of:)`); (2) hard-link the current file under another such name
/// (`FILE.bak.` and twelve random characters), if a backup is asked for; (3) `rename` the
/// temporary file over the target, atomically; (4) rename the link to `FILE.bak`, which
/// frees the backup before; (5) `fsync` the directory.
///
/// So every file that was ever the target is never written again, only unlinked: a
/// reader that opened the target, ours or not (`cp`, `rsync`, a backup tool), reads one
/// complete version however long it takes, whatever saves happen meanwhile. The same
/// holds for the backup, a link to a former target.
///
/// A failure before the target changes removes the temporary file and leaves target and
/// backup as they were; a save killed at any moment leaves at most such temporary files,
/// which `removeLeftovers(of:)` finds by their names. `SIGXFSZ` is ignored, so a write
/// past `ulimit -f` fails with `EFBIG` and gets the same clean-up. An existing file's
/// permission bits are kept; a new file is 0600, as a visit log is private.
package enum FileSystem {
    /// The default permissions of files this module creates.
    package static let privateFileMode: mode_t = 0o600
    /// The permissions of directories this module creates.
    package static let privateDirectoryMode: mode_t = 0o700

    /// Called by `mapFile(at:)` between opening a file and reading it, with the path:
    /// tests pause readers there, or change the file under them. Nil in the tools.
    nonisolated(unsafe) package static var readerHook: ((String) -> Void)? = nil

    /// The content of the regular file at `path`, or nil if there is no such file: mapped
    /// read-only (no copy: the pages are the page cache's) when a `ShrinkGuard` slot is
    /// free, else read. Takes no lock: saves never write into a file that was the target.
    /// A file that shrinks while mapped (rewritten in place by another program) does not
    /// kill the process: its lost pages read as zeros and `FileMapping.wasCutShort` says so.
    /// With `followingLinks` false, a symbolic link at `path` is not opened
    /// (`.cannotOpen`, ELOOP): a cache file is read only where it is.
    package static func mapFile(at path: String, followingLinks: Bool = true) throws(FileSystemError) -> FileMapping? {
        // O_NONBLOCK: a FIFO opens at once (to be refused), instead of waiting for a writer.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
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
        readerHook?(path)
        let size = Int(info.st_size)
        guard size > 0 else {
            return FileMapping(descriptor: descriptor, status: info, bytes: UnsafeRawBufferPointer(start: nil, count: 0))
        }
        if let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED {
            if let slot = ShrinkGuard.register(address, size: size) {
                return FileMapping(
                    descriptor: descriptor, status: info, bytes: UnsafeRawBufferPointer(start: address, count: size), guardSlot: slot)
            }
            munmap(address, size)
        }
        // No guard slot free (or no mapping): a copy, which a shrinking file cannot fault.
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        var done = 0
        while done < size {
            let count = pread(descriptor, copy.baseAddress! + done, size - done, off_t(done))
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                let code = errno
                copy.deallocate()
                close(descriptor)
                throw .cannotRead(path: path, errno: code)
            }
            if count == 0 { break }
            done += count
        }
        // Bytes never read (the file shrank) are zeros, as a guarded mapping's are.
        if done < size { copy.baseAddress!.advanced(by: done).initializeMemory(as: UInt8.self, repeating: 0, count: size - done) }
        return FileMapping(descriptor: descriptor, status: info, copy: UnsafeRawBufferPointer(copy), cutShort: done < size)
    }

    /// The whole content of the regular file at `path`, or nil if there is no such file.
    package static func readFile(at path: String) throws(FileSystemError) -> [UInt8]? {
        guard let file = try mapFile(at: path) else { return nil }
        let bytes = Array(file.bytes)
        guard !file.wasCutShort else { throw .changedWhileRead(path: path) }
        return bytes
    }

    /// Replaces the file at `path` with `bytes` atomically (see the type's description),
    /// keeping the current file as `backupPath` if one is given.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, backupPath: String? = nil) throws(FileSystemError) {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(FileSystemError) in try writeAtomically(pieces: [buffer], to: path, backupPath: backupPath) }
        }.get()
    }

    /// Replaces the file at `path` with the concatenation of `pieces`, as
    /// `writeAtomically(_:to:backupPath:)` does; with `privately`, the new file is 0600
    /// whatever the mode of a file at `path` (a cache: a file planted there chooses
    /// nothing). The pieces may point into a mapping of the file being replaced, which is
    /// never written; `check` runs once they are on disk, before the target changes, and
    /// may fail the save (the mapping was cut short). With `removingLeftovers` (only
    /// under the lock every save of `path` takes), what saves of `path` killed before
    /// they finished left next to it goes first (`removeLeftovers`).
    package static func writeAtomically(
        pieces: [UnsafeRawBufferPointer], to path: String, backupPath: String? = nil, removingLeftovers: Bool = false,
        privately: Bool = false, check: () throws(FileSystemError) -> Void = {}
    ) throws(FileSystemError) {
        // A write beyond RLIMIT_FSIZE fails with EFBIG instead of killing the process
        // (process-wide, and harmless to repeat).
        signal(SIGXFSZ, SIG_IGN)
        var mode = privateFileMode
        var existing = stat()
        let exists = stat(path, &existing) == 0
        if exists && !privately {
            guard existing.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
            // Root may write anything: the owner's write bit says whether the file may change.
            guard existing.st_mode & S_IWUSR != 0 else { throw .readOnly(path: path) }
            mode = existing.st_mode & 0o7777
        }
        // Step 1: the new file, removed on any failure before it is in the target's place.
        let (descriptor, temporary) = try createTemporaryFile(path + temporaryInfix)
        var isCommitted = false
        defer {
            close(descriptor)
            if !isCommitted { unlink(temporary) }
        }
        if removingLeftovers { removeLeftovers(of: path, except: name(of: temporary)) }
        var offset = 0
        for piece in pieces {
            try writeAll(piece, to: descriptor, at: offset, path: temporary)
            offset += piece.count
        }
        if mode != privateFileMode, fchmod(descriptor, mode) != 0 { throw .cannotWrite(path: temporary, errno: errno) }
        if fsync(descriptor) != 0 { throw .cannotSync(path: temporary, errno: errno) }
        try check()
        // Steps 2 to 5.
        let newBackup = exists && backupPath != nil ? try linkBackup(of: path, near: path + backupInfix) : nil
        guard rename(temporary, path) == 0 else {
            let code = errno
            if let newBackup { unlink(newBackup) }
            throw .cannotRename(from: temporary, to: path, errno: code)
        }
        isCommitted = true
        // The new file is in place: from here on nothing fails the save. The previous
        // version becomes the backup, replacing the one before (unless something that
        // cannot be replaced, a folder, sits at its name: the link then goes).
        if let newBackup, let backupPath, rename(newBackup, backupPath) != 0 { unlink(newBackup) }
        try syncDirectory(of: path)
    }

    /// What the names of a save's temporary files add to the target's: `FILE.tmp.` and
    /// `FILE.bak.`, followed by `randomNameLength` letters and digits.
    static let temporaryInfix = ".tmp.", backupInfix = ".bak."
    /// How many random letters and digits end a temporary name: 62^12, about 2^71 names,
    /// so another user cannot take them in advance.
    static let randomNameLength = 12
    private static let randomNameCharacters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// Removes what saves of `path` killed before they finished left next to it: this
    /// user's regular files named as `writeAtomically` names its temporary files, and
    /// those of earlier versions (the spare `FILE.tmp`, `FILE.tmp.PID.RANDOM`,
    /// `FILE.bak.new`, and `FILE.bak.RANDOM` links to old backups, which saves kept for
    /// the next to remove). Only safe while no other save of `path` runs: call it
    /// holding the lock that all of them take, and, from a save, with the name of its
    /// own temporary file as `except`, which stays. Another user's file is left alone.
    /// False when the folder cannot be listed.
    @discardableResult
    package static func removeLeftovers(of path: String, except: String? = nil) -> Bool {
        let folder = directory(of: path)
        let base = Array(name(of: path).utf8)
        guard let stream = opendir(folder) else { return false }
        defer { closedir(stream) }
        var leftovers: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if isLeftover(name, of: base), except.map({ !name.elementsEqual($0.utf8) }) ?? true {
                leftovers.append(String(decoding: name, as: UTF8.self))
            }
        }
        let user = geteuid()
        for name in leftovers {
            let leftover = folder == "/" ? "/" + name : folder + "/" + name
            var info = stat()
            guard lstat(leftover, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == user else { continue }
            unlink(leftover)
        }
        return true
    }

    /// Whether the file name `name` is one a save of the file named `base` leaves only
    /// when it dies (see `removeLeftovers`).
    static func isLeftover(_ name: [UInt8], of base: [UInt8]) -> Bool {
        guard name.count > base.count, name.starts(with: base) else { return false }
        let rest = name[base.count...]
        func random(_ tail: ArraySlice<UInt8>) -> Bool {
            tail.count == randomNameLength && tail.allSatisfy { randomNameCharacters.contains($0) }
        }
        for infix in [temporaryInfix, backupInfix] where rest.starts(with: infix.utf8) {
            if random(rest.dropFirst(infix.utf8.count)) { return true }
        }
        // Earlier versions' names.
        if rest.elementsEqual(".tmp".utf8) || rest.elementsEqual(".bak.new".utf8) { return true }
        if rest.starts(with: ".tmp.".utf8) {
            let parts = rest.dropFirst(5).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { (0x30...0x39).contains($0) } }
        }
        return false
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

    /// Whether this process may create files in the directory `path` (`access(2)`).
    package static func isWritableDirectory(_ path: String) -> Bool {
        access(path, W_OK | X_OK) == 0
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

    /// The last component of `path`: `a/b` → `b`, `b/` → `b`.
    package static func name(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
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

    /// How many random names to try before giving up (each taken only by a collision
    /// with a name chosen at random, or by someone who guesses 2^71 names).
    private static let temporaryNameAttempts = 16

    /// A new, empty file named `prefix` and `randomNameLength` random letters and digits.
    private static func createTemporaryFile(_ prefix: String) throws(FileSystemError) -> (Int32, String) {
        var attempt = 0
        while true {
            let candidate = randomName(prefix)
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, privateFileMode)
            if descriptor >= 0 { return (descriptor, candidate) }
            let code = errno
            attempt += 1
            guard code == EEXIST, attempt < temporaryNameAttempts else {
                throw .cannotOpen(path: candidate, errno: code)
            }
        }
    }

    /// `prefix` followed by `randomNameLength` random letters and digits.
    ///
    /// Each random byte below 248 (4 × 62) picks a character, evenly; the others are
    /// dropped. Eight bytes come from each call of the generator, one `getrandom`: two
    /// calls make a name, where `randomElement` made one call per character.
    private static func randomName(_ prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        var name = Array(prefix.utf8)
        let count = name.count + randomNameLength
        var bits: UInt64 = 0
        var bitsLeft = 0
        while name.count < count {
            if bitsLeft == 0 { (bits, bitsLeft) = (generator.next(), 64) }
            let byte = UInt8(truncatingIfNeeded: bits)
            (bits, bitsLeft) = (bits >> 8, bitsLeft - 8)
            if byte < 248 { name.append(randomNameCharacters[Int(byte % 62)]) }
        }
        return String(decoding: name, as: UTF8.self)
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

    /// A new name, `prefix` and random characters, for the current content of `path`:
    /// a hard link, or a copy where the file system has no hard links; nil when there is
    /// no such file any more.
    private static func linkBackup(of path: String, near prefix: String) throws(FileSystemError) -> String? {
        var attempt = 0
        while true {
            let backup = randomName(prefix)
            if link(path, backup) == 0 { return backup }
            let code = errno
            attempt += 1
            if code == EEXIST && attempt < temporaryNameAttempts { continue }
            if code == ENOENT { return nil }
            guard code == EPERM || code == EXDEV || code == EMLINK || code == ENOTSUP || code == EOPNOTSUPP else {
                throw .cannotWrite(path: backup, errno: code)
            }
            guard let old = try readFile(at: path) else { return nil }
            let (descriptor, copy) = try createTemporaryFile(prefix)
            defer { close(descriptor) }
            do throws(FileSystemError) {
                try old.withUnsafeBytes { bytes in
                    Result { () throws(FileSystemError) in try writeAll(bytes, to: descriptor, at: 0, path: copy) }
                }.get()
                guard fsync(descriptor) == 0 else { throw FileSystemError.cannotSync(path: copy, errno: errno) }
            } catch {
                unlink(copy)
                throw error
            }
            return copy
        }
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

/// A file read by `FileSystem.mapFile(at:)`: its bytes, valid as long as this lives, with
/// the file open as long.
package final class FileMapping {
    /// The file's bytes.
    package let bytes: UnsafeRawBufferPointer
    private let descriptor: Int32
    /// The file's status when it was opened.
    private let status: stat
    /// Its `ShrinkGuard` slot, when the bytes are a mapping.
    private let guardSlot: Int?
    /// Whether the bytes are a copy (to deallocate), and whether it came out short.
    private let isCopy: Bool
    private let copyCutShort: Bool

    init(descriptor: Int32, status: stat, bytes: UnsafeRawBufferPointer, guardSlot: Int? = nil) {
        (self.descriptor, self.status, self.bytes, self.guardSlot) = (descriptor, status, bytes, guardSlot)
        (isCopy, copyCutShort) = (false, false)
    }

    init(descriptor: Int32, status: stat, copy: UnsafeRawBufferPointer, cutShort: Bool) {
        (self.descriptor, self.status, bytes, guardSlot) = (descriptor, status, copy, nil)
        (isCopy, copyCutShort) = (true, cutShort)
    }

    /// Whether the file shrank while it was read: some of `bytes` are zeros in place of
    /// what it held (another program rewrote it in place, as `cp` over it does).
    package var wasCutShort: Bool { copyCutShort || (guardSlot.map(ShrinkGuard.wasCutShort) ?? false) }

    /// Whether the file was written since it was opened (its size or its modification or
    /// change time moved), or cut short under the mapping.
    package var hasChanged: Bool {
        var now = stat()
        guard fstat(descriptor, &now) == 0 else { return true }
        return wasCutShort || now.st_size != status.st_size || now.st_mtim.tv_sec != status.st_mtim.tv_sec
            || now.st_mtim.tv_nsec != status.st_mtim.tv_nsec || now.st_ctim.tv_sec != status.st_ctim.tv_sec
            || now.st_ctim.tv_nsec != status.st_ctim.tv_nsec
    }

    /// The opened file's device, inode, size, modification and status change times: what
    /// tells whether it is still the same file (`PlacesIndexCache`).
    package var identity:
        (device: UInt64, inode: UInt64, size: Int, seconds: Int64, nanoseconds: UInt32, changeSeconds: Int64, changeNanoseconds: UInt32)
    {
        (
            UInt64(status.st_dev), UInt64(status.st_ino), Int(status.st_size), Int64(status.st_mtim.tv_sec), UInt32(status.st_mtim.tv_nsec),
            Int64(status.st_ctim.tv_sec), UInt32(status.st_ctim.tv_nsec)
        )
    }

    /// Whether the file belongs to the user this process runs as.
    package var isOwnedByCurrentUser: Bool { status.st_uid == geteuid() }
    /// Whether only its owner, this process's user, can write it: a file of the user's
    /// own that no one else can have put or changed.
    package var isPrivateToCurrentUser: Bool { isOwnedByCurrentUser && status.st_mode & (S_IWGRP | S_IWOTH) == 0 }

    /// Whether `path` names the file that was opened (the same device and inode).
    package func isStill(at path: String) -> Bool {
        var now = stat()
        return stat(path, &now) == 0 && now.st_dev == status.st_dev && now.st_ino == status.st_ino
    }

    deinit {
        if let guardSlot { ShrinkGuard.unregister(guardSlot) }
        if let base = bytes.baseAddress {
            if isCopy {
                UnsafeMutableRawPointer(mutating: base).deallocate()
            } else {
                munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
            }
        }
        close(descriptor)
    }
}
