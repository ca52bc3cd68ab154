import Foundation
import Testing

@testable import WayfindCore

@Suite("RouteGraph: JSON writer")
struct JSONWriterTests {
    static let awkwardStrings: [String] = [
        "", "plain", "quote \" and backslash \\", "slash / stays", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}",
        "\u{7F} delete", "é ü 日本 😀", "\u{2028}\u{2029}", "line\nbreak", String(repeating: "ab\"", count: 100),
    ]

    @Test(arguments: awkwardStrings)
    func stringsRoundTripThroughOurReaderAndFoundation(_ text: String) throws {
        var writer = JSONWriter()
        writer.beginArray()
        writer.string(text)
        writer.endArray()
        let bytes = writer.bytes
        let ours = try bytes.withUnsafeBytes { buffer throws(JSONError) -> String in
            var reader = JSONReader(buffer)
            try reader.beginArray()
            _ = try reader.nextElement()
            let value = try reader.readString()
            _ = try reader.nextElement()
            try reader.finish()
            return value
        }
        #expect(ours == text)
        let theirs = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String]
        #expect(theirs == [text])
    }

    @Test func controlCharactersUseShortEscapesWhereJSONHasThem() {
        var writer = JSONWriter()
        writer.string("\u{8}\u{C}\n\r\t\u{1}\u{1F}\"\\")
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #""\b\f\n\r\t\u0001\u001f\"\\""#)
    }

    @Test(arguments: [Int64.min, -1, 0, 7, 10, 1_700_000_000, .max])
    func integersAreWrittenInFull(_ value: Int64) {
        var writer = JSONWriter()
        writer.integer(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
    }

    @Test func wrappedContainersPutOneMemberPerLine() {
        var writer = JSONWriter(wrapDepth: 2)
        writer.beginObject()
        writer.key("a")
        writer.beginArray()
        for n in 1...2 {
            writer.beginObject()
            writer.key("n")
            writer.integer(Int64(n))
            writer.key("s")
            writer.string("x")
            writer.endObject()
        }
        writer.endArray()
        writer.key("b")
        writer.beginArray()
        writer.endArray()
        writer.key("c")
        writer.null()
        writer.key("d")
        writer.bool(true)
        writer.endObject()
        writer.finish()
        let expected = """
            {
              "a": [
                {"n":1,"s":"x"},
                {"n":2,"s":"x"}
              ],
              "b": [],
              "c": null,
              "d": true
            }

            """
        let actual = String(decoding: writer.bytes, as: UTF8.self)
        #expect(actual == expected, "expected:\n\(expected)\nactual:\n\(actual)")
    }
}
