import Foundation
import Testing
import WayfindTestSupport

/// The shell set-up does no harm, in the shells as users have them (bash with
/// bash-completion, zsh after compinit, fish), typed into through a pseudo-terminal, with
/// an alias of the learned command defined before the set-up line.
struct ShellSafetyEndToEndTests {
    typealias Home = ShellSetupEndToEndTests.Home
    static let shells = ShellSetupEndToEndTests.shells

    /// Names that a completion could turn into code or into another name: history
    /// expansion (`!`, `!#`, `!!`, `!?x?`, also inside double quotes), quotes at either
    /// end, readline's word breaks, globs, substitutions, escapes, control characters.
    /// Each holds a tag (`zqa`) that is typed to complete it; `PWNED` is what must never
    /// be made.
    static let hostileNames = [
        "!zqa", "!#zqb;touch PWNED;#", "!!zqc", "!?x?zqd", "zqe!", "'zqf", "\"zqg", "'zqh'\"x\"", "a b zqi",
        "@zqj", "host:zqk", "x=zql", "*zqm", "zqn?", "[zqo]", "{zqp,q}", "$(touch PWNED)zqq", "`touch PWNED`zqr",
        "$HOME zqs", "\\zqt\\", "back\\\\slash zqu", "~zqv", "#zqw", "zqx;touch PWNED", "zqy|touch PWNED",
        "zqz&touch PWNED", "<zra>", "(zrb)", "%zrc", "São zrd ü", "tab\tzre", "esc\u{1B}]0;TITLE\u{07}zrf", "^zrg",
        "-zrh", "zri'\"'\"'q", "zrj\\!\"!\"", "\u{7F}zrk\u{01}", "¡zrl!",
        // In bash's $'…' a backslash escapes the quote: \' must not end it.
        "zrm\\';>PWNED;'", "zrn\u{01}\\'x",
        // In Big5, GBK and GB18030 the last byte of € (0xAC) and a \ after it are one
        // character, and so are ā's (0x81) and a \ in Shift-JIS: a \ written to escape
        // what follows must not come right after them; nor may the name's own.
        "zro€>PWNED", "zrp€\";>PWNED;€\"", "zrq€';>PWNED;€'", "zrs€\\;>PWNED", "zrtā>PWNED", "zruā\";>PWNED;ā\"",
    ]

    /// Where the cursor can be: in a bare word, in single or double quotes, and in bash's
    /// and zsh's $'…' (fish has none).
    static func quoteStyles(_ shell: String) -> [String] { ["", "'", "\""] + (shell == "fish" ? [] : ["$'"]) }

    /// The tag of a hostile name: `z`, then `q` or `r`, then a letter.
    static func tag(of name: String) -> String {
        let bytes = Array(name.utf8)
        let start = bytes.indices.first { bytes[$0] == UInt8(ascii: "z") && $0 + 2 < bytes.count && (bytes[$0 + 1] == UInt8(ascii: "q") || bytes[$0 + 1] == UInt8(ascii: "r")) }!
        return String(decoding: bytes[start..<start + 3], as: UTF8.self)
    }

    /// Point 0: each hostile name, completed bare, in single and in double quotes and in
    /// $'…' (with history expansion on) and run, reaches the command exactly as the graph
    /// holds it, and nothing else runs.
    @Test(arguments: shells)
    func hostileNamesAreInsertedExactlyAndRunNothing(shell: String) async throws {
        try await Self.expectHostileNamesSafe(shell: shell, locale: "C.UTF-8")
    }

