import Testing

@testable import WayfindCLI
@testable import WayfindCore

@Suite struct SmartgrepOptionsTests {
    func options(_ arguments: [String], terminal: Bool, environment: Environment = [:]) throws -> SmartgrepOptions {
        let parsed = try parseArguments(arguments, spec: Smartgrep.spec)
        return try SmartgrepOptions(parsed, context: ToolContext(environment: environment, outputIsTerminal: terminal))
    }

    @Test func colorAutoFollowsTheTerminalAndNoColor() throws {
        #expect(try options(["x"], terminal: true).color)
        #expect(try options(["x"], terminal: false).color == false)
        #expect(try options(["x"], terminal: true, environment: ["NO_COLOR": "1"]).color == false)
        #expect(try options(["x"], terminal: true, environment: ["NO_COLOR": ""]).color)
        #expect(try options(["x"], terminal: true, environment: ["TERM": "dumb"]).color == false)
        // An explicit choice wins over NO_COLOR.
        #expect(try options(["--color=always", "x"], terminal: false, environment: ["NO_COLOR": "1"]).color)
        #expect(try options(["--color=never", "x"], terminal: true).color == false)
    }

    @Test func aTerminalMakesOutputLineBuffered() throws {
        #expect(try options(["x"], terminal: true).lineBuffered)
        #expect(try options(["x"], terminal: false).lineBuffered == false)
        #expect(try options(["--line-buffered", "x"], terminal: false).lineBuffered)
    }

    @Test func fileNamesFollowGrepsRules() throws {
        #expect(try options(["x", "a"], terminal: false).withFilename == false)
        #expect(try options(["x", "a", "b"], terminal: false).withFilename)
        #expect(try options(["-h", "x", "a", "b"], terminal: false).withFilename == false)
        #expect(try options(["-h", "-H", "x", "a"], terminal: false).withFilename)
        #expect(try options(["x"], terminal: false).files == ["-"])
    }

    @Test func delimitersAreOneCharacter() throws {
        #expect(try options(["--delimiter=,", "x"], terminal: false).delimiter == UInt8(ascii: ","))
        #expect(try options(["--delimiter=\\t", "x"], terminal: false).delimiter == 0x09)
        #expect(throws: UsageError.self) { try options(["--delimiter=é", "x"], terminal: false) }
    }
}
