import WayfindCore

/// The jump commands of `--jump NAME`: NAME and NAMEi, as zoxide's `z` and `zi`.
///
/// NAME must be safe under any name, cd included (zoxide's `--cmd cd`), so it does what
/// cd does with whatever cd would take for a directory, and jumps only otherwise:
///
///     NAME                   home, as cd
///     NAME -P ..  NAME -- x  cd's options first are kept for the cd that follows
///     NAME -   NAME ..       -, a path (., .., or starting with /, ./, ../ or ~) or a
///     NAME /tmp  NAME src    folder cd finds (here or in CDPATH): there, as cd
///     NAME wayfind src       else the first learned directory QUERY matches that exists
///                            and is not the current one; a QUERY without a word (...)
///                            matches none
///
/// Called from a function or a script, NAME is cd alone: code that runs `cd build ||
/// …` must still see cd fail rather than land in a learned folder named build.
///
/// The changing is done by cd's builtin (in fish, by a copy of fish's cd function), so
/// NAME never calls itself. A name that would hide a program (`--jump ls`) is refused
/// by the set-up as it is read, in one line, since only the shell knows its PATH;
/// `isJumpName` has refused the shells' builtins and keywords already. Tab after NAME
/// completes as after cd: the folders cd offers, then the learned directories.
extension ShellInit {
    /// The line that says the jump command `$1` was not defined: it would hide the
    /// program `$found`.
    private static let hidesProgram =
        #"wayfind set-up: --jump would hide the program ${found}: no command ${1} defined (choose another name)"#

    /// `hidesProgram` in fish's words.
    private static let fishHidesProgram =
        #"wayfind set-up: --jump would hide the program $found: no command $argv[1] defined (choose another name)"#

