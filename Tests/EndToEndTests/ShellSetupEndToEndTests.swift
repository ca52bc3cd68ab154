import Foundation
import Testing
import WayfindTestSupport

/// The one-line shell set-up (`routegraph-suggest --generate=init-SHELL --learn CMD`) in real
/// interactive bash, zsh and fish, typed into through a pseudo-terminal (zsh's zpty drives
/// it), in a UTF-8 locale and with the locale unset.
@Suite(.serialized) struct ShellSetupEndToEndTests {
    /// A home of its own, a `trip` program that only echoes, and the built binaries first
    /// on PATH.
    struct Home {
        let root: URL
        var bin: URL { root.appendingPathComponent("bin") }
        var home: URL { root.appendingPathComponent("home") }
        var state: URL { home.appendingPathComponent("state") }
        var tripGraph: String { state.appendingPathComponent("wayfind/learn/trip.json").path }
        var cdGraph: String { state.appendingPathComponent("wayfind/learn/cd.json").path }

        init() throws {
            root = try TestFiles.directory()
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            let trip = bin.appendingPathComponent("trip")
            try "#!/bin/sh\necho \"trip to $*\"\n".write(to: trip, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: trip.path)
        }

        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home.path
            environment["XDG_STATE_HOME"] = state.path
            environment["PATH"] = "\(bin.path):\(Binaries.directory.path):/usr/bin:/bin"
            for name in ["ROUTEGRAPH_FILE", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "NO_COLOR"] { environment[name] = nil }
            return environment
        }

        /// Runs a script in a shell, not interactively.
        func run(_ shell: String, _ script: String, locale: String = "C.UTF-8") async throws -> (status: Int32, out: String) {
            let arguments =
                shell == "bash" ? ["bash", "--norc", "--noprofile", "-c", script]
                : shell == "fish" ? ["fish", "--no-config", "-c", script] : [shell, "-f", "-c", script]
            var environment = self.environment
            environment["LANG"] = locale
            environment["LC_ALL"] = locale
            let r = try await TestProcess.run("/usr/bin/env", arguments, environment: environment, currentDirectory: home, timeout: 60)
            return (r.status, r.out + r.stderr)
        }

