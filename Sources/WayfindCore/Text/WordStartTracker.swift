/// Classes of ASCII bytes, one table lookup each.
enum ASCIIClasses {
    nonisolated(unsafe) static let table: UnsafeMutablePointer<ScalarClass> = {
        let t = UnsafeMutablePointer<ScalarClass>.allocate(capacity: 256)
        for b in 0..<256 {
            t[b] = b < 0x80 ? UnicodeFolding.asciiClass(UInt8(b)) : .separator
        }
        return t
    }()

    @inline(__always)
    static func of(_ byte: UInt8) -> ScalarClass { table[Int(byte)] }
}

/// Decides where words start as characters go by, one character behind: whether a word
/// starts at a character depends on the next one (`WordMode.startsWord`).
struct WordStartTracker {
    let camelCase: Bool
    var previous: ScalarClass = .separator
    var current: ScalarClass = .separator
    var currentPosition: Int32 = 0

    @inline(__always)
    init(camelCase: Bool) { self.camelCase = camelCase }

    /// Feeds the next character's class and folded position (marks are skipped); appends
    /// the position of the character before it if a word starts there.
    @inline(__always)
    mutating func advance(_ cls: ScalarClass, at position: Int32, into starts: UnsafeMutablePointer<Int32>, count: inout Int) {
        if cls == .mark { return }
        if WordMode.startsWord(previous: previous, current: current, next: cls, camelCase: camelCase) {
            starts[count] = currentPosition
            count += 1
        }
        previous = current
        current = cls
        currentPosition = position
    }

    /// Ends the line: decides the last character.
    @inline(__always)
    mutating func finish(into starts: UnsafeMutablePointer<Int32>, count: inout Int) {
        advance(.separator, at: 0, into: starts, count: &count)
    }
}
