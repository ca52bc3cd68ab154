import WayfindCore

/// The zsh set-up (see `ShellInit`).
extension ShellInit {
    static let zshCommon = #"""
        # Per learned command: its place rule, the completion it had, and whose graph it
        # uses (a jump command uses cd's).
        typeset -gA __wayfind_rules __wayfind_comps __wayfind_graphs

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
            builtin command routegraph-visit --learned $cmd --lock-timeout 10 -- $place &>/dev/null &!
        }

        # The completion of a learned command: what completed it before the set-up (_cd, _ssh,
        # else _default), then the places learned, when the word is the command's place, does
        # not look like a path, and that completion would put nothing in it by itself (its one
        # match, or a longer beginning its matches share: Tab still puts that there, alone).
        __wayfind_complete() {
            local cmd=$words[1] REPLY __wayfind_dirs='' ret=1 word=${(Q)PREFIX} typed=$PREFIX graph
            ${__wayfind_comps[$cmd]:-_default} "$@" && ret=0
            (( compstate[nmatches] == 1 || (compstate[nmatches] > 1 && $#compstate[unambiguous] > $#typed) )) && return ret
            # Nothing yet, and a matcher-list has another pass to try (case-insensitive,
            # say): that pass first (_main_complete's own variables count the passes).
            (( compstate[nmatches] == 0 && ${_matcher_num:-1} < ${#_matchers} )) && return ret
            if [[ $word != (/|./|../|\~)* && $word != (.|..) ]]; then
                __wayfind_place_index ${=__wayfind_rules[$cmd]} "${(@Q)words[2,CURRENT]}"
                if (( REPLY == CURRENT - 1 )) && [[ ${__wayfind_rules[$cmd]} != -* ]]; then
                    graph=${__wayfind_graphs[$cmd]:-$cmd}
                    [[ $graph == cd ]] && __wayfind_dirs=1
                    __wayfind_complete_places --learned $graph && ret=0
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

        # Makes CMD's ($1) completion __wayfind_complete with the place rule $2, keeping the
        # one it had to run inside it; once, however often the set-up is read. With $3 (a
        # jump command), the completion and graph of $3. Before compinit there is no
        # completion to adopt: the end of the set-up says so.
        __wayfind_adopt() {
            emulate -L zsh
            if [[ -n ${3-} ]]; then
                __wayfind_comps[$1]=${__wayfind_comps[$3]-}
            elif [[ -z ${__wayfind_rules[$1]-} ]]; then
                __wayfind_comps[$1]=${_comps[$1]-}
            fi
            __wayfind_rules[$1]=$2
            __wayfind_graphs[$1]=${3:-$1}
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
                    [[ $PWD == $__wayfind_cd_last ]] && return 0
                    __wayfind_cd_last=$PWD
                    builtin command routegraph-visit --learned cd --lock-timeout 10 -- $PWD &>/dev/null &!
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

    /// The end of a zsh set-up that adopts completions: one line when compinit has not
    /// run yet (the set-up line came before it), in an interactive shell.
    static let zshAfterCompinit = #"""
        if [[ -o interactive ]] && (( ! ${+functions[compdef]} )); then
            builtin print -ru2 -- 'wayfind set-up: compinit has not run yet: put the set-up line after compinit in ~/.zshrc (until then Tab adds no learned place)'
        fi

        """#
}
