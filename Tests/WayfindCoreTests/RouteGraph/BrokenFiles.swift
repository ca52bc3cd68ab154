/// Damaged graph files for the fuzz tests of the paths that trust a stamped file.

import WayfindTestSupport

/// `bytes` with one to four bytes replaced by those the fast paths look for most (a
/// newline, a quote, a brace, a digit…), and one time in four its end cut off; nil for
/// an empty file.
func damaged(_ bytes: [UInt8], using random: inout SplitMix64) -> [UInt8]? {
    guard !bytes.isEmpty else { return nil }
    let replacements: [UInt8] = Array("\n\"},:0 {".utf8) + [0x01, 0xC3]
    var bytes = bytes
    for _ in 0..<Int.random(in: 1...4, using: &random) {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] = replacements.randomElement(using: &random)!
    }
    if random.next() % 4 == 0 { bytes.removeLast(Int.random(in: 0...min(bytes.count, 40), using: &random)) }
    return bytes
}

/// Calls `body` with a copy of `bytes` in an allocation of exactly their size, so that a
/// read past their end is a read past an allocation (which the address sanitizer sees).
func withExactCopy<Result>(of bytes: [UInt8], _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    let exact = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
    defer { exact.deallocate() }
    exact.copyBytes(from: bytes)
    return body(UnsafeRawBufferPointer(exact))
}
