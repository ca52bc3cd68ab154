#compdef trip
# Tab completion for `trip FROM TO` in zsh, from the route graph.
#
#   autoload -Uz compinit && compinit
#   source examples/trip-completion.zsh
#   trip <Tab>            the places you go to most, and what follows your last stop
#   trip Home <Tab>       what usually follows Home, best first
#   trip Home ai<Tab>     ... whose words start with "ai": Airport
#
# The word typed so far is a routegraph-suggest QUERY, so it matches the start of any
# word of a place, ignoring case and accents; -U lets those matches replace it.

_trip() {
    local -a places options
    options=(--limit 20)
    if (( CURRENT == 3 )); then
        options+=(--from "${(Q)words[2]}")
    elif (( CURRENT != 2 )); then
        return 1
    fi
    places=("${(@f)$(routegraph-suggest $options -- "${(Q)PREFIX}" 2>/dev/null)}")
    places=(${places:#})
    (( ${#places} )) || return 1
    # -V: an unsorted group, so the best guess stays first.
    compadd -U -V trip-places -- $places
}

compdef _trip trip
