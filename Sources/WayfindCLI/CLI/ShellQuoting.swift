import WayfindCore

/// The one quoting module of each shell: shell functions that read the word at the cursor
/// as the command will get it, write a name back so that the shell reads it exactly, and
/// complete places with them. The tools' completion scripts (`CompletionRenderer`) and the
/// shell set-up (`ShellInit`) both include them; the Swift side's quoting of words in
/// generated scripts is here too.
///
/// A name may hold anything a directory or a graph can: `!`, `!#`, `!!` (history
/// expansion, which double quotes do not stop), quotes, `$(…)` and backticks, globs,
/// `@ : =` (readline's word breaks), control characters (terminal escapes), bytes of
/// any locale. So a name is written for where the cursor is:
///
///     trip 'pro<Tab>   →  trip 'proj!#x'           single quotes: only ' needs care
///     trip "pro<Tab>   →  trip "proj"\!"#x"         ! outside the double quotes
///     trip pro<Tab>    →  trip proj\!\#x            bare: special ASCII bytes escaped
///     trip esc<Tab>    →  trip esc$'\033'\]0        control bytes as $'\ooo'
///     trip $'pro<Tab>  →  trip $'proj\'s\033'      ANSI-C quotes: \ and ' escaped
///
/// and so that bytes of 0x80 or more cannot change how the shell reads the rest: in Big5,
/// GBK, GB18030 and Shift-JIS a character can end with the byte of `\`, and bash reads
/// `€\;` as `€\` (its last byte and the `\` as one character) and `;`. There bash's module
/// reads the line by the locale's characters, as bash does, and writes a byte of 0x80 or
/// more that would come right before a `\` as `$'\ooo'`. zsh reads a line by bytes in any
/// locale; fish by characters, and quotes in characters too.
///
/// bash and zsh get `__wayfind_quote` and `__wayfind_complete_places` (plus bash's
/// `__wayfind_scan`, which finds the word as readline cut it at `@ : =`); fish quotes
/// completions itself, so its module lists the places (and forgets the directories that
/// are gone, through `__wayfind_visit`, which keeps fish free of zombies).
enum ShellQuoting {
    /// The bash module.
    static let bash = #"""
        # __wayfind_words: the words of the command line up to the cursor, as the command gets
        # them ('New Y, "A\"B", New\ Y, $'New\x20Y' are New Y, A"B, New Y, New Y); the last is
        # the word completed. __wayfind_quote: the quote open at the cursor (', ", $' or
        # nothing). __wayfind_lead: the start of the last word that readline keeps (up to an
        # open quote or the last @ : = of COMP_WORDBREAKS), as the command gets it.
        # __wayfind_merging: whether the locale can take a \ into the character before it
        # (Big5, GBK, GB18030, Shift-JIS), as bash then does: the line is cut into the
        # locale's characters, as bash reads it, then compared byte by byte (in Shift-JIS a
        # \ in a pattern is a ¥ to bash).
        __wayfind_scan() {
            local line=${COMP_LINE:0:COMP_POINT} i probe=$'\x81\\' other=$'\xa4\\'
            local -a chars=()
            __wayfind_merging=''
            ((${#probe} == 1 || ${#other} == 1)) && __wayfind_merging=1
            for ((i = 0; i < ${#line}; i++)); do chars+=("${line:i:1}"); done
            local LC_ALL=C IFS='' c word='' quote='' atquote='' atbreak='' rest
            local ansi=$'^([0-7]{1,3}|x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[abeEfnrtv?"\'\\\\])'
            __wayfind_words=()
            for ((i = 0; i < ${#chars[@]}; i++)); do
                c=${chars[i]}
                if [[ $quote == "'" ]]; then
                    if [[ $c == "'" ]]; then quote=''; else word+=$c; fi
                elif [[ $quote == "\$'" ]]; then
                    # ANSI-C quotes: a \ takes the character after it (' too) into an escape.
                    if [[ $c == "'" ]]; then
                        quote=''
                    elif [[ $c != '\' ]]; then
                        word+=$c
                    elif rest="${chars[*]:i+1}" && [[ $rest =~ $ansi ]]; then
                        builtin printf -v c "\\${BASH_REMATCH[0]}"
                        word+=$c
                        ((i += ${#BASH_REMATCH[0]}))
                    else
                        word+=$c${chars[i + 1]-}
                        ((i++))
                    fi
                elif [[ $quote == '"' ]]; then
                    if [[ $c == '\' && ${chars[i + 1]-} == [\"\\\$\`] ]]; then
                        word+=${chars[++i]}
                    elif [[ $c == '"' ]]; then quote=''; else word+=$c; fi
                elif [[ $c == '\' ]]; then
                    word+=${chars[++i]-}
                elif [[ $c == '$' && ${chars[i + 1]-} == [\'\"\$] ]]; then
                    # $$ is a parameter; $'…' and $"…" are quotes that the $ is no part of.
                    c=${chars[++i]}
                    if [[ $c == '$' ]]; then
                        word+='$$'
                    else
                        quote=$c atquote=$word
                        [[ $c == "'" ]] && quote="\$'"
                    fi
                elif [[ $c == [\'\"] ]]; then
                    quote=$c atquote=$word
                elif [[ $c == [$' \t\n'] ]]; then
                    if [[ -n $word ]] || { ((i)) && [[ ${chars[i - 1]} == [\'\"] ]]; }; then __wayfind_words+=("$word"); fi
                    word='' atbreak=''
                else
                    word+=$c
                    [[ $c != [[:alnum:]] && $COMP_WORDBREAKS == *"$c"* ]] && atbreak=$word
                fi
            done
            __wayfind_words+=("$word")
            __wayfind_quote=$quote
            if [[ -n $quote ]]; then __wayfind_lead=$atquote; else __wayfind_lead=$atbreak; fi
        }

        # REPLY: NAME ($2) written to follow an open QUOTE ($1: ', ", $' or nothing) so that the
        # shell reads NAME exactly, whatever it holds, once readline closes the quote: in single
        # quotes as it is; in $'…' with \ and ' escaped; in double quotes with " \ $ ` escaped
        # and ! outside them (history expansion); bare with every special ASCII character
        # escaped. Control characters as \ooo in $'…', else as $'\ooo' outside the quote.
        # Other bytes as they are, but in a locale where a character can end with the byte of
        # \ (Big5, GBK, GB18030, Shift-JIS): there a byte of 0x80 or more right before a \ of
        # the reply would take that \ into its character (__wayfind_merging, from
        # __wayfind_scan), so it is written as control characters are (written from the end,
        # to know what follows).
        __wayfind_quote() {
            local LC_ALL=C
            local name=$2 c i next='' quote=${1#\$}
            REPLY=''
            for ((i = ${#name} - 1; i >= 0; i--)); do
                c=${name:i:1}
                if [[ $c < ' ' || $c == $'\x7f' ]] || [[ -n ${__wayfind_merging-} && $c > $'\x7f' && $next == '\'* ]]; then
                    builtin printf -v c '\\%03o' "'$c"
                    case $1 in "\$'") ;; "'") c="'\$'$c''" ;; '"') c="\"\$'$c'\"" ;; *) c="\$'$c'" ;; esac
                else
                    case $1 in
                    "'") [[ $c == "'" ]] && c="'\\''" ;;
                    "\$'") [[ $c == [\\\'] ]] && c="\\$c" ;;
                    '"') case $c in '"' | '\' | '$' | '`') c="\\$c" ;; '!') c='"\!"' ;; esac ;;
                    *) [[ $c == [A-Za-z0-9_./:@%+=,-] || $c > $'\x7f' ]] || c="\\$c" ;;
                    esac
                fi
                next=$c
                REPLY=$c$REPLY
            done
            # Readline takes a reply that starts with the open quote for one that brings
            # its own, and drops the one typed: bring it. It closes the quote only when the
            # reply does not end with the quote character: close it then.
            [[ -n $quote && $REPLY == "$quote"* ]] && REPLY=$quote$REPLY
            [[ -n $quote && $REPLY == *"$quote" ]] && REPLY+=$quote
            return 0
        }

        # COMPREPLY+: the places routegraph-suggest gives (with the options given) for the word
        # at the cursor, written for readline to put in place of its own word, quoted by
        # __wayfind_quote (with -o filenames, readline would quote them again: the set-up
        # turns it off). A place that does not start with the word's lead
        # cannot be put there, and is left out. With $__wayfind_dirs set, only places that
        # are directories, with a / after them (of those that are not, the ones that are
        # gone are forgotten), but for the current one and those that cd offers by their
        # name from here.
        __wayfind_complete_places() {
            local place REPLY word lead
            local -a forget=()
            __wayfind_scan
            # Names compared and cut byte by byte, as the scan gives them (the tools read no
            # locale).
            local LC_ALL=C
            word=${__wayfind_words[-1]} lead=$__wayfind_lead
            # A tool's --from=PLACE: the place is after the =.
            if [[ $word == --?*=* ]]; then word=${word#*=} lead=${lead#--*=}; fi
            while IFS= builtin read -r -d '' place; do
                if [[ -n ${__wayfind_dirs-} ]]; then
                    if [[ ! -d $place ]]; then
                        __wayfind_gone "$place" && forget+=(--forget "$place")
                        continue
                    fi
                    __wayfind_offered_here "$place" "$word" && continue
                    [[ $place == */ ]] || place+=/
                fi
                [[ $place == "$lead"* ]] || continue
                place=${place:${#lead}}
                __wayfind_quote "$__wayfind_quote" "$place"
                COMPREPLY+=("$REPLY")
            done < <(builtin command routegraph-suggest "$@" --include-from -z --limit 20 -- "$word" 2>/dev/null)
            ((${#forget[@]} == 0)) || (builtin command routegraph-visit "$@" --quiet --lock-timeout 10 "${forget[@]}" >/dev/null 2>&1 &)
        }

        # Whether the directory $1, which is not there, is gone rather than out of sight: its
        # parent is there and lists something. A disk unmounted takes its mount point away
        # (udisks) or leaves it empty (fstab), and a network mount out of reach cannot be
        # listed: their directories are kept for when they are back.
        __wayfind_gone() {
            local parent=${1%/*}
            [[ -d ${parent:-/} ]] && (shopt -s nullglob dotglob && shopt -u failglob && set +f && GLOBIGNORE='' && set -- "$parent"/* && (($#)))
        }

        # Whether the directory $1 is the current one, or one that cd's completion offers
        # for the word $2 by its name from here (a folder here that starts with the word).
        __wayfind_offered_here() {
            local here=${PWD%/}/ rest
            [[ $1 == "$PWD" ]] && return 0
            [[ $1 == "$here"?* ]] || return 1
            rest=${1:${#here}}
            [[ $rest == "$2"* && ${rest:${#2}} != */* ]]
        }

        # The places for a tool's own completion: from the graph that the command line names
        # with --graph or --learned, else the default one.
        __wayfind_complete_tool_places() {
            local i
            local -a graph=()
            __wayfind_scan
            for ((i = 1; i < ${#__wayfind_words[@]} - 1; i++)); do
                case ${__wayfind_words[i]} in
                --graph | --learned) graph=("${__wayfind_words[i]}" "${__wayfind_words[i + 1]}") ;;
                --graph=* | --learned=*) graph=("${__wayfind_words[i]}") ;;
                esac
            done
            __wayfind_complete_places "${graph[@]}"
        }
        """#

    /// The zsh module.
    static let zsh = #"""
        # REPLY: NAME ($2) written to follow an open QUOTE ($1: ', ", $' or nothing) so that zsh
        # reads NAME exactly, whatever it holds, once the quote is closed: in single quotes as it
        # is; in $'…' with \ and ' escaped; in double quotes with " \ $ ` escaped and ! outside
        # them (history expansion); bare with every special ASCII character escaped. Control
        # characters as \ooo in $'…', else as $'\ooo' outside the quote; other bytes as they
        # are (zsh reads the line by bytes, in any locale).
        __wayfind_quote() {
            emulate -L zsh
            local LC_ALL=C name=$2 c
            REPLY=''
            for c in ${(s::)name}; do
                if [[ $c < ' ' || $c == $'\x7f' ]]; then
                    builtin printf -v c '\\%03o' "'$c"
                    case $1 in "\$'") ;; "'") c="'\$'$c''" ;; '"') c="\"\$'$c'\"" ;; *) c="\$'$c'" ;; esac
                    REPLY+=$c
                    continue
                fi
                case $1 in
                "\$'") if [[ $c == [\\\'] ]]; then REPLY+="\\$c"; else REPLY+=$c; fi ;;
                "'") if [[ $c == "'" ]]; then REPLY+="'\\''"; else REPLY+=$c; fi ;;
                '"') case $c in '"' | '\' | '$' | '`') REPLY+="\\$c" ;; '!') REPLY+='"\!"' ;; *) REPLY+=$c ;; esac ;;
                *) if [[ $c == [A-Za-z0-9_./:@%+,-] || $c > $'\x7f' ]]; then REPLY+=$c; else REPLY+="\\$c"; fi ;;
                esac
            done
        }

        # Offers the places routegraph-suggest gives (with the options given) for the word
        # typed, quoted by __wayfind_quote for where the cursor is: -U keeps their order and
        # the names that match by smartgrep's rules rather than by prefix, -d lists them as
        # they are. With $__wayfind_dirs set, only directories, with a / after them (of those
        # that are not, the ones that are gone are forgotten: __wayfind_gone), but for the
        # current one and those that cd offers by their name from here.
        __wayfind_complete_places() {
            setopt localoptions extendedglob
            # Inside quotes zsh re-quotes the word, and in a locale that is not UTF-8
            # it writes the bytes of São as $'\303\243': complete in C.UTF-8 then.
            [[ -n $compstate[quote] && ${LC_ALL:-${LC_CTYPE:-$LANG}} != *(UTF-8|utf8|UTF8|utf-8)* ]] && local LC_ALL=C.UTF-8
            local -a places quoted shown forget suffix
            local place REPLY here=${PWD%/}/ rest
            places=("${(@0)$(builtin command routegraph-suggest "$@" --include-from -z --limit 20 -- "${(Q)PREFIX}" 2>/dev/null)}")
            for place in ${places:#}; do
                if [[ -n ${__wayfind_dirs-} ]]; then
                    if [[ ! -d $place ]]; then
                        __wayfind_gone $place && forget+=(--forget "$place")
                        continue
                    fi
                    [[ $place == $PWD ]] && continue
                    rest=${place#$here}
                    [[ $rest != $place && $rest == ${(Q)PREFIX}* && ${rest:${#${(Q)PREFIX}}} != */* ]] && continue
                    [[ $place == */ ]] || place+=/
                    suffix=(-S '')
                fi
                __wayfind_quote "$compstate[quote]" "$place"
                quoted+=("$REPLY")
                shown+=("${place//[[:cntrl:]]/?}")
            done
            (( $#forget )) && { builtin command routegraph-visit "$@" --quiet --lock-timeout 10 "${forget[@]}" &>/dev/null &! }
            (( $#quoted )) || return 1
            # -U replaces the ignored prefix too (_arguments' --from=): put it back.
            compadd -U -Q -V wayfind "${suffix[@]}" -d shown -- "${(@)quoted/#/$IPREFIX}"
        }

        # Whether the directory $1, which is not there, is gone rather than out of sight: its
        # parent is there and lists something. A disk unmounted takes its mount point away
        # (udisks) or leaves it empty (fstab), and a network mount out of reach cannot be
        # listed: their directories are kept for when they are back.
        __wayfind_gone() {
            emulate -L zsh
            local parent=${1%/*}
            [[ -d ${parent:-/} ]] && () { (( $# )) } $parent/*(DNY1)
        }

        # The places for a tool's own completion: from the graph that the command line names
        # with --graph or --learned, else the default one.
        __wayfind_complete_tool_places() {
            local i
            local -a graph
            for (( i = 2; i < CURRENT; i++ )); do
                case ${words[i]} in
                --graph | --learned) graph=($words[i] "${(Q)words[i + 1]}") ;;
                --graph=* | --learned=*) graph=("${(Q)words[i]}") ;;
                esac
            done
            __wayfind_complete_places "${graph[@]}"
        }
        """#

    /// The fish module.
    static let fish = #"""
        # Runs routegraph-visit with these arguments in the background, through sh, so that
        # it is not fish's child: fish reaps a disowned job only when it next waits for a
        # program, so each would stay a zombie until then (after every cd, say).
        function __wayfind_visit
            command sh -c '"$@" </dev/null >/dev/null 2>&1 &' sh routegraph-visit $argv
        end

        # The places routegraph-suggest gives (with the options given) for the word typed; fish
        # quotes them itself. With $__wayfind_dirs set, only directories (of those that are
        # not, the ones that are gone are forgotten: __wayfind_gone), but for the current one
        # and those that cd offers by their name from here (fish adds the / after a directory).
        function __wayfind_complete_places
            # A tool's --from=PLACE: the place is after the =.
            set -l word (commandline -ct | string unescape | string replace -r -- '^--[^=]*=' '')
            set -l forget
            set -l here (string replace -r -- '/$' '' $PWD)/
            for place in (command routegraph-suggest $argv --include-from -z --limit 20 -- "$word" 2>/dev/null | string split0)
                if set -q __wayfind_dirs
                    if not test -d "$place"
                        __wayfind_gone $place; and set -a forget --forget $place
                        continue
                    end
                    test "$place" = "$PWD"; and continue
                    set -l head (string sub -l (string length -- "$here") -- "$place")
                    if test "$head" = "$here"
                        set -l rest (string sub -s (math (string length -- "$here") + 1) -- "$place")
                        set -l typed (string sub -l (string length -- "$word") -- "$rest")
                        set -l tail (string sub -s (math (string length -- "$word") + 1) -- "$rest")
                        test "$typed" = "$word"; and not string match -q -- '*/*' "$tail"; and continue
                    end
                end
                builtin printf '%s\n' $place
            end
            set -q forget[1]; and __wayfind_visit $argv --quiet --lock-timeout 10 $forget
        end

        # Whether the directory $argv[1], which is not there, is gone rather than out of
        # sight: its parent is there and lists something. A disk unmounted takes its mount
        # point away (udisks) or leaves it empty (fstab), and a network mount out of reach
        # cannot be listed: their directories are kept for when they are back.
        function __wayfind_gone
            set -l parent (string replace -r -- '/[^/]*$' '' $argv[1])
            test -d "$parent/"; or return 1
            set -l entries $parent/* $parent/.*
            set -q entries[1]
        end

        # The places for a tool's own completion: from the graph that the command line names
        # with --graph or --learned, else the default one.
        function __wayfind_complete_tool_places
            set -l tokens (commandline -opc)
            set -l graph
            for i in (command seq 2 (count $tokens))
                switch $tokens[$i]
                    case --graph --learned
                        set -q tokens[(math $i + 1)]; and set graph $tokens[$i] $tokens[(math $i + 1)]
                    case '--graph=*' '--learned=*'
                        set graph $tokens[$i]
                end
            end
            __wayfind_complete_places $graph
        end
        """#

    /// The module of `shell`, as lines.
    static func lines(_ shell: Shell) -> [String] {
        let text = shell == .bash ? bash : shell == .zsh ? zsh : fish
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// `text` as one bash or zsh word, in single quotes.
    static func singleQuoted(_ text: String) -> String {
        "'" + text.replacing(scalar: "'", with: #"'\''"#) + "'"
    }

    /// `text` as one fish word in single quotes, where only `\` and `'` need a backslash.
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacing(scalar: "\\", with: #"\\"#).replacing(scalar: "'", with: #"\'"#) + "'"
    }
}
