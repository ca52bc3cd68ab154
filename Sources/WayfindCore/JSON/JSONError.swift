/// A problem found while reading a JSON document, with the place it was found.
///
/// The reader records only the byte offset while it runs, because that is free; the
/// line and column are computed once, when the error is made, by scanning the bytes
/// before it. Columns count Unicode scalars, not bytes, so they match what an editor
/// shows for a line with accented place names.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, lowercase, without position: `expected ',' or '}' after a member`.
    public var message: String
    /// The zero-based byte offset of the offending byte (the length of the input at its end).
    public var offset: Int
    /// The one-based line of `offset`; lines end at `\n`.
    public var line: Int
    /// The one-based column of `offset`, counted in Unicode scalars.
    public var column: Int

    /// Creates an error at a position already known in full.
    package init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// Creates an error at `offset` in `bytes`, computing the line and column.
    package init(message: String, offset: Int, in bytes: UnsafeRawBufferPointer) {
        var line = 1
        var column = 1
        let end = min(offset, bytes.count)
        var index = 0
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // A continuation byte belongs to the scalar already counted.
                column += 1
            }
            index += 1
        }
        self.init(message: message, offset: offset, line: line, column: column)
    }

    /// `line 3, column 17 (byte 52): expected ',' or '}' after a member`.
    public var description: String {
        "line \(line), column \(column) (byte \(offset)): \(message)"
    }
}