    /// NAME and NAMEi for bash.
    static func bashJump(_ name: String) -> String {
        posixJump(
            name,
            helpers: #"""
                # Whether cd takes $1 for a directory: a path, or a folder cd finds (tried in a
                # subshell, so that CDPATH counts as cd counts it).
                __wayfind_is_directory() {
                    [[ $1 == @(/|./|../|\~)* || $1 == @(.|..) ]] || (builtin cd -- "$1") >/dev/null 2>&1
                }

                # Whether no program is named $1, which a jump command of that name would hide.
                __wayfind_free() {
                    local found
                    found=$(builtin type -P -- "$1") || return 0
                    builtin printf '%s\n' "\#(hidesProgram)" >&2
                    return 1
                }
                """#, stack: "-", nested: "${#FUNCNAME[@]} > 1", substitution: false)
    }

    /// NAME and NAMEi for zsh: `cd -q` tries a folder without running the chpwd hooks,
    /// `+N` names the directory stack, and a jump command named cd keeps zsh's `cd OLD
    /// NEW` (OLD replaced by NEW in the current directory) when OLD is in it.
    static func zshJump(_ name: String) -> String {
        posixJump(
            name,
            helpers: #"""
                # Whether cd takes $1 for a directory: a path, or a folder cd finds (tried in a
                # subshell, so that CDPATH counts as cd counts it).
                __wayfind_is_directory() {
                    [[ $1 == (/|./|../|\~)* || $1 == (.|..) ]] || (builtin cd -q -- "$1") >/dev/null 2>&1
                }

                # Whether no program is named $1, which a jump command of that name would hide.
                __wayfind_free() {
                    local found
                    found=$(builtin whence -p -- "$1") || return 0
                    builtin print -ru2 -- "\#(hidesProgram)"
                    return 1
                }
                """#, stack: "(-|+[0-9]*)", nested: "${#funcstack[@]} > 1", substitution: name == LearnedCommand.directories)
    }

    /// NAME and NAMEi for bash and zsh, with the shell's `helpers`, the pattern of its
    /// directory-stack arguments (`-`, zsh's `+N`), its test of being called from a
    /// function or a script (`nested`), and whether two arguments may be zsh's `cd OLD
    /// NEW`. cd's options before the arguments (`-P`, `--`; an alias
    /// `cd='cd -P'`) are kept for the cd that follows. fzf runs its reload command with
    /// $SHELL: sh here.
    private static func posixJump(_ name: String, helpers: String, stack: String, nested: String, substitution: Bool)
        -> String
    {
        let free = { (name: String) in name == LearnedCommand.directories ? "true" : "__wayfind_free \(name)" }
        let substitute = #"""

                    if (($# == 2)) && [[ $PWD == *"$1"* ]]; then
                        builtin cd "${cdflags[@]}" $dashdash "$@"
                        return
                    fi
            """#
        return helpers + "\n\n" + #"""
            # \#(name) [QUERY...]: as cd for a directory, an option of cd's or nothing (home);
            # otherwise to the best learned directory that QUERY matches.
            if \#(free(name)); then
                function \#(name) {
                    local place dashdash=''
                    local -a cdflags=()
                    while (($#)) && [[ $1 == -[!-]* ]]; do
                        cdflags+=("$1")
                        shift
                    done
                    if [[ ${1-} == -- ]]; then
                        dashdash=--
                        shift
                    fi
                    # From a function or a script, cd alone: code that expects cd to fail on a
                    # folder that is not there still sees it fail.
                    if (($# == 0 || \#(nested))) || { (($# == 1)) && { [[ -z $dashdash && $1 == \#(stack) ]] || __wayfind_is_directory "$1"; }; }; then
                        builtin cd "${cdflags[@]}" $dashdash "$@"
                        return
                    fi\#(substitution ? substitute : "")
                    if [[ $* == *[![:punct:][:space:]]* ]]; then
                        while IFS= builtin read -r -d '' place; do
                            if [[ -d $place && $place != "$PWD" ]]; then
                                builtin cd "${cdflags[@]}" -- "$place"
                                return
                            fi
                        done < <(builtin command routegraph-suggest --learned cd --include-from -z --limit 0 -- "$@" 2>/dev/null)
                    fi
                    if (($# == 1)); then
                        builtin printf '%s\n' "\#(name): no directory '$1' here, and no learned directory matches it" >&2
                    else
                        builtin printf '%s\n' "\#(name): no learned directory matches '$*'" >&2
                    fi
                    return 1
                }
                __wayfind_adopt \#(name) '1 -' cd
            fi

            # \#(name)i [QUERY...]: pick a learned directory with fzf, filtered as QUERY is.
            if \#(free(name + "i")); then
                function \#(name)i {
                    local place
                    if ! builtin command -v fzf >/dev/null; then
                        builtin printf '%s\n' "\#(name)i: fzf is not installed (\#(name) QUERY jumps without it)" >&2
                        return 2
                    fi
                    place=$(builtin command routegraph-suggest --learned cd --include-from --limit 0 -- "$@" 2>/dev/null |
                        SHELL=/bin/sh builtin command fzf --disabled --query "$*" --bind "change:reload:routegraph-suggest --learned cd --include-from --limit 0 -- {q} || true") &&
                        [[ -n $place ]] && builtin cd -- "$place"
                }
            fi

            """#
    }

    /// NAME and NAMEi for fish, which change directories through a copy of fish's cd
    /// function (NAME may replace cd; the copy keeps `cd -`, prevd and nextd working).
    static func fishJump(_ name: String) -> String {
        let free = { (name: String) in name == LearnedCommand.directories ? "true" : "__wayfind_free \(name)" }
        return #"""
            if not functions -q __wayfind_cd
                test -r $__fish_data_dir/functions/cd.fish
                and string replace -r -- '^function cd\b' 'function __wayfind_cd' <$__fish_data_dir/functions/cd.fish | source
                functions -q __wayfind_cd; or function __wayfind_cd; builtin cd $argv; end
            end

            # Whether cd takes $argv[1] for a directory: a path, or a folder here or in CDPATH.
            function __wayfind_is_directory
                string match -q -r -- '^(/|\./|\.\./|~|\.\.?$)' "$argv[1]"; and return 0
                test -n "$argv[1]"; or return 1
                for folder in . $CDPATH
                    test -d "$folder/$argv[1]"; and return 0
                end
                return 1
            end

            # Whether no program is named $argv[1], which a jump command of that name would hide.
            function __wayfind_free
                set -l found (command -s -- $argv[1]); or return 0
                echo "\#(fishHidesProgram)" >&2
                return 1
            end

            # \#(name) [QUERY...]: as cd for a directory, an option of cd's or nothing (home);
            # otherwise to the best learned directory that QUERY matches.
            if \#(free(name))
                function \#(name)\#(name == LearnedCommand.directories ? "" : " --wraps cd")
                    # From a function or a script, cd alone: code that expects cd to fail on a
                    # folder that is not there still sees it fail.
                    set -l frames (status stack-trace | string match -r -- '^(?:in function|from sourcing)')
                    if not set -q argv[1]; or set -q frames[2]; or string match -q -- '-*' $argv[1]; or begin
                            not set -q argv[2]; and __wayfind_is_directory $argv[1]
                        end
                        __wayfind_cd $argv
                        return
                    end
                    if string match -q -r -- '[^[:punct:][:space:]]' "$argv"
                        for place in (command routegraph-suggest --learned cd --include-from -z --limit 0 -- $argv 2>/dev/null | string split0)
                            if test -d "$place"; and test "$place" != "$PWD"
                                __wayfind_cd $place
                                return
                            end
                        end
                    end
                    if not set -q argv[2]
                        echo "\#(name): no directory '$argv[1]' here, and no learned directory matches it" >&2
                    else
                        echo "\#(name): no learned directory matches '$argv'" >&2
                    end
                    return 1
                end
                __wayfind_learn \#(name) '1 -' cd
                complete -c \#(name) -n __wayfind_at_place -k -a '(__wayfind_places)'
            end

            # \#(name)i [QUERY...]: pick a learned directory with fzf, filtered as QUERY is.
            if \#(free(name + "i"))
                function \#(name)i
                    if not command -q fzf
                        echo "\#(name)i: fzf is not installed (\#(name) QUERY jumps without it)" >&2
                        return 2
                    end
                    set -l place (command routegraph-suggest --learned cd --include-from --limit 0 -- $argv 2>/dev/null |
                        SHELL=/bin/sh command fzf --disabled --query "$argv" --bind "change:reload:routegraph-suggest --learned cd --include-from --limit 0 -- {q} || true")
                    and test -n "$place"; and __wayfind_cd $place
                end
            end

            """#
    }
}