    /// Completes each hostile name in each quoting style in an interactive `shell` in
    /// `locale` (with `extra` in the environment, such as a LOCPATH), runs it, and expects
    /// the command to get it byte for byte and nothing else to run.
    static func expectHostileNamesSafe(shell: String, locale: String, extra: [String: String] = [:]) async throws {
        let home = try Home()
        try await home.learn("trip", Self.hostileNames + ["elsewhere"])
        // The names as the graph holds them (it folds runs of blanks into one space).
        let stored = try await Binaries.run("routegraph-suggest", ["--graph", home.tripGraph, "-n", "0", "-z", "--include-from"])
        let names = stored.out.split(separator: "\0").map(String.init)
        var cases: [(keys: String, name: String)] = []
        for name in Self.hostileNames {
            let tag = Self.tag(of: name)
            let spelled = try #require(names.first { $0.contains(tag) }, "\(tag) in \(names)")
            for quote in Self.quoteStyles(shell) { cases.append(("trip \(quote)\(tag)\\t", spelled)) }
        }
        let setup = "alias trip='trip -v'\n" + ShellSetupEndToEndTests.setupLine(shell, ["trip"])
        let late = try await home.typed(shell, setup: setup, lines: cases.map(\.keys), locale: locale, extra: extra)
        let runs = home.tripRuns()
        for (index, run) in runs.enumerated() where index < cases.count {
            #expect(run == ["-v", cases[index].name], "\(shell) in \(locale): \(cases[index].keys)")
        }
        #expect(runs.count == cases.count, "\(shell) in \(locale): \(runs.count) runs, late \(late)")
        #expect(!FileManager.default.fileExists(atPath: home.home.appendingPathComponent("PWNED").path), "\(shell) in \(locale)")
    }

