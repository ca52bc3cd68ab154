import WayfindCore

/// The one buffered writer behind a tool's standard output.
///
/// Block-buffered by default (64 KiB writes), line-buffered on request (a terminal, or
/// `--line-buffered`). A write to a closed pipe sets `isClosed` and drops everything after
/// it: a tool checks `isClosed` in its loops and ends quietly with success, as a filter
/// piped into `head -1` should.
package final class OutputBuffer {
    /// Bytes are flushed when the buffer holds at least this many: large enough that a
    /// write(2) costs little per byte, small enough to stay in L2 cache.
    static let flushThreshold = 64 * 1024
    /// The room a writer starts with, doubled as output comes (to twice the threshold
    /// and beyond): a tool that prints a few lines takes it from the heap, not from a
    /// mapping of its own (malloc maps 128 KiB and more) made and unmapped for it.
    static let initialCapacity = 16 * 1024

    private let destination: FileDescriptor?
    /// Raw storage: `Array.append(contentsOf:)` cost more than the copy itself here.
    /// (`@exclusivity(unchecked)` here and below: touched for every line written, only by
    /// this class's own methods, which never overlap; the runtime checks showed in `perf`.)
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var used = 0
    /// Flush after every `endRecord()`.
    @exclusivity(unchecked) package var isLineBuffered: Bool
    /// True once the reader has gone away (EPIPE); later writes are dropped.
    @exclusivity(unchecked) package private(set) var isClosed = false
    /// The first write error other than a broken pipe, if any.
    package private(set) var writeError: SystemError?

    /// A writer to `destination`.
    package init(_ destination: FileDescriptor, lineBuffered: Bool = false) {
        self.destination = destination
        self.isLineBuffered = lineBuffered
        capacity = Self.initialCapacity
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private func reserve(_ extra: Int) {
        if used + extra <= capacity { return }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity * 2, used + extra))
        bigger.update(from: storage, count: used)
        storage.deallocate()
        storage = bigger
        capacity = max(capacity * 2, used + extra)
    }

    /// A buffer that only collects (never writes), e.g. to hold lines for sorting.
    package init(collecting: ()) {
        self.destination = nil
        self.isLineBuffered = false
        capacity = Self.initialCapacity
        storage = .allocate(capacity: capacity)
    }

    /// The number of bytes held.
    package var count: Int { used }

    /// Calls `body` with the bytes held.
    package func withCollectedBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage, count: used))
    }

    /// Drops the bytes held (a collecting buffer whose bytes were copied elsewhere).
    package func removeAll() { used = 0 }

    /// Appends raw bytes.
    @inline(__always)
    package func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count >= Self.flushThreshold && destination != nil {
            flush()
            writeDirect(UnsafeRawPointer(bytes.baseAddress!), count: bytes.count)
            return
        }
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        (storage + used).update(from: source, count: bytes.count)
        used += bytes.count
        if used >= Self.flushThreshold && destination != nil { flush() }
    }

    /// Appends raw bytes from a pointer range.
    @inline(__always)
    package func write(_ start: UnsafePointer<UInt8>, count: Int) {
        write(UnsafeBufferPointer(start: start, count: count))
    }

    /// Appends one byte.
    @inline(__always)
    package func write(byte: UInt8) {
        reserve(1)
        storage[used] = byte
        used += 1
    }

    /// Appends the UTF-8 of `text`.
    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// Appends a decimal integer.
    package func write(decimal value: Int) {
        if value < 0 {
            write(byte: UInt8(ascii: "-"))
            write(decimal: -value)
            return
        }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = value
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[19 - count] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
                count += 1
            } while n > 0
            write(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[(20 - count)...]))
        }
    }

    /// Marks the end of an output record: flushes when line-buffered or the buffer is full.
    @inline(__always)
    package func endRecord() {
        if isLineBuffered || used >= Self.flushThreshold { flush() }
    }

    /// Writes out everything buffered.
    package func flush() {
        guard used > 0, destination != nil else { return }
        writeDirect(storage, count: used)
        used = 0
    }

    private func writeDirect(_ pointer: UnsafeRawPointer, count: Int) {
        guard !isClosed, let destination else { return }
        do {
            try destination.writeAll(pointer, count: count)
        } catch {
            isClosed = true
            if !error.isBrokenPipe && writeError == nil { writeError = error }
        }
    }
}
