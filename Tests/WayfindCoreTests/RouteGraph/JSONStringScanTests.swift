import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// The string scanner as it was before it learned to step over UTF-8 sequences inline:
/// one byte at a time after the first non-ASCII byte, every sequence checked by a
/// throwing call. Kept here, verbatim but for the names, as the reference that
/// `JSONReader.scanPlainString()` must agree with on every input.
struct ReferenceStringScanner {
    let bytes: UnsafeRawBufferPointer
    var offset: Int

    func error(_ message: String, at offset: Int? = nil) -> JSONError {
        JSONError(message: message, offset: offset ?? self.offset, in: bytes)
    }

    mutating func scanPlainString() throws(JSONError) -> Bool {
        while true {
            while offset + 8 <= bytes.count {
                let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let special =
                    (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | (word &- ones &* 0x20) | word)
                    & 0x8080_8080_8080_8080
                if special != 0 {
                    offset += special.littleEndian.trailingZeroBitCount / 8
                    break
                }
                offset += 8
            }
            guard offset < bytes.count else { break }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return true
            }
            if byte == UInt8(ascii: "\\") { return false }
            if byte < 0x20 {
                throw error("control character \(Self.hex(byte)) in a string must be escaped")
            }
            if byte < 0x80 {
                offset += 1
            } else {
                offset += try utf8SequenceLength()
            }
        }
        throw error("unexpected end of input in a string")
    }

    func utf8SequenceLength() throws(JSONError) -> Int {
        let lead = bytes[offset]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw error("invalid UTF-8 byte \(Self.hex(lead)) in a string")
        }
        guard offset + length <= bytes.count else {
            throw error("invalid UTF-8: truncated sequence in a string")
        }
        let second = bytes[offset + 1]
        guard second >= low && second <= high else {
            throw error("invalid UTF-8 byte \(Self.hex(second)) in a string", at: offset + 1)
        }
        var index = 2
        while index < length {
            let next = bytes[offset + index]
            guard next & 0xC0 == 0x80 else {
                throw error("invalid UTF-8 byte \(Self.hex(next)) in a string", at: offset + index)
            }
            index += 1
        }
        return length
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return "0x" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
    }
}

/// What a scan did: its result or error, and where it left the position.
struct StringScanOutcome: Equatable, CustomStringConvertible {
    var result: Result<Bool, JSONError>
    var offset: Int

    var description: String {
        switch result {
        case .success(let closed): "\(closed ? "closing quote" : "backslash"), offset \(offset)"
        case .failure(let error): "error \(error), offset \(offset)"
        }
    }
}

@Suite("RouteGraph: JSON string scanning against a byte-at-a-time reference")
struct JSONStringScanTests {
    /// Plain ASCII runs, short and long, and valid sequences of every length at the
    /// edges of their ranges (and next to the surrogates): what a place name is made of.
    static let ordinaryPieces: [[UInt8]] = [
        "a", "Z", " ", "7", "~", "\u{7F}", "Ciudad ", "Harbour 15921", "Hauptbahnhof", "abcdefghijklmnop",
        "á", "ı", "ğ", "\u{80}", "\u{7FF}", "ủ", "Đ", "’", "ḩ", "\u{800}", "\u{D7FF}", "\u{E000}",
        "\u{FFFD}", "\u{FFFF}", "\u{10000}", "😀", "\u{10FFFF}",
    ].map { Array($0.utf8) }

    /// Every kind of invalid UTF-8, and the bytes that end or interrupt a plain string.
    static let unusualPieces: [[UInt8]] = [
        // Lone continuation bytes, leads that never start a sequence, overlong forms,
        // encoded surrogates, values past U+10FFFF.
        [0x80], [0xBF], [0xC0, 0x80], [0xC0, 0xAF], [0xC1, 0xBF], [0xF5, 0x80, 0x80, 0x80], [0xF8], [0xFE], [0xFF],
        [0xE0, 0x80, 0xAF], [0xE0, 0x9F, 0xBF], [0xF0, 0x80, 0x80, 0xAF], [0xF0, 0x8F, 0xBF, 0xBF],
        [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF4, 0xBF, 0xBF, 0xBF],
        // Truncated sequences, and sequences broken by a byte that is not a continuation.
        [0xC3], [0xDF], [0xE2], [0xE2, 0x82], [0xED, 0x9F], [0xF0], [0xF0, 0x9F], [0xF0, 0x9F, 0x98],
        [0xC3, 0x41], [0xC3, 0xC3], [0xE2, 0x41, 0xAC], [0xE2, 0x82, 0x41], [0xE2, 0x82, 0xC0],
        [0xF0, 0x9F, 0x41, 0x80], [0xF0, 0x9F, 0x98, 0x22], [0xC3, 0x22], [0xE2, 0x82, 0x5C],
        // What ends or interrupts a plain string, and control characters.
        [0x22], [0x5C], [0x5C, 0x22], [0x00], [0x09], [0x0A], [0x1F],
    ]

