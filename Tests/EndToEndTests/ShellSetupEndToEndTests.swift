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
            // trip echoes, and logs its arguments: the count, then each, NUL-terminated.
            let trip = bin.appendingPathComponent("trip")
            try "#!/bin/sh\nprintf '%s\\0' \"$#\" \"$@\" >> \"$HOME/trip.log\"\necho \"trip to $*\"\n".write(
                to: trip, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: trip.path)
        }

        /// Makes these folders (paths relative to the home folder), with their parents.
        func makeFolders(_ folders: [String]) throws {
            for folder in folders {
                try FileManager.default.createDirectory(at: home.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
        }

        /// The absolute path of `folder`, relative to the home folder.
        func path(_ folder: String) -> String { home.appendingPathComponent(folder).path }

        /// The arguments of each run of `trip`, in order.
        func tripRuns() -> [[String]] {
            guard let data = FileManager.default.contents(atPath: home.appendingPathComponent("trip.log").path) else { return [] }
            var fields = data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            var runs: [[String]] = []
            while let count = fields.first.flatMap({ Int($0) }), fields.count > count {
                runs.append(Array(fields[1...count]))
                fields.removeFirst(count + 1)
            }
            return runs
        }

        /// Records `places` in the graph of the learned command `command`, as the set-up
        /// does (`routegraph-visit --learned`, which makes the graph's folders).
        func learn(_ command: String, _ places: [String]) async throws {
            let r = try await Binaries.run(
                "routegraph-visit", ["--learned", command, "--"] + places, environment: ["HOME": home.path, "XDG_STATE_HOME": state.path])
            #expect(r.status == 0, "\(r)")
        }

        /// The places of a graph, waiting up to five seconds for `expected` (the set-up
        /// records in the background).
        func places(_ graph: String, expecting expected: Set<String>) async throws -> Set<String> {
            var places = Set<String>()
            for _ in 0..<100 {
                let r = try await Binaries.run("routegraph-suggest", ["--graph", graph, "-n", "0", "-z", "--include-from"])
                places = Set(r.out.split(separator: "\0").map(String.init))
                if places == expected { break }
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            return places
        }

        /// The commands that start an interactive `shell` as a user has it: bash with
        /// bash-completion, zsh after compinit, fish; the prompt is `> `.
        static func interactive(_ shell: String) -> (command: String, prompt: String) {
            switch shell {
            case "bash":
                let completion = "/usr/share/bash-completion/bash_completion"
                let source = FileManager.default.fileExists(atPath: completion) ? "; source \(completion)" : ""
                return ("bash --norc --noprofile -i", "PS1='> '; set -o histexpand\(source)")
            case "zsh": return ("zsh -f -i", "PS1='> '; \(Zsh.compinit)")
            default: return ("fish --no-config -i", "function fish_prompt; echo '> '; end")
            }
        }

        /// Types each of `lines` into an interactive `shell` (after `setup`, at prompts of
        /// its own), each followed by Enter, waiting for its prompt to come back; a line
        /// left unfinished (an open quote) is cancelled with Ctrl-C; `<pause>` in a line
        /// waits a second before typing on. Returns the lines
        /// that did not finish in time. `extra` is added to the environment (LOCPATH).
        @discardableResult
        func typed(
            _ shell: String, setup: String, lines: [String], locale: String = "C.UTF-8", extra: [String: String] = [:]
        ) async throws -> [Int] {
            try await session(shell, setup: setup, lines: lines, locale: locale, extra: extra).late
        }

        /// `typed`, and what the terminal showed (escapes and all).
        func session(
            _ shell: String, setup: String, lines: [String], locale: String = "C.UTF-8", extra: [String: String] = [:]
        ) async throws -> (late: [Int], screen: String) {
            let (command, prompt) = Self.interactive(shell)
            let driver = #"""
                zmodload zsh/zpty zsh/datetime
                zpty -b sh "$1"
                output=''
                await() {
                  local deadline=$(( EPOCHREALTIME + $2 ))
                  while (( EPOCHREALTIME < deadline )) && [[ $output != *$1* ]]; do
                    if zpty -r -t sh line; then output+=$line; else sleep 0.01; fi
                  done
                  [[ $output == *$1* ]]
                }
                zpty -w sh "$2; echo READ\"\"Y."
                await READY. 20
                integer n=0
                shift 2
                for keys in "$@"; do
                  (( n++ ))
                  # <pause> waits a second (for a program such as fzf to start).
                  parts=("${(@s:<pause>:)keys}")
                  for (( p = 1; p <= $#parts; p++ )); do
                    (( p > 1 )) && sleep 1
                    zpty -w -n sh "${(g::)parts[p]}"
                  done
                  zpty -w -n sh $'\r'"echo EN\"\"D$n."$'\r'
                  await "END$n." 5 || { zpty -w -n sh $'\x03'; zpty -w sh "echo EN\"\"D$n."; await "END$n." 5; print -r "LATE $n"; }
                done
                zpty -d sh
                print -r -- "SCREEN:$output"
                """#
            var environment = self.environment.merging(extra) { $1 }
            environment["LANG"] = locale
            environment["LC_ALL"] = locale
            environment["TERM"] = "xterm"
            let r = try await TestProcess.run(
                "/usr/bin/zsh", ["-f", "-c", driver, "zsh", command, prompt + "\n" + setup] + lines, environment: environment,
                currentDirectory: home, timeout: 300)
            let out = r.out
            let screen = out.range(of: "SCREEN:").map { String(out[$0.upperBound...]) } ?? ""
            return (r.lines.compactMap { $0.hasPrefix("LATE ") ? Int($0.dropFirst(5)) : nil }, screen)
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
        /// Returns the lines those `printf`s printed, as `RESULT: <word><word>`, then any
        /// line of the screen with an error of the set-up's, as `SHELL ERROR: …`.
        func completed(_ shell: String, setup: String, cases: [String], locale: String) async throws -> [String] {
            let (command, shellPrompt) = Self.interactive(shell)
            let prompt = shellPrompt + "\n"
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
                zpty -w sh "$2; printf '%s\n' READ\"\"Y."
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
                # An error of the set-up's functions (their names are in zsh's and fish's
                # messages), or bash's set -u, shown on the screen though the line came out right.
                for line in ${(f)output}; do
                  [[ $line == *(__wayfind_|unbound variable)* ]] && print -r -- "SHELL ERROR: $line"
                done
                true
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
        let expected: Set = ["Airport", "São Paulo", "New York", "Ann's Café", #"Back\slash $HOME"#, "Home"]
        let places = try await home.places(home.tripGraph, expecting: expected)
        #expect(places == expected)
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
        // The visits are recorded in the background: complete once they all are.
        let seeded: Set = ["Airport", "São Paulo", "New York", "Ann's Café", #"Back\slash $HOME"#, "Home"]
        #expect(try await home.places(home.tripGraph, expecting: seeded) == seeded)
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
        let setup = Self.setupLine(shell, ["cd"])
        let late = try await home.typed(shell, setup: setup, lines: ["cd 'src/my project'", "cd ../..", "cd elsewhere"], locale: "")
        #expect(late.isEmpty, "\(shell): late lines \(late)")
        // Not the folder the shell started in: the first prompt records nothing.
        let expected: Set = [projects.path, home.home.path, elsewhere.path]
        #expect(try await home.places(home.cdGraph, expecting: expected) == expected)
        // Visits are recorded in the background: complete only once they all are (a loaded
        // machine may take longer than the typing did), in a new shell, whose first prompt
        // records nothing either.
        let lines = try await home.completed(shell, setup: setup, cases: [#"cd proj\t"#], locale: "")
        #expect(try await home.places(home.cdGraph, expecting: expected) == expected)
        // A directory ends with /, as cd's own completion ends one.
        #expect(lines == ["RESULT: <cd><\(projects.path)/>"], "\(shell): \(lines)")
    }
}
