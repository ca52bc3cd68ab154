#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#else
    #error("unsupported platform")
#endif

/// The C library, in the one file that imports it (swift-system's `Exports.swift` is the
/// model): `Platform`, what the rest of the package calls, then thin wrappers for the other
/// files of Platform/, named `system…`, which take and return Swift values, throw
/// `SystemError` and retry `EINTR`. What the C libraries spell differently (`st_mtim`,
/// the `sigaction` and `siginfo_t` unions) is told apart here and nowhere else. Only glibc
/// has built and run; the Darwin and Musl spellings come from their headers.
package enum Platform {
    /// Makes writes to a closed pipe fail with EPIPE instead of killing the process, so a
    /// tool can end quietly when its reader goes away (`| head -1`).
    package static func ignoreBrokenPipeSignal() { signal(SIGPIPE, SIG_IGN) }

    /// The value of the environment variable `name`, or nil when it is unset.
    package static func environmentVariable(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// Whether the environment variable `name` is unset or valid UTF-8
    /// (`environmentVariable` repairs invalid bytes into U+FFFD).
    package static func environmentVariableIsValidUTF8(_ name: String) -> Bool {
        guard let value = getenv(name) else { return true }
        return String(validatingCString: value) != nil
    }

    /// The position (1-based, after the program's name) of the first command-line argument
    /// that is not valid UTF-8, if any.
    package static func firstInvalidUTF8Argument() -> Int? {
        stride(from: 1, to: Int(CommandLine.argc), by: 1).first { index in
            CommandLine.unsafeArgv[index].map { String(validatingCString: $0) == nil } ?? false
        }
    }

    /// A monotonic clock, in milliseconds. (Not the standard library's ContinuousClock:
    /// it would link the concurrency runtime and libdispatch into every tool, a megabyte
    /// and a slower start.)
    package static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// The current time in Unix seconds.
    package static func currentTime() -> Int64 { Int64(time(nil)) }

    /// How many seconds the local time (`TZ`, or `/etc/localtime`) is ahead of UTC at the
    /// Unix time `time` (negative west of Greenwich); 0 when the C library cannot tell.
    package static func utcOffset(at time: Int64) -> Int {
        var seconds = time_t(truncatingIfNeeded: time)
        var broken = tm()
        guard localtime_r(&seconds, &broken) != nil else { return 0 }
        return Int(broken.tm_gmtoff)
    }

    /// Terminates the process with `status`, without running further Swift code.
    package static func exit(_ status: Int32) -> Never { systemExit(status) }

    /// The number of processors online (at least 1): smartgrep's default `-j`.
    package static var processorCount: Int { max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1) }

    /// `memchr`: the first `byte` in `[start, start+count)`, or nil.
    @inline(__always)
    package static func findByte(_ byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> UnsafePointer<UInt8>? {
        guard count > 0, let p = memchr(start, Int32(byte), count) else { return nil }
        return UnsafePointer(p.assumingMemoryBound(to: UInt8.self))
    }

    /// `exp2`: two to the power `x`.
    package static func powerOfTwo(_ x: Double) -> Double { exp2(x) }

    /// sin² x, for the gazetteer's distances (so that Places/ stays free of the C library).
    @inline(__always)
    package static func sinSquared(_ x: Double) -> Double {
        let s = libmSine(x)
        return s * s
    }

    /// cos x.
    @inline(__always)
    package static func cos(_ x: Double) -> Double { libmCosine(x) }

    /// asin x.
    @inline(__always)
    package static func asin(_ x: Double) -> Double { libmArcSine(x) }

    /// The natural logarithm of x.
    @inline(__always)
    package static func log(_ x: Double) -> Double { libmLog(x) }

    /// Whether `name` matches the shell glob `pattern` (`*`, `?`, `[...]`), as `fnmatch`.
    package static func matchesGlob(_ pattern: String, _ name: String) -> Bool { fnmatch(pattern, name, 0) == 0 }

    /// The absolute path of `path` with every symbolic link and `.`/`..` resolved
    /// (`realpath(3)`), or nil when there is no such file.
    package static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Removes the directory entry `path` (the file itself when it was its last link).
    package static func removeFile(_ path: String) throws(SystemError) { try check(unlink(path)) }

    /// The bytes free for this process's user on the file system of `path`, or nil when
    /// it cannot be told.
    package static func freeBytes(at path: String) -> Int? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int(clamping: UInt64(info.f_bavail) &* UInt64(info.f_frsize))
    }
}

