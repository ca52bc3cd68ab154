import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// magickey-suggest and magickey-find run in-process through their `run`.
@Suite struct MagickeySuggestFindTests {
    func suggest(_ arguments: [String], input: String = "") throws -> RunResult {
        runInProcess("magickey-suggest", arguments, input: Data(input))
    }

    func find(_ arguments: [String], input: Data = Data()) throws -> RunResult {
        runInProcess("magickey-find", arguments, input: input)
    }

    func temporaryFile(_ data: Data, name: String) throws -> String {
        try TestFiles.write(data, name: name)
    }

    @Test(arguments: ["paris", "springfield", "sao paulo", "zurich", "krakow", "san", "capitals"])
    func everySuggestionsKeyFindsExactlyThatPlace(query: String) throws {
        let suggestions = try suggest(["-n", "15", query])
        #expect(suggestions.status == 0)
        #expect(!suggestions.lines.isEmpty)
        for line in suggestions.lines {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields[2] == "false" else { continue }
            let found = try find([fields[1]])
            #expect(found.status == 0, "\(found)")
            #expect(found.lines.count == 1)
            #expect(found.lines.first?.split(separator: "\t").first.map(String.init) == fields[0])
        }
    }

    @Test func keysAreIdenticalAcrossRuns() throws {
        let first = try suggest(["-n", "15", "san"])
        let second = try suggest(["-n", "15", "san"])
        #expect(first.stdout == second.stdout)
        #expect(first.lines.count == 15)
    }

