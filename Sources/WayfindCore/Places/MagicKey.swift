/// The magicKey: an opaque, URL-safe token that names one place, or one collection, of one
/// gazetteer, and is enough to find it again without searching.
///
/// # Format
///
/// base64url (RFC 4648 §5, no padding) of
///
///     version (1 byte, now 1) · kind (0 place, 1 collection) · gazetteer fingerprint (8)
///     place:      row offset in the file (varint) · line number (varint)
///     collection: category length (varint) · category (UTF-8) · has location (1)
///                 [latitude × 1e5, longitude × 1e5 (zigzag varints)]
///     checksum (4): a second fingerprint of everything before it
///
/// So a key is stable (same gazetteer, same row → same key, in every run), resolves in
/// O(1) (seek to the offset), and is refused cleanly when mistyped or truncated (the
/// checksum) or when it comes from another gazetteer (the fingerprint). A key for Paris
/// looks like `AQAhG8yBq0Mj2KqPtO8BkqMC2x9s3A`.
package enum MagicKey: Equatable, Sendable {
    /// A single place: where its row starts and its line number.
    case place(fingerprint: UInt64, offset: Int, line: Int)
    /// A collection: the category and the location it was suggested near, if any.
    case collection(fingerprint: UInt64, category: String, location: Coordinate?)

    /// The format version written.
    package static let version: UInt8 = 1
    /// The checksum's seed: any value other than the fingerprint's.
    static let checksumSeed: UInt64 = 0x6D61_6769_636B_6579

    /// The gazetteer the key belongs to.
    package var fingerprint: UInt64 {
        switch self {
        case .place(let f, _, _), .collection(let f, _, _): f
        }
    }

    /// The key as text.
    package var encoded: String {
        var bytes: [UInt8] = [Self.version]
        switch self {
        case .place(let fingerprint, let offset, let line):
            bytes.append(0)
            Self.appendFixed(fingerprint, to: &bytes)
            Self.appendVarint(UInt64(offset), to: &bytes)
            Self.appendVarint(UInt64(line), to: &bytes)
        case .collection(let fingerprint, let category, let location):
            bytes.append(1)
            Self.appendFixed(fingerprint, to: &bytes)
            let name = Array(category.utf8)
            Self.appendVarint(UInt64(name.count), to: &bytes)
            bytes += name
            if let location {
                bytes.append(1)
                Self.appendVarint(Self.zigzag(Self.scaled(location.latitude)), to: &bytes)
                Self.appendVarint(Self.zigzag(Self.scaled(location.longitude)), to: &bytes)
            } else {
                bytes.append(0)
            }
        }
        let sum = UInt32(truncatingIfNeeded: Self.checksum(bytes))
        withUnsafeBytes(of: sum.littleEndian) { bytes += $0 }
        return Base64URL.encode(bytes)
    }

    /// Decodes `text`, or throws: not a key at all, or a version we do not read.
    package static func decode(_ text: String) throws(MagicKeyError) -> MagicKey {
        guard let bytes = Base64URL.decode(text), bytes.count >= 2 + 8 + 2 + 4 else {
            throw .notAKey(text)
        }
        let body = Array(bytes[..<(bytes.count - 4)])
        let stored = bytes[(bytes.count - 4)...].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard stored == UInt32(truncatingIfNeeded: checksum(body)) else { throw .notAKey(text) }
        guard body[0] == version else { throw .unsupportedVersion(key: text, version: Int(body[0])) }
        var reader = ByteReader(bytes: body, position: 2)
        guard let fingerprint = reader.fixed64() else { throw .notAKey(text) }
        switch body[1] {
        case 0:
            guard let offset = reader.varint(), let line = reader.varint(), reader.atEnd,
                offset < UInt64(Int32.max) * 64, line < UInt64(Int32.max) * 64
            else { throw .notAKey(text) }
            return .place(fingerprint: fingerprint, offset: Int(offset), line: Int(line))
        case 1:
            // Any length the key holds: a category is a field of a row, which may be long.
            guard let length = reader.varint(), length <= UInt64(body.count), let name = reader.take(Int(length)),
                let category = String(validating: name, as: UTF8.self), let flag = reader.byte()
            else { throw .notAKey(text) }
            var location: Coordinate? = nil
            if flag == 1 {
                guard let lat = reader.varint(), let lon = reader.varint() else { throw .notAKey(text) }
                location = Coordinate(
                    latitude: Double(unzigzag(lat)) / scale, longitude: Double(unzigzag(lon)) / scale)
                guard abs(location!.latitude) <= 90, abs(location!.longitude) <= 180 else { throw .notAKey(text) }
            } else if flag != 0 {
                throw .notAKey(text)
            }
            guard reader.atEnd else { throw .notAKey(text) }
            return .collection(fingerprint: fingerprint, category: category, location: location)
        default:
            throw .notAKey(text)
        }
    }

    static let scale = 100_000.0
    static func scaled(_ degrees: Double) -> Int64 { Int64((degrees * scale).rounded()) }
    static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    static func unzigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1) }

    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        var f = GazetteerFingerprint(seed: checksumSeed)
        f.update(bytes)
        return f.value
    }

    static func appendFixed(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }
}

/// Why a string is not a usable magicKey.
package enum MagicKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a key we made: wrong characters, wrong length, or a failed checksum.
    case notAKey(String)
    /// A key of a format version this build does not read.
    case unsupportedVersion(key: String, version: Int)

    package var description: String {
        switch self {
        case .notAKey(let text): "not a magicKey: \(MessageValue.quoted(text))"
        case .unsupportedVersion(let key, let version):
            "magicKey \(MessageValue.quoted(key)) has format version \(version); this build reads version \(MagicKey.version)"
        }
    }
}

/// Reads fixed and variable-length integers from bytes.
struct ByteReader {
    let bytes: [UInt8]
    var position: Int

    var atEnd: Bool { position == bytes.count }

    mutating func byte() -> UInt8? {
        guard position < bytes.count else { return nil }
        position += 1
        return bytes[position - 1]
    }

    mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, position + count <= bytes.count else { return nil }
        position += count
        return Array(bytes[(position - count)..<position])
    }

    mutating func fixed64() -> UInt64? {
        guard let b = take(8) else { return nil }
        return b.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while let b = byte() {
            value |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return value }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }
}

/// base64url without padding (RFC 4648 §5): keys are safe in URLs, file names and shells.
enum Base64URL {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    static let values: [Int8] = {
        var t = [Int8](repeating: -1, count: 256)
        for (i, c) in alphabet.enumerated() { t[Int(c)] = Int8(i) }
        return t
    }()

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            var chunk = UInt32(bytes[i]) << 16
            if n > 1 { chunk |= UInt32(bytes[i + 1]) << 8 }
            if n > 2 { chunk |= UInt32(bytes[i + 2]) }
            for j in 0...n { out.append(alphabet[Int((chunk >> UInt32(18 - 6 * j)) & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < chars.count {
            let n = min(4, chars.count - i)
            var chunk: UInt32 = 0
            for j in 0..<4 {
                var v: Int8 = 0
                if j < n {
                    v = values[Int(chars[i + j])]
                    if v < 0 { return nil }
                }
                chunk = chunk << 6 | UInt32(v)
            }
            for j in 0..<(n - 1) { out.append(UInt8((chunk >> UInt32(16 - 8 * j)) & 0xFF)) }
            i += 4
        }
        // Non-canonical trailing bits would give two spellings of one key: refuse them.
        guard encode(out) == text else { return nil }
        return out
    }
}
