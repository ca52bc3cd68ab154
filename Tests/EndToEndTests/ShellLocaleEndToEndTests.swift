import Foundation
import Testing
import WayfindTestSupport

/// The shell set-up in the locales whose characters can end with the byte of `\` (Big5,
/// GBK, Shift-JIS): there the shell reads a byte of 0x80 or more and the `\` after it as
/// one character, so a backslash written to escape what follows it escapes nothing.
struct ShellLocaleEndToEndTests {
    /// A folder (for LOCPATH) holding the locales of `made`, which localedef makes from the
    /// system's sources, so that the tests need neither root nor installed locales; nil
    /// when localedef or the sources (Debian's `locales` package) are missing.
    static let locales: URL? = {
        guard TestProcess.isInstalled("localedef"), let folder = try? TestFiles.directory() else { return nil }
        for (source, charmap, name) in made {
            // -c: Shift-JIS is not ASCII (0x5C is ¥ there), which localedef only warns of.
            let path = folder.appendingPathComponent(name).path
            _ = try? TestProcess.run("/usr/bin/env", ["localedef", "-c", "--no-warnings=ascii", "-i", source, "-f", charmap, path])
            let check = try? TestProcess.run(
                "/usr/bin/env", ["locale", "charmap"], environment: ["LOCPATH": folder.path, "LC_ALL": name, "PATH": "/usr/bin:/bin"])
            guard check?.out == charmap + "\n", check?.stderr.isEmpty == true else { return nil }
        }
        return folder
    }()

    /// Each locale's source, character map and name.
    static let made = [("zh_TW", "BIG5", "zh_TW.BIG5"), ("zh_CN", "GBK", "zh_CN.GBK"), ("ja_JP", "SHIFT_JIS", "ja_JP.SJIS")]

    static let cases = ShellSetupEndToEndTests.shells.flatMap { shell in made.map { (shell, $0.2) } }

    /// Each hostile name, completed in each quoting style and run in an interactive shell in
    /// Big5, GBK and Shift-JIS, reaches the command byte for byte and runs nothing else.
    @Test(
        .enabled(
            if: locales != nil,
            "localedef could not make zh_TW.BIG5, zh_CN.GBK and ja_JP.SJIS (install Debian's locales package to run it)"),
        arguments: cases)
    func hostileNamesAreSafeInLocalesWhoseCharactersEndWithABackslashByte(shell: String, locale: String) async throws {
        let folder = try #require(Self.locales)
        try await ShellSafetyEndToEndTests.expectHostileNamesSafe(shell: shell, locale: locale, extra: ["LOCPATH": folder.path])
    }

    /// A character of the locale whose last byte is that of \, typed before the word: the
    /// \ escapes nothing, so the quote after it is closed, and the name is written for a
    /// bare word (as if for a word in double quotes, `;` would end the command).
    @Test(
        .enabled(
            if: locales != nil,
            "localedef could not make zh_TW.BIG5, zh_CN.GBK and ja_JP.SJIS (install Debian's locales package to run it)"),
        arguments: cases)
    func aBackslashByteInATypedCharacterEscapesNothing(shell: String, locale: String) async throws {
        let folder = try #require(Self.locales)
        let home = try ShellSetupEndToEndTests.Home()
        try await home.learn("trip", ["zqx;touch PWNED"])
        // 功 in Big5, 乗 in GBK, 表 in Shift-JIS.
        let character: [UInt8] = locale == "zh_TW.BIG5" ? [0xA4, 0x5C] : locale == "zh_CN.GBK" ? [0x81, 0x5C] : [0x95, 0x5C]
        let typed = character.map { String(format: "\\x%02x", $0) }.joined()
        let late = try await home.typed(
            shell, setup: ShellSetupEndToEndTests.setupLine(shell, ["trip"]), lines: ["trip \"\(typed)\" zqx\\t"], locale: locale,
            extra: ["LOCPATH": folder.path])
        #expect(!FileManager.default.fileExists(atPath: home.home.appendingPathComponent("PWNED").path), "\(shell) in \(locale)")
        let runs = home.tripRuns()
        if shell == "zsh" {
            // zsh reads the line by bytes in any locale, so for zsh the \ escapes the quote,
            // which stays open: no place matches the word (功" zqx), and the line is left
            // unfinished.
            #expect(late == [1] && runs.isEmpty, "\(shell) in \(locale): \(runs)")
        } else {
            #expect(late.isEmpty, "\(shell) in \(locale)")
            #expect(runs == [[String(decoding: character, as: UTF8.self), "zqx;touch PWNED"]], "\(shell) in \(locale)")
        }
    }
}