// The C functions under names of their own, for the methods whose names they share.
private func systemExit(_ status: Int32) -> Never { exit(status) }
private func libmSine(_ x: Double) -> Double { sin(x) }
private func libmCosine(_ x: Double) -> Double { cos(x) }
private func libmArcSine(_ x: Double) -> Double { asin(x) }
private func libmLog(_ x: Double) -> Double { log(x) }

/// A file's type and permission bits (`mode_t`: 32 bits on Linux, 16 on Darwin).
package typealias FileMode = mode_t
/// A user's id (`uid_t`).
package typealias UserID = uid_t

/// An error from the operating system: the call's errno and a lowercase description.
package struct SystemError: Error, Equatable, Sendable {
    /// The errno value.
    package var code: Int32
    /// `strerror(code)`, e.g. "No such file or directory".
    package var description: String { strerror(code).map { String(cString: $0) } ?? "error \(code)" }
    /// Wraps an errno value.
    package init(code: Int32) { self.code = code }

    /// The error of the calling thread's last failed call (`errno`).
    static var last: SystemError { SystemError(code: errno) }
    /// The errors the other files of Platform/ tell apart.
    static let noSuchFile = SystemError(code: ENOENT), fileExists = SystemError(code: EEXIST)
    static let isADirectory = SystemError(code: EISDIR), tooManyLinks = SystemError(code: ELOOP)
    static let inputOutput = SystemError(code: EIO), invalidArgument = SystemError(code: EINVAL)

    /// True when a write failed because the reader went away (`| head -1`).
    package var isBrokenPipe: Bool { code == EPIPE }
    /// True when a file to read is a directory (`openForReading`).
    package var isDirectoryRead: Bool { code == EISDIR }
    /// Whether the system refused for want of permission (or on a read-only file system).
    var isPermissionProblem: Bool { [EACCES, EPERM, EROFS].contains(code) }
    /// Whether the disk or the user's quota is full.
    var isOutOfSpace: Bool { [ENOSPC, EDQUOT].contains(code) }
    /// Whether the file would grow past the size limit (`ulimit -f`).
    var isBeyondFileSizeLimit: Bool { code == EFBIG }
    /// Whether `link(2)` failed because the file system makes no hard links there.
    var meansNoHardLinks: Bool { [EPERM, EXDEV, EMLINK, ENOTSUP, EOPNOTSUPP].contains(code) }
}

/// What `stat(2)` tells of a file, in Swift types: the one reader of the C library's
/// `struct stat`. Two statuses of one path differ when the file was replaced or written
/// (a write moves the change time, which no one can set back): a long-running reader,
/// such as a search box's process, reads a file again only then.
package struct FileStatus: Sendable, Equatable {
    /// What the file is (a symbolic link only when links were not followed).
    package var kind: FileKind
    /// The permission bits (`st_mode & 0o7777`).
    package var permissions: FileMode
    /// The owner.
    package var owner: UserID
    /// The device and inode: which file it is, whatever its contents.
    package var device: UInt64, inode: UInt64
    /// The size in bytes.
    package var size: Int
    /// The modification and status change times, in seconds and nanoseconds.
    package var modified: Int64, modifiedNanoseconds: Int64, changed: Int64, changedNanoseconds: Int64

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        #if canImport(Darwin)
            let (m, c) = (info.st_mtimespec, info.st_ctimespec)
        #else
            let (m, c) = (info.st_mtim, info.st_ctim)
        #endif
        (permissions, owner, inode) = (info.st_mode & 0o7777, info.st_uid, UInt64(info.st_ino))
        device = UInt64(truncatingIfNeeded: info.st_dev)  // dev_t is signed on Darwin
        (size, modified, modifiedNanoseconds) = (Int(info.st_size), Int64(m.tv_sec), Int64(m.tv_nsec))
        (changed, changedNanoseconds) = (Int64(c.tv_sec), Int64(c.tv_nsec))
    }

    /// Device, inode, size, modification and change times: what tells one version of one
    /// file from another (`PlacesIndexCache` stores it).
    package var stamp: [Int64] {
        [Int64(bitPattern: device), Int64(bitPattern: inode), Int64(size), modified, modifiedNanoseconds, changed, changedNanoseconds]
    }

    /// The status of the file at `path`, following symbolic links; nil when there is none
    /// (or it cannot be looked at).
    package static func of(_ path: String) -> FileStatus? { try? systemStatus(path) }
}

