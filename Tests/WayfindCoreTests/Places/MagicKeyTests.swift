import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

@Suite struct MagicKeyTests {
    static let keys: [MagicKey] = [
        .place(fingerprint: 0x0123_4567_89AB_CDEF, offset: 130, line: 2),
        .place(fingerprint: .max, offset: 4_453_000, line: 34_007),
        .collection(fingerprint: 42, category: "capital", location: nil),
        .collection(fingerprint: 42, category: "admin_seat", location: Coordinate(latitude: -33.86785, longitude: 151.20732)),
        .collection(fingerprint: 7, category: "café ☕", location: Coordinate(latitude: 90, longitude: -180)),
    ]

    @Test(arguments: keys)
    func aKeyDecodesToWhatWasEncoded(key: MagicKey) throws {
        #expect(try MagicKey.decode(key.encoded) == key)
    }

    @Test(arguments: keys)
    func keysAreURLSafe(key: MagicKey) {
        #expect(key.encoded.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    }

    @Test(arguments: keys)
    func everyTruncationOfAKeyIsNotAKey(key: MagicKey) {
        let text = key.encoded
        for n in 0..<text.count {
            let cut = String(text.prefix(n))
            #expect(throws: MagicKeyError.notAKey(cut)) { try MagicKey.decode(cut) }
        }
    }

    @Test func randomStringsAreNotKeys() {
        var random = SplitMix64(seed: 20_240_601)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for _ in 0..<2000 {
            let length = Int(random.next() % 40)
            let text = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            #expect(throws: MagicKeyError.notAKey(text)) { try MagicKey.decode(text) }
        }
    }

    @Test func aChangedCharacterIsNotAKey() {
        let text = MagicKeyTests.keys[0].encoded
        var chars = Array(text)
        chars[5] = chars[5] == "A" ? "B" : "A"
        #expect(throws: MagicKeyError.notAKey(String(chars))) { try MagicKey.decode(String(chars)) }
    }

    @Test func aCollectionOfALongCategoryHasAKeyThatDecodes() throws {
        let key = MagicKey.collection(fingerprint: 9, category: String(repeating: "coffee ", count: 1000), location: nil)
        #expect(try MagicKey.decode(key.encoded) == key)
    }

    @Test func aKeyOfAnotherVersionIsRefusedByVersion() {
        var bytes: [UInt8] = [2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 1]
        let sum = UInt32(truncatingIfNeeded: MagicKey.checksum(bytes))
        withUnsafeBytes(of: sum.littleEndian) { bytes += $0 }
        let text = Base64URL.encode(bytes)
        #expect(throws: MagicKeyError.unsupportedVersion(key: text, version: 2)) { try MagicKey.decode(text) }
    }
}

extension MagicKey: CustomTestStringConvertible {
    public var testDescription: String { encoded }
}
