import Foundation
import Testing

@testable import WayfindCore

@Suite("RouteGraph: JSON writing")
struct JSONWriterTests {
    static let awkwardStrings: [String] = [
        "", "plain", "quote \" and backslash \\", "slash / stays", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}",
        "\u{7F} delete", "é ü 日本 😀", "\u{2028}\u{2029}", "line\nbreak", String(repeating: "ab\"", count: 100),
    ]

    @Test(arguments: awkwardStrings)
    func stringsRoundTripThroughOurReaderAndFoundation(_ text: String) throws {
        var bytes = Array("[".utf8)
        JSONWriter.appendQuoted(text, to: &bytes)
        bytes += Array("]".utf8)
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
        var bytes: [UInt8] = []
        JSONWriter.appendQuoted("\u{8}\u{C}\n\r\t\u{1}\u{1F}\"\\", to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #""\b\f\n\r\t\u0001\u001f\"\\""#)
    }

    @Test(arguments: [Int64.min, -1, 0, 7, 10, 1_700_000_000, .max])
    func integersAreWrittenInFull(_ value: Int64) {
        var bytes: [UInt8] = []
        JSONWriter.appendInteger(value, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == String(value))
    }

    @Test func suggestionsAreAnArrayOfOneObjectPerLine() {
        let json = RouteGraphSuggest.json([
            Suggestion(place: "City \"Center\"", score: 12, source: .edge),
            Suggestion(place: "Gym", score: 0.125, source: .habit),
        ])
        #expect(
            String(decoding: json, as: UTF8.self) == """
                [
                  {"place":"City \\"Center\\"","score":12,"source":"edge"},
                  {"place":"Gym","score":0.125,"source":"habit"}
                ]

                """)
        #expect(RouteGraphSuggest.json([]) == Array("[]\n".utf8))
    }
}