    /// A home with a `~/.ssh/config` of two hosts, an `ssh` that only logs, and folders
    /// to `cd` to: `work` (where the shell starts), `sib/alpha`, `gone` (deleted after
    /// it was learned).
    static func sshAndCdHome() throws -> Home {
        let home = try Home()
        for tool in ["ssh", "scp"] {
            let stub = home.bin.appendingPathComponent(tool)
            try "#!/bin/sh\nfor a; do [ \"$a\" = down-host ] && exit 255; done\nprintf '\(tool) %s\\n' \"$*\"\n".write(
                to: stub, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub.path)
        }
        let dotSSH = home.home.appendingPathComponent(".ssh")
        try FileManager.default.createDirectory(at: dotSSH, withIntermediateDirectories: true)
        try "Host alpha\n  HostName alpha.example\nHost beta-box\n  HostName beta.example\n".write(
            to: dotSSH.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        for folder in ["work", "sib/alpha", "sib/beta", "gone"] {
            try FileManager.default.createDirectory(
                at: home.home.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        return home
    }

    /// What Tab put in the word before the set-up, it still puts there: a learned place
    /// does not stop `cd al<Tab>` from completing the folder `alpha/` here (it is added
    /// when the usual completion would put nothing in the word), and places that share
    /// less than what was typed leave the word as typed (zsh would cut it to what they
    /// share). Also in bash under `set -u`, and in zsh with `shwordsplit`, where a folder
    /// with a space is still recorded whole.
    @Test(arguments: shells)
    func whatTabPutInTheWordBeforeItStillPuts(shell: String) async throws {
        let home = try Home()
        try home.makeFolders(["work/alpha", "work/alpine", "work/beta", "far/alpha2", "far/with space"])
        let path = home.path
        try await home.learn("cd", [path("work/alpha"), path("far/alpha2"), path("work/beta")])
        try await home.learn("trip", ["North Gate", "South Gate"])
        let cases = [#"cd alph\t"#, #"cd be\t"#, #"cd al\t"#, #"cd alpha2\t"#, #"trip gate\t"#, #"cd \t"#]
        let plain = try await home.completed(shell, setup: "cd work", cases: cases, locale: "C.UTF-8")
        let options = shell == "bash" ? "set -u" : shell == "zsh" ? "setopt shwordsplit" : "true"
        let setup = "\(options)\n\(ShellSetupEndToEndTests.setupLine(shell, ["cd", "trip"]))\ncd 'far/with space'\ncd ../../work"
        let learned = try await home.completed(shell, setup: setup, cases: cases, locale: "C.UTF-8")
        #expect(plain.count == cases.count && learned.count == cases.count, "\(shell): \(plain) \(learned)")
        guard plain.count == cases.count, learned.count == cases.count else { return }
        // The folders here, as without the set-up (alpha/, beta/, and alp that alpha and
        // alpine share).
        #expect(Array(learned[0..<3]) == Array(plain[0..<3]), "\(shell): \(learned) \(plain)")
        #expect(plain[0].hasPrefix("RESULT: <cd><alpha"), "\(shell): \(plain)")
        // No folder here: the learned one.
        #expect(learned[3] == "RESULT: <cd><\(path("far/alpha2"))/>", "\(shell): \(learned)")
        // Two places that share nothing: the word stays as typed.
        #expect(learned[4] == "RESULT: <trip><gate>", "\(shell): \(learned)")
        // An empty word among folders that share nothing: nothing put in, and no error
        // on the screen (a line SHELL ERROR: would make the counts above differ).
        #expect(learned[5] == plain[5], "\(shell): \(learned)")
        let visited: Set = [path("work/alpha"), path("far/alpha2"), path("work/beta"), path("far/with space"), path("work")]
        #expect(try await home.places(home.cdGraph, expecting: visited) == visited, "\(shell)")
    }

    /// The user's options change nothing of that: readline's completion-ignore-case in
    /// bash; zsh's nounset and ksharrays (which broke the set-up itself) and a
    /// case-insensitive matcher-list (whose second pass the places stopped); in fish, a
    /// word typed with escapes, and an empty word (Tab once put '' there).
    @Test(arguments: shells)
    func theUsersShellOptionsChangeNothingOfIt(shell: String) async throws {
        let home = try Home()
        try home.makeFolders(["ci1/Alpha", "ci2/Alpha", "ci2/alpine", "esc/a b c d1", "esc/a b c d2", "empty", "far/alpha2", "far/a b c x"])
        let path = home.path
        try await home.learn("cd", [path("far/alpha2"), path("far/a b c x")])
        try await home.learn("trip", ["North Gate", "South Gate"])
        let options =
            shell == "bash" ? "bind 'set completion-ignore-case on'"
            : shell == "zsh" ? "zstyle ':completion:*' matcher-list '' 'm:{a-zA-Z}={A-Za-z}'\nsetopt nounset ksharrays" : "true"
        let learn = ShellSetupEndToEndTests.setupLine(shell, ["cd", "trip"])
        let cases = [("ci1", #"cd al\t"#), ("ci2", #"cd al\t"#), ("esc", #"cd a\ b\ c\t"#), ("empty", #"trip \t"#)]
        for (folder, keys) in cases {
            let plain = try await home.completed(shell, setup: "\(options)\ncd \(folder)", cases: [keys], locale: "C.UTF-8")
            let learned = try await home.completed(shell, setup: "\(options)\n\(learn)\ncd \(folder)", cases: [keys], locale: "C.UTF-8")
            #expect(plain.count == 1 && learned == plain, "\(shell) in \(folder), \(keys): \(learned) against \(plain)")
        }
        // And the places still complete, where the usual completion has nothing.
        let learned = try await home.completed(shell, setup: "\(options)\n\(learn)\ncd ci1", cases: [#"cd alpha2\t"#], locale: "C.UTF-8")
        #expect(learned == ["RESULT: <cd><\(path("far/alpha2"))/>"], "\(shell): \(learned)")
    }

    /// Points 1 and 2: the usual completion of cd and ssh still runs; learned places are
    /// added to it; a path goes to the usual completion alone; a learned directory that
    /// was deleted is neither offered nor kept.
    @Test(arguments: shells)
    func learnedPlacesAddToTheUsualCompletion(shell: String) async throws {
        let home = try Self.sshAndCdHome()
        let sshGraph = home.state.appendingPathComponent("wayfind/learn/ssh.json").path
        let gone = home.home.appendingPathComponent("gone").path
        let alpha = home.home.appendingPathComponent("sib/alpha").path
        try await home.learn("ssh", ["learned-host"])
        try await home.learn("cd", [gone, alpha])
        try FileManager.default.removeItem(atPath: gone)
        let cases = [#"ssh al\t"#, #"ssh lea\t"#, #"cd ../si\t"#, #"cd ../sib/al\t"#, #"cd go\t"#, #"cd alp\t"#]
        let start = "cd work"
        let plain = try await home.completed(shell, setup: start, cases: cases, locale: "C.UTF-8")
        let setup = start + "\n" + ShellSetupEndToEndTests.setupLine(shell, ["cd", "ssh", "trip"])
        let learned = try await home.completed(shell, setup: setup, cases: cases, locale: "C.UTF-8")
        #expect(plain.count == cases.count && learned.count == cases.count, "\(shell): \(plain) \(learned)")
        guard plain.count == cases.count, learned.count == cases.count else { return }
        // What the shell completes by itself is still completed (fish here finds no
        // hosts by itself).
        if shell != "fish" { #expect(plain[0] == "RESULT: <ssh><alpha>", "\(shell)") }
        #expect(learned[0] == plain[0], "\(shell)")
        // The learned host, which the shell does not know.
        #expect(learned[1] == "RESULT: <ssh><learned-host>", "\(shell)")
        // Paths: exactly as without the set-up.
        #expect(learned[2] == plain[2] && learned[3] == plain[3], "\(shell): \(learned) \(plain)")
        // The deleted folder is not offered, and is forgotten.
        #expect(learned[4] == plain[4], "\(shell)")
        #expect(try await home.places(home.cdGraph, expecting: [alpha]) == [alpha])
        // A learned folder, by a word of its name.
        #expect(learned[5].hasPrefix("RESULT: <cd><\(alpha)"), "\(shell): \(learned[5])")
    }

    /// Point 2: the first prompt of a new shell records nothing, and a start-up file
    /// read twice installs each hook and wrapper once.
    @Test(arguments: shells)
    func theFirstPromptRecordsNothingAndTheSetUpInstallsOnce(shell: String) async throws {
        let home = try Self.sshAndCdHome()
        let line = ShellSetupEndToEndTests.setupLine(shell, ["cd", "trip"])
        let late = try await home.typed(shell, setup: "cd work\n\(line)\n\(line)", lines: ["cd ../sib", "trip Airport"])
        #expect(late.isEmpty, "\(shell)")
        #expect(home.tripRuns() == [["Airport"]], "\(shell)")
        let sib = home.home.appendingPathComponent("sib").path
        #expect(try await home.places(home.cdGraph, expecting: [sib]) == [sib], "\(shell)")
        // One visit: one hook.
        let stored = try String(contentsOfFile: home.cdGraph, encoding: .utf8)
        #expect(stored.contains("\"visits\":1}") && !stored.contains("\"visits\":2"), "\(shell): \(stored)")
        #expect(try await home.places(home.tripGraph, expecting: ["Airport"]) == ["Airport"], "\(shell)")
    }

    /// Point 5: an alias or a function of the learned command, defined before the set-up,
    /// keeps working, and the command is still learned; learning a command the set-up's
    /// own functions use (printf) does not make them call it.
    @Test(arguments: shells)
    func aliasesAndFunctionsOfALearnedCommandKeepWorking(shell: String) async throws {
        let home = try Home()
        let alias = "alias trip='trip -v'\n" + ShellSetupEndToEndTests.setupLine(shell, ["trip", "printf"])
        var late = try await home.typed(shell, setup: alias, lines: ["trip Airport", "printf '%s\\n' ok"])
        #expect(late.isEmpty, "\(shell)")
        let function =
            shell == "fish"
            ? "function trip; command trip --fn $argv; end\n" : "trip() { command trip --fn \"$@\"; }\n"
        late = try await home.typed(
            shell, setup: function + ShellSetupEndToEndTests.setupLine(shell, ["trip"]), lines: ["trip Paris"])
        #expect(late.isEmpty, "\(shell)")
        #expect(home.tripRuns() == [["-v", "Airport"], ["--fn", "Paris"]], "\(shell)")
        #expect(try await home.places(home.tripGraph, expecting: ["Airport", "Paris"]) == ["Airport", "Paris"])
    }

    /// Point 4: ssh records the host, not an option's value or the remote command; a
    /// command that failed records nothing; `--learn CMD:N` names the argument; a graph
    /// whose lock another process holds does not make the command wait.
    @Test(arguments: shells)
    func theRightArgumentIsRecordedAfterSuccessWithoutWaiting(shell: String) async throws {
        let home = try Self.sshAndCdHome()
        let sshGraph = home.state.appendingPathComponent("wayfind/learn/ssh.json").path
        let scpGraph = home.state.appendingPathComponent("wayfind/learn/scp.json").path
        let setup = ShellSetupEndToEndTests.setupLine(shell, ["ssh", "scp", "trip:1"])
        let late = try await home.typed(
            shell, setup: setup,
            lines: [
                "ssh -p 2200 -o BatchMode=yes beta-box uptime -x", "ssh -v down-host ls", "trip Paris by train",
                "scp -P 2200 ./a:b notes root@gamma:/tmp/",
            ])
        #expect(late.isEmpty, "\(shell)")
        #expect(try await home.places(sshGraph, expecting: ["beta-box"]) == ["beta-box"], "\(shell)")
        #expect(try await home.places(home.tripGraph, expecting: ["Paris"]) == ["Paris"], "\(shell)")
        #expect(try await home.places(scpGraph, expecting: ["root@gamma"]) == ["root@gamma"], "\(shell)")
        // The lock held elsewhere for ten seconds: trip still returns at once.
        let lock = try await TestProcess.run(
            "/usr/bin/env", ["sh", "-c", "flock \"$1\" sleep 10 >/dev/null 2>&1 & sleep 0.2", "sh", home.tripGraph + ".lock"])
        #expect(lock.status == 0)
        let started = Date()
        let stillLate = try await home.typed(shell, setup: setup, lines: ["trip Rome"])
        #expect(stillLate.isEmpty && Date().timeIntervalSince(started) < 8, "\(shell)")
    }

    /// Point 6: the place just visited completes too.
    @Test(arguments: shells)
    func theLastPlaceCompletes(shell: String) async throws {
        let home = try Home()
        try await home.learn("trip", ["Home", "Airport"])
        let lines = try await home.completed(
            shell, setup: ShellSetupEndToEndTests.setupLine(shell, ["trip"]), cases: [#"trip ai\t"#], locale: "C.UTF-8")
        #expect(lines == ["RESULT: <trip><Airport>"], "\(shell)")
    }

    /// Point 3: `--jump j`: `j QUERY` changes to the best learned directory QUERY matches,
    /// `j -` goes back, `ji` picks with fzf (its list reloaded through routegraph-suggest
    /// as the query changes), and says so without fzf.
    @Test(arguments: shells)
    func theJumpCommandChangesToALearnedDirectory(shell: String) async throws {
        let home = try Self.sshAndCdHome()
        let alpha = home.home.appendingPathComponent("sib/alpha").path
        let beta = home.home.appendingPathComponent("sib/beta").path
        try await home.learn("cd", [alpha, beta])
        let log = home.home.appendingPathComponent("pwd.log").path
        let setup = ShellSetupEndToEndTests.setupLine(shell, []).replacingOccurrences(of: "init-\(shell) ", with: "init-\(shell) --jump j ")
        var lines = ["j alp", "pwd >> \(log)", "j -", "pwd >> \(log)", "j nothing-learned 2>> \(log)"]
        if TestProcess.isInstalled("fzf") { lines += [#"ji\r<pause>bet<pause>\r<pause>"#, "pwd >> \(log)"] }
        let late = try await home.typed(shell, setup: setup, lines: lines)
        #expect(late.isEmpty, "\(shell)")
        let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        var expected = "\(alpha)\n\(home.home.path)\nj: no directory 'nothing-learned' here, and no learned directory matches it\n"
        if TestProcess.isInstalled("fzf") { expected += "\(beta)\n" }
        #expect(logged == expected, "\(shell)")
        let withoutFzf = try await home.run(
            shell, ShellSetupEndToEndTests.setupLine(shell, []).replacingOccurrences(of: "init-\(shell) ", with: "init-\(shell) --jump j ")
                + (shell == "fish" ? "\nset PATH \(Binaries.directory.path)\nji" : "\nPATH=\(Binaries.directory.path)\nji"))
        #expect(withoutFzf.out.contains("ji: fzf is not installed"), "\(shell): \(withoutFzf.out)")
    }
}
