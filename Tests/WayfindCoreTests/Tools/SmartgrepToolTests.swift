import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// smartgrep run in-process through `Smartgrep.run`: stdout, stderr and the exit status.
@Suite struct SmartgrepToolTests {
    let symbols = Repository.fixtures.appendingPathComponent("sf-symbols-ios14.txt").path
    let cities = Repository.fixtures.appendingPathComponent("cities-sample.txt").path

    func smartgrep(_ arguments: [String], input: String = "", environment: [String: String] = [:]) throws -> RunResult {
        runInProcess("smartgrep", arguments, input: Data(input), environment: environment)
    }

    @Test func theSeedsExamplesHoldOnTheSFSymbolsList() throws {
        let xbin = try smartgrep(["x bin", symbols])
        #expect(xbin.status == 0)
        #expect(xbin.stderr == "")
        #expect(xbin.lines == ["xmark.bin", "xmark.bin.fill", "xmark.bin.circle", "xmark.bin.circle.fill"])

        let he = try smartgrep(["he", symbols])
        #expect(he.lines.contains("heart") && he.lines.contains("bolt.heart.fill"))
        #expect(!he.lines.contains("checkmark"))

        let upup = try smartgrep(["up up", symbols])
        #expect(!upup.lines.isEmpty)
        #expect(upup.lines.allSatisfy { $0.split(separator: ".").filter { $0.hasPrefix("up") }.count >= 2 })

        let fcs = try smartgrep(["fill circle sq", symbols])
        for name in ["circle.fill.square.fill", "square.circle.fill", "square.fill.on.circle.fill"] {
            #expect(fcs.lines.contains(name))
        }
        let ppe = try smartgrep(["p pe", symbols])
        let pep = try smartgrep(["pe p", symbols])
        #expect(ppe.lines.contains("person.badge.plus"))
        #expect(ppe.stdout == pep.stdout)
    }

    @Test func accentsAndCaseAreIgnoredOnRealCityNames() throws {
        let sao = try smartgrep(["sao paulo", cities])
        #expect(sao.lines.first == "São Paulo")
        let zurich = try smartgrep(["ZURICH", cities])
        #expect(zurich.lines.contains("Zürich"))
        let nfd = try smartgrep(["zurich"], input: "Zu\u{308}rich\n")
        #expect(nfd.lines == ["Zu\u{308}rich"])
        let strasse = try smartgrep(["strasse"], input: "Straße\nStrand\n")
        #expect(strasse.lines == ["Straße"])
        let krakow = try smartgrep(["krakow", cities])
        #expect(krakow.lines.contains("Kraków"))
    }

    /// The candidate finder jumps to the query's rarest byte; when a multi-byte character
    /// sits before it in the same word, the word starts fewer bytes back than in the query
    /// (`ń` is two bytes, its fold `n` one). These lines were missed that way.
    @Test(arguments: [
        ("Gdańsk\n", "gdansk"), ("Białystok\n", "Białystok"), ("Białystok\n", "bialystok"),
        ("Polígonos\n", "Polig"), ("Ürümqi\n", "Ürümqi"), ("x\nGdańsk\ny\n", "gdansk"),
    ])
    func aMultiByteCharacterBeforeTheRarestQueryByteDoesNotHideTheLine(input: String, query: String) throws {
        let r = try smartgrep([query], input: input)
        #expect(r.status == 0, "\(query) in \(input)")
        #expect(r.lines.contains(input.split(separator: "\n").first { $0.count > 1 }.map(String.init) ?? ""))
    }

    @Test func everyLineOfTheCitiesFixtureFindsItself() throws {
        let lines = try String(contentsOfFile: cities, encoding: .utf8).split(separator: "\n").map(String.init)
        var missed: [String] = []
        for line in lines where try smartgrep([line, cities]).lines.contains(line) == false { missed.append(line) }
        #expect(missed.isEmpty, "not found by their own spelling: \(missed)")
    }

    @Test func emptyInputSelectsNothing() throws {
        let r = try smartgrep(["x"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "")
    }

    @Test func anEmptyQueryMatchesEveryLine() throws {
        let r = try smartgrep([""], input: "a\n\nb\n")
        #expect(r.status == 0)
        #expect(r.out == "a\n\nb\n")
    }

    @Test func noMatchExitsOneSilently() throws {
        let r = try smartgrep(["qqqzzz", symbols])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "")
    }

