/// A string that hashes and compares by its UTF-8 bytes.
///
/// `String`'s own `==` and hashing follow Unicode canonical equivalence, which for
/// non-ASCII text means normalizing to NFC on every hash and comparison; profiling a
/// 10k-edge load of names like `Zürich Süd` showed most of the time there. Place keys are
/// already folded by `RouteGraph.placeKey`, which is what defines identity, so comparing
/// their bytes is both correct and several times faster.
struct UTF8Key: Hashable, Sendable {
    /// The text.
    let string: String

    /// Wraps `string`.
    init(_ string: String) {
        self.string = string
    }

    func hash(into hasher: inout Hasher) {
        var text = string
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    static func == (lhs: UTF8Key, rhs: UTF8Key) -> Bool {
        UTF8Key.sameBytes(lhs.string, rhs.string)
    }

    /// Whether two strings have the same UTF-8 bytes (no normalization).
    static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var left = lhs
        var right = rhs
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                leftBytes.baseAddress == rightBytes.baseAddress || leftBytes.elementsEqual(rightBytes)
            }
        }
    }
}