        /// Starts an interactive `shell` through a pseudo-terminal that zsh's zpty drives,
        /// runs `setup` (its lines at prompts of their own), then for each of `cases` types
        /// the keys (ending with a Tab), then Ctrl-A and a `printf` that shows each word of
        /// the completed line as `<word>`, and Enter; each case waits for the one before.
        /// Returns the lines those `printf`s printed, as `RESULT: <word><word>`.
        func completed(_ shell: String, setup: String, cases: [String], locale: String) async throws -> [String] {
            let command: String
            let prompt: String
            switch shell {
            case "bash": (command, prompt) = ("bash --norc --noprofile -i", "PS1='> '\n")
            case "zsh": (command, prompt) = ("zsh -f -i", "PS1='> '; \(Zsh.compinit)\n")
            default: (command, prompt) = ("fish --no-config -i", "function fish_prompt; echo '> '; end\n")
            }
            let driver = #"""
                zmodload zsh/zpty
                zpty -b sh "$1"
                output=''
                await() {
                  integer deadline=$(( SECONDS + 20 ))
                  while (( SECONDS < deadline )) && [[ $output != *$1* ]]; do
                    if zpty -r -t sh line; then output+=$line; else sleep 0.02; fi
                  done
                }
                zpty -w sh "$2; printf '%s\n' READY."
                await 'READY.'
                integer n=0
                shift 2
                for keys in "$@"; do
                  (( n++ ))
                  zpty -w -n sh "${(g::)keys}"
                  zpty -w sh $'\x01printf "\\nRESULT: "; printf "<%s>" \x05; printf "\\nEND%s\\n" '$n.
                  await "END$n."
                done
                zpty -d sh
                output=${output//$'\r'/$'\n'}
                print -rl -- ${(M)${(f)output}:#RESULT: <*}
                """#
            var environment = self.environment
            environment["LANG"] = locale
            environment["LC_ALL"] = locale
            environment["TERM"] = "xterm"
            let r = try await TestProcess.run(
                "/usr/bin/zsh", ["-f", "-c", driver, "zsh", command, prompt + setup] + cases, environment: environment,
                currentDirectory: home, timeout: 120)
            let data = r.stdout
            // Cut terminal escapes and fish's end-of-output mark after the printed words.
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
                String(line.prefix { $0 != "\u{1B}" && $0 != "⏎" })
            }
        }
    }

    static let shells = ["bash", "zsh", "fish"].filter(TestProcess.isInstalled)

    static func setupLine(_ shell: String, _ commands: [String]) -> String {
        let learn = commands.map { "--learn \($0)" }.joined(separator: " ")
        switch shell {
        case "fish": return "routegraph-suggest --generate=init-fish \(learn) | source"
        default: return "eval \"$(routegraph-suggest --generate=init-\(shell) \(learn))\""
        }
    }

    /// A learned command records its place argument, spelled as typed, in its own graph.
    @Test(arguments: shells)
    func aLearnedCommandRecordsItsPlaceArgument(shell: String) async throws {
        let home = try Home()
        let quoted = shell == "fish" ? #"'Ann\'s Café'"# : #""Ann's Café""#
        let script = """
            \(Self.setupLine(shell, ["trip"]))
            trip Airport; trip 'São Paulo'; trip -v 'New York'; trip \(quoted); trip 'Back\\slash $HOME'; trip Home
            """
        let r = try await home.run(shell, script)
        #expect(r.status == 0, "\(r.out)")
        #expect(r.out.contains("trip to -v New York"), "\(r.out)")
        let places = try await Binaries.run("routegraph-suggest", ["--graph", home.tripGraph, "-n", "0"])
        #expect(
            Set(places.lines) == ["Airport", "São Paulo", "New York", "Ann's Café", #"Back\slash $HOME"#], "\(places)")
        // Each learned command has a graph of its own: nothing went to the default one.
        #expect(!FileManager.default.fileExists(atPath: home.state.appendingPathComponent("wayfind/routegraph.json").path))
    }

    /// Tab after a learned command completes from its graph, narrowed by smartgrep's rules,
    /// and names come back quoted so that the command gets them as they are recorded.
    @Test(arguments: shells)
    func tabCompletesPlacesQuotedForTheShellInAnyLocale(shell: String) async throws {
        let home = try Home()
        let seed = "trip Airport; trip 'São Paulo'; trip 'New York'; trip \"Ann's Café\"; trip 'Back\\slash $HOME'; trip Home"
        _ = try await home.run("bash", "\(Self.setupLine("bash", ["trip"]))\n\(seed)")
        let cases: [(String, String)] = [
            (#"trip ai\t"#, "<trip><Airport>"), (#"trip sao\t"#, "<trip><São Paulo>"),
            (#"trip 'New Y\t"#, "<trip><New York>"), (#"trip "New Y\t"#, "<trip><New York>"),
            (#"trip ann\t"#, "<trip><Ann's Café>"), (#"trip 'ann\t"#, "<trip><Ann's Café>"),
            (#"trip "ann\t"#, "<trip><Ann's Café>"), (#"trip back\t"#, #"<trip><Back\slash $HOME>"#),
            (#"trip 'back\t"#, #"<trip><Back\slash $HOME>"#),
        ]
        for locale in ["C.UTF-8", ""] {
            let lines = try await home.completed(shell, setup: Self.setupLine(shell, ["trip"]), cases: cases.map(\.0), locale: locale)
            #expect(lines == cases.map { "RESULT: \($0.1)" }, "\(shell), LANG='\(locale)'")
        }
    }

    /// The tools' own completion scripts complete place arguments from the graph
    /// (`--from`, `--forget`, the places of a visit), quoted for the shell, like the
    /// set-up does.
    @Test(arguments: shells)
    func theToolsCompletionCompletesPlaceArguments(shell: String) async throws {
        let home = try Home()
        let graph = home.home.appendingPathComponent("graph.json").path
        let visit = try await Binaries.run("routegraph-visit", ["--graph", graph, "Airport", "São Paulo", "New York", "Home"])
        #expect(visit.status == 0, "\(visit)")
        let files = ["routegraph-suggest", "routegraph-visit"].map { tool in
            Repository.root.appendingPathComponent(
                shell == "bash" ? "completions/bash/\(tool)" : shell == "zsh" ? "completions/zsh/_\(tool)" : "completions/fish/\(tool).fish"
            ).path
        }
        let sources = files.map { "source \($0)" }.joined(separator: "; ")
        let setup = shell == "fish" ? "set -gx ROUTEGRAPH_FILE \(graph); \(sources)" : "export ROUTEGRAPH_FILE=\(graph); \(sources)"
        let cases = [
            #"routegraph-suggest --from sao\t"#, #"routegraph-suggest --from 'New Y\t"#, #"routegraph-visit --forget 'New Y\t"#,
            #"routegraph-visit Air\t"#,
        ]
        let expected = [
            "RESULT: <routegraph-suggest><--from><São Paulo>", "RESULT: <routegraph-suggest><--from><New York>",
            "RESULT: <routegraph-visit><--forget><New York>", "RESULT: <routegraph-visit><Airport>",
        ]
        for locale in ["C.UTF-8", ""] {
            let lines = try await home.completed(shell, setup: setup, cases: cases, locale: locale)
            if shell == "fish" {
                // fish filters what it is given and does not fold accents: 'sao' finds no São.
                #expect(Array(lines.suffix(3)) == Array(expected.suffix(3)), "\(shell) \(lines)")
            } else {
                #expect(lines == expected, "\(shell), LANG='\(locale)': \(lines)")
            }
        }
    }

    /// `--learn cd`: a directory is recorded when the prompt comes back in another one
    /// (not again while it stays), and `cd` completes from those directories.
    @Test(arguments: shells)
    func learningCdRecordsDirectoriesAndCompletesThem(shell: String) async throws {
        let home = try Home()
        let projects = home.home.appendingPathComponent("src/my project")
        try FileManager.default.createDirectory(at: projects, withIntermediateDirectories: true)
        let elsewhere = home.home.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        // Interactive, so the prompt hooks run: visit the project, come back home.
        let setup = Self.setupLine(shell, ["cd"]) + "\ncd 'src/my project'\ncd ../..\ncd elsewhere"
        let lines = try await home.completed(shell, setup: setup, cases: [#"cd proj\t"#], locale: "")
        let places = try await Binaries.run("routegraph-suggest", ["--graph", home.cdGraph, "-n", "0"])
        // The last place (elsewhere) is where suggestions start from, so not among them.
        #expect(Set(places.lines) == [projects.path, home.home.path], "\(places)")
        #expect(lines == ["RESULT: <cd><\(projects.path)>"], "\(shell): \(lines)")
    }
}
