import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// magickey-suggest and magickey-find run in-process: values that cannot be right are
/// errors, never an empty result; with --json, errors are JSON too.
@Suite("magickey tools: no silent failures")
struct MagickeyToolTests {
    @Test(arguments: [
        ("FR", "FR"), ("fr", "FR"), ("FRA", "FR"), ("fra", "FR"), ("France", "FR"), ("france", "FR"),
        ("Ivory Coast", "CI"), ("cote d'ivoire", "CI"), ("Côte d'Ivoire", "CI"), ("Côte d’Ivoire", "CI"), ("cote divoire", "CI"), ("UK", "GB"), ("GBR", "GB"),
        ("Korea, Republic of", "KR"), ("South Korea", "KR"), ("Kosovo", "XK"), ("XK", "XK"), (" us ", "US"),
        ("ＦＲ", "FR"), ("ｆｒａ", "FR"),  // typed in full width
    ])
    func countriesAreNamedByEitherCodeOrByName(text: String, code: String) throws {
        #expect(Country.code(text) == code)
    }

    @Test func unknownCountriesAreErrorsWithTheClosestName() throws {
        #expect(Country.code("XX") == nil)
        #expect(Country.code("Frnace") == nil)
        let result = runInProcess(MagickeySuggest.run, ["--country", "FR,Frnace", "paris"])
        #expect(result.status == 2)
        #expect(result.out == "")
        #expect(result.stderr.hasPrefix("magickey-suggest: unknown country 'Frnace' in --country ("))
        #expect(result.stderr.contains("(did you mean 'France'?)"))
    }

    @Test func aListOfCountriesFiltersByEach() throws {
        let result = runInProcess(MagickeySuggest.run, ["--country", "deu,france", "-n", "15", "berlin paris"])
        #expect(result.status == 1)
        let paris = runInProcess(MagickeySuggest.run, ["--country", "deu,france", "paris"])
        #expect(paris.status == 0)
        #expect(paris.out.split(separator: "\n").allSatisfy { $0.contains(", France\t") })
        let berlin = runInProcess(MagickeySuggest.run, ["--country", "DEU,FRA", "berlin"])
        #expect(berlin.out.hasPrefix("Berlin, Germany\t"))
    }

    @Test func anUnknownCategoryOfTheEmbeddedGazetteerIsAnError() throws {
        let runs: [(ToolRun, [String])] = [
            (MagickeySuggest.run, ["--category", "captial", "ber"]), (MagickeyFind.run, ["--category", "captial", "--text", "ber"]),
        ]
        for (tool, arguments) in runs {
            let result = runInProcess(tool, arguments)
            #expect(result.status == 2)
            #expect(result.stderr.contains("unknown --category 'captial' (the embedded gazetteer has capital, admin seat"))
            #expect(result.stderr.contains("(did you mean 'capital'?)"))
        }
        // Plurals, underscores and case are the same category.
        for value in ["capitals", "Admin_Seat", "admin seats,city", "SECTION"] {
            #expect(runInProcess(MagickeySuggest.run, ["--category", value, "par"]).status != 2, "\(value)")
        }
    }

    @Test func aFileCategoryIsAcceptedWithPlaces() throws {
        let path = try TestFiles.write(Data("name\tlatitude\tlongitude\tcategory\nBean There\t1\t2\tcoffee\n".utf8), name: "places.tsv")
        let result = runInProcess(MagickeySuggest.run, ["--places", path, "--category", "coffee", "bean"])
        #expect(result.status == 0)
        #expect(result.out.hasPrefix("Bean There\t"))
    }

    @Test func jsonErrorsAreInArcGISShapeOnStandardOutput() throws {
        let cases: [(ToolRun, [String], String)] = [
            (MagickeySuggest.run, ["--json", "--country", "XX", "paris"], "unknown country 'XX' in --country"),
            (MagickeySuggest.run, ["--json", "--rnak", "paris"], "unknown option '--rnak'"),
            (MagickeySuggest.run, ["--json", "--places", "/nonexistent/places.tsv", "paris"], "cannot read gazetteer"),
            (MagickeyFind.run, ["--json", "NOTAKEY"], "not a magicKey: 'NOTAKEY'"),
        ]
        for (tool, arguments, message) in cases {
            let result = runInProcess(tool, arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments)")
            let lines = result.out.split(separator: "\n")
            #expect(lines.count == 1, "\(arguments): \(result.out)")
            let object = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
            let error = try #require(object?["error"] as? [String: Any], "\(arguments): \(result.out)")
            let code = error["code"] as? Int
            #expect(code == 400 || code == 500)
            #expect(error["message"] as? String == "Unable to complete operation.")
            let details = try #require(error["details"] as? [String])
            #expect(details.count == 1 && details[0].contains(message), "\(details)")
        }
        // Without --json, errors stay on standard error only.
        #expect(runInProcess(MagickeyFind.run, ["NOTAKEY"]).out == "")
    }

    @Test func findReportsTheSpatialReferenceAsArcGISDoes() throws {
        let key = runInProcess(MagickeySuggest.run, ["-n", "1", "krakow"]).out.split(separator: "\t")[1]
        let found = runInProcess(MagickeyFind.run, ["--json", String(key)])
        #expect(found.status == 0)
        #expect(found.out.hasPrefix(#"{"spatialReference":{"wkid":4326,"latestWkid":4326},"candidates":[{"address":"Kraków"#))
    }
}