// MARK: Files

/// `stat(2)`, or `lstat(2)` when `followingLinks` is false.
func systemStatus(_ path: String, followingLinks: Bool = true) throws(SystemError) -> FileStatus {
    var info = stat()
    try check(followingLinks ? stat(path, &info) : lstat(path, &info))
    return FileStatus(info)
}

/// `fstat(2)`.
func systemStatus(of descriptor: Int32) throws(SystemError) -> FileStatus {
    var info = stat()
    try check(fstat(descriptor, &info))
    return FileStatus(info)
}

/// How `systemOpen` opens a file: read-only unless `writeOnly` or `readWrite`.
struct OpenOptions: OptionSet {
    let rawValue: Int32
    static let writeOnly = OpenOptions(rawValue: O_WRONLY), readWrite = OpenOptions(rawValue: O_RDWR)
    static let create = OpenOptions(rawValue: O_CREAT), exclusive = OpenOptions(rawValue: O_EXCL)
    static let noFollow = OpenOptions(rawValue: O_NOFOLLOW), nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
    static let directory = OpenOptions(rawValue: O_DIRECTORY)
}

/// `open(2)`, close-on-exec; `mode` is that of a file it creates.
func systemOpen(_ path: String, _ options: OpenOptions = [], mode: FileMode = 0) throws(SystemError) -> Int32 {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | options.rawValue, mode)
    guard descriptor >= 0 else { throw .last }
    return descriptor
}

/// `read(2)`, or `pread(2)` at `offset`: how many bytes were read, 0 at the end.
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, at offset: Int? = nil) throws(SystemError) -> Int {
    try retrying { offset.map { pread(descriptor, buffer, count, off_t($0)) } ?? read(descriptor, buffer, count) }
}

/// `write(2)`, or `pwrite(2)` at `offset`: how many bytes were written.
func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int, at offset: Int? = nil) throws(SystemError) -> Int {
    try retrying { offset.map { pwrite(descriptor, buffer, count, off_t($0)) } ?? write(descriptor, buffer, count) }
}

/// `poll(2)` for input, at most `milliseconds` (forever when negative): false when the
/// time ran out first (an error counts as input: the read says which).
func systemWaitForInput(_ descriptor: Int32, milliseconds: Int) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return (try? retrying { poll(&entry, 1, Int32(clamping: milliseconds)) }).map { $0 != 0 } ?? true
}

/// `flock(2)` without waiting, shared or exclusive: false while another holds the lock.
func systemTryLock(_ descriptor: Int32, exclusive: Bool) throws(SystemError) -> Bool {
    while flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
        if errno == EWOULDBLOCK { return false }
        if errno != EINTR { throw .last }
    }
    return true
}

/// `readlink(2)`: the target of the symbolic link at `path`.
func systemLinkTarget(_ path: String) throws(SystemError) -> String {
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = buffer.withUnsafeMutableBufferPointer { readlink(path, $0.baseAddress!, $0.count - 1) }
    guard count > 0 else { throw count == 0 ? .noSuchFile : .last }
    return String(decoding: buffer[0..<count], as: UTF8.self)
}

// The calls that are one line each: `close(2)` (its error ignored: every close here is of
// a file read, or one already synced), `fsync(2)`, `fchmod(2)`, `rename(2)`, `link(2)`
// (a new name for the file at `existing`), `mkdir(2)`, `lseek(2)` (where `descriptor`
// is), `isatty(3)`, `memcmp(3)`, `access(2)` (whether this process may create files in
// the directory `path`), `geteuid(2)`, `usleep(3)`, and ignoring SIGXFSZ (a write past
// `ulimit -f` then fails with EFBIG instead of killing the process).
func systemClose(_ descriptor: Int32) { _ = close(descriptor) }
func systemSync(_ descriptor: Int32) throws(SystemError) { _ = try retrying { fsync(descriptor) } }
func systemSetPermissions(_ descriptor: Int32, _ mode: FileMode) throws(SystemError) { try check(fchmod(descriptor, mode)) }
func systemRename(_ from: String, to: String) throws(SystemError) { try check(rename(from, to)) }
func systemLink(_ existing: String, as new: String) throws(SystemError) { try check(link(existing, new)) }
func systemMakeDirectory(_ path: String, mode: FileMode) throws(SystemError) { try check(mkdir(path, mode)) }
func systemOffset(_ descriptor: Int32) -> Int { Int(lseek(descriptor, 0, SEEK_CUR)) }
func systemIsTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }
@inline(__always) func systemCompareBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Int32 { memcmp(a, b, count) }
func systemMayCreateFiles(in path: String) -> Bool { access(path, W_OK | X_OK) == 0 }
func systemUser() -> UserID { geteuid() }
func systemSleep(milliseconds: Int64) { usleep(useconds_t(milliseconds * 1000)) }
func systemIgnoreFileSizeLimitSignal() { signal(SIGXFSZ, SIG_IGN) }

