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

    /// Opens `path` read-only, when the caller knows it is a regular file (a directory
    /// entry said so): no `stat`, which a reader told `isRegular` does not need. (Without
    /// blocking: a FIFO put in its place since fails its read, and never waits.)
    package static func openRegularFile(_ path: String) throws(SystemError) -> FileDescriptor {
        FileDescriptor(try systemOpen(path, .nonBlocking))
    }

    /// Opens `path` read-only, and sets `regularSize` to the file's size when it is a
    /// regular file (nil for a pipe or a device), from the one `fstat` that refuses a
    /// directory: a reader told the size makes no `stat` call of its own.
    package static func openForReading(_ path: String, regularSize: inout Int?) throws(SystemError) -> FileDescriptor {
        let descriptor = FileDescriptor(try systemOpen(path))
        let status = try? systemStatus(of: descriptor.rawValue)
        if status?.kind == .directory {
            descriptor.close()
            throw .isADirectory
        }
        regularSize = status?.kind == .regular ? status?.size : nil
        return descriptor
    }

    /// The size of the regular file open here, or nil for anything else (a pipe, a
    /// terminal): what tells that a file shrank while it was read.
    package var regularFileSize: Int? {
        guard let status = try? systemStatus(of: rawValue), status.kind == .regular else { return nil }
        return status.size
    }

    /// Reads up to `count` bytes into `buffer`; returns 0 at end of file. Retries EINTR.
    package func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemError) -> Int {
        try systemRead(rawValue, buffer, count)
    }

    /// Writes all `count` bytes. Retries EINTR and short writes.
    package func writeAll(_ buffer: UnsafeRawPointer, count: Int) throws(SystemError) {
        var done = 0
        while done < count { done += try systemWrite(rawValue, buffer + done, count - done) }
    }

    /// Closes the descriptor, ignoring errors (read-only use).
    package func close() { systemClose(rawValue) }

    /// Waits at most `milliseconds` (forever when negative) until a read would not block;
    /// false when the time ran out first. (End of input and errors count as readable:
    /// the read says which.)
    package func waitForInput(milliseconds: Int) -> Bool { systemWaitForInput(rawValue, milliseconds: milliseconds) }

    /// Whether the descriptor is a terminal.
    package var isTerminal: Bool { systemIsTerminal(rawValue) }
}
