import Foundation
import Testing

@testable import WayfindCLI
@testable import WayfindCore

/// Reads bytes as one JSON document (any value at the top level) and returns the error,
/// if any.
func validationError(_ bytes: [UInt8]) -> JSONError? {
    bytes.withUnsafeBytes { buffer in
        do throws(JSONError) {
            var reader = JSONReader(buffer)
            try reader.skipValue()
            try reader.finish()
            return nil
        } catch {
            return error
        }
    }
}

/// Whether Foundation's `JSONSerialization` accepts the bytes as a document (any value).
func foundationAccepts(_ bytes: [UInt8]) -> Bool {
    (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
}

@Suite("RouteGraph: JSON reader")
struct JSONReaderTests {
    @Test(arguments: JSONCorpus.valid)
    func validDocumentsAreAccepted(_ document: String) {
        #expect(validationError(Array(document.utf8)) == nil)
    }

    @Test(arguments: JSONCorpus.invalid)
    func invalidDocumentsAreRejected(_ document: String) {
        #expect(validationError(Array(document.utf8)) != nil)
    }

    @Test(arguments: JSONCorpus.invalidUTF8)
    func invalidUTF8InStringsIsRejected(_ sequence: [UInt8]) {
        let error = validationError(Array("[\"ab".utf8) + sequence + Array("\"]".utf8))
        #expect(error?.message.contains("utf-8") == true || error?.message.contains("UTF-8") == true)
        #expect(error?.offset ?? 0 >= 4)
    }

    @Test(arguments: JSONCorpus.valid + JSONCorpus.invalid)
    func foundationAgreesOnEveryCorpusDocument(_ document: String) {
        let bytes = Array(document.utf8)
        #expect((validationError(bytes) == nil) == foundationAccepts(bytes), "\(document.debugDescription)")
    }

    @Test(arguments: JSONCorpus.invalidUTF8)
    func foundationAgreesOnInvalidUTF8(_ sequence: [UInt8]) {
        let bytes = Array("[\"".utf8) + sequence + Array("\"]".utf8)
        #expect(foundationAccepts(bytes) == false)
        #expect(validationError(bytes) != nil)
    }

    /// The documented exceptions: where we differ from `JSONSerialization`, and why.
    @Test(arguments: JSONCorpus.disagreements.indices)
    func documentedDisagreementsWithFoundationHoldAsDescribed(_ index: Int) {
        let (document, ours, foundation, why) = JSONCorpus.disagreements[index]
        let bytes = Array(document.utf8)
        #expect((validationError(bytes) == nil) == ours, "\(why)")
        #expect(foundationAccepts(bytes) == foundation, "\(why)")
    }

    @Test func unpairedSurrogateEscapesAreRejected() {
        for document in ["\"\\uD800\"", "\"\\uDC00\"", "\"\\uD800\\u0041\"", "\"\\uD800x\"", "\"\\uDBFF\\uDBFF\""] {
            let error = validationError(Array(document.utf8))
            #expect(error?.message.contains("unpaired surrogate") == true, "\(document)")
            #expect(foundationAccepts(Array(document.utf8)) == false)
        }
    }

    @Test func nestingUpToTheLimitIsAcceptedAndOneDeeperIsRejected() {
        let limit = JSONReader.maximumDepth
        let ok = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        let deep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(validationError(Array(ok.utf8)) == nil)
        #expect(validationError(Array(deep.utf8))?.message == "nesting deeper than 512 levels")
        #expect(foundationAccepts(Array(ok.utf8)) && !foundationAccepts(Array(deep.utf8)))
        let veryDeep = String(repeating: "{\"a\":", count: 100_000)
        #expect(validationError(Array(veryDeep.utf8)) != nil)
    }

    @Test(arguments: [
        ("[1,]", "trailing comma before ']'", 1, 4, 3),
        ("{\"a\":1,}", "trailing comma before '}'", 1, 8, 7),
        ("[01]", "leading zeros are not allowed in numbers", 1, 3, 2),
        ("{\n  \"a\": tru\n}", "invalid literal, expected 'true'", 2, 8, 9),
        ("[\"é\u{1}\"]", "control character 0x01 in a string must be escaped", 1, 4, 4),
        ("{} x", "unexpected character 'x' after the end of the document", 1, 4, 3),
        ("", "unexpected end of input, expected a value", 1, 1, 0),
        ("\u{FEFF}[]", "a byte order mark is not allowed", 1, 1, 0),
        ("[\"\\q\"]", "invalid escape '\\q' in a string", 1, 3, 2),
        ("{\"a\" 1}", "unexpected character '1', expected ':' after an object key", 1, 6, 5),
    ])
    func errorsSayWhatAndWhere(document: String, message: String, line: Int, column: Int, offset: Int) {
        let error = validationError(Array(document.utf8))
        #expect(error == JSONError(message: message, offset: offset, line: line, column: column))
    }

    @Test func stringsDecodeEscapesAndKeepUnicode() throws {
        let document = Array(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20AC\uD83D\uDE00", "日本 é"]"#.utf8)
        let strings = try document.withUnsafeBytes { buffer throws(JSONError) in
            var reader = JSONReader(buffer)
            var result: [String] = []
            try reader.beginArray()
            while try reader.nextElement() { result.append(try reader.readString()) }
            try reader.finish()
            return result
        }
        #expect(strings == ["a\"b\\c/d\u{8}\u{C}\n\r\t", "é€😀", "日本 é"])
    }

    @Test(arguments: [
        ("0", Int64(0)), ("-0", 0), ("42", 42), ("9223372036854775807", .max), ("-9223372036854775808", .min),
    ])
    func integersAreReadExactly(text: String, value: Int64) throws {
        let bytes = Array(text.utf8)
        let read = try bytes.withUnsafeBytes { buffer throws(JSONError) in
            var reader = JSONReader(buffer)
            return try reader.readInt64()
        }
        #expect(read == value)
    }

    @Test(arguments: [
        ("9223372036854775808", "integer out of range"), ("-9223372036854775809", "integer out of range"),
        ("1.5", "expected an integer, found a number with a fraction or exponent"),
        ("1e3", "expected an integer, found a number with a fraction or exponent"),
        ("\"1\"", "expected a number, found a string"),
    ])
    func nonIntegersAreRefusedWhereAnIntegerIsExpected(text: String, message: String) {
        let bytes = Array(text.utf8)
        let error = bytes.withUnsafeBytes { buffer -> JSONError? in
            var reader = JSONReader(buffer)
            do throws(JSONError) {
                _ = try reader.readInt64()
                return nil
            } catch { return error }
        }
        #expect(error?.message == message)
    }

    @Test func unknownValuesOfEveryKindAreSkipped() throws {
        let document = Array(#"{"x":{"y":[1,{"z":null}],"w":"s"},"n":-1.5e3,"t":true,"f":false,"keep":7}"#.utf8)
        let kept = try document.withUnsafeBytes { buffer throws(JSONError) -> Int64? in
            var reader = JSONReader(buffer)
            var kept: Int64?
            try reader.beginObject()
            while let key = try reader.nextKey() {
                if key == "keep" { kept = try reader.readInt64() } else { try reader.skipValue() }
            }
            try reader.finish()
            return kept
        }
        #expect(kept == 7)
    }
}