/// Throws errno unless `result` is 0 (the calls that return 0 or -1).
private func check(_ result: Int32) throws(SystemError) { guard result == 0 else { throw .last } }

/// Runs `call` again while it fails with EINTR; throws errno when it fails otherwise.
private func retrying<Result: BinaryInteger>(_ call: () -> Result) throws(SystemError) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        if errno != EINTR { throw .last }
    }
}

/// `opendir(3)` and `readdir(3)`: calls `body` with the bytes of each entry's name (`.`
/// and `..` left out) and its kind, nil where the file system does not say
/// (`DT_UNKNOWN`); returns the directory's own status (`fstat` of the open directory).
func systemReadDirectory(_ path: String, _ body: (UnsafeBufferPointer<UInt8>, FileKind?) -> Void) throws(SystemError) -> FileStatus {
    guard let directory = opendir(path) else { throw .last }
    defer { closedir(directory) }
    let status = try systemStatus(of: dirfd(directory))
    while true {
        errno = 0
        guard let entry = readdir(directory) else {
            if errno != 0 { throw .last }
            return status
        }
        let kind: FileKind?
        switch Int32(entry.pointee.d_type) {
        case Int32(DT_REG): kind = .regular
        case Int32(DT_DIR): kind = .directory
        case Int32(DT_LNK): kind = .symbolicLink
        case Int32(DT_UNKNOWN): kind = nil
        default: kind = .other
        }
        withUnsafeBytes(of: entry.pointee.d_name) { raw in
            let start = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
            let name = UnsafeRawBufferPointer(start: start, count: strlen(start)).assumingMemoryBound(to: UInt8.self)
            if name.count > 2 || name.contains(where: { $0 != 0x2E }) { body(name, kind) }  // not . or ..
        }
    }
}

// MARK: Memory maps

/// `mmap(2)` of the first `size` bytes of `descriptor`, read-only; nil when it fails.
func systemMap(_ descriptor: Int32, size: Int) -> UnsafeMutableRawPointer? {
    guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0) else { return nil }
    return address == UnsafeMutableRawPointer(bitPattern: -1) ? nil : address  // MAP_FAILED
}

/// `munmap(2)`.
func systemUnmap(_ address: UnsafeRawPointer, size: Int) { _ = munmap(UnsafeMutableRawPointer(mutating: address), size) }

/// `madvise(2)`: the pages of `[address, address + size)` are needed soon
/// (`MADV_WILLNEED`), or not again (`MADV_DONTNEED`).
func systemAdvise(_ address: UnsafeRawPointer, size: Int, neededSoon: Bool) {
    _ = madvise(UnsafeMutableRawPointer(mutating: address), size, neededSoon ? MADV_WILLNEED : MADV_DONTNEED)
}

/// Puts zero pages, read-only, in place of `[address, address + size)` (`MAP_FIXED`);
/// async-signal-safe.
func systemMapZeros(at address: UInt, size: Int) {
    _ = mmap(UnsafeMutableRawPointer(bitPattern: address), size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
}

/// The size of a memory page.
func systemPageSize() -> Int { sysconf(Int32(_SC_PAGESIZE)) }

/// The handler `systemCatchBusErrors` installed, and the action it replaced.
nonisolated(unsafe) private var busErrorHandler: (@convention(c) (UInt) -> Bool)? = nil
nonisolated(unsafe) private let previousBusErrorAction = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)

