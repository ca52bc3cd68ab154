/// A new version of a file described as pieces: ranges of the old bytes, kept as they
/// are, and new bytes in between. Saving it writes the pieces in order, so the bulk of
/// a large file goes from the old mapping to the new file without being rebuilt.
public struct FilePatch: Sendable, Equatable {
    /// One piece of the new file.
    public enum Piece: Sendable, Equatable {
        /// These bytes of the old file, unchanged.
        case old(Range<Int>)
        /// New bytes.
        case new([UInt8])
    }

    /// The pieces, in file order.
    public var pieces: [Piece] = []

    /// An empty patch.
    public init() {}

    /// Appends the old bytes `range` (merged with a preceding old range that ends where
    /// it starts); an empty range adds nothing.
    public mutating func keep(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        if case .old(let previous) = pieces.last, previous.upperBound == range.lowerBound {
            pieces[pieces.count - 1] = .old(previous.lowerBound..<range.upperBound)
        } else {
            pieces.append(.old(range))
        }
    }

    /// Appends new bytes.
    public mutating func add(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        pieces.append(.new(bytes))
    }

    /// The whole new file, given the old one's bytes.
    public func applied(to old: UnsafeRawBufferPointer) -> [UInt8] {
        var result: [UInt8] = []
        for piece in pieces {
            switch piece {
            case .old(let range): result.append(contentsOf: UnsafeRawBufferPointer(rebasing: old[range]))
            case .new(let bytes): result.append(contentsOf: bytes)
            }
        }
        return result
    }
}
