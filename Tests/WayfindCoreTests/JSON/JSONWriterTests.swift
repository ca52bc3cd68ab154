import Foundation
import Testing

@testable import WayfindCLI
@testable import WayfindCore

@Suite("JSON writing")
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

    /// The one escaping rule, as a table: short forms where JSON has them, `\u00XX` for
    /// the other C0 controls, everything else (`/`, DEL, U+2028, non-BMP) as UTF-8.
    static let escapes: [(String, String)] = [
        ("", #""""#),
        ("a\u{8}b", #""a\bb""#),
        ("\u{C}\n\r\t", #""\f\n\r\t""#),
        ("\u{0}\u{1}\u{B}\u{1F}", #""\u0000\u0001\u000b\u001f""#),
        ("\"\\", #""\"\\""#),
        ("a/b", #""a/b""#),
        ("\u{7F}", "\"\u{7F}\""),
        ("\u{2028}\u{2029}", "\"\u{2028}\u{2029}\""),
        ("😀 日本", "\"😀 日本\""),
    ]

    @Test func escapingFollowsOneTable() {
        for (text, expected) in Self.escapes {
            var bytes: [UInt8] = []
            JSONWriter.appendQuoted(text, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(text.debugDescription)")
        }
    }

    static let nastyName = "Café \"Zürich\\\u{8}\u{1}\u{1F}\t\n\u{7F}\u{2028}😀/"

    static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONWriter.appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func readBack(_ bytes: [UInt8]) throws -> String {
        try bytes.withUnsafeBytes { buffer throws(JSONError) -> String in
            var reader = JSONReader(buffer)
            return try reader.readString()
        }
    }

    @Test func magickeyJSONTextEscapesLikeTheWriter() throws {
        var json = JSONText()
        json.string(Self.nastyName)
        #expect(String(decoding: json.bytes, as: UTF8.self) == Self.quoted(Self.nastyName))
        #expect(try Self.readBack(json.bytes) == Self.nastyName)
    }

    @Test func arcGISErrorsEscapeLikeTheWriter() {
        let line = ArcGISError.json(code: 400, message: Self.nastyName)
        #expect(line.contains("[" + Self.quoted(Self.nastyName) + "]"))
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String: Any]]
        #expect((object?["error"]?["details"] as? [String]) == [Self.nastyName])
    }

    @Test func routeGraphSuggestEscapesLikeTheWriter() {
        let json = String(decoding: RouteGraphSuggest.json([Suggestion(place: Self.nastyName, score: 1, source: .edge)]), as: UTF8.self)
        #expect(json.contains(#"{"place":"# + Self.quoted(Self.nastyName) + ","))
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
