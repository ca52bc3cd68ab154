/// Which word starts are used: a bit mask, or a byte array for lines of more than 64 words.
struct UsedStarts {
    var mask: UInt64
    let bytes: UnsafeMutablePointer<Bool>?

    @inline(__always)
    subscript(index: Int) -> Bool {
        get {
            if let bytes { return bytes[index] }
            return mask & (1 << UInt64(index)) != 0
        }
        set {
            if let bytes {
                bytes[index] = newValue
            } else if newValue {
                mask |= 1 << UInt64(index)
            } else {
                mask &= ~(1 << UInt64(index))
            }
        }
    }
}

/// A growable raw buffer for scratch data that lives as long as its owner.
struct ScratchBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    /// Makes room for `needed` elements (contents are not kept).
    @inline(__always)
    mutating func ensureCapacity(_ needed: Int) {
        if needed <= capacity { return }
        base.deallocate()
        capacity = max(needed, capacity * 2)
        base = .allocate(capacity: capacity)
    }

    func deallocate() { base.deallocate() }
}
