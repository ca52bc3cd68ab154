/// Reads a file descriptor in large blocks and hands out runs of complete records.
///
/// Each `nextBlock()` returns bytes that end just after a terminator (`\n`, or NUL with
/// `-z`), so a caller can scan many lines at once without copying them; the unfinished
/// tail of a read waits in the buffer for the next one. A record longer than the buffer
/// grows it, up to `maximumRecordLength`: a longer record is an error, so memory stays
/// bounded on endless input without terminators (`/dev/zero`).
///
/// A large regular file is mapped instead of read (see `MappedFile`), and the answer is
/// the same either way, including the record-length error. If the file shrinks while it
/// is mapped, the next call throws `ReadError.changedWhileRead`.
package final class RecordReader {
    /// Bytes per read: large enough that syscalls are rare, small enough to stay cache-warm
    /// and keep peak memory far under the 8 MB budget.
    package static let defaultReadSize = 256 * 1024
    /// The longest record accepted (64 MiB): longer lines are an error, not a reason to
    /// grow without bound.
    package static let defaultMaximumRecordLength = 64 * 1024 * 1024

    /// Where the bytes come from.
    private enum Source {
        case descriptor(FileDescriptor)
        /// Bytes in memory, handed out as a pipe would (`readSize` at most per read).
        case memory(UnsafeBufferPointer<UInt8>)
    }

    private let source: Source
    private let terminator: UInt8
    private let readSize: Int
    private let maximumRecordLength: Int
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var pendingStart = 0
    private var pendingEnd = 0
    private var memoryOffset = 0
    private var reachedEnd = false
    /// The size of the regular file read, when the caller knew it and it is not 0 (which
    /// /proc's files say), and the bytes read so far.
    private let knownSize: Int?
    private var bytesRead = 0
    /// True when the last block returned ended without a terminator (the file's last line).
    package private(set) var lastBlockIsUnterminated = false
    /// The bytes read past the last block returned (an unfinished record, handed out
    /// later), valid until the next call: with the block, everything read so far.
    package var heldBack: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: buffer + pendingStart, count: pendingEnd - pendingStart)
    }
    /// A large regular file is mapped instead of read (see `MappedFile`).
    private var mapped: MappedFile?
    /// A regular file of unknown size whose first read is still to come (`isRegular`).
    private var probing: Bool
    private var mappedOffset = 0
    private let mappedWindow: Int

    /// Files at least this large are mapped: below it, `read` costs less than the mapping.
    package static let mappingThreshold = 4 * 1024 * 1024
    /// Bytes handed out per block from a mapped file.
    static let defaultMappedWindow = 1024 * 1024
    /// The first read of a regular file of unknown size: most files of a tree fit in it.
    static let probeSize = 64 * 1024

    /// A reader of `source` splitting at `terminator`, reading `readSize` bytes at a time
    /// and refusing records longer than `maximumRecordLength` (both settable for tests).
    ///
    /// `regularSize`, when the caller knows it (`FileDescriptor.openForReading(_:regularSize:)`),
    /// is the size of the regular file `source` is: a file under the mapping threshold is
    /// then read without a `stat` of its own, into a buffer no larger than it (a tree of
    /// small files costs no 256 KiB allocation each). The buffer still grows if the file does.
    ///
    /// `isRegular` without `regularSize`: the caller knows `source` is a regular file it
    /// opened itself (a walk's directory entry said so) but not its size, and no `stat` is
    /// made for it, which cost more than the read that hears the end (a tree's files are
    /// most of them small). The first read asks for `probeSize` bytes; only a file that
    /// fills it is asked its size, to be mapped when large.
    package init(
        _ source: FileDescriptor, terminator: UInt8, readSize: Int = RecordReader.defaultReadSize,
        maximumRecordLength: Int = RecordReader.defaultMaximumRecordLength, regularSize: Int? = nil, isRegular: Bool = false
    ) {
        self.source = .descriptor(source)
        self.terminator = terminator
        self.readSize = max(readSize, 1)
        self.maximumRecordLength = max(maximumRecordLength, 1)
        let small = regularSize.map { $0 < Self.mappingThreshold } ?? false
        probing = isRegular && regularSize == nil
        // (At least a page: /proc's files say they are empty.)
        let wanted =
            small ? max(min(self.readSize, regularSize! + 1), 4096) : probing ? min(self.readSize, Self.probeSize) : self.readSize
        capacity = min(max(wanted, 16), self.maximumRecordLength + 1)
        knownSize = regularSize.flatMap { $0 > 0 ? $0 : nil }
        buffer = .allocate(capacity: capacity)
        mapped = small || probing ? nil : MappedFile(source, minimumSize: Self.mappingThreshold)
        // Within one window every record is shorter than the limit; only records that
        // cross a window's end need measuring.
        mappedWindow = min(Self.defaultMappedWindow, self.maximumRecordLength)
    }

    /// A reader of bytes in memory that reads them as from a pipe, `readSize` at a time
    /// (for tests: tiny reads put block boundaries everywhere).
    package init(
        bytes: UnsafeBufferPointer<UInt8>, terminator: UInt8, readSize: Int = RecordReader.defaultReadSize,
        maximumRecordLength: Int = RecordReader.defaultMaximumRecordLength
    ) {
        source = .memory(bytes)
        self.terminator = terminator
        self.readSize = max(readSize, 1)
        self.maximumRecordLength = max(maximumRecordLength, 1)
        // No larger than the bytes need: tests run millions of small searches.
        capacity = min(max(min(self.readSize, bytes.count + 1), 16), self.maximumRecordLength + 1)
        buffer = .allocate(capacity: capacity)
        knownSize = nil
        mapped = nil
        probing = false
        mappedWindow = 0
    }

    deinit { buffer.deallocate() }

    /// The next run of complete records, or nil at end of input. The bytes stay valid until
    /// the next call.
    package func nextBlock() throws(ReadError) -> UnsafeBufferPointer<UInt8>? {
        if let mapped { return try nextMappedBlock(mapped) }
        // Move the unfinished tail of the previous read to the front.
        let pending = pendingEnd - pendingStart
        if pending > 0 && pendingStart > 0 {
            buffer.update(from: buffer + pendingStart, count: pending)
        }
        var length = pending
        pendingStart = 0
        pendingEnd = 0
        var searchedUpTo = 0
        while !reachedEnd {
            if length == capacity {
                // The buffer never holds more than a longest record and its terminator, so
                // a full buffer without one is a record over the limit.
                if capacity > maximumRecordLength { throw .recordTooLong(limit: maximumRecordLength) }
                grow()
            }
            let asked = min(capacity - length, readSize)
            let n = try read(into: buffer + length, count: asked)
            if n == 0 {
                reachedEnd = true
                break
            }
            length += n
            bytesRead += n
            if probing {
                probing = false
                if n == asked, case .descriptor(let descriptor) = source {
                    // As large as the first read or larger: mapped from its start when
                    // large (nothing has been handed out yet), else read in full-size reads.
                    if let file = MappedFile(descriptor, minimumSize: Self.mappingThreshold, alreadyRead: bytesRead) {
                        mapped = file
                        return try nextMappedBlock(file)
                    }
                    if capacity < readSize { grow(to: min(readSize, maximumRecordLength + 1)) }
                    // The first block as large as when the size was known: -I looks in it
                    // for a NUL before a line is printed.
                    while length < capacity {
                        let more = try read(into: buffer + length, count: capacity - length)
                        if more == 0 {
                            reachedEnd = true
                            break
                        }
                        length += more
                        bytesRead += more
                    }
                }
            }
            // A regular file gives less than asked only at its end: once it has given its
            // size, no further read to hear nothing (a small file costs one read, not two).
            // (A file appended to between its fstat and this read is read as it was; a
            // network file system whose size is stale and whose reads come back short
            // would be cut there.)
            if let knownSize, n < asked && bytesRead >= knownSize { reachedEnd = true }
            if let last = Platform.findLastByte(terminator, in: buffer + searchedUpTo, count: length - searchedUpTo) {
                let blockEnd = last - UnsafePointer(buffer) + 1
                pendingStart = blockEnd
                pendingEnd = length
                lastBlockIsUnterminated = false
                return UnsafeBufferPointer(start: buffer, count: blockEnd)
            }
            searchedUpTo = length
        }
        guard length > 0 else { return nil }
        if buffer[length - 1] != terminator && length > maximumRecordLength {
            throw .recordTooLong(limit: maximumRecordLength)
        }
        lastBlockIsUnterminated = buffer[length - 1] != terminator
        return UnsafeBufferPointer(start: buffer, count: length)
    }

    /// Reads up to `count` bytes from the source.
    private func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws(ReadError) -> Int {
        switch source {
        case .descriptor(let descriptor):
            do {
                return try descriptor.read(into: destination, count: count)
            } catch {
                throw .system(error)
            }
        case .memory(let bytes):
            let n = min(count, bytes.count - memoryOffset)
            if n > 0 { destination.update(from: bytes.baseAddress! + memoryOffset, count: n) }
            memoryOffset += n
            return n
        }
    }

    /// The next window of the mapped file, extended to the next terminator (a long line
    /// simply makes a long block: the mapping is contiguous).
    private func nextMappedBlock(_ file: MappedFile) throws(ReadError) -> UnsafeBufferPointer<UInt8>? {
        if file.wasCutShort { throw .changedWhileRead }
        let all = file.bytes
        // The previous block has been searched: drop its pages.
        file.release(upTo: mappedOffset)
        guard mappedOffset < all.count, let base = all.baseAddress else { return nil }
        let start = mappedOffset
        var end = min(start + mappedWindow, all.count)
        if end < all.count {
            // The record that crosses the window's end: look for its terminator no further
            // than the limit allows (so a file without any is not read to its end).
            let recordStart = Platform.findLastByte(terminator, in: base + start, count: end - start).map { $0 + 1 - base } ?? start
            let searchEnd = min(all.count, recordStart + maximumRecordLength + 1)
            if let t = Platform.findByte(terminator, in: base + end, count: searchEnd - end) {
                end = t - base + 1
            } else if searchEnd == all.count && all.count - recordStart <= maximumRecordLength {
                end = all.count
            } else {
                throw file.wasCutShort ? .changedWhileRead : .recordTooLong(limit: maximumRecordLength)
            }
        }
        // Zeros where the file was cut short: never hand them out.
        if file.wasCutShort { throw .changedWhileRead }
        mappedOffset = end
        file.prefetch(end, length: mappedWindow)
        lastBlockIsUnterminated = end == all.count && all[end - 1] != terminator
        return UnsafeBufferPointer(rebasing: all[start..<end])
    }

    private func grow() { grow(to: min(capacity * 2, maximumRecordLength + 1)) }

    private func grow(to newCapacity: Int) {
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: buffer, count: capacity)
        buffer.deallocate()
        buffer = bigger
        capacity = newCapacity
    }
}

/// Why `RecordReader` could not go on.
package enum ReadError: Error, Equatable, CustomStringConvertible {
    /// A read failed.
    case system(SystemError)
    /// A record is longer than the limit.
    case recordTooLong(limit: Int)
    /// The file shrank while it was read (it was truncated or rewritten in place).
    case changedWhileRead

    /// A lowercase message for `tool: FILE: message`.
    package var description: String {
        switch self {
        case .system(let error): return error.description
        case .recordTooLong(let limit):
            return "a line is longer than \(limit / (1024 * 1024)) MiB (the limit)"
        case .changedWhileRead: return "changed while being read"
        }
    }
}
