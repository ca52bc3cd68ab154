/// The multi-call binary `make install` installs: one file holding every tool, and a link
/// named after each tool to it, so that the Swift runtime (about 8 MB of a static
/// binary) and the embedded gazetteer are stored once, not five and two times.
///
///     smartgrep → wayfind        runs smartgrep (the name it was called by)
///     wayfind smartgrep ARGS     runs smartgrep too
package enum MultiCall {
    /// A tool of the binary.
    package struct Tool: Sendable {
        /// Its name: the link's and the binary's.
        package let name: String
        /// Whether it reads the embedded gazetteer (the caller installs it first).
        package let usesGazetteer: Bool
        /// Its entry point.
        package let run: @Sendable ([String], ToolContext) -> ExitStatus
    }

    /// The binary's own name.
    package static let name = "wayfind"

    /// Every tool, in the order the usage names them.
    package static let tools: [Tool] = [
        Tool(name: "smartgrep", usesGazetteer: false, run: { Smartgrep.run($0, context: $1) }),
        Tool(name: "routegraph-visit", usesGazetteer: false, run: { RouteGraphVisit.run($0, context: $1) }),
        Tool(name: "routegraph-suggest", usesGazetteer: false, run: { RouteGraphSuggest.run($0, context: $1) }),
        Tool(name: "magickey-suggest", usesGazetteer: true, run: { MagickeySuggest.run($0, context: $1) }),
        Tool(name: "magickey-find", usesGazetteer: true, run: { MagickeyFind.run($0, context: $1) }),
    ]

    /// The tool `argv` asks for, and its arguments: the one named by the file name of
    /// `argv[0]`, else (called as `wayfind`) the one named by `argv[1]`; nil for neither.
    package static func resolve(_ argv: [String]) -> (tool: Tool, arguments: [String])? {
        let called = argv.first.map { String($0.split(separator: "/", omittingEmptySubsequences: false).last ?? "") } ?? ""
        if let tool = tools.first(where: { $0.name == called }) { return (tool, Array(argv.dropFirst())) }
        if argv.count > 1, let tool = tools.first(where: { $0.name == argv[1] }) { return (tool, Array(argv.dropFirst(2))) }
        return nil
    }

    /// What `wayfind` alone, or with an unknown tool, prints on standard error (exit 2).
    package static var usage: String {
        "usage: \(name) TOOL [ARGUMENTS...], or run it through a link named after TOOL\n"
            + "tools: \(tools.map(\.name).joined(separator: ", "))\n"
    }
}
