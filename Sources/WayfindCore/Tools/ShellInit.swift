/// `routegraph-suggest --generate=init-SHELL --learn CMD…`: one line in a shell's rc file
/// that sets everything up, as `eval "$(zoxide init bash)"` does for zoxide:
///
///     eval "$(routegraph-suggest --generate=init-bash --learn trip --learn ssh)"   # ~/.bashrc
///     eval "$(routegraph-suggest --generate=init-zsh --learn trip)"                # ~/.zshrc
///     routegraph-suggest --generate=init-fish --learn trip | source                # config.fish
///
/// For each learned command CMD the script
///
/// - records CMD's place argument (see `LearnedCommand`) as a visit after CMD succeeded,
///   in the background, in a route graph of CMD's own
///   (`${XDG_STATE_HOME:-$HOME/.local/state}/wayfind/learn/CMD.json`), through a shell
///   function CMD that runs what CMD was before (a function of the user's, kept under
///   another name, or `command CMD`); defined as `function CMD`, so that an alias CMD
///   cannot reach its definition;
/// - adds to CMD's completion: the completion CMD had (bash-completion's `_ssh`, zsh's
///   `_cd`, fish's files) runs first, and what it would put in the word by itself Tab
///   still puts there, alone; when it would put nothing, the word is CMD's place and
///   does not look like a path, the learned places are added, narrowed by the word typed
///   with smartgrep's rules (`trip sao<Tab>` → São Paulo), the last place included.
///
/// `--learn cd` is the zoxide case: no wrapper; a prompt hook records the directory when
/// the prompt comes back in another one (so not the one a shell starts in, nor those a
/// completion function visits), and `cd <Tab>` adds the recorded directories that still exist
/// (those that do not are forgotten).
///
/// Names are quoted by `ShellQuoting`. The scripts call builtins as builtins where a
/// learned command could hide them (`builtin printf`), and `--learn` refuses the names of
/// the builtins and keywords they call plainly.
enum ShellInit {
    /// The builtins and keywords the set-up calls without `builtin`: a function of one
    /// of these names would break it.
    static let reservedNames: Set<String> = [
        "builtin", "command", "local", "return", "shift", "set", "eval", "declare", "typeset", "unset", "source",
        "exec", "exit", "export", "function", "functions", "emulate", "setopt", "compadd", "compdef", "compopt",
        "compgen", "complete", "commandline", "string", "contains", "count", "math", "test", "echo", "read", "seq",
        "bind", "alias", "and", "or", "not", "begin", "end", "if", "else", "for", "while", "switch", "case",
        "true", "false", "disown", "autoload", "add-zsh-hook", "shopt",
    ]

    /// Whether `name` can be learned: a plain command name, not one the set-up calls.
    static func isLearnable(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "+")
        } && name.first != "-" && !reservedNames.contains(name)
    }

    /// The set-up script for `shell`, learning `commands`, with the jump commands `jump`
    /// and `jump`i when it is given (they need cd learned, so it is).
    static func script(_ shell: Shell, learning commands: [LearnedCommand], jump: String? = nil) -> String {
        var seen = Set<String>()
        var commands = Array(commands.reversed().filter { seen.insert($0.name).inserted }.reversed())
        if jump != nil && !seen.contains("cd") { commands.append(LearnedCommand("cd")!) }
        let header = """
            # wayfind set-up for \(shell.rawValue), from routegraph-suggest --generate=init-\(shell.rawValue)\
            \(commands.map { " --learn " + $0.spelling }.joined())\(jump.map { " --jump " + $0 } ?? "").
            # Learned commands record their place argument as a visit in a route graph of their
            # own and add it to their completion; see routegraph-suggest(1), SHELL SET-UP.
            """
        let common: String
        var perCommand = ""
        switch shell {
        case .bash:
            common = ShellQuoting.bash + "\n" + bashCommon
            for command in commands { perCommand += bash(command) }
        case .zsh:
            common = ShellQuoting.zsh + "\n" + zshCommon
            for command in commands { perCommand += zsh(command) }
        case .fish:
            common = ShellQuoting.fish + "\n" + fishCommon
            for command in commands { perCommand += fish(command) }
        }
        if let jump {
            switch shell {
            case .bash, .zsh: perCommand += posixJump(jump)
            case .fish: perCommand += fishJump(jump)
            }
        }
        return header + "\n" + common + "\n" + perCommand
    }

    /// `NAME QUERY…`, `NAME -` and `NAMEi` for bash and zsh. fzf runs its reload command
    /// with $SHELL: sh here, with the graph's path in sh's single quotes.
    static func posixJump(_ name: String) -> String {
        #"""
            # \#(name) QUERY...: to the best learned directory that QUERY matches; \#(name) -: back.
            function \#(name) {
                local REPLY place
                if [[ $# -eq 1 && $1 == - ]]; then builtin cd -; return; fi
                __wayfind_graph cd
                while IFS= builtin read -r -d '' place; do
                    if [[ -d $place && $place != "$PWD" ]]; then builtin cd -- "$place"; return; fi
                done < <(builtin command routegraph-suggest --graph "$REPLY" --include-from -z --limit 0 -- "$@" 2>/dev/null)
                builtin printf '%s\n' "\#(name): no learned directory matches '$*'" >&2
                return 1
            }

            # \#(name)i [QUERY...]: pick a learned directory with fzf, filtered as QUERY is.
            function \#(name)i {
                local REPLY place quoted
                if ! builtin command -v fzf >/dev/null; then
                    builtin printf '%s\n' "\#(name)i: fzf is not installed (\#(name) QUERY jumps without it)" >&2
                    return 2
                fi
                __wayfind_graph cd
                quoted=${REPLY//\'/\'\\\'\'}
                place=$(builtin command routegraph-suggest --graph "$REPLY" --include-from --limit 0 -- "$@" 2>/dev/null |
                    SHELL=/bin/sh builtin command fzf --disabled --query "$*" --bind "change:reload:routegraph-suggest --graph '$quoted' --include-from --limit 0 -- {q} || true") &&
                    [[ -n $place ]] && builtin cd -- "$place"
            }

            """#
    }

    /// `NAME QUERY…`, `NAME -` and `NAMEi` for fish.
    static func fishJump(_ name: String) -> String {
        #"""
        # \#(name) QUERY...: to the best learned directory that QUERY matches; \#(name) -: back.
        function \#(name)
            if test (count $argv) -eq 1; and test "$argv[1]" = -
                cd -
                return
            end
            for place in (command routegraph-suggest --graph (__wayfind_graph cd) --include-from -z --limit 0 -- $argv 2>/dev/null | string split0)
                if test -d "$place"; and test "$place" != "$PWD"
                    cd $place
                    return
                end
            end
            echo "\#(name): no learned directory matches '$argv'" >&2
            return 1
        end

        # \#(name)i [QUERY...]: pick a learned directory with fzf, filtered as QUERY is.
        function \#(name)i
            if not command -q fzf
                echo "\#(name)i: fzf is not installed (\#(name) QUERY jumps without it)" >&2
                return 2
            end
            set -l graph (__wayfind_graph cd)
            set -l quoted "'"(string replace -a "'" "'\\''" -- $graph)"'"
            set -l place (command routegraph-suggest --graph $graph --include-from --limit 0 -- $argv 2>/dev/null |
                SHELL=/bin/sh command fzf --disabled --query "$argv" --bind "change:reload:routegraph-suggest --graph $quoted --include-from --limit 0 -- {q} || true")
            and test -n "$place"; and cd $place
        end

        """#
    }
}
