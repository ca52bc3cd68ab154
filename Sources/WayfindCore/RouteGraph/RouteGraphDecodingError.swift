/// Why bytes could not be read as a route graph.
public enum RouteGraphDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not valid JSON, or not the graph's layout; with the position.
    case invalid(JSONError)
    /// The file was written by a newer program in a format this one does not know.
    case unsupportedVersion(found: Int64, supported: Int)
    /// A JSON object without any of the graph's keys: someone else's file.
    case notAGraph

    /// A lowercase message without the file name, which the caller adds.
    public var description: String {
        switch self {
        case .invalid(let error):
            "\(error)"
        case .unsupportedVersion(let found, let supported):
            "format version \(found) is newer than this program supports (\(supported)); upgrade wayfind to use this file"
        case .notAGraph:
            "a JSON object without edges, lastVisitedLocation, places or version"
        }
    }
}
