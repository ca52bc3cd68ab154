import WayfindCore

/// The fish set-up (see `ShellInit`).
extension ShellInit {
    static let fishCommon = #"""
        # The learned commands, and for each its place rule and whose graph it uses (a jump
        # command uses cd's).
        set -g __wayfind_learned
        set -g __wayfind_rules
        set -g __wayfind_graphs

        # Learns the command $argv[1], whose place rule is $argv[2], in the graph $argv[3].
        function __wayfind_learn
            contains -- $argv[1] $__wayfind_learned; or set -a __wayfind_learned $argv[1]
            set -l i (contains -i -- $argv[1] $__wayfind_learned)
            set __wayfind_rules[$i] $argv[2]
            set __wayfind_graphs[$i] $argv[3]
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
            __wayfind_visit --learned $argv[1] --lock-timeout 10 -- $place
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
            set -l i (contains -i -- $tokens[1] $__wayfind_learned); or return
            test "$__wayfind_graphs[$i]" = cd; and set -g __wayfind_dirs 1
            __wayfind_complete_places --learned $__wayfind_graphs[$i]
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
            __wayfind_learn \#(name) '\#(command.rule)' \#(name)

            """#
        if name == "cd" {
            script += #"""
                # At the prompt, not on every change of PWD: completions change it too.
                set -q __wayfind_cd_last; or set -g __wayfind_cd_last $PWD
                function __wayfind_cd_hook --on-event fish_prompt
                    test "$PWD" = "$__wayfind_cd_last"; and return
                    set -g __wayfind_cd_last $PWD
                    __wayfind_visit --learned cd --lock-timeout 10 -- $PWD
                end
                complete -c cd -n __wayfind_at_place -k -a '(__wayfind_places)'

                """#
        } else {
            script += #"""
                # (Read again, with an alias of the user's defined again before it: the copy is
                # replaced, which functions -c does not do by itself.)
                if functions -q \#(name); and not functions \#(name) | string match -q '*__wayfind_record*'
                    functions -e __wayfind_original_\#(name)
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
