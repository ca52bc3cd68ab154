import WayfindCore

/// The lines of a tool's standard input, one at a time, as they arrive: a program can
/// write a question, read the answer and write the next (a search box keeping one
/// process), and `yes paris | magickey-suggest | head -1` ends at once. Memory is bounded
/// by the longest line accepted, whatever the input.
struct InputLines {
    /// One line: its text, or that it is not valid UTF-8 (the caller reports it and goes
    /// on with the next).
    enum Line: Equatable {
        case text(String)
        case invalidUTF8
    }

    /// The longest line accepted (1 MiB, as a gazetteer row): a query or a key is a few
    /// dozen bytes; input without line ends (`/dev/zero`) stops with an error.
    static let maximumLineLength = 1 << 20

    private let reader: RecordReader
    private let terminator: UInt8
    /// What the input is called in messages (`standard input`).
    let what: String
    private var block = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var position = 0
    /// The number of the line `next()` returned last, from 1.
    private(set) var number = 0

    /// The lines of `descriptor`, ended by `terminator` (a newline, or NUL for `-z`).
    init(_ descriptor: FileDescriptor, terminator: UInt8 = 0x0A, what: String = "standard input") {
        reader = RecordReader(descriptor, terminator: terminator, maximumRecordLength: Self.maximumLineLength)
        self.terminator = terminator
        self.what = what
    }

    /// The next line without its terminator (and a newline-ended line without a last
    /// carriage return), or nil at the end of the input. A read that fails, or a line
    /// longer than the limit, ends the input with an error.
    mutating func next() throws(ToolError) -> Line? {
        if position >= block.count {
            do {
                guard let next = try reader.nextBlock() else { return nil }
                block = next
            } catch {
                throw ToolError("cannot read \(what): \(error.description.lowercasedFirst())")
            }
            position = 0
        }
        let start = block.baseAddress! + position
        let end = Platform.findByte(terminator, in: start, count: block.count - position) ?? block.baseAddress! + block.count
        position = end - block.baseAddress! + 1
        number += 1
        var line = UnsafeBufferPointer(start: start, count: end - start)
        if terminator == 0x0A, line.last == 0x0D { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        guard let text = String(validating: line, as: UTF8.self) else { return .invalidUTF8 }
        return .text(text)
    }

    /// The message for a line that is not valid UTF-8.
    var invalidMessage: String { "\(what): line \(number) is not valid UTF-8" }
}