    @Test func suggestJSONPipesIntoFindJSON() throws {
        let json = try suggest(["--json", "-n", "2", "krakow"])
        #expect(json.out.hasPrefix("{\"suggestions\":[{\"text\":\"Kraków, Małopolskie, Poland\",\"magicKey\":\""))
        let found = try find(["--json"], input: json.stdout)
        #expect(found.status == 0)
        #expect(
            found.out.hasPrefix(
                "{\"spatialReference\":{\"wkid\":4326,\"latestWkid\":4326},\"candidates\":[{\"address\":\"Kraków, Małopolskie, Poland\",\"location\":{\"x\":19.93658,\"y\":50.06143},\"score\":100,"
            ))
    }

    @Test func aCollectionReturnsAtMostFiveNearestFirst() throws {
        let s = try suggest(["--location", "48.21,16.37", "capitals"])
        let first = try #require(s.lines.first?.split(separator: "\t").map(String.init))
        #expect(first[0] == "Capital" && first[2] == "true")
        let found = try find([first[1]])
        #expect(found.lines.count == 5)
        #expect(found.lines.map { String($0.split(separator: "\t")[0]) }.first == "Vienna, Wien, Austria")
        let all = try find(["-n", "50", first[1]])
        #expect(all.lines.count == 50)
    }

    @Test(arguments: [
        (["--country", "US", "paris"], "\tUS\t"), (["--category", "capital", "-n", "15", "s"], "\tcapital\t"),
    ])
    func filtersExclude(arguments: [String], mark: String) throws {
        let s = try suggest(arguments)
        #expect(s.status == 0)
        for line in s.lines {
            let key = String(line.split(separator: "\t")[1])
            #expect(try find([key]).out.contains(mark))
        }
    }

    @Test func anExtentExcludesPlacesOutsideIt() throws {
        let s = try suggest(["--extent", "-107,25,-93,37", "paris"])
        #expect(s.lines.map { String($0.split(separator: "\t")[0]) } == ["Paris, Texas, United States"])
    }

    @Test func springfieldAndParisFollowTheLocation() throws {
        #expect(try suggest(["--location", "41.88,-87.63", "springfield"]).lines.first?.hasPrefix("Springfield, Illinois,") == true)
        #expect(try suggest(["--location", "42.36,-71.06", "springfield"]).lines.first?.hasPrefix("Springfield, Massachusetts,") == true)
        #expect(try suggest(["--location", "32.78,-96.80", "paris"]).lines.first?.hasPrefix("Paris, Texas,") == true)
    }

    @Test(arguments: ["hello", "AQDlsHHPSlNG", "!!!"])
    func aStringThatIsNotAKeyExitsTwo(text: String) throws {
        let r = try find([text])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "magickey-find: not a magicKey: '\(text)'\n")
    }

    @Test func aTruncatedKeyIsNotAKey() throws {
        let key = String(try suggest(["paris"]).lines[0].split(separator: "\t")[1])
        let r = try find([String(key.dropLast(3))])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("magickey-find: not a magicKey: "))
    }

    @Test func aHugeBadKeyIsShownCutWithItsLength() throws {
        let r = try find([String(repeating: "A", count: 4_000_000)])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "magickey-find: not a magicKey: '\(String(repeating: "A", count: 80))…' (4000000 bytes)\n")
    }

    /// Memory stays bounded: a line on standard input may be 1 MiB long.
    @Test func aLineLongerThanTheLimitOnStandardInputStopsTheRun() throws {
        for tool in ["magickey-find", "magickey-suggest"] {
            let r = runInProcess(tool, [], input: Data(String(repeating: "A", count: 2_000_000).utf8))
            #expect(r.status == 2)
            #expect(r.stderr == "\(tool): cannot read standard input: a line is longer than 1 MiB (the limit)\n")
        }
    }

    @Test func aKeyWithANewlineStaysOnOneLineOfTheMessage() throws {
        let r = try find(["ab\ncd"])
        #expect(r.status == 2)
        #expect(r.stderr == "magickey-find: not a magicKey: 'ab\\ncd'\n")
    }

    @Test func aLongFlagValueIsShownCut() throws {
        let value = String(repeating: "9", count: 100_000)
        let r = try suggest(["--location", value, "paris"])
        #expect(r.status == 2)
        #expect(
            r.stderr.hasPrefix(
                "magickey-suggest: invalid --location '\(String(repeating: "9", count: 80))…' (100000 bytes) (expected LAT,LON"))
        #expect(r.stderr.utf8.count < 300)
    }

    @Test func aLongBadFieldOfAGazetteerIsShownCut() throws {
        let tsv = "name\tlatitude\tlongitude\nA\t1\t2\nB\t" + String(repeating: "x", count: 200_000) + "\t2\n"
        let path = try temporaryFile(Data(tsv.utf8), name: "long-field.tsv")
        let r = try suggest(["--places", path, "b"])
        #expect(r.status == 2)
        #expect(
            r.stderr
                == "magickey-suggest: \(path): line 3: latitude '\(String(repeating: "x", count: 80))…' (200000 bytes) is not a number from -90 to 90\n"
        )
    }

    @Test func aKeyFromAnotherGazetteerUsesItsTextOrSaysWhereItBelongs() throws {
        let tsv = "name\tlatitude\tlongitude\tcategory\nCafé de Flore\t48.854\t2.333\tcoffee\nLes Deux Magots\t48.854\t2.333\tcoffee\n"
        let path = try temporaryFile(Data(tsv.utf8), name: "coffee.tsv")
        let other = try suggest(["--places", path, "flore"])
        #expect(other.lines.count == 1)
        let line = other.lines[0]
        let key = String(line.split(separator: "\t")[1])
        let bare = try find([key])
        #expect(bare.status == 2)
        #expect(bare.stderr.contains("belongs to a different gazetteer"))
        let withText = try find([], input: Data("Paris, Île-de-France, France\t\(key)\tfalse\n".utf8))
        #expect(withText.status == 0)
        #expect(withText.lines.first?.hasPrefix("Paris, Île-de-France, France\t") == true)
        let sameFile = try find(["--places", path, key])
        #expect(sameFile.lines.first?.hasPrefix("Café de Flore\t48.85400\t2.33300\t100\tcoffee\t") == true)
    }

    /// A name with controls, quotes, a backslash, U+2028 and a non-BMP character comes out
    /// of both tools' `--json` as the one JSON escaper writes it, and parses back whole.
    @Test func aNastyNameIsEscapedByTheOneJSONWriter() throws {
        let name = "Caf\u{E9} \"Z\\rich\u{8}\u{1}\u{1F}\u{7F}\u{2028}\u{1F600}/"
        var quoted: [UInt8] = []
        JSONWriter.appendQuoted(name, to: &quoted)
        let expected = String(decoding: quoted, as: UTF8.self)
        let tsv = "name\tlatitude\tlongitude\tcategory\n\(name)\t48.85\t2.33\tcoffee\n"
        let path = try temporaryFile(Data(tsv.utf8), name: "nasty.tsv")
        let suggested = try suggest(["--places", path, "--json", "caf"])
        #expect(suggested.status == 0)
        #expect(String(decoding: suggested.stdout, as: UTF8.self).contains(#""text":"# + expected))
        let suggestions = try JSONSerialization.jsonObject(with: suggested.stdout) as? [String: [[String: Any]]]
        let first = try #require(suggestions?["suggestions"]?.first)
        #expect(first["text"] as? String == name)
        let found = try find(["--places", path, "--json", "--text", "caf"])
        #expect(found.status == 0)
        #expect(String(decoding: found.stdout, as: UTF8.self).contains(#""PlaceName":"# + expected))
        let candidates = try JSONSerialization.jsonObject(with: found.stdout) as? [String: Any]
        let attributes = ((candidates?["candidates"] as? [[String: Any]])?.first?["attributes"]) as? [String: Any]
        #expect(attributes?["PlaceName"] as? String == name)
    }

    @Test func aUserCategoryIsACollection() throws {
        let tsv = "name\tlatitude\tlongitude\tcategory\nCafé A\t48.0\t2.0\tcoffee\nCafé B\t49.0\t2.0\tcoffee\nBakery\t48.0\t2.0\tbread\n"
        let path = try temporaryFile(Data(tsv.utf8), name: "shops.tsv")
        let s = try suggest(["--places", path, "--location", "48.9,2", "coffee"])
        let first = try #require(s.lines.first?.split(separator: "\t").map(String.init))
        #expect(first[0] == "Coffee" && first[2] == "true")
        let found = try find(["--places", path, first[1]])
        #expect(found.lines.map { String($0.split(separator: "\t")[0]) } == ["Café B", "Café A"])
    }

    @Test func aGeoNamesDumpIsReadWithNamesFromTheEmbeddedGazetteer() throws {
        let row = [
            "2988507", "Paris", "Paris", "Lutece", "48.85341", "2.3488", "P", "PPLC", "FR", "", "11", "75", "751", "75056", "2138551", "",
            "42", "Europe/Paris", "2024-01-01",
        ]
        let path = try temporaryFile(Data((row.joined(separator: "\t") + "\n").utf8), name: "cities500.txt")
        let s = try suggest(["--places", path, "lutece"])
        #expect(s.lines.first?.hasPrefix("Paris, Île-de-France, France\t") == true)
    }

    @Test func aBrokenGazetteerRowIsReportedWithItsLineNumber() throws {
        let path = try temporaryFile(Data("name\tlatitude\tlongitude\nA\t1\t2\nB\t1\n".utf8), name: "broken.tsv")
        let r = try suggest(["--places", path, "a"])
        #expect(r.status == 2)
        #expect(r.stderr == "magickey-suggest: \(path): line 3: expected 3 tab-separated columns, found 2\n")
    }

    @Test func aBrokenRowThatCannotMatchStopsSuggestAsItStopsFind() throws {
        let path = try temporaryFile(Data("name\tlatitude\tlongitude\nAlpha\t1\t2\nBeta\tx\t2\n".utf8), name: "broken.tsv")
        let message = "\(path): line 3: latitude 'x' is not a number from -90 to 90\n"
        let suggested = try suggest(["--places", path, "alpha"])
        #expect(suggested.status == 2)
        #expect(suggested.stdout.isEmpty)
        #expect(suggested.stderr == "magickey-suggest: " + message)
        let found = try find(["--places", path, "--text", "alpha"])
        #expect(found.status == 2)
        #expect(found.stderr == "magickey-find: " + message)
    }

    /// A row may be 1 MiB long: a longer one, or input without newlines, is refused (after
    /// reading at most about that much) whether the file is read or mapped (from 4 MiB).
    @Test(arguments: [0, 40_000])
    func aRowLongerThanOneMebibyteIsRefused(rowsBefore: Int) throws {
        var tsv = "name\tlatitude\tlongitude\n"
        for i in 0..<rowsBefore { tsv += "Place number \(i) of many\t\(i % 90).12345\t\(i % 180).12345\n" }
        tsv += "Long " + String(repeating: "x", count: 1 << 20) + "\t1\t2\n"
        let path = try temporaryFile(Data(tsv.utf8), name: "long-row.tsv")
        let r = try suggest(["--places", path, "place"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "magickey-suggest: \(path): a line is longer than 1 MiB (the limit)\n")
    }

    @Test func endlessInputWithoutNewlinesIsRefusedQuickly() throws {
        let r = try suggest(["--places", "/dev/zero", "a"])
        #expect(r.status == 2)
        #expect(r.stderr == "magickey-suggest: /dev/zero: a line is longer than 1 MiB (the limit)\n")
    }

    @Test func aDumpOffersOnlyCollectionsItHoldsAndFindFindsThem() throws {
        let row = [
            "2988507", "Paris", "Paris", "", "48.85341", "2.3488", "P", "PPLA", "FR", "", "11", "75", "751", "75056", "2138551", "",
            "42", "Europe/Paris", "2024-01-01",
        ]
        let path = try temporaryFile(Data((row.joined(separator: "\t") + "\n").utf8), name: "cities500.txt")
        #expect(try suggest(["--places", path, "capitals"]).status == 1)
        let s = try suggest(["--places", path, "admin seats"])
        #expect(s.lines.count == 1)
        let fields = s.lines[0].split(separator: "\t").map(String.init)
        #expect(fields[0] == "Admin seat" && fields[2] == "true")
        let found = try find(["--places", path, fields[1]])
        #expect(found.status == 0)
        #expect(found.lines.first?.hasPrefix("Paris, Île-de-France, France\t48.85341\t2.34880\t100\tadmin_seat\t") == true)
    }

    @Test(arguments: ["48.8", "north,south", "1,2,3", "91,181"])
    func aMalformedLocationIsAUsageError(location: String) throws {
        let r = try suggest(["--location", location, "paris"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(
            r.stderr
                == "magickey-suggest: invalid --location '\(location)' (expected LAT,LON in decimal degrees, latitude first, e.g. 48.21,16.37, or {\"x\":16.37,\"y\":48.21})\nTry 'magickey-suggest --help' for more information.\n"
        )
    }

    @Test func invalidUTF8OnStandardInputIsReportedWithItsLine() throws {
        let r = runInProcess("magickey-suggest", [], input: Data([0x70, 0x61, 0x72, 0x69, 0x73, 0x0A, 0x70, 0xFF, 0x0A]))
        #expect(r.status == 2)
        #expect(r.lines.first?.hasPrefix("Paris, Île-de-France, France\t") == true)
        #expect(r.stderr == "magickey-suggest: standard input: line 2 is not valid UTF-8\n")
    }

    @Test func queriesOnStandardInputAreAnsweredInTurn() throws {
        let r = try suggest(["-n", "1"], input: "zurich\nkrakow\n")
        #expect(r.lines.map { String($0.prefix { $0 != "\t" }) } == ["Zürich, Switzerland", "", "Kraków, Małopolskie, Poland", ""])
    }

    @Test func noMatchAndEmptyInputExitOneSilently() throws {
        for r in [try suggest(["qqqzzz"]), try suggest([]), try find([])] {
            #expect(r.status == 1)
            #expect(r.stdout.isEmpty)
            #expect(r.stderr == "")
        }
    }

    @Test(arguments: [["--max-suggestions", "16", "x"], ["--frob"], ["--distance", "-5", "x"], ["--extent", "1,2,3", "x"]])
    func aBadCommandLineExitsTwoWithAHint(arguments: [String]) throws {
        let r = try suggest(arguments)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasSuffix("Try 'magickey-suggest --help' for more information.\n"))
    }

    @Test func versionCarriesTheGeoNamesAttribution() throws {
        for tool in ["magickey-suggest", "magickey-find"] {
            let r = runInProcess(tool, ["--version"])
            #expect(r.out.contains("Contains data from GeoNames (geonames.org), licensed under CC BY 4.0."))
        }
    }
}
