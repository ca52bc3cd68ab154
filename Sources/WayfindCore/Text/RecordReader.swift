/// Reads a file descriptor in large blocks and hands out runs of complete records.
///
/// Each `nextBlock()` returns bytes that end just after a terminator (`\n`, or NUL with
/// `-z`), so a caller can scan many lines at once without copying them; the unfinished
/// tail of a read waits in the buffer for the next one. A record longer than the buffer
/// grows it (a 100 MB line needs a 100 MB buffer, as in grep); ordinary input never
/// needs more than `initialCapacity`.
public final class RecordReader {
    /// Bytes per read: large enough that syscalls are rare, small enough to stay cache-warm
    /// and keep peak memory far under the 8 MB budget.
    public static let initialCapacity = 256 * 1024

    private let source: FileDescriptor
    private let terminator: UInt8
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var pendingStart = 0
    private var pendingEnd = 0
    private var reachedEnd = false
    /// True when the last block returned ended without a terminator (the file's last line).
    public private(set) var lastBlockIsUnterminated = false
    /// A large regular file is mapped instead of read (see `MappedFile`).
    private let mapped: MappedFile?
    private var mappedOffset = 0

    /// Files at least this large are mapped: below it, `read` costs less than the mapping.
    public static let mappingThreshold = 4 * 1024 * 1024
    /// Bytes handed out per block from a mapped file.
    static let mappedWindow = 1024 * 1024

    /// A reader of `source` splitting at `terminator`.
    public init(_ source: FileDescriptor, terminator: UInt8, capacity: Int = RecordReader.initialCapacity) {
        self.source = source
        self.terminator = terminator
        self.capacity = max(capacity, 16)
        buffer = .allocate(capacity: self.capacity)
        mapped = MappedFile(source, minimumSize: Self.mappingThreshold)
    }

    deinit { buffer.deallocate() }

    /// The next run of complete records, or nil at end of input. The bytes stay valid until
    /// the next call.
    public func nextBlock() throws(SystemError) -> UnsafeBufferPointer<UInt8>? {
        if let mapped { return nextMappedBlock(mapped) }
        // Move the unfinished tail of the previous read to the front.
        let pending = pendingEnd - pendingStart
        if pending > 0 && pendingStart > 0 {
            (buffer).update(from: buffer + pendingStart, count: pending)
        }
        var length = pending
        pendingStart = 0
        pendingEnd = 0
        var searchedUpTo = 0
        while !reachedEnd {
            if length == capacity { grow() }
            let n = try source.read(into: buffer + length, count: capacity - length)
            if n == 0 {
                reachedEnd = true
                break
            }
            length += n
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
        lastBlockIsUnterminated = buffer[length - 1] != terminator
        return UnsafeBufferPointer(start: buffer, count: length)
    }

    /// The next window of the mapped file, extended to the next terminator (a long line
    /// simply makes a long block: the mapping is contiguous).
    private func nextMappedBlock(_ file: MappedFile) -> UnsafeBufferPointer<UInt8>? {
        let all = file.bytes
        // The previous block has been searched: drop its pages.
        file.release(upTo: mappedOffset)
        guard mappedOffset < all.count, let base = all.baseAddress else { return nil }
        let start = mappedOffset
        var end = min(start + Self.mappedWindow, all.count)
        if end < all.count {
            if let t = Platform.findByte(terminator, in: base + end, count: all.count - end) {
                end = t - base + 1
            } else {
                end = all.count
            }
        }
        mappedOffset = end
        file.prefetch(end, length: Self.mappedWindow)
        lastBlockIsUnterminated = end == all.count && all[end - 1] != terminator
        return UnsafeBufferPointer(rebasing: all[start..<end])
    }

    private func grow() {
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
        bigger.update(from: buffer, count: capacity)
        buffer.deallocate()
        buffer = bigger
        capacity *= 2
    }
}
