import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// The byte-comparison calls that read a known writer's shape (`skipLiteral`,
/// `plainNonNegativeInteger`), against one-byte-at-a-time
/// references, at every length and offset near the end of the input.
@Suite("JSONReader: the writer's-shape calls")
struct JSONReaderShapeTests {
    /// The integer `plainNonNegativeInteger` must read, by the rules in its comment.
    static func referenceInteger(_ bytes: [UInt8]) -> (value: Int64, end: Int)? {
        var end = 0
        while end < bytes.count && bytes[end] >= 0x30 && bytes[end] <= 0x39 { end += 1 }
        guard end > 0, end <= 18, end == 1 || bytes[0] != 0x30 else { return nil }
        if end < bytes.count && (bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E")) {
            return nil
        }
        return (bytes[..<end].reduce(0) { $0 * 10 + Int64($1 - 0x30) }, end)
    }

    @Test func integersAreReadAsByTheReference() {
        var random = SplitMix64(seed: 17)
        let pieces: [[UInt8]] = [
            Array("0".utf8), Array("7".utf8), Array("12345678".utf8), Array("9".utf8), Array(",".utf8),
            Array("}".utf8), Array(".5".utf8), Array("e".utf8), Array("E".utf8), Array(":".utf8), Array("/".utf8), [0xB9], [0x00],
        ]
        for _ in 0..<20_000 {
            var input: [UInt8] = []
            for _ in 0..<Int.random(in: 0...5, using: &random) { input += pieces.randomElement(using: &random)! }
            let expected = Self.referenceInteger(input)
            input.withUnsafeBytes { bytes in
                var reader = JSONReader(bytes)
                let value = reader.plainNonNegativeInteger()
                #expect(value == expected?.value, "\(input)")
                if let expected { #expect(reader.offset == expected.end, "\(input)") }
            }
        }
    }

    @Test func literalsMatchOnlyTheirExactBytes() {
        let literals: [StaticString] = [
            "}", ",\n", "abc", ",\n    ", "\n  ],\n", "abcd", "abcdefg", "\":\"", ",\"weight\":", ",\"origin\":\"", "{\"destination\":\"",
            ",\"lastVisitedAt\":", "{\n  \"edges\": [\n    ",
        ]
        var random = SplitMix64(seed: 23)
        for literal in literals {
            let text = Array(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
            for _ in 0..<500 {
                var input = text
                // Change one byte, cut the end, or add a tail.
                switch random.next() % 4 {
                case 0: input[Int.random(in: 0..<input.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
                case 1: input.removeLast(Int.random(in: 1...input.count, using: &random))
                case 2: input += [UInt8.random(in: 0...255, using: &random)]
                default: break
                }
                let expected = input.starts(with: text)
                input.withUnsafeBytes { bytes in
                    var reader = JSONReader(bytes)
                    #expect(reader.skipLiteral(literal) == expected, "\(input)")
                    #expect(reader.offset == (expected ? text.count : 0))
                }
            }
        }
    }
}
