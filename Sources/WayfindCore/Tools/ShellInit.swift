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

    // MARK: - bash

    static let bashCommon = #"""
        builtin declare -gA __wayfind_specs __wayfind_rules

        __wayfind_graph() {
            local state=${XDG_STATE_HOME-}
            [[ $state == /* ]] || state=$HOME/.local/state
            REPLY=$state/wayfind/learn/$1.json
        }

        # REPLY: the index, in the arguments after the first two, of the place: the Nth ($1; 0:
        # the last) argument that is not an option, skipping the value of an option letter
        # listed in $2 (ssh -p 2200), and stopping at the Nth (ssh's remote command). 0: none.
        __wayfind_place_index() {
            local n=$1 valued=$2 i j k=0 skip='' options=1 arg
            shift 2
            REPLY=0
            for ((i = 1; i <= $#; i++)); do
                arg=${!i}
                if [[ -n $skip ]]; then
                    skip=''
                elif [[ -n $options && $arg == -?* ]]; then
                    [[ $arg == -- ]] && options=''
                    [[ $arg == --* ]] && continue
                    for ((j = 1; j < ${#arg}; j++)); do
                        if [[ $valued == *"${arg:j:1}"* ]]; then
                            ((j == ${#arg} - 1)) && skip=1
                            break
                        fi
                    done
                elif ((n < 0)); then
                    # scp: the first remote operand, [user@]host:path.
                    [[ $arg == *:* && -n ${arg%%:*} && ${arg%%:*} != */* ]] && { REPLY=$i; return 0; }
                else
                    ((k++))
                    ((n == 0 || k == n)) && REPLY=$i
                    ((n && k == n)) && return 0
                fi
            done
            return 0
        }

        # Records the place of a learned command ($1) run with the arguments after $1, in the
        # background, so that the command never waits for the graph's lock.
        __wayfind_record() {
            local cmd=$1 place REPLY
            shift
            __wayfind_place_index ${__wayfind_rules[$cmd]} "$@"
            ((REPLY)) || return 0
            place=${!REPLY}
            [[ ${__wayfind_rules[$cmd]} == -* ]] && place=${place%%:*}
            __wayfind_graph "$cmd"
            (builtin command routegraph-visit --graph "$REPLY" --lock-timeout 10 -- "$place" >/dev/null 2>&1 &)
        }

        # The completion of a learned command: what completed it before the set-up (for cd and
        # ssh, bash-completion's), after the places learned when the word is the command's place,
        # does not look like a path, and that completion would put nothing in it by itself.
        # (Options set here, such as set +u for a user's set -u, end with the function.)
        __wayfind_complete() {
            local -
            set +u
            local cmd=$1 spec function='' option REPLY i __wayfind_dirs=''
            local -a words=() compgen=()
            COMPREPLY=()
            spec=${__wayfind_specs[$cmd]-}
            builtin eval "words=($spec)"
            for ((i = 1; i < ${#words[@]} - 1; i++)); do
                case ${words[i]} in
                -o) builtin compopt -o "${words[++i]}" ;;
                -F) function=${words[++i]} ;;
                -[CGWXPS]) compgen+=("${words[i]}" "${words[++i]}") ;;
                *) compgen+=("${words[i]}") ;;
                esac
            done
            if [[ -n $function ]]; then
                "$function" "$@"
            else
                [[ -n $compgen ]] || compgen=(-f)
                [[ " ${compgen[*]} " == *' -'[fd]' '* ]] && builtin compopt -o filenames
                __wayfind_scan
                while IFS= builtin read -r option; do
                    [[ $option == "$__wayfind_lead"* ]] && COMPREPLY+=("${option:${#__wayfind_lead}}")
                done < <(builtin compgen "${compgen[@]}" -- "${__wayfind_words[-1]}" 2>/dev/null)
            fi
            # A word that looks like a path: the usual completion alone, as it is.
            __wayfind_scan
            [[ ${__wayfind_words[-1]} == @(/|./|../|\~)* || ${__wayfind_words[-1]} == @(.|..) ]] && return 0
            # What the usual completion puts in the word by itself (its one candidate, or the
            # longer beginning its candidates share), Tab still puts there, alone.
            # (In any case with readline's completion-ignore-case.)
            if ((${#COMPREPLY[@]})); then
                local typed=${__wayfind_words[-1]:${#__wayfind_lead}} common=${COMPREPLY[0]} fold=''
                [[ $(builtin bind -v 2>/dev/null) == *'completion-ignore-case on'* ]] && fold=1
                for option in "${COMPREPLY[@]:1}"; do
                    if [[ -n $fold ]]; then
                        while [[ ${option,,} != "${common,,}"* ]]; do common=${common%?}; done
                    else
                        while [[ $option != "$common"* ]]; do common=${common%?}; done
                    fi
                done
                ((${#COMPREPLY[@]} == 1 || ${#common} > ${#typed})) && return 0
                # (A shared beginning in another case: readline puts it in.)
                [[ -n $fold && ${#common} -eq ${#typed} && $common != "$typed" ]] && return 0
            fi
            local -a theirs=("${COMPREPLY[@]}")
            COMPREPLY=()
            # Names readline would quote itself (-o filenames): quoted here instead, as
            # the places are, with the / it would add to a directory.
            if [[ $(builtin compopt 2>/dev/null) == *'-o filenames'* ]]; then
                builtin compopt +o filenames
                for ((i = 0; i < ${#theirs[@]}; i++)); do
                    option=${theirs[i]}
                    __wayfind_quote "$__wayfind_quote" "$option"
                    [[ -d $__wayfind_lead$option && $option != */ ]] && REPLY+=/
                    theirs[i]=$REPLY
                done
                ((${#theirs[@]} == 1)) && [[ ${theirs[0]} == */ ]] && builtin compopt -o nospace
            fi
            __wayfind_place_index ${__wayfind_rules[$cmd]} "${__wayfind_words[@]:1}"
            if ((REPLY == ${#__wayfind_words[@]} - 1)) && [[ ${__wayfind_rules[$cmd]} != -* ]]; then
                [[ $cmd == cd ]] && __wayfind_dirs=1
                __wayfind_graph "$cmd"
                __wayfind_complete_places --graph "$REPLY"
            fi
            ((${#COMPREPLY[@]})) || { COMPREPLY=("${theirs[@]}"); return 0; }
            builtin compopt -o nosort
            local -A seen=()
            for option in "${COMPREPLY[@]}"; do seen[$option]=1; done
            for option in "${theirs[@]}"; do [[ -n ${seen[$option]-} ]] || COMPREPLY+=("$option"); done
            return 0
        }

        # Makes CMD's completion __wayfind_complete, keeping the one it had (loading
        # bash-completion's first) to run inside it; once, however often the set-up is read.
        __wayfind_adopt() {
            local spec
            [[ -n ${__wayfind_rules[$1]-} ]] || {
                spec=$(builtin complete -p -- "$1" 2>/dev/null)
                if [[ -z $spec ]] && builtin declare -F __load_completion >/dev/null; then
                    __load_completion "$1" >/dev/null 2>&1
                    spec=$(builtin complete -p -- "$1" 2>/dev/null)
                fi
                __wayfind_specs[$1]=$spec
            }
            __wayfind_rules[$1]=$2
            builtin complete -F __wayfind_complete -- "$1"
        }

        # Keeps a function CMD of the user's as __wayfind_original_CMD, for the wrapper to call.
        __wayfind_keep() {
            local definition
            definition=$(builtin declare -f -- "$1") || return 0
            [[ $definition == *__wayfind_record* ]] && return 0
            builtin eval "function __wayfind_original_$definition"
        }
        """#

    static func bash(_ command: LearnedCommand) -> String {
        let name = command.name
        if name == "cd" {
            return #"""
                : "${__wayfind_cd_last=$PWD}"
                __wayfind_cd_hook() {
                    local REPLY
                    [[ $PWD == "$__wayfind_cd_last" ]] && return 0
                    __wayfind_cd_last=$PWD
                    __wayfind_graph cd
                    (builtin command routegraph-visit --graph "$REPLY" --lock-timeout 10 -- "$PWD" >/dev/null 2>&1 &)
                }
                [[ ${PROMPT_COMMAND[*]-} == *__wayfind_cd_hook* ]] || PROMPT_COMMAND="__wayfind_cd_hook${PROMPT_COMMAND:+$'\n'$PROMPT_COMMAND}"
                __wayfind_adopt cd '\#(command.rule)'

                """#
        }
        return #"""
            __wayfind_keep \#(name)
            function \#(name) {
                if builtin declare -F __wayfind_original_\#(name) >/dev/null; then __wayfind_original_\#(name) "$@"; else builtin command \#(name) "$@"; fi
                local status=$?
                ((status)) || __wayfind_record \#(name) "$@"
                return $status
            }
            __wayfind_adopt \#(name) '\#(command.rule)'

            """#
    }

    // MARK: - zsh

    static let zshCommon = #"""
        typeset -gA __wayfind_rules __wayfind_comps

        __wayfind_graph() {
            emulate -L zsh
            local state=${XDG_STATE_HOME-}
            [[ $state == /* ]] || state=$HOME/.local/state
            REPLY=$state/wayfind/learn/$1.json
        }

        # REPLY: the index, in the arguments after the first two, of the place: the Nth ($1; 0:
        # the last) argument that is not an option, skipping the value of an option letter
        # listed in $2 (ssh -p 2200), and stopping at the Nth (ssh's remote command). 0: none.
        __wayfind_place_index() {
            emulate -L zsh
            local n=$1 valued=$2 i j k=0 skip='' options=1 arg
            shift 2
            REPLY=0
            for (( i = 1; i <= $#; i++ )); do
                arg=${@[i]}
                if [[ -n $skip ]]; then
                    skip=''
                elif [[ -n $options && $arg == -?* ]]; then
                    [[ $arg == -- ]] && options=''
                    [[ $arg == --* ]] && continue
                    for (( j = 2; j <= $#arg; j++ )); do
                        if [[ $valued == *${(b)arg[j]}* ]]; then
                            (( j == $#arg )) && skip=1
                            break
                        fi
                    done
                elif (( n < 0 )); then
                    # scp: the first remote operand, [user@]host:path.
                    [[ $arg == *:* && -n ${arg%%:*} && ${arg%%:*} != */* ]] && { REPLY=$i; return 0 }
                else
                    (( k++ ))
                    (( n == 0 || k == n )) && REPLY=$i
                    (( n && k == n )) && return 0
                fi
            done
            return 0
        }

        # Records the place of a learned command ($1) run with the arguments after $1, in the
        # background, so that the command never waits for the graph's lock.
        __wayfind_record() {
            emulate -L zsh
            local cmd=$1 place REPLY
            shift
            __wayfind_place_index ${=__wayfind_rules[$cmd]} "$@"
            (( REPLY )) || return 0
            place=${@[REPLY]}
            [[ ${__wayfind_rules[$cmd]} == -* ]] && place=${place%%:*}
            __wayfind_graph $cmd
            builtin command routegraph-visit --graph $REPLY --lock-timeout 10 -- $place &>/dev/null &!
        }

        # The completion of a learned command: what completed it before the set-up (_cd, _ssh,
        # else _default), then the places learned, when the word is the command's place, does
        # not look like a path, and that completion would put nothing in it by itself (its one
        # match, or a longer beginning its matches share: Tab still puts that there, alone).
        __wayfind_complete() {
            local cmd=$words[1] REPLY __wayfind_dirs='' ret=1 word=${(Q)PREFIX} typed=$PREFIX
            ${__wayfind_comps[$cmd]:-_default} "$@" && ret=0
            (( compstate[nmatches] == 1 || (compstate[nmatches] > 1 && $#compstate[unambiguous] > $#typed) )) && return ret
            # Nothing yet, and a matcher-list has another pass to try (case-insensitive,
            # say): that pass first (_main_complete's own variables count the passes).
            (( compstate[nmatches] == 0 && ${_matcher_num:-1} < ${#_matchers} )) && return ret
            if [[ $word != (/|./|../|\~)* && $word != (.|..) ]]; then
                __wayfind_place_index ${=__wayfind_rules[$cmd]} "${(@Q)words[2,CURRENT]}"
                if (( REPLY == CURRENT - 1 )) && [[ ${__wayfind_rules[$cmd]} != -* ]]; then
                    [[ $cmd == cd ]] && __wayfind_dirs=1
                    __wayfind_graph $cmd
                    __wayfind_complete_places --graph $REPLY && ret=0
                fi
            fi
            # Matches that share less than what was typed: list them and keep the word, which
            # zsh would cut to what they share (to nothing, say); the next Tab starts the menu
            # (with autolist; without it, each Tab lists them).
            if (( compstate[nmatches] > 1 && $#compstate[unambiguous] < $#typed )) && [[ $compstate[insert] == *unambiguous* ]]; then
                compstate[insert]=''
                [[ -o autolist ]] || compstate[list]='list'
            fi
            return ret
        }

        # Makes CMD's completion __wayfind_complete, keeping the one it had to run inside it;
        # once, however often the set-up is read.
        __wayfind_adopt() {
            emulate -L zsh
            [[ -n ${__wayfind_rules[$1]-} ]] || __wayfind_comps[$1]=${_comps[$1]-}
            __wayfind_rules[$1]=$2
            (( ${+functions[compdef]} )) && compdef __wayfind_complete $1
            return 0
        }

        # Keeps a function CMD of the user's as __wayfind_original_CMD, for the wrapper to call.
        __wayfind_keep() {
            emulate -L zsh
            (( ${+functions[$1]} )) || return 0
            [[ $functions[$1] == *__wayfind_record* ]] && return 0
            # functions -c (zsh 5.8) copies an autoloaded function and one written with
            # rcquotes too, which the copy of its text does not.
            builtin functions -c $1 __wayfind_original_$1 2>/dev/null || functions[__wayfind_original_$1]=$functions[$1]
        }
        """#

    static func zsh(_ command: LearnedCommand) -> String {
        let name = command.name
        if name == "cd" {
            return #"""
                # At the prompt, not on chpwd: completion functions change directories too.
                typeset -g __wayfind_cd_last=${__wayfind_cd_last-$PWD}
                __wayfind_cd_hook() {
                    emulate -L zsh
                    local REPLY
                    [[ $PWD == $__wayfind_cd_last ]] && return 0
                    __wayfind_cd_last=$PWD
                    __wayfind_graph cd
                    builtin command routegraph-visit --graph $REPLY --lock-timeout 10 -- $PWD &>/dev/null &!
                }
                autoload -Uz add-zsh-hook
                add-zsh-hook precmd __wayfind_cd_hook
                __wayfind_adopt cd '\#(command.rule)'

                """#
        }
        return #"""
            __wayfind_keep \#(name)
            function \#(name) {
                if (( ${+functions[__wayfind_original_\#(name)]} )); then __wayfind_original_\#(name) "$@"; else builtin command \#(name) "$@"; fi
                local ret=$?
                (( ret )) || __wayfind_record \#(name) "$@"
                return ret
            }
            __wayfind_adopt \#(name) '\#(command.rule)'

            """#
    }

    // MARK: - fish

    static let fishCommon = #"""
        set -g __wayfind_learned
        set -g __wayfind_rules

        function __wayfind_graph
            set -l state $XDG_STATE_HOME
            string match -q -- '/*' "$state"; or set state $HOME/.local/state
            echo $state/wayfind/learn/$argv[1].json
        end

        # The index, in the arguments after the first two, of the place: the Nth ($argv[1]; 0:
        # the last) argument that is not an option, skipping the value of an option letter
        # listed in $argv[2] (ssh -p 2200), and stopping at the Nth. 0: none.
        function __wayfind_place_index
            set -l n $argv[1]
            set -l valued (string split '' -- $argv[2])
            set -l args $argv[3..-1]
            set -l k 0
            set -l found 0
            set -l skip
            set -l options 1
            for i in (command seq 1 (count $args))
                set -l arg $args[$i]
                if test -n "$skip"
                    set skip
                else if test -n "$options"; and string match -q -- '-?*' $arg
                    test "$arg" = --; and set options
                    string match -q -- '--*' $arg; and continue
                    set -l letters (string split '' -- (string sub -s 2 -- $arg))
                    for j in (command seq 1 (count $letters))
                        if contains -- $letters[$j] $valued
                            test $j -eq (count $letters); and set skip 1
                            break
                        end
                    end
                else if test $n -lt 0
                    # scp: the first remote operand, [user@]host:path.
                    if string match -q -r -- '^[^/:]+:' $arg
                        set found $i
                        break
                    end
                else
                    set k (math $k + 1)
                    if test $n -eq 0; or test $k -eq $n
                        set found $i
                    end
                    test $n -ne 0; and test $k -eq $n; and break
                end
            end
            echo $found
        end

        # The rule of a learned command: N and the option letters that take a value.
        function __wayfind_rule
            set -l i (contains -i -- $argv[1] $__wayfind_learned); or return 1
            string split ' ' -- $__wayfind_rules[$i]
        end

        # Records the place of a learned command ($argv[1]) run with the arguments after it, in
        # the background, so that the command never waits for the graph's lock.
        function __wayfind_record
            set -l rule (__wayfind_rule $argv[1])
            set -l i (__wayfind_place_index $rule $argv[2..-1])
            test "$i" -gt 0; or return 0
            set -l place $argv[(math $i + 1)]
            test $rule[1] -lt 0; and set place (string replace -r -- ':.*' '' $place)
            command routegraph-visit --graph (__wayfind_graph $argv[1]) --lock-timeout 10 -- $place >/dev/null 2>&1 &
            disown $last_pid 2>/dev/null
        end

        # Whether the word at the cursor is the place of the learned command, does not look
        # like a path, and the usual completion would put nothing in it by itself (so that
        # Tab does what it did before the set-up); never while __wayfind_usual_inserts asks.
        function __wayfind_at_place
            set -q __wayfind_usual; and return 1
            set -l tokens (commandline -opc)
            set -l word (commandline -ct | string unescape)
            string match -q -r -- '^(/|\./|\.\./|~)' "$word"; and return 1
            contains -- "$word" . ..; and return 1
            set -l rule (__wayfind_rule $tokens[1]); or return 1
            test $rule[1] -ge 0; or return 1
            test (__wayfind_place_index $rule $tokens[2..-1] "$word") -eq (count $tokens); or return 1
            not __wayfind_usual_inserts
        end

        function __wayfind_places
            set -l tokens (commandline -opc)
            test "$tokens[1]" = cd; and set -g __wayfind_dirs 1
            __wayfind_complete_places --graph (__wayfind_graph $tokens[1])
            set -eg __wayfind_dirs
        end

        # Whether the usual completion would put something in the word at the cursor by
        # itself (the places left out): its one candidate, or a longer beginning its
        # candidates share; of those, as fish does, only the best kind that it has: those
        # that start with the word, else those that start with it in another case, else
        # the rest. __wayfind_offered: how many it offers.
        function __wayfind_usual_inserts
            set -g __wayfind_usual 1
            set -l offered (complete -C (commandline -cp | string collect) | string replace -r -- '\t.*' '')
            set -e __wayfind_usual
            set -g __wayfind_offered (count $offered)
            set -l word (commandline -ct | string unescape)
            set -l length (string length -- "$word")
            set -l exact
            set -l folded
            for candidate in $offered
                set -l head (string sub -l $length -- "$candidate")
                if test "$head" = "$word"
                    set -a exact $candidate
                else if test (string lower -- "$head") = (string lower -- "$word")
                    set -a folded $candidate
                end
            end
            set -q exact[1]; and set offered $exact; or begin; set -q folded[1]; and set offered $folded; end
            set -q offered[1]; or return 1
            set -q offered[2]; or return 0
            set -l common (__wayfind_common $offered)
            test (string length -- "$common") -gt $length
        end

        # The longest beginning all the arguments share.
        function __wayfind_common
            set -l common $argv[1]
            for item in $argv[2..-1]
                while test -n "$common"
                    set -l head (string sub -l (string length -- "$common") -- "$item")
                    test "$head" = "$common"; and break
                    set common (string sub -e -1 -- "$common")
                end
            end
            printf '%s' "$common"
        end

        # fish keeps only completions that contain what was typed, without folding accents:
        # when the usual completion offers nothing, first put in the word the one place
        # that matches, or the beginning that several share when it is at least as long as
        # the word (so 'sao' becomes 'São Paulo').
        function __wayfind_tab
            set -e __wayfind_usual
            if __wayfind_at_place; and test "$__wayfind_offered" = 0
                set -l word (commandline -ct | string unescape)
                set -l places (__wayfind_places)
                set -l common (__wayfind_common $places)
                if test -n "$common"; and test (string length -- "$common") -ge (string length -- "$word")
                    commandline -rt -- (string escape -- $common)
                end
            end
            commandline -f complete
        end
        bind \t __wayfind_tab
        bind -M insert \t __wayfind_tab 2>/dev/null
        """#

    static func fish(_ command: LearnedCommand) -> String {
        let name = command.name
        var script = #"""
            contains -- \#(name) $__wayfind_learned; or set -a __wayfind_learned \#(name)
            set __wayfind_rules[(contains -i -- \#(name) $__wayfind_learned)] '\#(command.rule)'

            """#
        if name == "cd" {
            script += #"""
                # At the prompt, not on every change of PWD: completions change it too.
                set -q __wayfind_cd_last; or set -g __wayfind_cd_last $PWD
                function __wayfind_cd_hook --on-event fish_prompt
                    test "$PWD" = "$__wayfind_cd_last"; and return
                    set -g __wayfind_cd_last $PWD
                    command routegraph-visit --graph (__wayfind_graph cd) --lock-timeout 10 -- $PWD >/dev/null 2>&1 &
                    disown $last_pid 2>/dev/null
                end
                complete -c cd -n __wayfind_at_place -k -a '(__wayfind_places)'

                """#
        } else {
            script += #"""
                if functions -q \#(name); and not functions \#(name) | string match -q '*__wayfind_record*'
                    functions -c \#(name) __wayfind_original_\#(name)
                end
                function \#(name) --wraps \#(name)
                    if functions -q __wayfind_original_\#(name)
                        __wayfind_original_\#(name) $argv
                    else
                        command \#(name) $argv
                    end
                    set -l ret $status
                    test $ret -eq 0; and __wayfind_record \#(name) $argv
                    return $ret
                end
                complete -c \#(name) -n __wayfind_at_place -k -a '(__wayfind_places)'

                """#
        }
        return script
    }
}

/// A command the set-up learns (`--learn CMD` or `--learn CMD:N`), and which of its
/// arguments is its place: the Nth that is not an option (`CMD:N`), skipping the values
/// of the option letters that take one; by default the last one. Known commands have
/// their own rule: ssh and mosh's place is the host (the first argument that is not an
/// option, skipping `-p 2200` and the like; what follows is the remote command); scp's
/// is the host of its first remote operand; cd's is its first argument.
struct LearnedCommand: Sendable, Equatable {
    /// The command's name.
    var name: String
    /// Which argument that is not an option is the place, from 1; 0 for the last; -1 for
    /// scp's: the host of the first remote operand (`[user@]host:path`).
    var position: Int
    /// The option letters whose value is the next argument (`-p 2200`).
    var lettersWithValues: String

    /// The built-in rules: the option letters of ssh(1) that take a value, mosh(1)'s.
    static let knownRules: [String: (position: Int, letters: String)] = [
        "ssh": (1, "BbcDEeFIiJLlmOopQRSWw"), "mosh": (1, "p"), "cd": (1, ""), "scp": (-1, "cDFiJloPSX"),
    ]

    /// `CMD` or `CMD:N`; nil when CMD cannot be learned or N is not a number ≥ 1.
    init?(_ text: String) {
        var name = text
        var position: Int? = nil
        if let colon = text.lastIndex(of: ":") {
            name = String(text[..<colon])
            guard let n = Int(text[text.index(after: colon)...]), n >= 1 else { return nil }
            position = n
        }
        guard ShellInit.isLearnable(name) else { return nil }
        let known = Self.knownRules[name]
        spelling = text
        self.name = name
        self.position = position ?? known?.position ?? 0
        lettersWithValues = known?.letters ?? ""
    }

    /// As given to `--learn`.
    var spelling: String

    /// The rule as the set-up's `__wayfind_place_index` takes it: `N LETTERS` (`-` for
    /// no letters).
    var rule: String { "\(position) \(lettersWithValues.isEmpty ? "-" : lettersWithValues)" }
}
