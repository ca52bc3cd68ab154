import Foundation
import Testing

/// Runs the shell integration in examples/ in real bash and zsh, with the built binaries.
@Suite("examples: shell integration", .serialized)
struct ExamplesEndToEndTests {
    static let examples = Binaries.root.appendingPathComponent("examples").path

    /// Records Home → Airport twice and Home → City Center once through the wrapper.
    func learnTrips(_ scratch: GraphScratch) throws -> RunResult {
        try Binaries.shell(
            """
            export ROUTEGRAPH_FILE='\(scratch.graph)'
            '\(Self.examples)/trip' Home Airport && '\(Self.examples)/trip' Home 'City Center' \
              && '\(Self.examples)/trip' Home Airport
            """)
    }

    @Test func theTripWrapperLogsEachTripAndThenPlansIt() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let r = try learnTrips(scratch)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(r.lines.last == "planning a trip from Home to Airport")
        let edges = try #require(try scratch.parsed()["edges"] as? [[String: Any]])
        let routes = edges.map { "\($0["origin"]!)→\($0["destination"]!) \($0["weight"]!)" }
        // Each trip starts afresh: no edge from Airport or City Center back to Home.
        #expect(routes == ["Home→Airport 2", "Home→City Center 1"])
    }

    @Test func theTripWrapperStillPlansWhenTheGraphCannotBeRecorded() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        try scratch.write("{broken")
        let r = try Binaries.shell("ROUTEGRAPH_FILE='\(scratch.graph)' '\(Self.examples)/trip' Home Airport")
        #expect(r.status == 0)
        #expect(r.lines == ["planning a trip from Home to Airport"])
        #expect(r.stderr.hasPrefix("routegraph-visit: \(scratch.graph): not a valid route graph"))
        #expect(r.stderr.hasSuffix("trip: could not record the trip (see above)\n"))
    }

    /// The origin is completed from what follows the last stop (Airport, which is never
    /// offered itself) and then by frecency; the destination from what follows the origin.
    @Test func bashCompletesTheDestinationFromWhatUsuallyFollowsTheOrigin() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        _ = try learnTrips(scratch)
        let r = try Binaries.shell(
            """
            export ROUTEGRAPH_FILE='\(scratch.graph)'
            source '\(Self.examples)/trip-completion.bash'
            complete -p trip
            COMP_WORDS=(trip Home ''); COMP_CWORD=2; _trip_complete; printf 'to: %s\\n' "${COMPREPLY[@]}"
            COMP_WORDS=(trip Home ci); COMP_CWORD=2; _trip_complete; printf 'to ci: %s\\n' "${COMPREPLY[@]}"
            COMP_WORDS=(trip h); COMP_CWORD=1; _trip_complete; printf 'from h: %s\\n' "${COMPREPLY[@]}"
            COMP_WORDS=(trip Home Airport x); COMP_CWORD=3; _trip_complete; echo "third: ${#COMPREPLY[@]}"
            COMP_WORDS=(trip "'Home'" ''); COMP_CWORD=2; _trip_complete; printf "to from 'Home': %s\\n" "${COMPREPLY[@]}"
            COMP_WORDS=(trip '"Home"' '"Ci'); COMP_CWORD=2; _trip_complete; printf 'to "Ci from "Home": %s\\n' "${COMPREPLY[@]}"
            """)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(
            r.lines == [
                "complete -o nosort -F _trip_complete trip",
                "to: Airport", #"to: City\ Center"#, #"to ci: City\ Center"#, "from h: Home", "third: 0",
                // bash leaves the quotes in COMP_WORDS: the words are dequoted first.
                "to from 'Home': Airport", #"to from 'Home': City\ Center"#, #"to "Ci from "Home": City\ Center"#,
            ])
    }

    /// Types `keys` (ending in a Tab) into the interactive `shell` after `setup`, through
    /// a pseudo-terminal that zsh's zpty module drives, with the built binaries first on
    /// PATH and `ROUTEGRAPH_FILE` set; then puts `echo RESULT: ` before the completed line
    /// (Ctrl-A) and runs it. Returns the printed lines that start with `RESULT: `.
    func completedLine(shell: String, setup: String, keys: String, graph: String) throws -> [String] {
        let driver = """
            zmodload zsh/zpty
            zpty -b shell '\(shell)'
            zpty -w shell 'PS1="> "; \(setup)'
            zpty -w -n shell $'\(keys)'
            sleep 1
            zpty -w shell $'\\x01echo RESULT: '
            sleep 1
            output=''
            while zpty -r -t shell line; do output+=$line; done
            zpty -d shell
            print -r -- ${(M)${(f)output//$'\\r'/}:#RESULT: *}
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zsh")
        process.arguments = ["-f", "-c", driver]
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = Binaries.directory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["ROUTEGRAPH_FILE"] = graph
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// bash's own line editing, through a pseudo-terminal: the origin typed in quotes
    /// still picks what follows it. City Center → Cinema is the only trip from City
    /// Center, so `ci` completes to Cinema; were the quotes kept, City Center would be an
    /// unknown place, both City Center and Cinema would match, and only `Ci` would be
    /// completed.
    @Test func bashCompletesAfterAQuotedOriginInARealInteractiveShell() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        _ = try learnTrips(scratch)
        let cinema = try Binaries.shell("ROUTEGRAPH_FILE='\(scratch.graph)' '\(Self.examples)/trip' 'City Center' Cinema")
        #expect(cinema.status == 0, "\(cinema)")
        let lines = try completedLine(
            shell: "bash --norc --noprofile -i", setup: "source \(Self.examples)/trip-completion.bash",
            keys: #"trip \'City Center\' ci\t"#, graph: scratch.graph)
        #expect(lines.contains("RESULT: trip City Center Cinema"), "bash printed: \(lines)")
    }

    @Test func zshCompletesTheDestinationInARealInteractiveShell() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        _ = try learnTrips(scratch)
        // Type `trip Home ci` and Tab in an interactive zsh.
        let lines = try completedLine(
            shell: "zsh -f -i", setup: "autoload -Uz compinit; compinit -u -D; source \(Self.examples)/trip-completion.zsh",
            keys: #"trip Home ci\t"#, graph: scratch.graph)
        #expect(lines.contains("RESULT: trip Home City Center"), "zsh printed: \(lines)")
    }
}
