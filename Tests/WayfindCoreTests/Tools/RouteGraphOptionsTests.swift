import Testing

@testable import WayfindCLI
@testable import WayfindCore

@Suite struct RouteGraphOptionsTests {
    func visit(_ arguments: [String]) throws(UsageError) -> RouteGraphVisitOptions {
        try RouteGraphVisitOptions(parseArguments(arguments, spec: RouteGraphVisit.spec), context: ToolContext(now: { 1_000 }))
    }

    func suggest(_ arguments: [String]) throws(UsageError) -> RouteGraphSuggestOptions {
        try RouteGraphSuggestOptions(parseArguments(arguments, spec: RouteGraphSuggest.spec), context: ToolContext(now: { 1_000 }))
    }

    /// The message of the `UsageError` that `body` throws.
    func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? UsageError)?.message
        }
    }

    @Test func visitFlagsBecomeTypedValues() throws {
        let options = try visit([
            "--graph=g.json", "--at", "2024-05-01T08:30:00+02:00", "--trip-gap", "3h", "--max-places", "0", "-Nz",
            "--forget", "Old", "--forget", "Older", "--self-loops", "-q", "Home",
        ])
        #expect(options.graph == "g.json")
        #expect(options.time == 1_714_545_000)
        #expect(options.tripGap == Int64(3 * 3600))
        #expect(options.maximumPlaces == 0)
        #expect(options.newTrip && options.nullData && options.selfLoops && options.quiet && !options.timestamped)
        #expect(options.forget == ["Old", "Older"])
        #expect(options.places == ["Home"])
        let defaults = try visit([])
        #expect(defaults.graph == nil && defaults.time == 1_000 && defaults.tripGap == nil)
        #expect(defaults.maximumPlaces == RouteGraphVisit.defaultMaximumPlaces && defaults.places == ["-"])
    }

    @Test func suggestFlagsBecomeTypedValues() throws {
        let options = try suggest(["-f", "Home", "-n0", "-s", "--half-life", "30d", "--scores", "-z", "sao", "pa"])
        #expect(options.request.from == "Home" && options.request.limit == nil && options.request.successorsOnly)
        #expect(options.request.halfLife == Int64(30 * 86_400))
        #expect(options.scores && options.nullData && !options.json)
        #expect(options.query != nil)
        let defaults = try suggest([])
        #expect(defaults.request.limit == RouteGraphSuggest.defaultLimit && defaults.request.now == 1_000)
        #expect(defaults.request.from == nil && defaults.request.halfLife == nil && defaults.query == nil)
    }

    /// Every bad value gets the one message shape, with a long value cut short.
    @Test func badValuesAreRefusedWithOneMessageShape() {
        #expect(
            message { _ = try visit(["--at", "yesterday"]) }
                == "invalid --at 'yesterday' (expected Unix seconds or ISO 8601 from 1970 to 9999, such as 2024-05-01T08:30:00Z)")
        #expect(
            message { _ = try visit(["--trip-gap", "soon"]) } == "invalid --trip-gap 'soon' (expected a duration such as 90, 30m, 3h or 2d)"
        )
        #expect(message { _ = try visit(["--max-places", "-1"]) } == "invalid --max-places '-1' (expected a number ≥ 0)")
        #expect(message { _ = try visit(["--forget", " \t"]) } == "invalid --forget ' \\t' (expected a place name)")
        #expect(message { _ = try visit(["--graph", ""]) } == "invalid --graph '' (expected a file name)")
        #expect(message { _ = try suggest(["--from", " "]) } == "invalid --from ' ' (expected a place name)")
        #expect(message { _ = try suggest(["-n", "many"]) } == "invalid --limit 'many' (expected a number ≥ 0)")
        #expect(
            message { _ = try suggest(["--half-life", "0"]) } == "invalid --half-life '0' (expected a duration such as 30d, 12h or 3600)")
        let long = String(repeating: "7", count: 100)
        #expect(message { _ = try visit(["--trip-gap", long + "x"]) }?.contains("'\(long.prefix(MessageValue.shownCharacters))…' (101 bytes)") == true)
    }
}
