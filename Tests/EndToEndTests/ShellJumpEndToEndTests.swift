import Foundation
import Testing
import WayfindTestSupport

/// Issue 42, in real interactive bash (with bash-completion), zsh (after compinit) and
/// fish: the jump command is safe under any name, cd's included; Tab completes it; cd's
/// completion lists a folder once, ending with /; the set-up says what it cannot do.
@Suite(.serialized) struct ShellJumpEndToEndTests {
    typealias Home = ShellSetupEndToEndTests.Home
    static let shells = ShellSetupEndToEndTests.shells

    /// The set-up line of `shell` that learns `commands` and defines the jump command `jump`.
    static func setupLine(_ shell: String, _ commands: [String], jump: String) -> String {
        ShellSetupEndToEndTests.setupLine(shell, commands).replacingOccurrences(
            of: "init-\(shell) ", with: "init-\(shell) --jump \(jump) ")
    }

    /// A home with folders: `work` (where the shell starts), `sib/alpha` and `sib/beta`
    /// (learned), `sib/gamma` (not learned).
    static func jumpHome() async throws -> Home {
        let home = try Home()
        try home.makeFolders(["work", "sib/alpha", "sib/beta", "sib/gamma"])
        try await home.learn("cd", [home.path("sib/alpha"), home.path("sib/beta")])
        return home
    }

    static let names = shells.flatMap { shell in ["cd", "j"].map { (shell, $0) } }

    /// What cd would take for a directory (a path, `..`, `-`, `~`, a folder here) goes
    /// there as cd goes, no argument goes home, everything else is a query; a query
    /// without a word matches nothing. Under the name cd too, where cd then calls itself
    /// no more (in fish it did until the stack ran out); with bash's set -u, and zsh's
    /// ksharrays, nounset and shwordsplit.
    @Test(arguments: names)
    func theJumpCommandIsCdForWhatCdTakesForADirectory(shell: String, name: String) async throws {
        let home = try await Self.jumpHome()
        let log = home.path("pwd.log")
        let steps = [
            "\(name) ..", "\(name) /", "\(name)", "\(name) - >/dev/null", "\(name) ~/sib", "\(name) gamma", "\(name) ../../work",
            "\(name) alp", "\(name) ... 2>> \(log)", "\(name) ./nowhere 2>/dev/null",
        ]
        let lines = ["cd work"] + steps.flatMap { [$0, "pwd >> \(log)"] }
        let options = shell == "bash" ? "set -u\n" : shell == "zsh" ? "setopt ksharrays nounset shwordsplit\n" : ""
        let late = try await home.typed(shell, setup: options + Self.setupLine(shell, [], jump: name), lines: lines)
        #expect(late.isEmpty, "\(shell) \(name): late \(late)")
        let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let expected = [
            home.home.path, "/", home.home.path, "/", home.path("sib"), home.path("sib/gamma"), home.path("work"),
            home.path("sib/alpha"), "\(name): no directory '...' here, and no learned directory matches it",
            home.path("sib/alpha"), home.path("sib/alpha"),
        ]
        #expect(logged == expected.joined(separator: "\n") + "\n", "\(shell) \(name)")
    }

