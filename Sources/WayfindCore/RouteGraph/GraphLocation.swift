/// Where the route graph file is: the rule both routegraph tools share.
///
///     --graph FILE                       if given
///     $ROUTEGRAPH_FILE                   if set and not empty
///     $XDG_STATE_HOME/wayfind/routegraph.json          if XDG_STATE_HOME is absolute
///     $HOME/.local/state/wayfind/routegraph.json       otherwise
///
/// A relative `XDG_STATE_HOME` is ignored, as the XDG Base Directory specification says.
/// Missing directories are created with mode 0700 when the graph is first saved.
package enum GraphLocation {
    /// The file name under the state directory.
    package static let relativePath = "wayfind/routegraph.json"

    /// The graph file's path for an explicit `--graph` value (or nil) and an environment.
    package static func path(explicit: String?, environment: Environment) throws(ToolError) -> String {
        if let explicit { return explicit }
        func variable(_ name: String) throws(ToolError) -> String? {
            guard let value = environment[name] else { return nil }
            guard environment.isValidUTF8(name) else {
                throw ToolError("$\(name) is not valid UTF-8 (use --graph FILE)")
            }
            return value
        }
        if let file = try variable("ROUTEGRAPH_FILE"), !file.isEmpty { return file }
        if let state = try variable("XDG_STATE_HOME"), state.hasPrefix("/") {
            return state + "/" + relativePath
        }
        if let home = try variable("HOME"), !home.isEmpty {
            return (home.hasSuffix("/") ? home : home + "/") + ".local/state/" + relativePath
        }
        throw ToolError("cannot tell where the route graph is: HOME is not set (set ROUTEGRAPH_FILE or use --graph FILE)")
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

    /// The FILES and ENVIRONMENT man page sections both tools share.
    package static let manSections: [ManSection] = [
        ManSection(
            "FILES",
            """
            The route graph is a JSON file, described in routegraph(5). Its place is the first of: \
            the --graph option; $ROUTEGRAPH_FILE; $XDG_STATE_HOME/wayfind/routegraph.json when \
            XDG_STATE_HOME is an absolute path; $HOME/.local/state/wayfind/routegraph.json. Missing \
            directories are created with mode 0700 and a new file with mode 0600. Next to it live \
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

            XDG_STATE_HOME, HOME: where the graph file is by default.
            """),
    ]
}