    @Test(arguments: [
        ["--frob", "x"], ["-y", "x"], ["--max-count"], ["--words=bogus", "x"], [], ["-m", "many", "x"], ["--field=0", "x"],
        ["--color=sometimes", "x"], ["--delimiter=ab", "x"],
    ])
    func aBadCommandLineExitsTwoWithOneErrorLineAndAHint(arguments: [String]) throws {
        let r = try smartgrep(arguments)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(r)")
        #expect(lines.first?.hasPrefix("smartgrep: ") == true)
        #expect(lines.last == "Try 'smartgrep --help' for more information.")
    }

    @Test func aMissingFileIsReportedAndTheOthersAreStillSearched() throws {
        let r = try smartgrep(["x bin", "/nonexistent/file", symbols])
        #expect(r.status == 2)
        #expect(r.stderr == "smartgrep: /nonexistent/file: No such file or directory\n")
        #expect(r.lines.first == "\(symbols):xmark.bin")
        let dir = try smartgrep(["x", "/"])
        #expect(dir.status == 2)
        #expect(dir.stderr == "smartgrep: /: Is a directory\n")
    }

    /// NUL bytes make the input binary (as in grep); with -a they pass through too.
    @Test func invalidUTF8AndNULBytesPassThroughUnchanged() throws {
        var input = Data([0xFF, 0xFE, 0x20])
        input.append(Data("abc\n".utf8))
        input.append(Data([0x61, 0x00, 0x62, 0x63, 0x0A, 0xC3, 0x0A]))
        let r = runInProcess("smartgrep", ["-a", "abc"], input: input)
        #expect(r.status == 0)
        #expect(r.stdout == Data([0xFF, 0xFE, 0x20] + Array("abc\n".utf8)))
        let bc = runInProcess("smartgrep", ["-a", "bc"], input: input)
        #expect(bc.stdout == Data([0x61, 0x00, 0x62, 0x63, 0x0A]))
        let binary = runInProcess("smartgrep", ["bc"], input: input)
        #expect(binary.stdout.isEmpty && binary.status == 0)
        #expect(binary.stderr == "smartgrep: (standard input): binary file matches\n")
    }

    @Test func crlfLinesMatchAndKeepTheirCarriageReturns() throws {
        let r = try smartgrep(["world"], input: "hello\r\nworld\r\n")
        #expect(r.stdout == Data("world\r\n"))
    }

    @Test func aLastLineWithoutNewlineIsPrintedWithOne() throws {
        let r = try smartgrep(["b"], input: "a\nb")
        #expect(r.out == "b\n")
    }

    @Test func nullDataUsesNULTerminatedRecords() throws {
        let r = runInProcess("smartgrep", ["-z", "b"], input: Data("a\nb\u{0}c\u{0}b2".utf8))
        #expect(r.stdout == Data("a\nb\u{0}b2\u{0}".utf8))
    }

