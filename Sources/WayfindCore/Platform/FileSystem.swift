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
    package static let privateFileMode: FileMode = 0o600
    /// The permissions of directories this module creates.
    package static let privateDirectoryMode: FileMode = 0o700

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
        // A FIFO opens at once (to be refused), instead of waiting for a writer.
        let options: OpenOptions = followingLinks ? [.nonBlocking] : [.nonBlocking, .noFollow]
        let opened = Result { () throws(SystemError) in try systemOpen(path, options) }
        if case .failure(.noSuchFile) = opened { return nil }
        let descriptor = try attempt({ .cannotOpen(path: path, errno: $0) }, opened.get())
        let fileStatus = Result { () throws(SystemError) in try systemStatus(of: descriptor) }
        guard case .success(let status) = fileStatus, status.kind == .regular else {
            systemClose(descriptor)
            if case .failure(let error) = fileStatus { throw .cannotRead(path: path, errno: error.code) }
            throw .notARegularFile(path: path)
        }
        readerHook?(path)
        let size = status.size
        guard size > 0 else {
            return FileMapping(descriptor: descriptor, status: status, bytes: UnsafeRawBufferPointer(start: nil, count: 0))
        }
        if let address = systemMap(descriptor, size: size) {
            if let slot = ShrinkGuard.register(address, size: size) {
                return FileMapping(
                    descriptor: descriptor, status: status, bytes: UnsafeRawBufferPointer(start: address, count: size), guardSlot: slot)
            }
            systemUnmap(address, size: size)
        }
        // No guard slot free (or no mapping): a copy, which a shrinking file cannot fault.
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        var done = 0
        while done < size {
            do throws(SystemError) {
                let count = try systemRead(descriptor, copy.baseAddress! + done, size - done, at: done)
                if count == 0 { break }
                done += count
            } catch {
                copy.deallocate()
                systemClose(descriptor)
                throw .cannotRead(path: path, errno: error.code)
            }
        }
        // Bytes never read (the file shrank) are zeros, as a guarded mapping's are.
        if done < size { copy.baseAddress!.advanced(by: done).initializeMemory(as: UInt8.self, repeating: 0, count: size - done) }
        return FileMapping(descriptor: descriptor, status: status, bytes: UnsafeRawBufferPointer(copy), isCopy: true, cutShort: done < size)
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
        systemIgnoreFileSizeLimitSignal()
        var mode = privateFileMode
        let existing = try? systemStatus(path)
        if let existing, !privately {
            guard existing.kind == .regular else { throw .notARegularFile(path: path) }
            // Root may write anything: the owner's write bit (S_IWUSR) says whether the file may change.
            guard existing.permissions & 0o200 != 0 else { throw .readOnly(path: path) }
            mode = existing.permissions
        }
        // Step 1: the new file, removed on any failure before it is in the target's place.
        let (descriptor, temporary) = try createTemporaryFile(path + temporaryInfix)
        var isCommitted = false
        defer {
            systemClose(descriptor)
            if !isCommitted { try? Platform.removeFile(temporary) }
        }
        if removingLeftovers { removeLeftovers(of: path, except: name(of: temporary)) }
        var offset = 0
        for piece in pieces {
            try writeAll(piece, to: descriptor, at: offset, path: temporary)
            offset += piece.count
        }
        if mode != privateFileMode {
            try attempt({ .cannotWrite(path: temporary, errno: $0) }, systemSetPermissions(descriptor, mode))
        }
        try attempt({ .cannotSync(path: temporary, errno: $0) }, systemSync(descriptor))
        try check()
        // Steps 2 to 5.
        let newBackup = existing != nil && backupPath != nil ? try linkBackup(of: path, near: path + backupInfix) : nil
        do throws(SystemError) {
            try systemRename(temporary, to: path)
        } catch {
            if let newBackup { try? Platform.removeFile(newBackup) }
            throw .cannotRename(from: temporary, to: path, errno: error.code)
        }
        isCommitted = true
        // The new file is in place: from here on nothing fails the save. The previous
        // version becomes the backup, replacing the one before (unless something that
        // cannot be replaced, a folder, sits at its name: the link then goes).
        if let newBackup, let backupPath, (try? systemRename(newBackup, to: backupPath)) == nil { try? Platform.removeFile(newBackup) }
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
        var leftovers: [String] = []
        let listed = try? systemReadDirectory(folder) { entry, _ in
            let name = Array(entry)
            if isLeftover(name, of: base), except.map({ !name.elementsEqual($0.utf8) }) ?? true {
                leftovers.append(String(decoding: name, as: UTF8.self))
            }
        }
        guard listed != nil else { return false }
        let user = systemUser()
        for name in leftovers {
            let leftover = folder == "/" ? "/" + name : folder + "/" + name
            guard let status = try? systemStatus(leftover, followingLinks: false), status.kind == .regular, status.owner == user
            else { continue }
            try? Platform.removeFile(leftover)
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
            guard let link = try? systemStatus(current, followingLinks: false), link.kind == .symbolicLink else { return current }
            // Another user's link in a directory we cannot stat is not followed either.
            let user = systemUser()
            let trusted =
                link.owner == user
                || (try? systemStatus(directory(of: current))).map {
                    mayFollowLink(owner: link.owner, directoryMode: $0.permissions, directoryOwner: $0.owner, user: user)
                } ?? false
            guard trusted else { throw .untrustedLink(path: current, owner: link.owner) }
            let target = try attempt({ .cannotRead(path: current, errno: $0) }, systemLinkTarget(current))
            if target.hasPrefix("/") {
                current = target
            } else {
                let directory = directory(of: current)
                current = directory == "." && !current.hasPrefix("./") ? target : directory + "/" + target
            }
        }
        throw .cannotOpen(path: path, errno: SystemError.tooManyLinks.code)
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
    package static func mayFollowLink(owner: UserID, directoryMode: FileMode, directoryOwner: UserID, user: UserID) -> Bool {
        owner == user || directoryMode & 0o1002 == 0 || owner == directoryOwner  // S_ISVTX | S_IWOTH
    }

    /// Whether this process may create files in the directory `path` (`access(2)`).
    package static func isWritableDirectory(_ path: String) -> Bool { systemMayCreateFiles(in: path) }

    /// Creates `path` and any missing parents with mode 0700.
    package static func createDirectories(_ path: String) throws(FileSystemError) {
        if (try? systemStatus(path)) != nil { return }
        let parent = directory(of: path)
        if parent != path && parent != "." && parent != "/" {
            try createDirectories(parent)
        }
        do throws(SystemError) {
            try systemMakeDirectory(path, mode: privateDirectoryMode)
        } catch let error where error != .fileExists {
            throw .cannotCreateDirectory(path: path, errno: error.code)
        } catch {}
    }

    /// Whether a regular file is at `path` (links followed); throws `.notARegularFile`
    /// for anything else (a directory, FIFO or device), without opening it.
    package static func regularFileExists(at path: String) throws(FileSystemError) -> Bool {
        guard let status = try? systemStatus(path) else { return false }
        guard status.kind == .regular else { throw .notARegularFile(path: path) }
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
        var tries = 0
        while true {
            let candidate = randomName(prefix)
            do throws(SystemError) {
                return (try systemOpen(candidate, [.writeOnly, .create, .exclusive, .noFollow], mode: privateFileMode), candidate)
            } catch {
                tries += 1
                guard error == .fileExists, tries < temporaryNameAttempts else { throw .cannotOpen(path: candidate, errno: error.code) }
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
            let (start, count) = (base + written, bytes.count - written)
            let result = try attempt({ .cannotWrite(path: path, errno: $0) }, systemWrite(descriptor, start, count, at: offset + written))
            if result == 0 { throw .cannotWrite(path: path, errno: SystemError.inputOutput.code) }
            written += result
        }
    }

    /// A new name, `prefix` and random characters, for the current content of `path`:
    /// a hard link, or a copy where the file system has no hard links; nil when there is
    /// no such file any more.
    private static func linkBackup(of path: String, near prefix: String) throws(FileSystemError) -> String? {
        var tries = 0
        while true {
            let backup = randomName(prefix)
            let linked = Result { () throws(SystemError) in try systemLink(path, as: backup) }
            guard case .failure(let failure) = linked else { return backup }
            tries += 1
            if failure == .fileExists && tries < temporaryNameAttempts { continue }
            if failure == .noSuchFile { return nil }
            guard failure.meansNoHardLinks else { throw .cannotWrite(path: backup, errno: failure.code) }
            guard let old = try readFile(at: path) else { return nil }
            let (descriptor, copy) = try createTemporaryFile(prefix)
            defer { systemClose(descriptor) }
            do throws(FileSystemError) {
                try old.withUnsafeBytes { bytes in
                    Result { () throws(FileSystemError) in try writeAll(bytes, to: descriptor, at: 0, path: copy) }
                }.get()
                try attempt({ .cannotSync(path: copy, errno: $0) }, systemSync(descriptor))
            } catch {
                try? Platform.removeFile(copy)
                throw error
            }
            return copy
        }
    }

    private static func syncDirectory(of path: String) throws(FileSystemError) {
        let directory = directory(of: path)
        let descriptor = try attempt({ .cannotOpen(path: directory, errno: $0) }, systemOpen(directory, .directory))
        defer { systemClose(descriptor) }
        do throws(SystemError) {
            try systemSync(descriptor)
        } catch let error where error != .invalidArgument {  // a file system that cannot sync directories
            throw .cannotSync(path: directory, errno: error.code)
        } catch {}
    }
}

