/// Place names: how a name is shown, and what makes two names one place.
///
/// A name's *display spelling* is the name with the whitespace at both ends dropped and
/// every run of whitespace inside made one space. Its *key* is the display spelling with
/// every scalar case- and accent-folded (`UnicodeFolding`, smartgrep's folding):
///
///     "  Zürich   HB "   display "Zürich HB"   key "zurich hb"
///     "ZURICH hb"        display "ZURICH hb"   key "zurich hb"   (the same place)
///
/// Two names are the same place exactly when their keys are equal, byte for byte; an empty
/// key (a name of whitespace only) names no place. This file is the only place the rule is
/// written: the full reader, the suggestion scan and the visit patch all call `withKey`,
/// `hasKey` or `normalize`.
enum PlaceName {
    /// The longest folded form of one scalar (see `FoldedScalar`).
    private static let maximumFoldedBytes = 7

    /// Calls `body` with the key of `name` (valid UTF-8), in a buffer valid only during
    /// the call: no allocation, for the scans that fold every name of a file.
    @inline(__always)
    static func withKey<Result>(_ name: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count * maximumFoldedBytes + 8) { key in
            let count = fold(name, key: key.baseAddress!, display: nil, expected: nil)!.keyCount
            return body(UnsafeRawBufferPointer(start: key.baseAddress, count: count))
        }
    }

    /// Whether the key of `name` (valid UTF-8) is `key`: `withKey` that stops at the first
    /// byte that differs, for the scans that look for one place among every name.
    @inline(__always)
    static func hasKey(_ name: UnsafeRawBufferPointer, _ key: UnsafeRawBufferPointer) -> Bool {
        // Most names differ from the key within their first few bytes or their last, told
        // here without a call while they are printable ASCII: each is one key byte, the
        // next from the start, the one before from the end. (Paths share their first
        // bytes, `/home/…`; names that begin with a letter of another script, their last.)
        var index = 0
        while index < name.count, index < 8, isPlainASCII(name[index]) {
            guard index < key.count, key[index] == keyByte(ofPlainASCII: name[index]) else { return false }
            index &+= 1
        }
        var back = 1
        while back <= name.count, back <= 8, isPlainASCII(name[name.count &- back]) {
            guard back <= key.count, key[key.count &- back] == keyByte(ofPlainASCII: name[name.count &- back]) else { return false }
            back &+= 1
        }
        return hasKeyFolding(name, key)
    }

    @inline(never)
    private static func hasKeyFolding(_ name: UnsafeRawBufferPointer, _ key: UnsafeRawBufferPointer) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count * maximumFoldedBytes + 8) { buffer in
            fold(name, key: buffer.baseAddress!, display: nil, expected: key)?.keyCount == key.count
        }
    }

    /// Whether `byte` is printable ASCII other than space: its own display byte, and one
    /// key byte.
    @inline(__always)
    private static func isPlainASCII(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x80
    }

    /// The key byte of a printable ASCII byte: itself, A-Z lowered.
    @inline(__always)
    private static func keyByte(ofPlainASCII byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// Calls `body` with the display spelling of `name` (valid UTF-8), in a buffer valid
    /// only during the call: no allocation, for the scans that filter many names.
    @inline(__always)
    static func withDisplay<Result>(_ name: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count * (maximumFoldedBytes + 1) + 16) { buffer in
            let display = buffer.baseAddress!
            let displayCount = fold(name, key: display + name.count + 8, display: display, expected: nil)!.displayCount
            return body(UnsafeBufferPointer(start: display, count: displayCount))
        }
    }

    /// The display spelling and key of `name` (valid UTF-8).
    static func normalize(_ name: UnsafeRawBufferPointer) -> (display: String, key: String) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count * (maximumFoldedBytes + 1) + 16) { buffer in
            let display = buffer.baseAddress!
            let key = display + name.count + 8
            let (keyCount, displayCount) = fold(name, key: key, display: display, expected: nil)!
            return (
                String(decoding: UnsafeBufferPointer(start: display, count: displayCount), as: UTF8.self),
                String(decoding: UnsafeBufferPointer(start: key, count: keyCount), as: UTF8.self)
            )
        }
    }

    /// The display spelling and key of `name`; the display spelling is `name` itself (no
    /// copy) when it needs no change.
    static func normalize(_ name: String) -> (display: String, key: String) {
        var name = name
        let (display, key) = name.withUTF8 { normalize(UnsafeRawBufferPointer($0)) }
        return (PlaceKey.sameBytes(display, name) ? name : display, key)
    }

    /// The rule itself: writes the key of `name` to `key` (room for 7 bytes per input
    /// byte, and 8 more) and, when `display` is given, the display spelling to it (room
    /// for the input and 8 more); returns both lengths. With `expected`, stops and returns
    /// nil as soon as the key differs from it. Names are valid UTF-8 (strings, or read by
    /// the validating reader).
    @inline(__always)
    private static func fold(
        _ name: UnsafeRawBufferPointer, key: UnsafeMutablePointer<UInt8>, display: UnsafeMutablePointer<UInt8>?,
        expected: UnsafeRawBufferPointer?
    ) -> (keyCount: Int, displayCount: Int)? {
        guard let base = name.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return (0, 0) }
        let count = name.count
        var keyCount = 0
        // With no display, only whether it has begun counts.
        var displayCount = 0
        var pendingSpace = false
        var index = 0
        /// Appends one key byte; false when it is not the expected one.
        @inline(__always)
        func emit(_ byte: UInt8) -> Bool {
            if let expected {
                guard keyCount < expected.count, expected[keyCount] == byte else { return false }
            }
            key[keyCount] = byte
            keyCount &+= 1
            return true
        }
        @inline(__always)
        func emitPendingSpace() -> Bool {
            guard pendingSpace else { return true }
            pendingSpace = false
            display?[displayCount] = 0x20
            displayCount &+= 1
            return emit(0x20)
        }
        while index < count {
            let byte = base[index]
            if isPlainASCII(byte) {
                guard emitPendingSpace(), emit(keyByte(ofPlainASCII: byte)) else { return nil }
                display?[displayCount] = byte
                displayCount &+= 1
                index &+= 1
                continue
            }
            let start = index
            var scalar: UInt32
            if byte < 0x80 {
                scalar = UInt32(byte)
                index &+= 1
            } else {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                scalar = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                var next = index &+ 1
                while next < index &+ length && next < count {
                    scalar = scalar << 6 | UInt32(base[next] & 0x3F)
                    next &+= 1
                }
                index = next
            }
            let isSpace =
                scalar < 0x80 ? TextFolding.isASCIIWhitespace(UInt8(scalar)) : TextFolding.isUnicodeWhitespace(scalar)
            if isSpace {
                if displayCount > 0 { pendingSpace = true }
                continue
            }
            guard emitPendingSpace() else { return nil }
            if let display {
                for offset in start..<index { display[displayCount &+ offset &- start] = base[offset] }
            }
            displayCount &+= index &- start
            var folded = UnicodeFolding.foldedBytes(of: scalar).rawValue
            for _ in 0..<Int(truncatingIfNeeded: folded >> 56) {
                guard emit(UInt8(truncatingIfNeeded: folded)) else { return nil }
                folded >>= 8
            }
        }
        return (keyCount, displayCount)
    }

}

/// A place key that hashes and compares by its UTF-8 bytes.
///
/// `String`'s own `==` and hashing follow Unicode canonical equivalence; a key is already
/// folded, and the rule (see `PlaceName`) is byte equality, which the scans of a file use
/// too.
struct PlaceKey: Hashable, Sendable {
    /// The key's text.
    let text: String

    init(_ text: String) {
        self.text = text
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    static func == (lhs: PlaceKey, rhs: PlaceKey) -> Bool {
        sameBytes(lhs.text, rhs.text)
    }

    /// Whether two strings have the same UTF-8 bytes (no normalization).
    static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var left = lhs
        var right = rhs
        return left.withUTF8 { leftBytes in right.withUTF8 { leftBytes.elementsEqual($0) } }
    }
}
