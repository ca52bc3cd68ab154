#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes new contents over a reused spare (see `FileSystem.writeAtomically`), skipping
/// the blocks that already hold the same bytes.
///
/// The spare is the version from two saves ago, and a visit changes a few lines, so most
/// of it already reads as the new version: a visit to a graph of 100,000 edges (14 MB)
/// dirties a few pages instead of all 3,400, and the `fsync` that follows waits for
/// those only. Whatever the spare holds, it ends up holding exactly the new bytes: every
/// block is compared with what the file holds now, and the caller truncates it to the
/// new size.
///
/// The comparison reads the spare through a shared mapping, and only when every page of
/// it is in memory (`mincore`): reading it back from the disk would cost more than
/// writing it. Otherwise, and where the spare cannot be mapped, everything is written.
final class ChangedBlockWriter {
    /// The unit of comparison: a page, the unit the kernel writes back.
    static let blockSize = 4096
    /// The most buffers handed to one `pwritev` (the kernel's `IOV_MAX`).
    private static let maximumBuffers = 1024

    private let descriptor: Int32
    private let path: String
    /// The spare's current bytes, mapped; empty when it holds none.
    private let old: UnsafeRawBufferPointer
    /// Consecutive changed pieces not yet written: `count` buffers for the bytes from
    /// `runStart` on.
    private let buffers: UnsafeMutableBufferPointer<iovec>
    private var count = 0
    private var runStart = 0
    private var runEnd = 0
    /// How many bytes were written (for tests).
    private(set) var bytesWritten = 0

    /// A writer over the spare open for reading and writing at `descriptor`, which holds
    /// `size` bytes; nil when its bytes cannot be compared (not all in memory, or not
    /// mappable), and then the caller writes everything.
    init?(descriptor: Int32, size: Int, path: String) {
        self.descriptor = descriptor
        self.path = path
        if size == 0 {
            old = UnsafeRawBufferPointer(start: nil, count: 0)
        } else {
            guard let address = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), address != MAP_FAILED else {
                return nil
            }
            guard Self.isResident(address, size: size) else {
                munmap(address, size)
                return nil
            }
            old = UnsafeRawBufferPointer(start: address, count: size)
        }
        buffers = .allocate(capacity: Self.maximumBuffers)
    }

    /// Whether every page of the mapping at `address` is in the page cache.
    private static func isResident(_ address: UnsafeMutableRawPointer, size: Int) -> Bool {
        let pages = (size + blockSize - 1) / blockSize
        let vector = UnsafeMutablePointer<UInt8>.allocate(capacity: pages)
        defer { vector.deallocate() }
        guard mincore(address, size, vector) == 0 else { return false }
        for page in 0..<pages where vector[page] & 1 == 0 { return false }
        return true
    }

    /// Writes `pieces`, one after another from the file's start. Throws `cannotWrite` as
    /// a plain write would.
    func write(_ pieces: [UnsafeRawBufferPointer]) throws(FileSystemError) {
        var offset = 0
        for piece in pieces {
            guard let base = piece.baseAddress else { continue }
            var done = 0
            while done < piece.count {
                // Up to the end of this block of the file, so that each comparison is of
                // at most one block.
                let length = min(piece.count - done, (offset / Self.blockSize + 1) * Self.blockSize - offset)
                let isSame =
                    offset + length <= old.count && memcmp(base + done, old.baseAddress! + offset, length) == 0
                if !isSame { try add(base + done, length: length, at: offset) }
                done += length
                offset += length
            }
        }
        try flush()
    }

    /// Queues `length` changed bytes at `pointer` for `offset` in the file, after the
    /// run when they continue it.
    private func add(_ pointer: UnsafeRawPointer, length: Int, at offset: Int) throws(FileSystemError) {
        if count > 0 && (offset != runEnd || count == Self.maximumBuffers) { try flush() }
        if count == 0 { (runStart, runEnd) = (offset, offset) }
        buffers[count] = iovec(iov_base: UnsafeMutableRawPointer(mutating: pointer), iov_len: length)
        count += 1
        runEnd += length
    }

    /// Writes the queued run, all of it (a short write goes on from where it stopped).
    private func flush() throws(FileSystemError) {
        var first = 0
        var offset = runStart
        while first < count {
            let result = pwritev(descriptor, buffers.baseAddress! + first, Int32(count - first), off_t(offset))
            if result < 0 {
                if errno == EINTR { continue }
                throw .cannotWrite(path: path, errno: errno)
            }
            if result == 0 { throw .cannotWrite(path: path, errno: EIO) }
            offset += result
            bytesWritten += result
            var left = result
            while left > 0 {
                let length = buffers[first].iov_len
                if left >= length {
                    left -= length
                    first += 1
                } else {
                    buffers[first].iov_base = buffers[first].iov_base.map { $0 + left }
                    buffers[first].iov_len -= left
                    left = 0
                }
            }
        }
        count = 0
    }

    deinit {
        if let base = old.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), old.count) }
        buffers.deallocate()
    }
}
