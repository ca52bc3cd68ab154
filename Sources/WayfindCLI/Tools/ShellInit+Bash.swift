import WayfindCore

/// The bash set-up (see `ShellInit`).
extension ShellInit {
    static let bashCommon = #"""
        # Per learned command: the completion it had, its place rule, and whose graph it
        # uses (a jump command uses cd's).
        builtin declare -gA __wayfind_specs __wayfind_rules __wayfind_graphs

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
            (builtin command routegraph-visit --learned "$cmd" --lock-timeout 10 -- "$place" >/dev/null 2>&1 &)
        }

        # The completion of a learned command: what completed it before the set-up (for cd and
        # ssh, bash-completion's), after the places learned when the word is the command's place,
        # does not look like a path, and that completion would put nothing in it by itself.
        # (Options set here, such as set +u for a user's set -u, end with the function.)
        __wayfind_complete() {
            local -
            set +u
            local cmd=$1 spec function='' option REPLY i __wayfind_dirs='' graph
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
                graph=${__wayfind_graphs[$cmd]:-$cmd}
                [[ $graph == cd ]] && __wayfind_dirs=1
                __wayfind_complete_places --learned "$graph"
            fi
            ((${#COMPREPLY[@]})) || { COMPREPLY=("${theirs[@]}"); return 0; }
            # Directories end with / (added by __wayfind_complete_places): no space after.
            [[ -n $__wayfind_dirs ]] && builtin compopt -o nospace
            builtin compopt -o nosort
            local -A seen=()
            for option in "${COMPREPLY[@]}"; do seen[$option]=1; done
            for option in "${theirs[@]}"; do [[ -n ${seen[$option]-} ]] || COMPREPLY+=("$option"); done
            return 0
        }

        # Makes CMD's ($1) completion __wayfind_complete with the place rule $2, keeping the
        # one it had (loading bash-completion's first) to run inside it; once, however often
        # the set-up is read. With $3 (a jump command), the completion and graph of $3.
        __wayfind_adopt() {
            local spec
            if [[ -n ${3-} ]]; then
                __wayfind_specs[$1]=${__wayfind_specs[$3]-}
            elif [[ -z ${__wayfind_rules[$1]-} ]]; then
                spec=$(builtin complete -p -- "$1" 2>/dev/null)
                if [[ -z $spec ]] && builtin declare -F __load_completion >/dev/null; then
                    __load_completion "$1" >/dev/null 2>&1
                    spec=$(builtin complete -p -- "$1" 2>/dev/null)
                fi
                __wayfind_specs[$1]=$spec
            fi
            __wayfind_rules[$1]=$2
            __wayfind_graphs[$1]=${3:-$1}
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
                    [[ $PWD == "$__wayfind_cd_last" ]] && return 0
                    __wayfind_cd_last=$PWD
                    (builtin command routegraph-visit --learned cd --lock-timeout 10 -- "$PWD" >/dev/null 2>&1 &)
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
}
