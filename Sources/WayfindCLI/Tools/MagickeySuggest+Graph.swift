import WayfindCore

/// magickey-suggest's `--graph`: the route graph whose predictions are blended with the
/// geocoder's matches, read so that a problem with it never silences the search box.
extension MagickeySuggest {
    /// The graph of `--graph FILE` for one run. A query on the command line reads the
    /// predictions from the file (a scan, cheaper than a load); queries on standard input
    /// load the graph once and again only when the file changed (its status moved), so a
    /// program keeping one process open gets the visits recorded meanwhile.
    ///
    /// A file that cannot be read (damaged, not a graph, a folder) is reported once per
    /// version of it, and the gazetteer's suggestions are printed without predictions:
    /// the exit status is then 2. A missing file is an empty graph, with a note (and the
    /// name of a file close to it) the first time it is found missing.
    final class GraphSource {
        let path: String
        let errors: ErrorReporter
        /// Set once a problem with the file was reported.
        private(set) var failed = false
        private var file: GraphFile? = nil
        private var graph = RouteGraph()
        /// The file's status when last read; `.some(nil)`: it was missing.
        private var readStatus: FileStatus?? = nil

        init(path: String, errors: ErrorReporter) {
            self.path = path
            self.errors = errors
        }

        /// The predictions for `request` filtered by `filter`, read as the class comment says.
        func predictions(for request: SuggestionRequest, filter: RouteGraph.NameFilter?, streaming: Bool) -> [RouteGraphSuggestion] {
            let status = FileStatus.of(path)
            guard status != nil else {
                if readStatus != .some(nil) { errors.report(Self.missingNote(path)) }
                readStatus = .some(nil)
                return []
            }
            if streaming && readStatus == .some(status) { return graph.suggestions(for: request, filter: filter.map(RouteGraph.stringFilter)) }
            readStatus = .some(status)
            do throws(GraphFileError) {
                let file: GraphFile
                if let known = self.file {
                    file = known
                } else {
                    file = try GraphFile(resolving: path)
                    self.file = file
                }
                guard streaming else { return try file.suggestions(for: request, matching: filter) }
                graph = try file.load()
                return graph.suggestions(for: request, filter: filter.map(RouteGraph.stringFilter))
            } catch {
                graph = RouteGraph()
                errors.report(error.description(notRecorded: "") + "; suggesting without it")
                failed = true
                return []
            }
        }

        /// `no route graph at FILE yet …`, naming a file of a close name in its folder.
        static func missingNote(_ path: String) -> String {
            let folder = FileSystem.directory(of: path)
            let name = FileSystem.name(of: path)
            let names = ((try? Platform.directoryEntries(folder)) ?? []).filter { $0.kind != .directory }.map(\.name)
            var note = "no route graph at \(MessageValue.quoted(path)) yet (magickey-find --graph records one)"
            if let close = Spelling.closest(to: name, in: names.filter { $0 != name }) {
                note += "; did you mean \(MessageValue.quoted(folder == "." && !path.hasPrefix("./") ? close : (folder == "/" ? "" : folder) + "/" + close))?"
            }
            return note
        }
    }
}
