/// A regular file mapped read-only into memory, for reading large inputs without copying
/// them through `read(2)` (the copy was over half the time of a search for a rare word).
///
/// Pages already searched are released with `MADV_DONTNEED`, so resident memory stays at
/// about one window however large the file is.
///
/// A file that shrinks while it is mapped (logrotate's copytruncate, `cp` over it) makes
/// the kernel raise SIGBUS at the first access past its new end. `ShrinkGuard` catches
/// that fault: it puts zero pages in place of the lost ones, so the access goes on, and
/// sets `wasCutShort`, which the reader turns into an error.
package final class MappedFile {
    /// The mapped bytes.
    package let bytes: UnsafeBufferPointer<UInt8>
    /// This mapping's slot in `ShrinkGuard`, if it got one.
    private let guardSlot: Int?

    /// Whether the file shrank under the mapping (the bytes past its new end read as zeros).
    package var wasCutShort: Bool { guardSlot.map(ShrinkGuard.wasCutShort) ?? false }

    /// Maps `descriptor` if it is a regular file of at least `minimumSize` bytes; nil
    /// otherwise (pipes, terminals, small files: those are read). `alreadyRead`: the caller
    /// has read that many bytes of it from its start, and wants the whole file.
    package init?(_ descriptor: FileDescriptor, minimumSize: Int, alreadyRead: Int = 0) {
        guard let size = descriptor.regularFileSize, size >= minimumSize,
            // Only from the start, so `cmd < file` after a partial read stays right.
            systemOffset(descriptor.rawValue) == alreadyRead, let address = systemMap(descriptor.rawValue, size: size)
        else { return nil }
        // Not MADV_SEQUENTIAL: it lets the kernel drop the file's pages from the page cache
        // behind us, so the next search of the same file reads the disk again.
        bytes = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size)
        guardSlot = ShrinkGuard.register(address, size: size)
    }

    /// Asks the kernel to read `[offset, offset + length)` ahead.
    package func prefetch(_ offset: Int, length: Int) {
        let page = 4096
        let start = offset / page * page
        let end = min(offset + length, bytes.count)
        guard end > start, let base = bytes.baseAddress else { return }
        systemAdvise(base + start, size: end - start, neededSoon: true)
    }

    /// Releases the pages of `[0, upTo)` that are whole pages.
    package func release(upTo: Int) {
        let page = 4096
        let length = upTo / page * page
        guard length > 0, let base = bytes.baseAddress else { return }
        systemAdvise(base, size: length, neededSoon: false)
    }

    deinit {
        if let guardSlot { ShrinkGuard.unregister(guardSlot) }
        if let base = bytes.baseAddress { systemUnmap(base, size: bytes.count) }
    }
}

/// The SIGBUS handler that keeps a shrinking mapped file from killing the process.
///
/// Mappings register in a few fixed slots, written before they are read and never
/// allocated in the handler. A fault inside a registered mapping replaces the rest of
/// the mapping with anonymous zero pages, marks the slot, and returns, so the faulting
/// load runs again and reads zeros. Any other SIGBUS goes to the handler that was there
/// before (`systemCatchBusErrors`).
enum ShrinkGuard {
    /// One mapping: start, length, and whether it was cut short (0 or 1).
    struct Slot {
        var start: UInt
        var length: UInt
        var cutShort: UInt
    }

    static let slotCount = 8
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<Slot> = {
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: slotCount)
        slots.initialize(repeating: Slot(start: 0, length: 0, cutShort: 0), count: slotCount)
        return slots
    }()
    nonisolated(unsafe) static var pageSize: UInt = 4096

    /// Taken to install the handler and to claim or free a slot: smartgrep -j maps files
    /// on several threads at once (the handler itself takes no lock).
    static let lock = Platform.Monitor(conditions: 0)

    /// Registers a mapping; nil when every slot is taken (the mapping is then unguarded).
    static func register(_ start: UnsafeMutableRawPointer, size: Int) -> Int? {
        lock.locked {
            _ = installed
            for i in 0..<slotCount where slots[i].length == 0 {
                slots[i] = Slot(start: UInt(bitPattern: start), length: UInt(size), cutShort: 0)
                return i
            }
            return nil
        }
    }

    static func unregister(_ slot: Int) { lock.locked { slots[slot] = Slot(start: 0, length: 0, cutShort: 0) } }

    static func wasCutShort(_ slot: Int) -> Bool { slots[slot].cutShort != 0 }

    /// Installs the handler, the first time it is read (under `lock`).
    private static let installed: Bool = {
        _ = slots  // initialized now, never in the handler
        pageSize = UInt(max(systemPageSize(), 4096))
        systemCatchBusErrors(handleFault)
        return true
    }()

    /// The handler: async-signal-safe (plain loads and stores, `mmap`); whether the fault
    /// at `address` was in a registered mapping.
    private static let handleFault: @convention(c) (UInt) -> Bool = { address in
        for i in 0..<ShrinkGuard.slotCount {
            let slot = ShrinkGuard.slots[i]
            guard slot.length > 0, address >= slot.start, address - slot.start < slot.length else { continue }
            let page = ShrinkGuard.pageSize
            let from = (address - slot.start) / page * page
            systemMapZeros(at: slot.start + from, size: Int(slot.length - from))
            ShrinkGuard.slots[i].cutShort = 1
            return true
        }
        return false
    }
}
