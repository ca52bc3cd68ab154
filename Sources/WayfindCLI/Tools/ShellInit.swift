import WayfindCore

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
///   in the background, in a route graph of CMD's own (`routegraph-visit --learned CMD`:
///   `${XDG_STATE_HOME:-$HOME/.local/state}/wayfind/learn/CMD.json`), through a shell
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
/// completion function visits), and `cd <Tab>` adds the recorded directories that
/// exist, ending with /, but for the current one and those cd's completion lists by their
/// name from here. Of the others it forgets only those that are gone (their parent is
/// there and lists something), not those out of sight (an unmounted disk, a network
/// mount out of reach). `--jump NAME` adds the jump
/// commands (ShellInit+Jump.swift). zsh's set-up read before compinit says so.
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
        !name.isEmpty
            && name.utf8.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                    || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "+")
            } && name.first != "-" && !reservedNames.contains(name)
    }

    /// The builtins and keywords of bash 5, zsh 5 and fish 3 (`compgen -b -k`, zsh's
    /// `$builtins` and `$reswords`, `builtin -n`) that a command name can spell: a jump
    /// command of one of these names would take it from the shell (`echo`, `pwd`,
    /// `source`). cd is the one a jump command is made to replace.
    static let shellBuiltins: Set<String> = [
        "alias", "autoload", "bg", "bind", "bindkey", "break", "builtin", "bye", "caller", "case", "chdir", "command",
        "compadd", "comparguments", "compcall", "compctl", "compdescribe", "compfiles", "compgen", "compgroups", "complete",
        "compopt", "compquote", "compset", "comptags", "comptry", "compvalues", "continue", "coproc", "declare", "dirs",
        "disable", "disown", "do", "done", "echo", "echotc", "echoti", "elif", "else", "emulate", "enable", "esac", "eval",
        "exec", "exit", "export", "false", "fc", "fg", "fi", "float", "for", "foreach", "function", "functions", "getln",
        "getopts", "hash", "help", "history", "if", "in", "integer", "jobs", "kill", "let", "limit", "local", "log",
        "logout", "mapfile", "nocorrect", "noglob", "popd", "print", "printf", "private", "pushd", "pushln", "pwd", "r",
        "read", "readarray", "readonly", "rehash", "repeat", "return", "sched", "select", "set", "setopt", "shift", "shopt",
        "source", "suspend", "test", "then", "time", "times", "trap", "true", "ttyctl", "type", "typeset", "ulimit", "umask",
        "unalias", "unfunction", "unhash", "unlimit", "unset", "unsetopt", "until", "vared", "wait", "whence", "where",
        "which", "while", "zcompile", "zformat", "zle", "zmodload", "zparseopts", "zregexparse", "zstyle",
        // fish's
        "abbr", "and", "argparse", "begin", "block", "breakpoint", "commandline", "contains", "count", "emit", "end",
        "math", "not", "or", "path", "random", "realpath", "status", "string", "switch",
    ]

    /// Whether `name` can be the jump command (and `name`i its fzf picker): a name that
    /// can be learned and is no shell's keyword or builtin, but cd.
    static func isJumpName(_ name: String) -> Bool {
        isLearnable(name) && (name == LearnedCommand.directories || !shellBuiltins.contains(name))
            && !shellBuiltins.contains(name + "i") && isLearnable(name + "i")
    }

    /// The set-up script for `shell`, learning `commands`, with the jump commands `jump`
    /// and `jump`i when it is given (they need cd learned, so it is).
    static func script(_ shell: Shell, learning commands: [LearnedCommand], jump: String? = nil) throws(UsageError) -> String {
        var seen = Set<String>()
        var commands = Array(commands.reversed().filter { seen.insert($0.name).inserted }.reversed())
        if let jump, jump != LearnedCommand.directories, seen.contains(jump) {
            throw UsageError("--jump \(jump) and --learn \(jump) would be two functions of one name")
        }
        if jump != nil && !seen.contains(LearnedCommand.directories) { commands.append(LearnedCommand("cd")!) }
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
            if let jump { perCommand += bashJump(jump) }
        case .zsh:
            common = ShellQuoting.zsh + "\n" + zshCommon
            for command in commands { perCommand += zsh(command) }
            if let jump { perCommand += zshJump(jump) }
            if !commands.isEmpty { perCommand += zshAfterCompinit }
        case .fish:
            common = ShellQuoting.fish + "\n" + fishCommon
            for command in commands { perCommand += fish(command) }
            if let jump { perCommand += fishJump(jump) }
        }
        return header + "\n" + common + "\n" + perCommand
    }
}

