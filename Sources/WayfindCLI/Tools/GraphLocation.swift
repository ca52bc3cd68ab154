import WayfindCore

/// Where the route graph file is: the rule both routegraph tools share.
///
///     --graph FILE                       if given
///     --learned CMD                      the shell set-up's graph of CMD: STATE/wayfind/learn/CMD.json
///     $ROUTEGRAPH_FILE                   if set and not empty
///     $XDG_STATE_HOME/wayfind/routegraph.json          if XDG_STATE_HOME is absolute
///     $HOME/.local/state/wayfind/routegraph.json       otherwise
///
/// A relative `XDG_STATE_HOME` is ignored, as the XDG Base Directory specification says.
/// Missing folders are made (mode 0700) when the graph is first saved only for the
/// default graph and the learned ones (STATE is the state folder of the last two lines):
/// a folder missing from a path someone named, with `--graph` or `$ROUTEGRAPH_FILE`, is
/// more likely a typo than a wish, and is an error.
package enum GraphLocation {
    /// The file name under the state directory.
    package static let relativePath = "wayfind/routegraph.json"
    /// The folder of the learned graphs under the state directory.
    package static let learnedFolder = "wayfind/learn"

    /// The graph file's path for an explicit `--graph` value (or nil), a `--learned`
    /// command (or nil) and an environment, and whether someone named it (then its
    /// missing folders are not made).
    package static func path(explicit: String?, learned: String? = nil, environment: Environment) throws(ToolError) -> (
        path: String, named: Bool
    ) {
        if let explicit { return (explicit, true) }
        if let learned { return (try learnedPath(learned, environment: environment), false) }
        if let file = try variable("ROUTEGRAPH_FILE", in: environment), !file.isEmpty { return (file, true) }
        return (try stateFolder(environment) + "/" + relativePath, false)
    }

    /// The graph of the learned command `command`.
    package static func learnedPath(_ command: String, environment: Environment) throws(ToolError) -> String {
        try stateFolder(environment) + "/" + learnedFolder + "/" + command + ".json"
    }

    /// The graph file a tool opens: at `path(explicit:learned:environment:)`, making
    /// missing folders only when no one named it; a named one whose folder is missing
    /// is refused at once, for reading too (a typo reads as an empty graph otherwise).
    package static func file(explicit: String?, learned: String?, environment: Environment) throws(ToolError) -> GraphFile {
        let (path, named) = try path(explicit: explicit, learned: learned, environment: environment)
        do {
            var file = try GraphFile(resolving: path)
            file.makesMissingFolders = !named
            if named { try file.checkFolder() }
            return file
        } catch {
            throw ToolError(error.description)
        }
    }

    /// `$XDG_STATE_HOME` when it is absolute, else `$HOME/.local/state`.
    static func stateFolder(_ environment: Environment) throws(ToolError) -> String {
        if let state = try variable("XDG_STATE_HOME", in: environment), state.hasPrefix("/") {
            return state.hasSuffix("/") && state.count > 1 ? String(state.dropLast()) : state
        }
        if let home = try variable("HOME", in: environment), !home.isEmpty {
            return (home.hasSuffix("/") ? home : home + "/") + ".local/state"
        }
        throw ToolError("cannot tell where the route graph is: HOME is not set (set ROUTEGRAPH_FILE or use --graph FILE)")
    }

    private static func variable(_ name: String, in environment: Environment) throws(ToolError) -> String? {
        guard let value = environment[name] else { return nil }
        guard environment.isValidUTF8(name) else {
            throw ToolError("$\(name) is not valid UTF-8 (use --graph FILE)")
        }
        return value
    }
}

extension GraphLocation {
    /// The `--graph FILE` flag both tools share.
    static let flag = Flag(
        "graph", value: "FILE", help: "the route graph file (default: see FILES)",
        manHelp:
            "Use FILE as the route graph. Without it, $ROUTEGRAPH_FILE, else ${XDG_STATE_HOME:-$HOME/.local/state}/wayfind/routegraph.json (see FILES).",
        completion: .file, expected: "a file name"
    ) { $0.isEmpty ? nil : $0 }

    /// The `--learned CMD` flag both tools share: the graph in which the shell set-up
    /// records the places of the learned command CMD (`--learned cd`: the directories).
    static let learnedFlag = Flag(
        "learned", value: "CMD", help: "use the graph of the shell set-up's learned command CMD",
        manHelp:
            "Use the graph in which the shell set-up (routegraph-suggest(1), SHELL SET-UP) records the places of the learned command CMD: ${XDG_STATE_HOME:-$HOME/.local/state}/wayfind/learn/CMD.json (see FILES). With --learned cd, the places are directories: a relative one is taken from the current directory ($PWD), and ., .. and a trailing / are resolved as cd resolves them.",
        expected: "the name of a command the shell set-up can learn"
    ) { ShellInit.isLearnable($0) ? $0 : nil }

    /// The FILES and ENVIRONMENT man page sections both tools share.
    package static let manSections: [ManSection] = [
        ManSection(
            "FILES",
            """
            The route graph is a JSON file, described in routegraph(5). Its place is the first of: \
            the --graph option; the --learned option, for \
            STATE/wayfind/learn/CMD.json; $ROUTEGRAPH_FILE; STATE/wayfind/routegraph.json, where \
            STATE is $XDG_STATE_HOME when it is an absolute path, else $HOME/.local/state. The \
            missing folders of STATE/wayfind/routegraph.json and STATE/wayfind/learn are made, with \
            mode 0700; a graph named by --graph or $ROUTEGRAPH_FILE in a folder that does not \
            exist is an error (status 2), and nothing is made. A new file gets mode 0600. Next to it live \
            FILE.lock (the lock every change takes), FILE.bak (the previous version, kept by \
            every save) and, until the next save, the version before it as FILE.bak. and twelve \
            random characters; a save writes a new file, FILE.tmp. and twelve random characters, and \
            renames it over FILE, so no file that was FILE is ever written again. \
            A symbolic link at FILE is followed, and stays a link, with two exceptions: a link that \
            another user owns, in a directory that others may write to or that is sticky (such as \
            /tmp), is not followed unless that user owns the directory too (the kernel's \
            protected_symlinks rule, which we apply because we resolve the link ourselves); and no \
            file is created through a link that points to nothing. Either is an error (status 2). \
            FILE must be a regular file: a directory, FIFO, device or pipe (such as /dev/stdin in a \
            pipeline) is refused before anything is opened, locked or created next to it. A JSON \
            object with none of the graph's keys (edges, lastVisitedLocation, places, version) is \
            someone else's file: refused, and left unchanged. A visit waits for another process's \
            lock on FILE.lock, says on standard error after a second which lock it waits for, and \
            gives up with status 2 after 30 seconds (routegraph-visit --lock-timeout). Reading takes \
            no lock on FILE.lock and does not wait for it, unless what it read is not a valid graph: \
            then it looks again under the lock, and reports 'changed while being read' for a file \
            another program wrote in place meanwhile, and damage only for a file still damaged.
            """),
        ManSection(
            "ENVIRONMENT",
            """
            ROUTEGRAPH_FILE: the graph file, when --graph is not given and it is not empty.

            XDG_STATE_HOME, HOME: where the graph file is by default, and the learned graphs.

            PWD: the current directory, from which routegraph-visit --learned cd takes a relative directory.
            """),
    ]
}
