import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// What a new user of the geocoder runs into: files saved by other programs, a graph that
/// is missing or damaged, a stream of queries with a bad line, a key without its
/// gazetteer, a category or a point given the way another tool writes it. Each gets an
/// answer, or one line saying why not.
@Suite struct MagickeyNewUserTests {
    func suggest(_ arguments: [String], input: String = "") -> RunResult {
        runInProcess("magickey-suggest", arguments, input: Data(input.utf8))
    }

    func find(_ arguments: [String], input: String = "") -> RunResult {
        runInProcess("magickey-find", arguments, input: Data(input.utf8))
    }

    static let cafes = "name\tlatitude\tlongitude\tcategory\nBlue Bottle Coffee\t37.77\t-122.42\tcoffee\nSightglass\t37.77\t-122.41\tcoffee\nMuscle Gym\t37.78\t-122.41\tgym\nMarket St Stop\t37.79\t-122.40\tstop\n"

    @Test func aTSVSavedWithAByteOrderMarkIsAGazetteer() throws {
        let path = try TestFiles.write(Data([0xEF, 0xBB, 0xBF] + Array(Self.cafes.utf8)), name: "bom-cafes.tsv")
        let r = suggest(["--places", path, "blue"])
        #expect(r.status == 0, "\(r)")
        #expect(r.lines.first?.hasPrefix("Blue Bottle Coffee\t") == true)
        let key = try #require(r.lines.first?.split(separator: "\t").map(String.init)[1])
        #expect(find(["--places", path, key]).lines.first?.hasPrefix("Blue Bottle Coffee\t37.77000\t-122.42000") == true)
    }

    @Test(arguments: [("stops", "Stop"), ("gyms", "Gym"), ("coffees", "Coffee"), ("stop", "Stop")])
    func aCategoryIsNamedByItsPluralToo(query: String, collection: String) throws {
        let path = try TestFiles.write(Data(Self.cafes.utf8), name: "plural-cafes.tsv")
        let r = suggest(["--places", path, query])
        #expect(r.lines.first?.hasPrefix(collection + "\t") == true, "\(r)")
        #expect(r.lines.first?.hasSuffix("\ttrue") == true)
    }

    @Test(arguments: [("city", "cities"), ("stop", "stops"), ("bus", "buses"), ("admin seat", "admin seats"), ("coffee", "coffees"), ("day", "days")])
    func pluralsAreMadeAndUndoneByOneRule(singular: String, plural: String) {
        #expect(PlaceCategory.plural(singular) == plural)
        #expect(PlaceCategory.singulars(plural).contains(PlaceCategory.normalized(singular)))
        #expect(PlaceFilters(categories: [plural]).categories.contains(PlaceCategory.normalized(singular)))
    }

    @Test func theEmbeddedCitiesAreACollectionAndAFilter() {
        #expect(suggest(["cities"]).lines.first?.hasPrefix("City\t") == true)
        #expect(suggest(["--category", "cities", "-n", "1", "paris"]).status == 0)
    }

