# Tab completion for `trip FROM TO` in bash, from the route graph.
#
#   source examples/trip-completion.bash
#   trip <Tab>            the places you go to most, and what follows your last stop
#   trip Home <Tab>       what usually follows Home, best first
#   trip Home ai<Tab>     ... whose words start with "ai": Airport
#
# The word typed so far is a routegraph-suggest QUERY, so it matches the start of any
# word of a place, ignoring case and accents, not only its beginning.

_trip_complete() {
    COMPREPLY=()
    local cur=${COMP_WORDS[COMP_CWORD]}
    local -a options=(--limit 20)
    if ((COMP_CWORD == 2)); then
        local from=${COMP_WORDS[1]}
        from=${from//\\/}
        options+=(--from "$from")
    elif ((COMP_CWORD != 1)); then
        return 0
    fi
    cur=${cur//\\/}
    local place
    while IFS= read -r place; do
        COMPREPLY+=("$(printf '%q' "$place")")
    done < <(routegraph-suggest "${options[@]}" -- "$cur" 2>/dev/null)
}

# nosort keeps routegraph-suggest's order (bash 4.4 and later).
complete -o nosort -F _trip_complete trip 2>/dev/null || complete -F _trip_complete trip
