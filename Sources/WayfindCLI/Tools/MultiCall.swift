import WayfindCore

/// The multi-call binary `make install` installs: one file holding every tool, and a link
/// named after each tool to it, so that the Swift runtime (about 8 MB of a static
/// binary) and the embedded gazetteer are stored once, not five and two times.
///
///     smartgrep → wayfind        runs smartgrep (the name it was called by)
///     wayfind smartgrep ARGS     runs smartgrep too
///     wayfind --help             wayfind's own flags: the tools, the cache
package enum MultiCall {
    /// A tool of the binary.
    package struct Tool: Sendable {
        /// Its name: the link's and the binary's.
        package let name: String
        /// Its flag table and texts (made when asked for: a tool's run makes only its own).
        package var spec: ToolSpec { makeSpec() }
        private let makeSpec: @Sendable () -> ToolSpec
        /// Whether it reads the embedded gazetteer (the caller installs it first).
        package let usesGazetteer: Bool
        /// Its entry point.
        package let run: @Sendable ([String], ToolContext) -> ExitStatus

        init(
            _ name: String, spec: @escaping @Sendable @autoclosure () -> ToolSpec, usesGazetteer: Bool = false,
            run: @escaping @Sendable ([String], ToolContext) -> ExitStatus
        ) {
            (self.name, makeSpec, self.usesGazetteer, self.run) = (name, spec, usesGazetteer, run)
        }
    }

    /// The binary's own name.
    package static let name = "wayfind"

    /// Every tool, in the order the usage names them.
    package static let tools: [Tool] = [
        Tool("smartgrep", spec: Smartgrep.spec) { Smartgrep.run($0, context: $1) },
        Tool("routegraph-visit", spec: RouteGraphVisit.spec) { RouteGraphVisit.run($0, context: $1) },
        Tool("routegraph-suggest", spec: RouteGraphSuggest.spec) { RouteGraphSuggest.run($0, context: $1) },
        Tool("magickey-suggest", spec: MagickeySuggest.spec, usesGazetteer: true) { MagickeySuggest.run($0, context: $1) },
        Tool("magickey-find", spec: MagickeyFind.spec, usesGazetteer: true) { MagickeyFind.run($0, context: $1) },
        // Only in the multi-call binary: a web server runs it through its link.
        Tool("magickey-cgi", spec: MagickeyCGI.spec, usesGazetteer: true) { MagickeyCGI.run($0, context: $1) },
    ]

    /// The tool `argv` asks for, and its arguments: the one named by the file name of
    /// `argv[0]`, else (called as `wayfind`) the one named by `argv[1]`; nil for neither.
    package static func resolve(_ argv: [String]) -> (tool: Tool, arguments: [String])? {
        let called = argv.first.map { String($0.split(separator: "/", omittingEmptySubsequences: false).last ?? "") } ?? ""
        if let tool = tool(named: called) { return (tool, Array(argv.dropFirst())) }
        if argv.count > 1, let tool = tool(named: argv[1]) { return (tool, Array(argv.dropFirst(2))) }
        return nil
    }

    /// The tool named `name`, or nil.
    package static func tool(named name: String) -> Tool? { tools.first { $0.name == name } }

    static let listTools = Flag("list-tools", help: "print the name of each tool, one a line")
    static let listCache = Flag(
        "list-cache", help: "print the files of wayfind's cache: name, size, use, state and source",
        manHelp:
            "Print wayfind's files in the cache folder (see FILES), one a line, tab-separated: path, size in bytes, what it is, its state (in use, or why it no longer serves, which the next index written prunes) and the file it was made from. Exit status 1 when there is none."
    )
    static let clearCache = Flag(
        "clear-cache", help: "remove wayfind's files from the cache folder",
        manHelp:
            "Remove wayfind's files from the cache folder (see FILES), and print how many and how large they were. Indexes are made again when next needed. Other files in the folder are left alone."
    )

    /// wayfind's own flag table: what it does when no tool is named.
    package static let spec = ToolSpec(
        name: name,
        summary: "small Unix tools that find the place, name or stop you want next",
        usage: ["TOOL [ARGUMENTS...]", "--list-tools | --list-cache | --clear-cache"],
        description: """
            Run TOOL with ARGUMENTS. wayfind holds every tool in one binary, installed \
            with a link named after each tool to it: called through a link, it is that \
            tool, as if it had been run by its own name. The tools:
            """ + " " + tools.map(\.name).joined(separator: ", ") + ".",
        flags: [listTools.spec, listCache.spec, clearCache.spec, StandardFlags.help(), StandardFlags.version, StandardFlags.generate],
        positionalCompletion: .choices(tools.map(\.name)),
        manSections: [
            ManSection("TOOLS", tools.map { "\($0.name)(1): \($0.spec.summary)." }.joined(separator: "\n\n")),
            ManSection(
                "FILES",
                """
                ${XDG_CACHE_HOME:-$HOME/.cache}/wayfind/: indexes of the gazetteers given \
                to magickey-suggest(1) and magickey-find(1) with --places (places-*.index, one \
                per file in use; see GAZETTEER there). Writing an index removes the indexes \
                of files that are gone or changed, and what interrupted saves left; \
                --clear-cache removes them all.
                """),
            ManSection(
                "EXIT STATUS",
                "0 on success, 1 when --list-cache finds nothing, 2 on an error (an unknown TOOL, with the closest name when there is one)."),
            ManSection(
                "EXAMPLES",
                """
                The same as running smartgrep:

                  wayfind smartgrep 'x bin' sf-symbols.txt

                What the cache holds, and emptying it:

                  wayfind --list-cache
                  wayfind --clear-cache
                """),
            ManSection("SEE ALSO", tools.map { "\($0.name)(1)" }.joined(separator: ", ") + ", routegraph(5)"),
        ]
    )

    /// Runs wayfind itself (called as `wayfind` with no tool's name first): its flags, or
    /// an error naming the tool it did not find.
    package static func run(_ arguments: [String], context: ToolContext) -> ExitStatus {
        runTool(spec, arguments: arguments, context: context) { parsed, output, errors in
            if let word = parsed.positionals.first {
                throw UsageError("unknown tool \(MessageValue.quoted(word))" + Spelling.hint(for: word, in: tools.map(\.name)))
            }
            if try parsed.value(of: listTools) {
                for tool in tools { output.write(tool.name + "\n") }
                return .success
            }
            let list = try parsed.value(of: listCache)
            let clear = try parsed.value(of: clearCache)
            guard list || clear else {
                throw UsageError("no TOOL given (one of \(tools.map(\.name).joined(separator: ", ")))")
            }
            guard let folder = context.environment.cacheDirectory else {
                throw ToolError("there is no cache folder (neither XDG_CACHE_HOME nor HOME is set)")
            }
            if clear {
                let entries = PlacesIndexCache.entries(in: folder)
                let removed = Set(PlacesIndexCache.clear(folder))
                let bytes = entries.filter { removed.contains($0.name) }.reduce(0) { $0 + $1.size }
                output.write("removed \(removed.count) file\(removed.count == 1 ? "" : "s") (\(megabytes(bytes))) from \(folder)\n")
                return .success
            }
            let entries = PlacesIndexCache.entries(in: folder)
            for entry in entries {
                let fields = [folder + "/" + entry.name, String(entry.size), entry.kind, entry.stale ?? "in use", entry.source ?? ""]
                output.write(fields.joined(separator: "\t") + "\n")
            }
            return entries.isEmpty ? .nothingFound : .success
        }
    }

    /// `12.3 MB`.
    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