    /// Called from a function or a script, the jump command is cd alone: code that
    /// expects cd to fail on a folder that is not there still sees it fail, where a
    /// query would have taken it to a learned one.
    @Test(arguments: shells)
    func fromAFunctionOrAScriptTheJumpCommandIsCdAlone(shell: String) async throws {
        let home = try await Self.jumpHome()
        let script = home.path("script.\(shell)")
        try "cd alp\necho \"script: $PWD\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        let function = shell == "fish" ? "function f; cd alp; end" : "f() { cd alp; }"
        let status = shell == "fish" ? "$status" : "$?"
        let r = try await home.run(
            shell,
            """
            \(Self.setupLine(shell, [], jump: "cd"))
            \(function)
            f 2>/dev/null; echo "function: \(status) $PWD"
            source \(script) 2>/dev/null
            cd alp; echo "prompt: \(status) $PWD"
            """)
        #expect(
            r.out == "function: 1 \(home.home.path)\nscript: \(home.home.path)\nprompt: 0 \(home.path("sib/alpha"))\n",
            "\(shell): \(r.out)")
    }

    /// cd's options before the words, as an alias `cd='cd -P'` puts them, are kept for the
    /// cd that follows, and the words are still a query; zsh's `cd OLD NEW` stays zsh's.
    @Test(arguments: shells.filter { $0 != "fish" })
    func cdsOptionsAreKeptAndTheWordsStillJump(shell: String) async throws {
        let home = try await Self.jumpHome()
        try home.makeFolders(["real/inside"])
        try FileManager.default.createSymbolicLink(atPath: home.path("link"), withDestinationPath: home.path("real"))
        let log = home.path("pwd.log")
        var lines = ["alias cd='cd -P'", "cd link", "pwd >> \(log)", "cd alp", "pwd >> \(log)"]
        if shell == "zsh" { lines += ["cd alpha beta", "pwd >> \(log)"] }
        let late = try await home.typed(shell, setup: Self.setupLine(shell, [], jump: "cd"), lines: lines)
        #expect(late.isEmpty, "\(shell)")
        var expected = [home.path("real"), home.path("sib/alpha")]
        if shell == "zsh" { expected.append(home.path("sib/beta")) }
        let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(logged == expected.joined(separator: "\n") + "\n", "\(shell)")
    }

    /// Tab after the jump command completes as after cd: the folders here, and when none
    /// fits, the learned directories, ending with /.
    @Test(arguments: shells)
    func tabCompletesLearnedDirectoriesForTheJumpCommand(shell: String) async throws {
        let home = try await Self.jumpHome()
        let lines = try await home.completed(
            shell, setup: "cd work\n" + Self.setupLine(shell, [], jump: "j"), cases: [#"j alp\t"#, #"j ../si\t"#, #"cd ../si\t"#],
            locale: "C.UTF-8")
        #expect(lines.count == 3, "\(shell): \(lines)")
        guard lines.count == 3 else { return }
        #expect(lines[0] == "RESULT: <j><\(home.path("sib/alpha"))/>", "\(shell)")
        // A path: as cd completes it.
        #expect(
            lines[1] == lines[2].replacingOccurrences(of: "<cd>", with: "<j>") && lines[1].hasPrefix("RESULT: <j><../sib"),
            "\(shell): \(lines)")
    }

    /// A learned folder that cd's completion offers by its name from here is listed once,
    /// by that name, and the folder the shell is in is not listed at all.
    @Test(arguments: shells)
    func cdCompletionListsEachFolderOnce(shell: String) async throws {
        let home = try Home()
        try home.makeFolders(["work/alpha", "work/beta", "far/gamma"])
        try await home.learn("cd", [home.path("work/alpha"), home.path("work/beta"), home.path("far/gamma"), home.path("work")])
        // bash lists on the second Tab; zsh and fish on the first.
        let keys = shell == "bash" ? #"cd \t\t"# : #"cd \t"#
        let setup = "cd work\n" + ShellSetupEndToEndTests.setupLine(shell, ["cd"])
        // (Ctrl-C after a pause: the terminal turns it into a signal as soon as it is typed.)
        let (late, screen) = try await home.session(shell, setup: setup, lines: [keys + "<pause>\u{03}"])
        #expect(late.isEmpty, "\(shell)")
        #expect(screen.contains("gamma"), "\(shell): the learned folder elsewhere is listed: \(screen)")
        #expect(!screen.contains(home.path("work/alpha")) && !screen.contains(home.path("work/beta")), "\(shell): \(screen)")
        #expect(!screen.contains(home.path("work") + "/\u{20}") && !screen.contains(home.path("work") + "\u{20}"), "\(shell): \(screen)")
    }

    /// The set-up read twice, with an alias of a learned command defined again before
    /// it (fish printed an error block per learned command), says nothing and works.
    @Test(arguments: shells)
    func readingTheSetUpAgainAfterAnAliasSaysNothing(shell: String) async throws {
        let home = try Home()
        let line = ShellSetupEndToEndTests.setupLine(shell, ["cd", "trip"])
        let setup = "alias trip='trip -v'\n\(line)\nalias trip='trip -v'\n\(line)"
        let (late, screen) = try await home.session(shell, setup: setup, lines: ["trip Airport"])
        #expect(late.isEmpty, "\(shell)")
        #expect(!screen.contains("__wayfind"), "\(shell): \(screen)")
        #expect(home.tripRuns() == [["-v", "Airport"]], "\(shell)")
    }

    /// zsh's set-up line before compinit cannot add to completions: it says so, once,
    /// in an interactive shell; after compinit it says nothing.
    @Test func zshSaysToPutTheSetUpLineAfterCompinit() async throws {
        guard Self.shells.contains("zsh") else { return }
        let home = try Home()
        let line = ShellSetupEndToEndTests.setupLine("zsh", ["cd", "trip"])
        // The harness runs compinit first: without compdef, the shell is as before it.
        let before = try await home.session("zsh", setup: "unfunction compdef\n\(line)", lines: ["true"])
        let message = "wayfind set-up: compinit has not run yet: put the set-up line after compinit in ~/.zshrc"
        #expect(before.screen.components(separatedBy: message).count == 2, "\(before.screen)")
        let after = try await home.session("zsh", setup: line, lines: ["true"])
        #expect(!after.screen.contains(message), "\(after.screen)")
        let script = try await home.run("zsh", line)
        #expect(script.status == 0 && script.out.isEmpty, "not interactive: \(script.out)")
    }

    /// A jump command that would hide a program (`--jump ls`) is not defined, and the
    /// set-up says so in one line; the program still runs.
    @Test(arguments: shells)
    func aJumpCommandThatWouldHideAProgramIsNotDefined(shell: String) async throws {
        let home = try Home()
        try home.makeFolders(["listed"])
        let r = try await home.run(shell, Self.setupLine(shell, [], jump: "ls") + "\nls -d listed")
        #expect(r.status == 0, "\(shell): \(r.out)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.hasPrefix("wayfind set-up: --jump would hide the program ")
                    && $0.hasSuffix("/ls: no command ls defined (choose another name)")
            },
            "\(shell): \(r.out)")
        #expect(lines.first == "listed" && lines.count == 2, "\(shell): \(r.out)")
    }
}
