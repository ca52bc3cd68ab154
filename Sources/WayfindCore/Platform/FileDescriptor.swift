#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin, typed wrappers over the POSIX calls the tools need for standard streams and files.
///
/// Only the files of `Platform/` import the C library; everything above them speaks in
/// `FileDescriptor`, `SystemError` and `Platform`.

// The C functions under names of their own, for the methods below whose names they share
// (`read`, `write`, `close`, `exit`): inside those methods the plain name is the method.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func systemExit(_ status: Int32) -> Never { exit(status) }

/// An error from the operating system: the call's errno and a lowercase description.
package struct SystemError: Error, Equatable, Sendable {
    /// The errno value.
    package var code: Int32
    /// `strerror(code)`, e.g. "No such file or directory".
    package var description: String { Platform.errorText(code) }
    /// Wraps an errno value.
    package init(code: Int32) { self.code = code }
    /// True when a write failed because the reader went away (`| head -1`).
    package var isBrokenPipe: Bool { code == EPIPE }
}

/// An open file descriptor (not owned: closing is explicit).
package struct FileDescriptor: Sendable, Equatable {
    /// The raw descriptor.
    package var rawValue: Int32
    /// Wraps a raw descriptor.
    package init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// Standard input.
    package static let standardInput = FileDescriptor(0)
    /// Standard output.
    package static let standardOutput = FileDescriptor(1)
    /// Standard error.
    package static let standardError = FileDescriptor(2)

    /// Opens `path` read-only.
    package static func openForReading(_ path: String) throws(SystemError) -> FileDescriptor {
        var size: Int? = nil
        return try openForReading(path, regularSize: &size)
    }

    /// Opens `path` read-only, and sets `regularSize` to the file's size when it is a
    /// regular file (nil for a pipe or a device), from the one `fstat` that refuses a
    /// directory: a reader told the size makes no `stat` call of its own.
    package static func openForReading(_ path: String, regularSize: inout Int?) throws(SystemError) -> FileDescriptor {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw SystemError(code: errno) }
        var info = stat()
        regularSize = nil
        if fstat(fd, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR {
                _ = systemClose(fd)
                throw SystemError(code: EISDIR)
            }
            if (info.st_mode & S_IFMT) == S_IFREG { regularSize = Int(info.st_size) }
        }
        return FileDescriptor(fd)
    }

    /// The size of the regular file open here, or nil for anything else (a pipe, a
    /// terminal): what tells that a file shrank while it was read.
    package var regularFileSize: Int? {
        var info = stat()
        guard fstat(rawValue, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Reads up to `count` bytes into `buffer`; returns 0 at end of file. Retries EINTR.
    package func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemError) -> Int {
        while true {
            let n = systemRead(rawValue, buffer, count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError(code: errno)
        }
    }

    /// Writes all `count` bytes. Retries EINTR and short writes.
    package func writeAll(_ buffer: UnsafeRawPointer, count: Int) throws(SystemError) {
        var done = 0
        while done < count {
            let n = systemWrite(rawValue, buffer + done, count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError(code: errno)
            }
            done += n
        }
    }

    /// Closes the descriptor, ignoring errors (read-only use).
    package func close() { _ = systemClose(rawValue) }

    /// Waits at most `milliseconds` (forever when negative) until a read would not block;
    /// false when the time ran out first. (End of input and errors count as readable:
    /// the read says which.)
    package func waitForInput(milliseconds: Int) -> Bool {
        var entry = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&entry, 1, Int32(clamping: milliseconds))
            if result < 0 && errno == EINTR { continue }
            return result != 0
        }
    }

    /// Whether the descriptor is a terminal.
    package var isTerminal: Bool { isatty(rawValue) == 1 }
}

/// Process-wide settings and C-library helpers.
package enum Platform {
    /// `strerror` as a Swift string.
    package static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// Makes writes to a closed pipe fail with EPIPE instead of killing the process, so a
    /// tool can end quietly when its reader goes away (`| head -1`).
    package static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }

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
        let argv = CommandLine.unsafeArgv
        var index = 1
        while index < Int(CommandLine.argc) {
            if let argument = argv[index], String(validatingCString: argument) == nil { return index }
            index += 1
        }
        return nil
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
    package static func currentTime() -> Int64 {
        Int64(time(nil))
    }

    /// Terminates the process with `status`, without running further Swift code.
    package static func exit(_ status: Int32) -> Never {
        systemExit(status)
    }

    /// Whether two buffers hold the same bytes. Names, mostly: short ones are compared
    /// eight bytes at a time in place (a call to `memcmp` costs more than they do).
    @inline(__always)
    static func bytesEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        guard count > 0, let left = a.baseAddress, let right = b.baseAddress else { return true }
        if count > 64 { return memcmp(left, right, count) == 0 }
        if count < 8 {
            for index in 0..<count
            where left.load(fromByteOffset: index, as: UInt8.self) != right.load(fromByteOffset: index, as: UInt8.self) {
                return false
            }
            return true
        }
        var index = 0
        while index &+ 8 < count {
            guard left.loadUnaligned(fromByteOffset: index, as: UInt64.self) == right.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            else { return false }
            index &+= 8
        }
        // The last eight bytes, overlapping those before.
        return left.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            == right.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }

    /// `exp2`: two to the power `x`.
    package static func powerOfTwo(_ x: Double) -> Double {
        exp2(x)
    }

    /// `memchr`: the first `byte` in `[start, start+count)`, or nil.
    @inline(__always)
    package static func findByte(_ byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> UnsafePointer<UInt8>? {
        guard count > 0, let p = memchr(start, Int32(byte), count) else { return nil }
        return UnsafePointer(p.assumingMemoryBound(to: UInt8.self))
    }

    /// The last `byte` in `[start, start+count)`, or nil: glibc's `memrchr`, which Swift's
    /// Glibc module does not export. Sixteen bytes at a time (`SIMD16` compiles to one
    /// compare and one mask test), the match found in its block from the compare's bytes
    /// read as two words; the last few bytes one at a time.
    @inline(__always)
    package static func findLastByte(_ byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> UnsafePointer<UInt8>? {
        let pattern = SIMD16<UInt8>(repeating: byte)
        var index = count
        while index >= 16 {
            let matches = UnsafeRawPointer(start + (index &- 16)).loadUnaligned(as: SIMD16<UInt8>.self) .== pattern
            if any(matches) {
                // 0xFF where a byte matches, read as two words (the first byte lowest).
                let words = unsafeBitCast(SIMD16<UInt8>(repeating: 0).replacing(with: 0xFF, where: matches), to: SIMD2<UInt64>.self)
                let bit = words[1] != 0 ? 127 &- words[1].leadingZeroBitCount : 63 &- words[0].leadingZeroBitCount
                return start + (index &- 16 &+ bit &>> 3)
            }
            index &-= 16
        }
        while index > 0 {
            index &-= 1
            if start[index] == byte { return start + index }
        }
        return nil
    }
}