extension ShellInit {
    /// The SHELL SET-UP section of routegraph-suggest's man page.
    static let manSection = ManSection(
        "SHELL SET-UP",
        """
        One line in the shell's start-up file, after bash-completion or compinit, \
        records the places of the commands you name and adds them to their \
        completion:

          eval "$(routegraph-suggest --generate=init-bash --learn cd --learn ssh --learn trip)"   # ~/.bashrc
          eval "$(routegraph-suggest --generate=init-zsh --learn cd --learn ssh)"                 # ~/.zshrc, after compinit
          routegraph-suggest --generate=init-fish --learn cd --learn ssh | source                 # config.fish

        In zsh, a set-up line before compinit finds no completion to add to, and \
        says so in one line when the shell starts: move it after compinit.

        What is added. For each learned command CMD but cd, a shell function CMD \
        (defined with the function keyword, so that an alias CMD cannot reach its \
        definition) that runs what CMD was before (a function of yours, kept as \
        __wayfind_original_CMD, else the command CMD), then, if it exited with 0, \
        records CMD's place argument as a visit, in the background (the command \
        never waits for the graph's lock, and no finished recording is left for \
        the shell to reap), in a graph of CMD's own, which \
        --learned CMD names to both tools: \
        ${XDG_STATE_HOME:-$HOME/.local/state}/wayfind/learn/CMD.json, so ssh hosts \
        and trip stops do not mix. The place argument is, for ssh and mosh, the \
        host: the first argument that is not an option, skipping option values \
        (ssh -p 2200 beta-box uptime records beta-box); for scp, the host of its \
        first remote operand (scp -P 2200 notes root@gamma:/tmp records \
        root@gamma, and scp's completion is left alone); for cd, its first; for \
        --learn CMD:N, the Nth argument that is not an option; otherwise the last \
        argument that does not start with '-'. Then, when the word at the cursor is \
        CMD's place and does not look like a path (., .., or starting with /, ./, \
        ../ or ~), Tab adds the learned places to what CMD's completion offers (in \
        bash before them): what usually comes next, then the others by frecency, \
        the last place included, narrowed by the word typed as QUERY is ('trip sao' \
        Tab gives São Paulo). In zsh and fish, places that share less than what was \
        typed leave the word as typed (readline, in bash, puts in what they share).

        What is left alone. The completion CMD had still runs and its candidates \
        are still offered: bash-completion's _ssh and _cd in bash (or the files \
        bash offers without a completion), _ssh, _cd and _default in zsh, fish's \
        own completions. What it would put in the word by itself (its one \
        candidate, or a longer beginning its candidates share: cd al Tab gives \
        alpha/ when a folder alpha is here) Tab still puts there, alone: the \
        places are added only when it would put nothing. A word that looks like a \
        path is completed by it alone. bash's set -u and completion-ignore-case, \
        and zsh's shwordsplit, ksharrays, nounset and matcher-list, do not change \
        what the set-up does.

        Names come back quoted for where the cursor is (bare, in single or in \
        double quotes, or in bash's and zsh's $'...'), so that the command gets \
        them byte for byte: with history expansion on, '!' is never left where it \
        would expand, control characters are written as $'\\ooo', and a name can \
        never run code or change, in any locale. In Big5, GBK, GB18030 and \
        Shift-JIS a character can end with the byte of a backslash, and bash then \
        reads a byte and the backslash after it as one character: there bash's \
        set-up reads the line by the locale's characters, and writes a byte of \
        0x80 or more that would come right before a backslash as $'\\ooo' too.

        --learn cd learns directories, as zoxide does: no function; the directory \
        is recorded when the prompt comes back in a directory other than the last \
        one recorded (so not the one a new shell starts in, nor those a \
        completion function visits), and 'cd' Tab adds the recorded directories \
        that exist, each ending with /, but for the current directory and those \
        that cd's own completion lists by their name from here: each folder is \
        listed once. A recorded directory that is not there is not offered, and \
        is forgotten only when it is gone: when its parent is there and lists \
        something. A disk unmounted takes its mount point away or leaves it \
        empty, and a network mount out of reach cannot be listed, so their \
        directories are kept for when they are back (forget one with \
        routegraph-visit --learned cd --forget DIR). \
        Directories are recorded as the graph keeps names: folded for matching, so \
        /x/Dir and /x/dir are one place.

        Reading the start-up file twice installs each hook and function once, and \
        says nothing, also with an alias of a learned command defined again before \
        it. The set-up refuses to learn the builtins and keywords its own functions \
        call, and calls printf and read as builtins.

        The jump command. With --jump NAME (none by default; z and zi are zoxide's, \
        cd is zoxide's --cmd cd), the set-up learns cd and defines NAME and NAMEi. \
        NAME does what cd does with what cd takes for a directory, so that it is \
        safe under any name: with no argument it goes home; cd's options before the \
        arguments (-P, --, an alias cd='cd -P') are kept for the cd that follows; \
        one argument that is -, a path (., .., or one starting with /, ./, ../ or \
        ~) or a folder cd finds (here or in CDPATH) is cd's, as are zsh's +N and -N \
        and, for a NAME of cd in zsh, cd OLD NEW when OLD is in the current \
        directory. Called from a function or a script, NAME is cd alone, so that \
        code that expects cd to fail on a missing folder still sees it fail. \
        Anything else, at the prompt, is a QUERY: NAME changes to the first \
        learned directory that still exists, is not the current one and matches \
        QUERY as routegraph-suggest's QUERY does, in its order (what usually comes \
        next from here first); a QUERY without a word (...) matches none. When \
        nothing fits it says so in one line, with status 1. cd's builtin (in fish, \
        a copy of fish's cd function, which keeps cd - and prevd working) does the \
        changing, so NAME never calls itself. Tab after NAME completes as after \
        cd: the folders cd offers, and the learned directories. NAMEi [QUERY...] \
        picks one with fzf, whose list reloads through routegraph-suggest as the \
        query changes, and says so when fzf is not installed. --jump refuses the \
        keywords and builtins of bash, zsh and fish but cd (status 2); a NAME that \
        would hide a program on PATH (--jump ls) is not defined, and the set-up \
        says so in one line when the shell starts.

        The learned places, by hand. --learned CMD names CMD's graph to both tools; \
        with --learned cd, a relative directory is taken from the current one, as \
        cd takes it, and one that does not exist is refused:

          routegraph-suggest --learned cd --include-from -n0       # list them, best first
          routegraph-visit --learned cd ~/src/wayfind               # add one
          routegraph-visit --learned cd --forget ~/old/project      # remove one
          routegraph-suggest --learned cd --include-from -n0 |
            fzf --disabled --bind 'change:reload:routegraph-suggest --learned cd --include-from -n0 -- {q} || true'

        In fish, which keeps only the completions that contain what was typed and \
        does not ignore accents, Tab first replaces the typed word with the one \
        place that matches, or the beginning several share when it is at least as \
        long as the word ('sao' becomes 'São Paulo'), then completes; only when \
        fish's own completion offers nothing for the word.

        To turn it off, delete the line and start a new shell:

          sed -i '/routegraph-suggest --generate=init-bash/d' ~/.bashrc
          sed -i '/routegraph-suggest --generate=init-zsh/d' ~/.zshrc
          sed -i '/routegraph-suggest --generate=init-fish/d' ~/.config/fish/config.fish

        The learned graphs stay in ${XDG_STATE_HOME:-$HOME/.local/state}/wayfind/learn \
        until you delete them.
        """)
}
