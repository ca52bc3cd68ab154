import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// What the routegraph tools say instead of doing something silently (issue 42): a graph
/// named in a folder that does not exist, a `--from` place that is not in the graph; the
/// learned graphs of the shell set-up (`--learned CMD`); and the names `--jump` refuses.
@Suite("routegraph: learned graphs and silent cases")
struct RouteGraphLearnedTests {
    /// A state folder of its own, and the environment that points there.
    struct State {
        let scratch: GraphScratch
        var state: String { scratch.path + "/state" }
        var learned: String { state + "/wayfind/learn" }
        var environment: [String: String] { ["XDG_STATE_HOME": state, "HOME": scratch.path + "/home", "PWD": scratch.path] }

        init() throws { scratch = try GraphScratch() }
    }

    @Test(arguments: ["routegraph-visit", "routegraph-suggest"])
    func aGraphInAFolderThatDoesNotExistIsAnErrorAndNothingIsMade(tool: String) throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let graph = scratch.path + "/no/such/graph.json"
        for (arguments, environment) in [(["--graph", graph, "Airport"], [:]), (["Airport"], ["ROUTEGRAPH_FILE": graph])] {
            let r = runInProcess(tool, arguments, environment: environment)
            #expect(r.status == 2 && r.stdout.isEmpty, "\(r)")
            #expect(
                r.stderr
                    == "\(tool): \(graph): the folder \(scratch.path)/no/such does not exist (make it first: only the default graphs' folders are made)\n",
                "\(r)")
            #expect(!FileManager.default.fileExists(atPath: scratch.path + "/no"))
        }
    }

    /// The default graph's folders and the learned graphs' are still made, privately.
    @Test func theDefaultAndTheLearnedGraphsFoldersAreStillMade() throws {
        let state = try State()
        defer { state.scratch.cleanUp() }
        #expect(runInProcess("routegraph-visit", ["Home"], environment: state.environment).status == 0)
        #expect(fileMode(atPath: state.state + "/wayfind/routegraph.json") == 0o600)
        let r = runInProcess("routegraph-visit", ["--learned", "trip", "Airport"], environment: state.environment)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(fileMode(atPath: state.learned) == 0o700)
        #expect(fileMode(atPath: state.learned + "/trip.json") == 0o600)
        let listed = runInProcess("routegraph-suggest", ["--learned", "trip", "--include-from", "-n0"], environment: state.environment)
        #expect(listed.lines == ["Airport"], "\(listed)")
    }

    /// `--from` a place the graph does not hold still prints what comes next by habit
    /// (status 0), and says so in one line, with the closest place name when one is
    /// close; a known place in another case or without its accents says nothing.
    @Test func aFromPlaceNotInTheGraphSaysSoWithTheClosestName() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        _ = runInProcess("routegraph-visit", ["--graph", scratch.graph, "Airport", "Home", "São Paulo", "City Center"])
        let plain = runInProcess("routegraph-suggest", ["--graph", scratch.graph])
        for (from, hint) in [("Airprot", " (did you mean 'Airport'?)"), ("sao paolo", " (did you mean 'São Paulo'?)"), ("Xylophone", "")] {
            let r = runInProcess("routegraph-suggest", ["--graph", scratch.graph, "--from", from])
            #expect(r.status == 0 && !r.lines.isEmpty, "\(r)")
            #expect(r.stderr == "routegraph-suggest: no place '\(from)' in the graph: suggesting by habit alone\(hint)\n", "\(r)")
            // Nothing found with QUERY words: status 1, and still the line.
            let none = runInProcess("routegraph-suggest", ["--graph", scratch.graph, "--from", from, "zzz"])
            #expect(none.status == 1 && none.stderr == r.stderr, "\(none)")
        }
        #expect(plain.status == 0)
        for known in ["airport", "SAO PAULO", "  City   Center "] {
            let r = runInProcess("routegraph-suggest", ["--graph", scratch.graph, "--from", known])
            #expect(r.status == 0 && r.stderr == "", "\(known): \(r)")
        }
    }

    /// An empty or missing graph has no place to misspell: nothing found, nothing said.
    @Test func aFromPlaceInAnEmptyGraphSaysNothing() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let r = runInProcess("routegraph-suggest", ["--graph", scratch.graph, "--from", "Airport"])
        #expect(r.status == 1 && r.stderr == "", "\(r)")
    }

    /// `--learned cd`: the places are directories, named as cd names them: relative to
    /// `$PWD`, without `.`, `..` or a trailing `/`; one that is not a directory is refused
    /// (nothing recorded); `--forget` takes the same names.
    @Test func theLearnedDirectoriesAreAddedListedAndForgottenByTheirPaths() throws {
        let state = try State()
        defer { state.scratch.cleanUp() }
        let root = state.scratch.path
        for folder in ["src/wayfind", "src/other", "docs"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        let env = state.environment
        let added = runInProcess(
            "routegraph-visit", ["--learned", "cd", "src/wayfind/", "./docs", root + "/src/other/../other"], environment: env)
        #expect(added.status == 0 && added.stderr == "", "\(added)")
        let listed = runInProcess("routegraph-suggest", ["--learned", "cd", "--include-from", "-n0"], environment: env)
        #expect(Set(listed.lines) == [root + "/src/wayfind", root + "/docs", root + "/src/other"], "\(listed)")
        let before = state.scratch.bytes(state.learned + "/cd.json")
        let missing = runInProcess("routegraph-visit", ["--learned", "cd", "docs", "nowhere"], environment: env)
        #expect(
            missing.status == 2 && missing.stderr == "routegraph-visit: \(root)/nowhere: no such directory; nothing was recorded\n",
            "\(missing)")
        #expect(state.scratch.bytes(state.learned + "/cd.json") == before)
        var inDocs = env
        inDocs["PWD"] = root + "/docs"
        let forgot = runInProcess(
            "routegraph-visit", ["--learned", "cd", "--forget", "../src/other", "--forget", "."], environment: inDocs)
        #expect(forgot.status == 0 && forgot.stderr == "", "\(forgot)")
        let left = runInProcess("routegraph-suggest", ["--learned", "cd", "--include-from", "-n0"], environment: env)
        #expect(left.lines == [root + "/src/wayfind"], "\(left)")
    }

    /// A learned command that has learned nothing yet says so, with the closest learned
    /// command; `--learned` and `--graph` name two graphs; a name that cannot be learned
    /// is refused.
    @Test func learnedRefusesWhatCannotBeAGraphOfALearnedCommand() throws {
        let state = try State()
        defer { state.scratch.cleanUp() }
        _ = runInProcess("routegraph-visit", ["--learned", "ssh", "alpha"], environment: state.environment)
        let typo = runInProcess("routegraph-suggest", ["--learned", "shh"], environment: state.environment)
        #expect(typo.status == 1 && typo.stderr == "routegraph-suggest: nothing learned for 'shh' yet (did you mean 'ssh'?)\n", "\(typo)")
        let both = runInProcess("routegraph-suggest", ["--learned", "ssh", "--graph", state.scratch.graph], environment: state.environment)
        #expect(both.status == 2 && both.stderr.hasPrefix("routegraph-suggest: --learned and --graph cannot be used together\n"), "\(both)")
        for bad in ["../x", "a/b", "", "-x"] {
            let r = runInProcess("routegraph-visit", ["--learned=\(bad)", "A"], environment: state.environment)
            #expect(r.status == 2 && r.stderr.hasPrefix("routegraph-visit: invalid --learned"), "\(bad): \(r)")
        }
        #expect(!FileManager.default.fileExists(atPath: state.scratch.path + "/x.json"))
    }

    /// `--jump` refuses the keywords and builtins of bash, zsh and fish (a function of
    /// that name would break the shell), except cd, which it is made to replace safely.
    @Test(arguments: ["echo", "if", "test", "pwd", "read", "source", "r", "time", "builtin", "set", "type", "which", "command", "popd"])
    func jumpRefusesAShellKeywordOrBuiltin(name: String) {
        let r = runInProcess("routegraph-suggest", ["--generate=init-bash", "--jump", name])
        #expect(r.status == 2 && r.stdout.isEmpty, "\(r)")
        #expect(
            r.stderr.hasPrefix("routegraph-suggest: invalid --jump '\(name)' (expected a name that is not a shell keyword or builtin"),
            "\(r)")
        #expect(r.stderr.split(separator: "\n").count == 2, "one line, then the usage hint: \(r)")
    }

    @Test(arguments: ["cd", "z", "j", "go"])
    func jumpTakesCdAndNamesOfNoBuiltin(name: String) {
        for shell in ["bash", "zsh", "fish"] {
            let r = runInProcess("routegraph-suggest", ["--generate=init-\(shell)", "--jump", name])
            #expect(r.status == 0 && r.stderr == "", "\(shell) \(name): \(r)")
        }
    }
}
