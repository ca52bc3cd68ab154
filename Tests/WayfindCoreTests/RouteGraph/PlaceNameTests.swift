import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// The rule of `PlaceName`, written the plain way: a scalar at a time, with `String`.
func referencePlaceName(_ name: String) -> (display: String, key: String) {
    var display = String.UnicodeScalarView()
    var key: [UInt8] = []
    var pendingSpace = false
    for scalar in name.unicodeScalars {
        let value = scalar.value
        let isSpace = value < 0x80 ? TextFolding.isASCIIWhitespace(UInt8(value)) : TextFolding.isUnicodeWhitespace(value)
        if isSpace {
            if !display.isEmpty { pendingSpace = true }
            continue
        }
        if pendingSpace {
            display.append(" ")
            key.append(0x20)
            pendingSpace = false
        }
        display.append(scalar)
        UnicodeFolding.appendFolded(value, to: &key)
    }
    return (String(display), String(decoding: key, as: UTF8.self))
}

@Suite("RouteGraph: place names and keys")
struct PlaceNameTests {
    /// Pieces that put plain ASCII runs, single and double spaces, other whitespace and
    /// multi-byte scalars at every offset of the eight-bytes-at-a-time path.
    static let pieces = [
        "a", "Z", "q", "7", " ", "  ", "\t", "\u{7F}", "é", "Ä", "\u{301}", "İ", "ß", "\u{2003}", "-", "~", "{", "Hauptbahnhof",
        "ABCDEFGH", "x y", "\u{1}",
    ]

    @Test func randomNamesFoldAsThePlainRuleSays() {
        var random = SplitMix64(seed: 5)
        for _ in 0..<5000 {
            let name = (0..<Int.random(in: 0...12, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let expected = referencePlaceName(name)
            let actual = PlaceName.normalize(name)
            #expect(actual.display == expected.display, "\(Array(name.utf8))")
            #expect(actual.key == expected.key, "\(Array(name.utf8))")
            var text = name
            let key = text.withUTF8 { PlaceName.withKey(UnsafeRawBufferPointer($0)) { String(decoding: $0, as: UTF8.self) } }
            #expect(key == expected.key, "\(Array(name.utf8))")
        }
    }

    @Test func hasKeyTellsExactlyTheNamesWithThatKey() {
        var random = SplitMix64(seed: 7)
        var matches = 0
        for _ in 0..<5000 {
            let name = (0..<Int.random(in: 0...8, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            // Its own key, keys that share a beginning or an end with it, and another name's.
            let other = (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            for candidate in [
                RouteGraph.placeKey(name), RouteGraph.placeKey(name + other), RouteGraph.placeKey(other + name),
                RouteGraph.placeKey(other),
            ] {
                var text = name
                var key = candidate
                let found = text.withUTF8 { name in
                    key.withUTF8 { PlaceName.hasKey(UnsafeRawBufferPointer(name), UnsafeRawBufferPointer($0)) }
                }
                let expected = PlaceKey.sameBytes(RouteGraph.placeKey(name), candidate)
                #expect(found == expected, "\(Array(name.utf8)) against \(Array(candidate.utf8))")
                if found { matches += 1 }
            }
        }
        #expect(matches > 5000)
    }

    /// A name's last printable ASCII bytes are its key's last bytes, one for one (what
    /// `hasKey` tells most names apart by), whatever comes before them.
    @Test func aNameEndsAsItsKeyEnds() {
        var random = SplitMix64(seed: 8)
        for _ in 0..<5000 {
            let name = (0..<Int.random(in: 1...8, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let tail = Array(name.utf8.reversed().prefix { $0 > 0x20 && $0 < 0x80 }.reversed())
            let key = Array(RouteGraph.placeKey(name).utf8)
            #expect(key.suffix(tail.count) == tail.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }[...], "\(Array(name.utf8))")
        }
    }

    @Test(arguments: [
        ("  Zürich   HB ", "Zürich HB", "zurich hb"), ("ZURICH hb", "ZURICH hb", "zurich hb"), (" \t\u{2003}", "", ""),
        ("São Paulo Hauptbahnhof 12", "São Paulo Hauptbahnhof 12", "sao paulo hauptbahnhof 12"),
    ])
    func namesHaveADisplaySpellingAndAKey(name: String, display: String, key: String) {
        #expect(PlaceName.normalize(name).display == display)
        #expect(RouteGraph.placeKey(name) == key)
    }
}
