#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file mapped read-only into memory, for reading large inputs without copying
/// them through `read(2)` (the copy was over half the time of a search for a rare word).
///
/// Pages already searched are released with `MADV_DONTNEED`, so resident memory stays at
/// about one window however large the file is.
public final class MappedFile {
    /// The mapped bytes.
    public let bytes: UnsafeBufferPointer<UInt8>

    /// Maps `descriptor` if it is a regular file of at least `minimumSize` bytes; nil
    /// otherwise (pipes, terminals, small files: those are read). With `populate`, every
    /// page is mapped at once (`MAP_POPULATE`), for a file that will be read whole:
    /// one call instead of a page fault per few pages.
    public init?(_ descriptor: FileDescriptor, minimumSize: Int, populate: Bool = false) {
        var info = stat()
        guard fstat(descriptor.rawValue, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        guard size >= minimumSize else { return nil }
        // Start at the current offset, so `cmd < file` after a partial read stays right.
        let offset = Int(lseek(descriptor.rawValue, 0, SEEK_CUR))
        guard offset == 0 else { return nil }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), descriptor.rawValue, 0),
            address != MAP_FAILED
        else { return nil }
        // Not MADV_SEQUENTIAL: it lets the kernel drop the file's pages from the page cache
        // behind us, so the next search of the same file reads the disk again.
        bytes = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size)
    }

    /// Asks the kernel to read `[offset, offset + length)` ahead.
    public func prefetch(_ offset: Int, length: Int) {
        let page = 4096
        let start = offset / page * page
        let end = min(offset + length, bytes.count)
        guard end > start, let base = bytes.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, MADV_WILLNEED)
    }

    /// Maps every page now (`MADV_POPULATE_READ`, Linux 5.14), as `populate` does at
    /// `init`; where that is not supported, pages are mapped as they are read.
    public func populate() {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let populateRead: Int32 = 22  // MADV_POPULATE_READ, not in every libc's headers
        _ = madvise(UnsafeMutableRawPointer(mutating: base), bytes.count, populateRead)
    }

    /// Releases the pages of `[0, upTo)` that are whole pages.
    public func release(upTo: Int) {
        let page = 4096
        let length = upTo / page * page
        guard length > 0, let base = bytes.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), length, MADV_DONTNEED)
    }

    deinit {
        if let base = bytes.baseAddress {
            _ = munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        }
    }
}