/// A file read by `FileSystem.mapFile(at:)`: its bytes, valid as long as this lives, with
/// the file open as long.
package final class FileMapping {
    /// The file's bytes.
    package let bytes: UnsafeRawBufferPointer
    private let descriptor: Int32
    /// The file's status when it was opened.
    private let status: FileStatus
    /// Its `ShrinkGuard` slot, when the bytes are a mapping.
    private let guardSlot: Int?
    /// Whether the bytes are a copy (to deallocate), and whether it came out short.
    private let isCopy: Bool, copyCutShort: Bool

    init(
        descriptor: Int32, status: FileStatus, bytes: UnsafeRawBufferPointer, guardSlot: Int? = nil,
        isCopy: Bool = false, cutShort: Bool = false
    ) {
        (self.descriptor, self.status, self.bytes, self.guardSlot) = (descriptor, status, bytes, guardSlot)
        (self.isCopy, copyCutShort) = (isCopy, cutShort)
    }

    /// Whether the file shrank while it was read: some of `bytes` are zeros in place of
    /// what it held (another program rewrote it in place, as `cp` over it does).
    package var wasCutShort: Bool { copyCutShort || (guardSlot.map(ShrinkGuard.wasCutShort) ?? false) }

    /// Whether the file was written since it was opened (its size or its modification or
    /// change time moved), or cut short under the mapping.
    package var hasChanged: Bool {
        guard let now = try? systemStatus(of: descriptor) else { return true }
        return wasCutShort || now.stamp != status.stamp
    }

    /// The opened file's device, inode, size, modification and status change times: what
    /// tells whether it is still the same file (`PlacesIndexCache`).
    package var identity:
        (device: UInt64, inode: UInt64, size: Int, seconds: Int64, nanoseconds: UInt32, changeSeconds: Int64, changeNanoseconds: UInt32)
    {
        (
            status.device, status.inode, status.size, status.modified, UInt32(status.modifiedNanoseconds), status.changed,
            UInt32(status.changedNanoseconds)
        )
    }

    /// Whether only its owner, this process's user, can write it: a file of the user's
    /// own that no one else can have put or changed.
    package var isPrivateToCurrentUser: Bool { status.owner == systemUser() && status.permissions & 0o022 == 0 }  // S_IWGRP | S_IWOTH

    /// Whether `path` names the file that was opened (the same device and inode).
    package func isStill(at path: String) -> Bool {
        guard let now = try? systemStatus(path) else { return false }
        return now.device == status.device && now.inode == status.inode
    }

    deinit {
        if let guardSlot { ShrinkGuard.unregister(guardSlot) }
        if let base = bytes.baseAddress {
            if isCopy {
                UnsafeMutableRawPointer(mutating: base).deallocate()
            } else {
                systemUnmap(base, size: bytes.count)
            }
        }
        systemClose(descriptor)
    }
}
