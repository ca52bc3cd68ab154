import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

@Suite("RouteGraph: JSON fuzzing against Foundation")
struct JSONFuzzTests {
    /// Bytes that tend to make interesting mutations: structure, number parts, escapes,
    /// and the edges of UTF-8.
    static let interestingBytes: [UInt8] =
        Array("{}[],:\"\\ 0123456789-+.eEtrufalsn/bu\t\n".utf8) + [
            0x00, 0x01, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF,
        ]

    static func mutate(_ bytes: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var result = bytes
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let position = result.isEmpty ? 0 : Int.random(in: 0..<result.count, using: &random)
            let byte = interestingBytes.randomElement(using: &random)!
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where !result.isEmpty: result[position] = byte
            case 1: result.insert(byte, at: position)
            case 2 where !result.isEmpty: result.remove(at: position)
            case 3 where !result.isEmpty:
                let end = min(result.count, position + Int.random(in: 1...8, using: &random))
                result.insert(contentsOf: result[position..<end], at: position)
            default: result = Array(result.prefix(position))
            }
        }
        return result
    }

    /// Whether a disagreement is one of `JSONCorpus.disagreements`' kinds.
    static func isDocumentedDisagreement(_ bytes: [UInt8], oursAccepts: Bool) -> Bool {
        if oursAccepts { return hasNumberBeyondDouble(bytes) }
        // Foundation guesses UTF-16/32 from zero bytes and byte order marks at the start.
        if bytes.prefix(4).contains(0) || bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF])
            || bytes.starts(with: [0xFF, 0xFE])
        {
            return true
        }
        // Trailing commas: remove each one we complain about; the rest must then be valid.
        var fixed = bytes
        for _ in 0..<16 {
            guard let error = validationError(fixed) else { return true }
            guard error.message.hasPrefix("trailing comma"),
                let comma = fixed[..<error.offset].lastIndex(of: UInt8(ascii: ","))
            else { return false }
            fixed.remove(at: comma)
        }
        return false
    }

    /// Whether a valid document has a number whose magnitude Double cannot hold.
    static func hasNumberBeyondDouble(_ bytes: [UInt8]) -> Bool {
        var index = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
                index += 1
                continue
            }
            if byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39) {
                let start = index
                while index < bytes.count, Array("+-.eE0123456789".utf8).contains(bytes[index]) { index += 1 }
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                if let value = Double(text), !value.isFinite { return true }
                continue
            }
            index += 1
        }
        return false
    }

    static let seedDocuments: [[UInt8]] =
        JSONCorpus.valid.map { Array($0.utf8) } + [
            Array(
                """
                {
                  "edges": [
                    {"destination":"Airport","lastVisitedAt":1700000000,"origin":"City Center","weight":12},
                    {"destination":"Zürich HB","origin":"Airport","weight":1,"x":[1.5e3,{"y":null}]}
                  ],
                  "lastVisitedAt": 1700000000,
                  "lastVisitedLocation": "Airport \\u00e9\\uD83D\\uDE00",
                  "version": 1
                }
                """.utf8)
        ]

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func mutatedDocumentsAreJudgedLikeFoundationJudgesThem(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var disagreements = 0
        var documented = 0
        var accepted = 0
        for _ in 0..<2_500 {
            let document = Self.mutate(Self.seedDocuments.randomElement(using: &random)!, using: &random)
            let ours = validationError(document) == nil
            let theirs = foundationAccepts(document)
            if ours { accepted += 1 }
            guard ours != theirs else { continue }
            if Self.isDocumentedDisagreement(document, oursAccepts: ours) {
                documented += 1
                continue
            }
            disagreements += 1
            if disagreements <= 5 {
                let verdict = "ours \(ours ? "accepts" : "rejects"), Foundation \(theirs ? "accepts" : "rejects")"
                let text = String(decoding: document, as: UTF8.self).debugDescription
                Issue.record("\(verdict): \(document) \(text)")
            }
        }
        #expect(disagreements == 0)
        #expect(accepted > 100, "the mutations should leave some documents valid")
    }
}
