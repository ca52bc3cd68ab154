/// `routegraph-suggest --generate=init-SHELL --learn CMD…`: one line in a shell's rc file
/// that sets everything up, as `eval "$(zoxide init bash)"` does for zoxide:
///
///     eval "$(routegraph-suggest --generate=init-bash --learn trip --learn ssh)"   # ~/.bashrc
///     eval "$(routegraph-suggest --generate=init-zsh --learn trip)"                # ~/.zshrc
///     routegraph-suggest --generate=init-fish --learn trip | source                # config.fish
///
/// For each learned command CMD the script
///
/// - records CMD's place argument (its last argument that does not start with `-`) as a
///   visit each time CMD runs, in a route graph of CMD's own
///   (`${XDG_STATE_HOME:-$HOME/.local/state}/wayfind/learn/CMD.json`), through a shell
///   function of that name that calls `command CMD` after recording;
/// - makes Tab after CMD complete from that graph: what usually follows the last place
///   first, narrowed by the word typed with smartgrep's rules (`trip sao<Tab>` → São Paulo).
///
/// `--learn cd` is the zoxide case: no wrapper; a prompt hook (bash), a `chpwd` hook (zsh)
/// or a `PWD` watcher (fish) records the directory whenever it changed, and `cd <Tab>`
/// offers the graph's directories before the usual completion.
///
/// Completion hands the typed word to `routegraph-suggest` dequoted (`'New Y` is `New Y`)
/// and gives names back quoted for where the cursor is: inside an open quote as they are,
/// elsewhere with the shell's special characters escaped by backslashes and every other
/// byte kept as it is, whatever the locale (so `São Paulo` never becomes
/// `$'S\303\243o Paulo'`). fish filters completions itself and does not fold accents, so
/// its Tab first replaces the typed word by the longest beginning the suggestions share,
/// in their spelling (`sao` → `São `), then lets fish complete.
enum ShellInit {
    /// Whether `name` can be learned: a plain command name.
    static func isLearnable(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "+")
        } && name.first != "-"
    }

    /// The set-up script for `shell`, learning `commands`.
    static func script(_ shell: Shell, learning commands: [String]) -> String {
        var seen = Set<String>()
        let commands = commands.filter { seen.insert($0).inserted }
        let header = """
            # wayfind set-up for \(shell.rawValue), from routegraph-suggest --generate=init-\(shell.rawValue)\
            \(commands.map { " --learn " + $0 }.joined()).
            # Learned commands record their place argument as a visit in a route graph of their
            # own and complete it on Tab; see routegraph-suggest(1), SHELL SET-UP.
            """
        switch shell {
        case .bash: return header + "\n" + bash(commands)
        case .zsh: return header + "\n" + zsh(commands)
        case .fish: return header + "\n" + fish(commands)
        }
    }

    // MARK: - bash

    /// The bash pieces the set-up and the tools' completion scripts share: dequoting the
    /// word typed, quoting a name for the word, and filling COMPREPLY with places.
    static let bashQuoting = #"""
            # REPLY: a word as typed ('New Y, "A\"B", New\ Y) as the command gets it.
            __wayfind_dequote() {
                local word=$1 quote='' c i
                REPLY=''
                for ((i = 0; i < ${#word}; i++)); do
                    c=${word:i:1}
                    if [[ $quote == "'" ]]; then
                        if [[ $c == "'" ]]; then quote=''; else REPLY+=$c; fi
                    elif [[ $c == '\' ]]; then
                        ((i++))
                        c=${word:i:1}
                        if [[ $quote == '"' ]]; then
                            case $c in '"' | '\' | '$' | '`') ;; *) REPLY+='\' ;; esac
                        fi
                        REPLY+=$c
                    elif [[ $c == "'" && -z $quote ]]; then
                        quote="'"
                    elif [[ $c == '"' ]]; then
                        if [[ $quote == '"' ]]; then quote=''; else quote='"'; fi
                    else
                        REPLY+=$c
                    fi
                done
            }

            # REPLY: a name quoted for a word that starts with QUOTE (', " or nothing): in
            # single quotes as it is (readline closes the quote), in double quotes with " \ $ `
            # escaped, bare with every special ASCII character escaped; other bytes kept.
            __wayfind_quote() {
                local LC_ALL=C name=$2 c i
                REPLY=''
                for ((i = 0; i < ${#name}; i++)); do
                    c=${name:i:1}
                    case $1 in
                    "'") if [[ $c == "'" ]]; then REPLY+="'\\''"; else REPLY+=$c; fi ;;
                    '"') case $c in '"' | '\' | '$' | '`') REPLY+="\\$c" ;; *) REPLY+=$c ;; esac ;;
                    *) if [[ $c == [A-Za-z0-9_./:@%+=,-] || $c > $'\x7f' ]]; then REPLY+=$c; else REPLY+="\\$c"; fi ;;
                    esac
                done
            }

            # COMPREPLY+: the places routegraph-suggest gives (with the options after the
            # word) for the word $1 as typed, quoted for it.
            __wayfind_complete_places() {
                local word=$1 quote='' place REPLY
                [[ $word == [\'\"]* ]] && quote=${word:0:1}
                __wayfind_dequote "$word"
                while IFS= read -r place; do
                    __wayfind_quote "$quote" "$place"
                    COMPREPLY+=("$REPLY")
                done < <(command routegraph-suggest "${@:2}" --limit 20 -- "$REPLY" 2>/dev/null)
            }

            """#


    static func bash(_ commands: [String]) -> String {
        var script = bashQuoting + #"""
            __wayfind_graph() {
                local state=${XDG_STATE_HOME-}
                [[ $state == /* ]] || state=$HOME/.local/state
                printf '%s/wayfind/learn/%s.json' "$state" "$1"
            }

            __wayfind_record() {
                local cmd=$1 place='' arg
                shift
                for arg in "$@"; do [[ $arg == -* ]] || place=$arg; done
                [[ -n $place ]] || return 0
                command routegraph-visit --graph "$(__wayfind_graph "$cmd")" -- "$place"
            }

            __wayfind_complete() {
                COMPREPLY=()
                __wayfind_complete_places "${COMP_WORDS[COMP_CWORD]}" --graph "$(__wayfind_graph "${COMP_WORDS[0]}")"
            }

            """#
        for command in commands where command != "cd" {
            script += #"""
                \#(command)() { __wayfind_record \#(command) "$@"; command \#(command) "$@"; }
                complete -o nosort -o default -F __wayfind_complete \#(command)

                """#
        }
        if commands.contains("cd") {
            script += #"""
                __wayfind_cd_last=
                __wayfind_cd_hook() {
                    [[ $PWD == "$__wayfind_cd_last" ]] && return 0
                    __wayfind_cd_last=$PWD
                    command routegraph-visit --graph "$(__wayfind_graph cd)" -- "$PWD"
                }
                PROMPT_COMMAND="__wayfind_cd_hook${PROMPT_COMMAND:+$'\n'$PROMPT_COMMAND}"
                complete -o nosort -o dirnames -F __wayfind_complete cd

                """#
        }
        return script
    }

    // MARK: - zsh

    /// The zsh completion of places the set-up and the tools' completion scripts share.
    static let zshPlaces = #"""
            # The places routegraph-suggest gives (from $__wayfind_graph_file, else the
            # default graph) for the word typed. Names quoted for where the cursor is (compadd's own quoting turns bytes it does
            # not know in the C locale into $'\303'); -U keeps the order and the names that
            # match by smartgrep's rules rather than by prefix; -d lists them unquoted.
            __wayfind_complete_places() {
                setopt localoptions extendedglob
                # Inside quotes zsh re-quotes the word, and in a locale that is not UTF-8
                # it writes the bytes of São as $'\303\243': complete in C.UTF-8 then.
                [[ -n $compstate[quote] && ${LC_ALL:-${LC_CTYPE:-$LANG}} != *(UTF-8|utf8|UTF8|utf-8)* ]] && local LC_ALL=C.UTF-8
                local -a places quoted graph
                local place
                [[ -n $__wayfind_graph_file ]] && graph=(--graph $__wayfind_graph_file)
                places=("${(@f)$(command routegraph-suggest $graph --limit 20 -- "${(Q)PREFIX}" 2>/dev/null)}")
                places=(${places:#})
                (( $#places )) || return 1
                for place in $places; do
                    case $compstate[quote] in
                    "'") quoted+=("${place//\'/'\''}") ;;
                    '"') quoted+=("${place//(#m)[\"\\\$\`]/\\$MATCH}") ;;
                    *) quoted+=("${place//(#m)[[:space:]\!\"#\$\&\'\(\)\*\;\<\>\?\[\\\]\^\`\{\|\}\~\=]/\\$MATCH}") ;;
                    esac
                done
                compadd -U -Q -V wayfind -d places -- $quoted
            }
            """#

    static func zsh(_ commands: [String]) -> String {
        var script = zshPlaces + "\n" + #"""
            __wayfind_graph() {
                local state=${XDG_STATE_HOME-}
                [[ $state == /* ]] || state=$HOME/.local/state
                print -r -- "$state/wayfind/learn/$1.json"
            }

            __wayfind_record() {
                local cmd=$1 place='' arg
                shift
                for arg in "$@"; do [[ $arg == -* ]] || place=$arg; done
                [[ -n $place ]] || return 0
                command routegraph-visit --graph "$(__wayfind_graph $cmd)" -- "$place"
            }

            __wayfind_complete() {
                local __wayfind_graph_file=$(__wayfind_graph $words[1])
                __wayfind_complete_places
            }

            """#
        for command in commands where command != "cd" {
            script += #"""
                \#(command)() { __wayfind_record \#(command) "$@"; command \#(command) "$@" }
                (( $+functions[compdef] )) && compdef __wayfind_complete \#(command)

                """#
        }
        if commands.contains("cd") {
            script += #"""
                __wayfind_cd_hook() { command routegraph-visit --graph "$(__wayfind_graph cd)" -- "$PWD" }
                autoload -Uz add-zsh-hook
                add-zsh-hook chpwd __wayfind_cd_hook
                __wayfind_complete_cd() { __wayfind_complete || _cd "$@" }
                (( $+functions[compdef] )) && compdef __wayfind_complete_cd cd

                """#
        }
        return script
    }

    // MARK: - fish

    /// The fish completion of places the set-up and the tools' completion scripts share:
    /// what routegraph-suggest gives (with the options given) for the word typed.
    static let fishPlaces = #"""
            function __wayfind_complete_places
                command routegraph-suggest $argv --limit 20 -- (commandline -ct | string unescape) 2>/dev/null
            end

            """#

    static func fish(_ commands: [String]) -> String {
        var script = fishPlaces + #"""
            set -g __wayfind_learned \#(commands.joined(separator: " "))

            function __wayfind_graph
                set -l state $XDG_STATE_HOME
                string match -q -- '/*' "$state"; or set state $HOME/.local/state
                echo $state/wayfind/learn/$argv[1].json
            end

            function __wayfind_record
                set -l place
                for arg in $argv[2..-1]
                    string match -q -- '-*' $arg; or set place $arg
                end
                test -n "$place"; or return 0
                command routegraph-visit --graph (__wayfind_graph $argv[1]) -- $place
            end

            function __wayfind_places
                set -l tokens (commandline -opc)
                __wayfind_complete_places --graph (__wayfind_graph $tokens[1])
            end

            # fish keeps only completions that contain what was typed, without folding
            # accents: first put in the longest beginning the suggestions share.
            function __wayfind_tab
                set -l tokens (commandline -opc)
                if test (count $tokens) -ge 1; and contains -- $tokens[1] $__wayfind_learned
                    set -l places (__wayfind_places)
                    if test (count $places) -ge 1
                        set -l common $places[1]
                        for place in $places[2..-1]
                            while test -n "$common"; and not string match -q -- "$common*" $place
                                set common (string sub -e -1 -- $common)
                            end
                        end
                        test -n "$common"; and commandline -rt -- (string escape -- $common)
                    end
                end
                commandline -f complete
            end
            bind \t __wayfind_tab
            bind -M insert \t __wayfind_tab 2>/dev/null

            """#
        for command in commands where command != "cd" {
            script += #"""
                function \#(command) --wraps \#(command)
                    __wayfind_record \#(command) $argv
                    command \#(command) $argv
                end
                complete -c \#(command) -f -k -a '(__wayfind_places)'

                """#
        }
        if commands.contains("cd") {
            script += #"""
                function __wayfind_cd_hook --on-variable PWD
                    command routegraph-visit --graph (__wayfind_graph cd) -- $PWD
                end
                complete -c cd -k -a '(__wayfind_places)'

                """#
        }
        return script
    }
}
