import WayfindSystemC

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin, typed wrappers over the POSIX calls the tools need for standard streams and files.
///
/// This is one of the few files that import the C library; everything above it speaks in
/// `FileDescriptor` and `SystemError`.

/// An error from the operating system: the call's errno and a lowercase description.
public struct SystemError: Error, Equatable, Sendable {
    /// The errno value.
    public var code: Int32
    /// `strerror(code)`, e.g. "No such file or directory".
    public var description: String { Platform.errorText(code) }
    /// Wraps an errno value.
    public init(code: Int32) { self.code = code }
    /// True when a write failed because the reader went away (`| head -1`).
    public var isBrokenPipe: Bool { code == EPIPE }
}

/// An open file descriptor (not owned: closing is explicit).
public struct FileDescriptor: Sendable, Equatable {
    /// The raw descriptor.
    public var rawValue: Int32
    /// Wraps a raw descriptor.
    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// Standard input.
    public static let standardInput = FileDescriptor(0)
    /// Standard output.
    public static let standardOutput = FileDescriptor(1)
    /// Standard error.
    public static let standardError = FileDescriptor(2)

    /// Opens `path` read-only.
    public static func openForReading(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw SystemError(code: errno) }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            _ = Glibc.close(fd)
            throw SystemError(code: EISDIR)
        }
        return FileDescriptor(fd)
    }

    /// Reads up to `count` bytes into `buffer`; returns 0 at end of file. Retries EINTR.
    public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemError) -> Int {
        while true {
            let n = Glibc.read(rawValue, buffer, count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError(code: errno)
        }
    }

    /// Writes all `count` bytes. Retries EINTR and short writes.
    public func writeAll(_ buffer: UnsafeRawPointer, count: Int) throws(SystemError) {
        var done = 0
        while done < count {
            let n = Glibc.write(rawValue, buffer + done, count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError(code: errno)
            }
            done += n
        }
    }

    /// Closes the descriptor, ignoring errors (read-only use).
    public func close() { _ = Glibc.close(rawValue) }

    /// Whether the descriptor is a terminal.
    public var isTerminal: Bool { isatty(rawValue) == 1 }
}

/// Process-wide settings and C-library helpers.
public enum Platform {
    /// `strerror` as a Swift string.
    public static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// Makes writes to a closed pipe fail with EPIPE instead of killing the process, so a
    /// tool can end quietly when its reader goes away (`| head -1`).
    public static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// The value of the environment variable `name`, or nil when it is unset.
    public static func environmentVariable(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// Whether the environment variable `name` is unset or valid UTF-8
    /// (`environmentVariable` repairs invalid bytes into U+FFFD).
    public static func environmentVariableIsValidUTF8(_ name: String) -> Bool {
        guard let value = getenv(name) else { return true }
        return String(validatingCString: value) != nil
    }

    /// The position (1-based, after the program's name) of the first command-line argument
    /// that is not valid UTF-8, if any.
    public static func firstInvalidUTF8Argument() -> Int? {
        let argv = CommandLine.unsafeArgv
        var index = 1
        while index < Int(CommandLine.argc) {
            if let argument = argv[index], String(validatingCString: argument) == nil { return index }
            index += 1
        }
        return nil
    }

    /// The current time in Unix seconds.
    public static func currentTime() -> Int64 {
        Int64(time(nil))
    }

    /// Terminates the process with `status`, without running further Swift code.
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// `memcmp(a, b, count) == 0`.
    @inline(__always)
    public static func bytesEqual(_ a: UnsafeRawPointer?, _ b: UnsafeRawPointer?, count: Int) -> Bool {
        guard count > 0, let a, let b else { return true }
        return memcmp(a, b, count) == 0
    }

    /// `exp2`: two to the power `x`.
    public static func powerOfTwo(_ x: Double) -> Double {
        exp2(x)
    }

    /// `memchr`: the first `byte` in `[start, start+count)`, or nil.
    @inline(__always)
    public static func findByte(_ byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> UnsafePointer<UInt8>? {
        guard count > 0, let p = memchr(start, Int32(byte), count) else { return nil }
        return UnsafePointer(p.assumingMemoryBound(to: UInt8.self))
    }

    /// `memrchr`: the last `byte` in `[start, start+count)`, or nil.
    @inline(__always)
    public static func findLastByte(_ byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> UnsafePointer<UInt8>? {
        guard count > 0, let p = wayfind_find_last_byte(start, Int32(byte), UInt(count)) else { return nil }
        return UnsafePointer(p.assumingMemoryBound(to: UInt8.self))
    }
}