    @Test func aCategoryNoPlaceOfThePlacesFileHasIsNamedWithTheClosest() throws {
        let path = try TestFiles.write(Data(Self.cafes.utf8), name: "typo-cafes.tsv")
        let r = suggest(["--places", path, "--category", "cofee", "blue"])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "magickey-suggest: no place of '\(path)' has --category 'cofee' (its categories: coffee, gym, stop) (did you mean 'coffee'?)\n"
        )
        #expect(suggest(["--places", path, "--category", "coffees", "blue"]).stderr == "")
    }

    @Test func queriesOnStandardInputAreAnsweredOneByOneEachEndedByAnEmptyLine() {
        let r = suggest(["-n", "1"], input: "paris\n\nlondon\n")
        #expect(r.lines.count == 5, "\(r)")
        #expect(r.lines[0].hasPrefix("Paris, Île-de-France, France\t") && r.lines[1] == "")
        // An empty query has an empty answer: the line that ends it.
        #expect(r.lines[2] == "" && r.lines[4] == "")
    }

    @Test func aLineOfInvalidUTF8IsReportedAndTheNextIsStillAnswered() {
        let input = Data("paris\n".utf8) + Data([0xFF, 0xFE, 0x0A]) + Data("london\n".utf8)
        let r = runInProcess("magickey-suggest", ["-n", "1"], input: input)
        #expect(r.status == 2)
        #expect(r.stderr == "magickey-suggest: standard input: line 2 is not valid UTF-8\n")
        #expect(r.lines.count == 5, "\(r)")
        #expect(r.lines[2] == "" && r.lines[3].hasPrefix("London, England, United Kingdom\t"))
        let keys = runInProcess("magickey-find", [], input: Data([0xFF, 0x0A]) + Data((suggest(["-n", "1", "roma"]).lines[0] + "\n").utf8))
        #expect(keys.status == 2 && keys.lines.first?.hasPrefix("Rome, Lazio, Italy\t") == true, "\(keys)")
    }

    @Test func withNullDataQueriesAndAnswersEndWithNUL() {
        let r = suggest(["-z", "-n", "1"], input: "paris\0roma\0")
        let answers = r.out.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        #expect(answers.count == 3 && answers[2] == "")
        #expect(answers[0].hasPrefix("Paris, Île-de-France, France\t") && answers[0].hasSuffix("\n"))
        #expect(answers[1].hasPrefix("Rome, Lazio, Italy\t"))
    }

    @Test func aMissingGraphSaysSoAndNamesAFileOfACloseName() throws {
        let folder = try TestFiles.directory()
        let typo = folder.appendingPathComponent("tyop.json").path
        FileManager.default.createFile(atPath: folder.appendingPathComponent("typo.json").path, contents: Data())
        let r = suggest(["--graph", typo, "-n", "1", "paris"])
        #expect(r.status == 0)
        #expect(
            r.stderr
                == "magickey-suggest: no route graph at '\(typo)' yet (magickey-find --graph records one); did you mean '\(folder.path)/typo.json'?\n"
        )
    }

    @Test func aDamagedGraphIsReportedOnceInAStream() throws {
        let graph = try TestFiles.directory().appendingPathComponent("changing.json").path
        try Data("{\"edges\":[".utf8).write(to: URL(fileURLWithPath: graph))
        // The damaged version is reported once, however many queries ask.
        let r = suggest(["--graph", graph, "-n", "1"], input: "paris\nroma\nberlin\n")
        #expect(r.status == 2)
        #expect(r.stderr.components(separatedBy: "not a valid route graph").count == 2, "\(r.stderr)")
        #expect(r.lines.count == 6)
    }

    @Test func aGraphInAMissingFolderIsAnErrorAndNothingIsMade() throws {
        let folder = try TestFiles.directory().appendingPathComponent("no-such-folder")
        let r = find(["--graph", folder.path + "/places.json", "--text", "paris"])
        #expect(r.status == 2 && r.out == "")
        #expect(r.stderr.hasPrefix("magickey-find: \(folder.path)/places.json: the folder \(folder.path) does not exist"))
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func aKeyOfAnotherGazetteerWhoseTextFindsNothingSaysWhy() throws {
        let path = try TestFiles.write(Data(Self.cafes.utf8), name: "other-cafes.tsv")
        let line = try #require(suggest(["--places", path, "sight"]).lines.first)
        let r = find([], input: line + "\n")
        #expect(r.status == 2)
        #expect(r.stderr.contains("belongs to a different gazetteer than the embedded gazetteer, where its text 'Sightglass' names no place"))
    }

    @Test func aLocationGivenLongitudeFirstGetsANote() throws {
        let swapped = suggest(["--location", "16.37,48.21", "-n", "1", "wien"])
        #expect(swapped.status == 0)
        #expect(
            swapped.stderr
                == "magickey-suggest: --location 16.37,48.21 is latitude 16.37, longitude 48.21, far from any place; latitude first, 48.21,16.37 is Vienna, Wien, Austria\n"
        )
        // Bad input still gets its one line: the note comes only with an answer (a
        // fuzzed gazetteer whose line 2 is not UTF-8 printed both).
        let bytes = Array("name\tlat\tlon\nCaf".utf8) + [0xC3] + Array("O\t47.8\t2.3\n".utf8)
        let broken = try TestFiles.write(Data(bytes), name: "swapped-broken.tsv")
        let refused = suggest(["--places", broken, "--location", "16.37,48.21", "caf"])
        #expect(refused.status == 2)
        #expect(refused.stderr.hasSuffix(": line 2: name is not valid UTF-8\n"))
        #expect(refused.stderr.filter { $0 == "\n" }.count == 1, "\(refused.stderr)")
        // Real points near places in both readings say nothing: Vienna, Cairo.
        #expect(suggest(["--location", "48.21,16.37", "-n", "1", "wien"]).stderr == "")
        #expect(suggest(["--location", "30.04,31.24", "-n", "1", "cai"]).stderr == "")
    }

    @Test func aLatitudeBeyondNinetySaysWhichComesFirst() {
        let r = suggest(["--location", "120.5,30", "x"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("magickey-suggest: invalid --location '120.5,30': latitude 120.5 is beyond ±90; --location is LAT,LON, latitude first (did you mean 30,120.5?)"))
    }

    @Test func arcGISsJSONPointIsLongitudeFirst() {
        let json = suggest(["--location", "{\"x\":16.37,\"y\":48.21,\"spatialReference\":{\"wkid\":4326}}", "-n", "1", "wien"])
        let plain = suggest(["--location", "48.21,16.37", "-n", "1", "wien"])
        #expect(json.status == 0 && json.stderr == "")
        #expect(json.out == plain.out)
        #expect(suggest(["--location", "{\"x\":\"a\",\"y\":1}", "x"]).status == 2)
    }

    @Test func theCountryAttributeIsAlpha3AsArcGISGivesIt() {
        let r = find(["--json", "--text", "krakow"])
        #expect(r.out.contains("\"Country\":\"POL\",\"CntryName\":\"Poland\""), "\(r.out)")
    }
}