/// Installs `handler` for SIGBUS: it gets each fault's address and says whether it dealt
/// with it. A fault it did not deal with puts the previous action back, so the fault
/// repeats and reaches that one (the Swift runtime's backtracer, or the default action).
func systemCatchBusErrors(_ handler: @convention(c) (UInt) -> Bool) {
    busErrorHandler = handler
    let trampoline: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { _, info, _ in
        #if canImport(Darwin)
            let address = UInt(bitPattern: info?.pointee.si_addr)
        #elseif canImport(Musl)
            let address = UInt(bitPattern: info?.pointee.__si_fields.__sigfault.si_addr)
        #else
            let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
        #endif
        if busErrorHandler?(address) != true { _ = sigaction(SIGBUS, previousBusErrorAction, nil) }
    }
    var action = sigaction()
    #if canImport(Darwin)
        action.__sigaction_u.__sa_sigaction = trampoline
    #elseif canImport(Musl)
        action.__sa_handler.sa_sigaction = trampoline
    #else
        action.__sigaction_handler.sa_sigaction = trampoline
    #endif
    action.sa_flags = SA_SIGINFO
    sigemptyset(&action.sa_mask)
    _ = sigaction(SIGBUS, &action, previousBusErrorAction)
}

// MARK: Threads

extension Platform {
    /// Work started on a thread of its own, which runs until `wait()` returns: one of
    /// smartgrep's searching threads (`SmartgrepPool`). The work runs in `wait()` instead
    /// when no thread can be started, and without glibc (Darwin's and Musl's `pthread_t`
    /// are pointers: untried). Until `wait()` returns, the caller must not touch what the
    /// work writes; afterwards it sees all of it.
    package final class Background {
        private var work: (() -> Void)?
        /// Whether the work runs on a thread of its own (not in `wait()`).
        package private(set) var isOnThread = false
        #if canImport(Glibc)
            private var thread = pthread_t()
        #endif

        package init(_ work: @escaping () -> Void) {
            self.work = work
            #if canImport(Glibc)
                let box = Unmanaged.passRetained(Work(work)).toOpaque()
                let started =
                    pthread_create(
                        &thread, nil,
                        { context in
                            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().run()
                            return nil
                        }, box) == 0
                if started {
                    self.work = nil
                    isOnThread = true
                } else {
                    Unmanaged<Work>.fromOpaque(box).release()
                }
            #endif
        }

        /// Returns once the work has run; again at once.
        package func wait() {
            if let work {
                self.work = nil
                work()
                return
            }
            #if canImport(Glibc)
                if thread != pthread_t() {
                    pthread_join(thread, nil)
                    thread = pthread_t()
                }
            #endif
        }

        deinit { wait() }
    }

    /// A mutex with a few conditions: the lock and the wake-ups of smartgrep's pool of
    /// searching threads (`SmartgrepPool`). `locked` runs its body holding the lock;
    /// `wait(for:)` (only inside it) sleeps until that condition is signalled, and holds
    /// the lock again when it returns.
    package final class Monitor: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let conditions: UnsafeMutablePointer<pthread_cond_t>
        private let count: Int

        /// A monitor with conditions numbered from 0 to `conditions - 1`.
        package init(conditions: Int) {
            count = conditions
            self.conditions = .allocate(capacity: conditions)
            pthread_mutex_init(mutex, nil)
            for i in 0..<conditions { pthread_cond_init(self.conditions + i, nil) }
        }

        deinit {
            for i in 0..<count { pthread_cond_destroy(conditions + i) }
            pthread_mutex_destroy(mutex)
            conditions.deallocate()
            mutex.deallocate()
        }

        /// Runs `body` holding the lock.
        package func locked<R>(_ body: () throws -> R) rethrows -> R {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body()
        }

        /// Runs `body` without the lock, inside `locked` (to write output while other
        /// threads go on).
        package func unlocked<R>(_ body: () throws -> R) rethrows -> R {
            pthread_mutex_unlock(mutex)
            defer { pthread_mutex_lock(mutex) }
            return try body()
        }

        /// Sleeps until `condition` is signalled (or spuriously: callers wait in a loop).
        package func wait(for condition: Int) { pthread_cond_wait(conditions + condition, mutex) }

        /// Wakes one thread waiting for `condition`.
        package func signal(_ condition: Int) { pthread_cond_signal(conditions + condition) }

        /// Wakes every thread waiting for `condition`.
        package func broadcast(_ condition: Int) { pthread_cond_broadcast(conditions + condition) }
    }

    /// The work handed to the thread.
    private final class Work {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
