import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// magickey-find --reverse, in-process: the nearest places with their distance, the
/// filters, and its flags' errors.
@Suite struct MagickeyReverseTests {
    @Test func aPointGivesItsNearestPlaceWithTheDistance() {
        let result = runInProcess(MagickeyFind.run, ["--reverse", "48.85,2.35"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.out == "Paris, Île-de-France, France\t48.85341\t2.34880\t100\tcapital\tFR\tÎle-de-France\t2138551\t2988507\t389\n")
    }

    @Test func anArcGISPointAndMaxLocationsGiveSeveralNearestFirst() {
        let result = runInProcess(MagickeyFind.run, ["--reverse", #"{"x":151.2,"y":-33.87}"#, "-n", "3"])
        #expect(result.status == 0)
        let distances = result.lines.map { Int($0.split(separator: "\t").last!)! }
        #expect(result.lines.count == 3)
        #expect(distances == distances.sorted())
        #expect(result.lines.first?.hasPrefix("Sydney, New South Wales, Australia\t") == true)
    }

    @Test func jsonCarriesTheDistanceAsAnAttribute() {
        let result = runInProcess(MagickeyFind.run, ["--reverse", "48.85,2.35", "--json"])
        #expect(result.status == 0)
        #expect(
            result.out.hasPrefix(
                #"{"spatialReference":{"wkid":4326,"latestWkid":4326},"candidates":[{"address":"Paris, Île-de-France, France""#))
        #expect(result.out.contains(#""Id":"2988507","Distance":389}"#))
    }

    @Test func nothingWithinTheDistanceIsStatusOne() {
        let result = runInProcess(MagickeyFind.run, ["--reverse", "0,-150", "--within", "1000"])
        #expect(result.status == 1)
        #expect(result.out == "")
        #expect(result.stderr == "")
    }

    @Test func filtersApplyAndAreasComeOnlyWhenNamed() {
        let japan = runInProcess(MagickeyFind.run, ["--reverse", "48.85,2.35", "--country", "JP"])
        #expect(japan.out.contains("\tJP\t"))
        let country = runInProcess(MagickeyFind.run, ["--reverse", "48.85,2.35", "--category", "country"])
        #expect(country.out.hasPrefix("France\t"))
    }

    @Test(arguments: [
        (["--reverse", "200,1"], "magickey-find: invalid --reverse '200,1' (expected LAT,LON"),
        (["--reverse", "148.85,2.35"], "magickey-find: invalid --reverse '148.85,2.35': latitude 148.85 is beyond ±90"),
        (["--reverse", "48,2", "--location", "1,1"], "magickey-find: --location does not go with --reverse"),
        (["--reverse", "48,2", "--text", "paris"], "magickey-find: give either --reverse, --text or keys"),
        (["--within", "5", "--text", "paris"], "magickey-find: --within goes with --reverse"),
        (["--reverse", "48,2", "--within", "-5"], "magickey-find: invalid --within '-5'"),
    ])
    func badReverseRequestsAreUsageErrors(arguments: [String], message: String) {
        let result = runInProcess(MagickeyFind.run, arguments)
        #expect(result.status == 2)
        #expect(result.out == "")
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    }
}
