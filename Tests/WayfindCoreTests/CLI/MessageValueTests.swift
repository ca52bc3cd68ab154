import Testing

@testable import WayfindCLI
@testable import WayfindCore

@Suite struct MessageValueTests {
    @Test(arguments: ["", "paris", "AQDlsHHPSlNGPtDxAcEBm5LeWQ", String(repeating: "é", count: MessageValue.shownCharacters)])
    func aShortValueIsShownWhole(value: String) {
        #expect(MessageValue.quoted(value) == "'\(value)'")
        #expect(MessageValue.plain(value) == value)
    }

    @Test func aLongValueIsCutAndSaysHowLongItWas() {
        let value = String(repeating: "é", count: MessageValue.shownCharacters + 1)
        let shown = String(repeating: "é", count: MessageValue.shownCharacters)
        #expect(MessageValue.quoted(value) == "'\(shown)…' (\(2 * (MessageValue.shownCharacters + 1)) bytes)")
        #expect(MessageValue.plain(value) == "\(shown)… (\(2 * (MessageValue.shownCharacters + 1)) bytes)")
    }

    @Test func controlCharactersAreEscapedSoTheMessageStaysOneLine() {
        #expect(MessageValue.quoted("a\nb\tc\rd\u{1B}[31me\u{7F}") == "'a\\nb\\tc\\rd\\u{1B}[31me\\u{7F}'")
    }

    /// Found by the gazetteer fuzz target: a field of 100 control characters was shown
    /// as 80 escapes of six characters each.
    @Test func escapesCountTowardTheCharactersShown() {
        let shown = MessageValue.quoted(String(repeating: "\u{1A}", count: 100))
        #expect(shown == "'" + String(repeating: "\\u{1A}", count: 13) + "…' (100 bytes)")
    }

    @Test func oneCharacterOfManyCombiningMarksIsCutLikeAnyOther() {
        let value = "e" + String(repeating: "\u{301}", count: 100_000)
        let shown = MessageValue.quoted(value)
        #expect(shown.unicodeScalars.count < 120)
        #expect(shown.hasSuffix("…' (200001 bytes)"))
    }
}
