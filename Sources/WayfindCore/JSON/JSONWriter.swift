/// Writing JSON values into bytes, deterministically: strings escaped minimally (`"`, `\`
/// and control characters, in the short forms `\n`, `\t`, … where JSON has them,
/// `\u00XX` otherwise; everything else, non-ASCII included, as UTF-8, as RFC 8259 asks)
/// and integers in full: `/`, DEL and U+2028/U+2029 stay as they are. Every tool's JSON
/// goes through here (the graph file, `routegraph-suggest --json`, and `JSONText` for
/// magickey's `--json` and ArcGIS errors); their writers lay documents out themselves.
package enum JSONWriter {
    /// Appends `text` as a JSON string, quoted.
    package static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(text, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends what goes between a JSON string's quotes for `text`.
    package static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendEscaped(UnsafeRawBufferPointer($0), to: &bytes) }
    }

    private static func appendEscaped(_ text: UnsafeRawBufferPointer, to bytes: inout [UInt8]) {
        var runStart = 0
        for index in text.indices {
            let byte = text[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[runStart..<index]))
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            default:
                let hex = Array("0123456789abcdef".utf8)
                bytes += [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
            runStart = index + 1
        }
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[runStart...]))
    }

    /// Appends the decimal digits of `value`.
    package static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: String(value).utf8)
    }
}

/// JSON text built piece by piece, for the tools' `--json` output: raw pieces as given,
/// strings escaped by `JSONWriter`, the one escaper every JSON writer uses.
package struct JSONText {
    /// An empty text.
    package init() {}
    package var bytes: [UInt8] = []

    package mutating func raw(_ text: String) { bytes += Array(text.utf8) }

    package mutating func string(_ text: String) { JSONWriter.appendQuoted(text, to: &bytes) }

    package mutating func key(_ name: String) {
        string(name)
        bytes.append(0x3A)
    }
}
