# Tab completion for `trip FROM TO` in bash, from the route graph.
#
#   source examples/trip-completion.bash
#   trip <Tab>            the places you go to most, and what follows your last stop
#   trip Home <Tab>       what usually follows Home, best first
#   trip Home ai<Tab>     ... whose words start with "ai": Airport
#
# The word typed so far is a routegraph-suggest QUERY, so it matches the start of any
# word of a place, ignoring case and accents, not only its beginning.

# Sets REPLY to a word as typed ('New York', "New York", New\ York) as the command will
# get it (New York): quotes removed and backslash escapes resolved; nothing is expanded.
_trip_dequote() {
    local word=$1 quote='' c i
    REPLY=''
    for ((i = 0; i < ${#word}; i++)); do
        c=${word:i:1}
        if [[ $quote == "'" ]]; then
            if [[ $c == "'" ]]; then quote=''; else REPLY+=$c; fi
        elif [[ $c == '\' ]]; then
            ((i++))
            c=${word:i:1}
            # Inside double quotes a backslash escapes only " \ $ and `.
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

_trip_complete() {
    COMPREPLY=()
    local REPLY
    _trip_dequote "${COMP_WORDS[COMP_CWORD]}"
    local cur=$REPLY
    local -a options=(--limit 20)
    if ((COMP_CWORD == 2)); then
        _trip_dequote "${COMP_WORDS[1]}"
        options+=(--from "$REPLY")
    elif ((COMP_CWORD != 1)); then
        return 0
    fi
    local place
    while IFS= read -r place; do
        COMPREPLY+=("$(printf '%q' "$place")")
    done < <(routegraph-suggest "${options[@]}" -- "$cur" 2>/dev/null)
}

# nosort keeps routegraph-suggest's order (bash 4.4 and later).
complete -o nosort -F _trip_complete trip 2>/dev/null || complete -F _trip_complete trip