    static let pieces = ordinaryPieces + unusualPieces

    static func randomString(using random: inout SplitMix64) -> [UInt8] {
        var bytes: [UInt8] = []
        let length = Int.random(in: 0...60, using: &random)
        while bytes.count < length {
            // Mostly ordinary, so that most strings run for a while before they stop.
            let ordinary = Int.random(in: 0..<10, using: &random) < 9
            bytes += (ordinary ? ordinaryPieces : pieces).randomElement(using: &random)!
        }
        return bytes
    }

    /// Scans `document[start..<end]` with the reader under test or the reference. The
    /// bytes past `end` are still there, so a scanner that reads beyond its input sees
    /// `filler` and disagrees with one that does not.
    static func outcome(of document: [UInt8], from start: Int, to end: Int, reference: Bool) -> StringScanOutcome {
        document.withUnsafeBytes { whole in
            let bytes = UnsafeRawBufferPointer(rebasing: whole[..<end])
            if reference {
                var scanner = ReferenceStringScanner(bytes: bytes, offset: start)
                do throws(JSONError) {
                    return StringScanOutcome(result: .success(try scanner.scanPlainString()), offset: scanner.offset)
                } catch {
                    return StringScanOutcome(result: .failure(error), offset: scanner.offset)
                }
            }
            var reader = JSONReader(bytes)
            reader.rewind(to: start)
            do throws(JSONError) {
                return StringScanOutcome(result: .success(try reader.scanPlainString()), offset: reader.offset)
            } catch {
                return StringScanOutcome(result: .failure(error), offset: reader.offset)
            }
        }
    }

    /// Checks every truncation of `string`, after `prefix`, with each filler behind it.
    static func expectAgreement(prefix: [UInt8], string: [UInt8], fillers: [UInt8]) {
        for filler in fillers {
            let document = prefix + string + [UInt8](repeating: filler, count: 16)
            for end in prefix.count...(prefix.count + string.count) {
                let expected = outcome(of: document, from: prefix.count, to: end, reference: true)
                let actual = outcome(of: document, from: prefix.count, to: end, reference: false)
                #expect(
                    actual == expected,
                    "bytes \(document[..<end].map { hexByte($0) }.joined(separator: " ")) from \(prefix.count)"
                )
                if actual != expected { return }
            }
        }
    }

    static func hexByte(_ byte: UInt8) -> String {
        ReferenceStringScanner.hex(byte).dropFirst(2).description
    }

    @Test(arguments: 0..<8)
    func scanningAgreesWithTheReferenceOnRandomStringsCutAtEveryByte(seed: UInt64) {
        var random = SplitMix64(seed: 0x5CA7_0000 + seed)
        for _ in 0..<16 {
            // The opening quote, sometimes after a line break so error lines differ, and
            // sometimes without one, after any bytes at all: the scan starts where it is
            // told and never looks back.
            let prefix: [UInt8]
            switch Int.random(in: 0..<4, using: &random) {
            case 0: prefix = Array("{\n \"k\": \"".utf8)
            case 1: prefix = Self.pieces.randomElement(using: &random)!
            default: prefix = [UInt8(ascii: "\"")]
            }
            let string = Self.randomString(using: &random)
            Self.expectAgreement(prefix: prefix, string: string, fillers: [UInt8(ascii: "\""), 0x80, UInt8(ascii: "a")])
        }
    }

    @Test(arguments: pieces.indices)
    func everyPieceAgreesWithTheReferenceAtEveryPositionInAWord(index: Int) {
        // The piece after 0 to 8 plain bytes, then more plain text and a closing quote,
        // so it sits at every offset within the eight bytes read at a time; behind the
        // input, a quote or a continuation byte in turn.
        for lead in 0...8 {
            let string = Array("Thủ Đức 1234567".utf8.prefix(lead)) + Self.pieces[index] + Array("abc def ghi\"".utf8)
            Self.expectAgreement(prefix: [UInt8(ascii: "\"")], string: string, fillers: [lead % 2 == 0 ? UInt8(ascii: "\"") : 0x80])
        }
    }

    @Test func placeNamesAreScannedToTheirClosingQuote() {
        for name in ["Ciudad Juárez Harbour 15921", "Thủ Đức Hauptbahnhof 111", "Bağcılar Hauptbahnhof 3060", "Ta’if", "😀"] {
            let document = Array("\"\(name)\",".utf8)
            let outcome = Self.outcome(of: document, from: 1, to: document.count, reference: false)
            #expect(outcome == StringScanOutcome(result: .success(true), offset: document.count - 1))
        }
    }
}