    @Test func grepOptionsBehaveAsInGrep() throws {
        let input = "apple\nbanana\napricot\ncherry\n"
        #expect(try smartgrep(["-v", "ap"], input: input).out == "banana\ncherry\n")
        #expect(try smartgrep(["-c", "ap"], input: input).out == "2\n")
        #expect(try smartgrep(["-cv", "ap"], input: input).out == "2\n")
        #expect(try smartgrep(["-m1", "ap"], input: input).out == "apple\n")
        #expect(try smartgrep(["-n", "ap"], input: input).out == "1:apple\n3:apricot\n")
        #expect(try smartgrep(["-nv", "ap"], input: input).out == "2:banana\n4:cherry\n")
        let quiet = try smartgrep(["-q", "ap"], input: input)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty)
        #expect(try smartgrep(["-q", "zz"], input: input).status == 1)
        #expect(try smartgrep(["-H", "ban"], input: input).out == "(standard input):banana\n")
        #expect(try smartgrep(["-c", "x bin", symbols, symbols]).out == "\(symbols):4\n\(symbols):4\n")
        #expect(try smartgrep(["-h", "xmark.bin.circle.f", symbols, symbols]).out == "xmark.bin.circle.fill\nxmark.bin.circle.fill\n")
        #expect(try smartgrep(["--max-count=0", "ap"], input: input).status == 1)
        #expect(try smartgrep(["-i", "AP"], input: input).out == "apple\napricot\n")
    }

    @Test func quietStillExitsZeroAfterAnError() throws {
        let r = try smartgrep(["-q", "x bin", "/nonexistent", symbols])
        #expect(r.status == 0)
    }

    @Test func colorHighlightsTheMatchedPrefixes() throws {
        let r = try smartgrep(["--color=always", "x bin"], input: "xmark.bin\n")
        #expect(r.out == "\u{1B}[01;31m\u{1B}[Kx\u{1B}[m\u{1B}[Kmark.\u{1B}[01;31m\u{1B}[Kbin\u{1B}[m\u{1B}[K\n")
        let never = try smartgrep(["--color=never", "x bin"], input: "xmark.bin\n")
        #expect(never.out == "xmark.bin\n")
        // auto is off when stdout is not a terminal.
        #expect(try smartgrep(["--color", "x"], input: "x\n").out == "x\n")
        #expect(try smartgrep(["--color=always", "sao"], input: "São\n").out == "\u{1B}[01;31m\u{1B}[KSão\u{1B}[m\u{1B}[K\n")
    }

    @Test func fieldRestrictsMatchingButPrintsTheWholeLine() throws {
        let input = "1\tParis\tFrance\n2\tLyon\tParis region\n"
        #expect(try smartgrep(["--field=2", "paris"], input: input).out == "1\tParis\tFrance\n")
        #expect(try smartgrep(["--field=3", "--delimiter=,", "b"], input: "a,b,c\na,c,b\n").out == "a,c,b\n")
        #expect(try smartgrep(["--field=9", "a"], input: "a\n").status == 1)
    }

    @Test func rankPrintsWholeWordsFirstThenLineStartsThenShorterLines() throws {
        let input = "bolt.hearts.fill\nheart.fill\nheartbeat\nsuit.heart\nheart\n"
        let r = try smartgrep(["--rank", "heart"], input: input)
        #expect(r.lines == ["heart", "heart.fill", "suit.heart", "heartbeat", "bolt.hearts.fill"])
        let top = try smartgrep(["--rank", "-m2", "heart"], input: input)
        #expect(top.lines == ["heart", "heart.fill"])
    }

    /// With `--field`, ranking looks at the field, and a field the query matches whole
    /// comes first (it used to rank by the whole row: São Paulo came 4th for 'sao paulo').
    @Test func rankWithAFieldRanksByTheField() throws {
        let places = Repository.root.appendingPathComponent("Sources/WayfindPlacesData/places.tsv").path
        for query in ["sao paulo", "paulo sao", "sao", "SAO PAULO"] {
            let r = try smartgrep(["--field=2", "--rank", "-m3", query, places])
            // (The state of São Paulo or its city: both are named so.)
            #expect(r.lines.first?.split(separator: "\t").dropFirst().first == "São Paulo", "\(query): \(r.lines)")
        }
        let input = "1\tSão Paulo de Olivença\tx\n2\tSão Paulo\tSão Paulo, Brazil, a long line\n"
        #expect(try smartgrep(["--field=2", "--rank", "sao paulo"], input: input).lines.first?.hasPrefix("2\t") == true)
    }

    @Test func wordModesAreSelectable() throws {
        let input = "systemGroupedBackground\nxmark.bin\nxmark bin\n"
        #expect(try smartgrep(["grouped"], input: input).lines == ["systemGroupedBackground"])
        #expect(try smartgrep(["--words=punct", "grouped"], input: input).status == 1)
        #expect(try smartgrep(["--words=space", "bin"], input: input).lines == ["xmark bin"])
    }

    @Test func helpAndVersionPrintAndExitZero() throws {
        let help = try smartgrep(["--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("--max-count"))
        let version = try smartgrep(["--version"])
        #expect(version.status == 0)
        #expect(version.out.hasPrefix("smartgrep (wayfind) "))
    }
}
