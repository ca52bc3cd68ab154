import Foundation

/// A fresh folder for one test's route graph files, `graph.json` in it, removed by
/// `cleanUp()`; the graph is read back through Foundation (a second opinion on what the
/// tools wrote).
public struct GraphScratch: Sendable {
    public let directory: ScratchDirectory
    public var url: URL { directory.url }
    public var path: String { directory.path }
    /// The graph file's path (nothing is created).
    public var graph: String { directory.file("graph.json") }

    public init() throws { directory = try ScratchDirectory() }

    public func cleanUp() { directory.remove() }

    /// The bytes of `file` (the graph by default), or nil if there is no such file.
    public func bytes(_ file: String? = nil) -> Data? { FileManager.default.contents(atPath: file ?? graph) }

    /// Writes `text` to `file` (the graph by default).
    public func write(_ text: String, to file: String? = nil) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file ?? graph))
    }

    /// The graph file, parsed by Foundation's JSONSerialization.
    public func parsed() throws -> [String: Any] {
        guard let data = bytes() else { throw Failure("no graph file at \(graph)") }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure("the graph file is not a JSON object")
        }
        return object
    }

    /// The sum of the weights of all edges.
    public func totalWeight() throws -> Int {
        guard let edges = try parsed()["edges"] as? [[String: Any]] else { throw Failure("no edges array") }
        return edges.reduce(0) { $0 + ($1["weight"] as? Int ?? 0) }
    }

    /// The visits recorded for `place`, or nil if it has no record.
    public func visits(of place: String) throws -> Int? {
        guard let places = try parsed()["places"] as? [[String: Any]] else { throw Failure("no places array") }
        return places.first { $0["name"] as? String == place }?["visits"] as? Int
    }

    /// A graph file that is not what a test expects.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}

/// The permission bits of the file at `path` (following links).
public func fileMode(atPath path: String) -> mode_t {
    var info = stat()
    stat(path, &info)
    return info.st_mode & 0o7777
}
