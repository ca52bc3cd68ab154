/// Why a route graph file could not be read or saved. Whatever the case, the file on
/// disk was left as it was.
public enum GraphFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Reading, locking or saving failed in the file system.
    case fileSystem(FileSystemError)
    /// The file is not a valid graph (corrupt or truncated): where and what is wrong.
    case corrupt(path: String, error: JSONError)
    /// The file was written by a newer program.
    case unsupportedVersion(path: String, found: Int64, supported: Int)

    /// A lowercase message naming the file, the problem and the way out.
    public var description: String {
        switch self {
        case .fileSystem(let error):
            "\(error)"
        case .corrupt(let path, let error):
            "\(path): not a valid route graph: \(error); the file was left unchanged "
                + "(to recover, restore the previous copy from \(path).bak, or move \(path) away to start a new graph)"
        case .unsupportedVersion(let path, let found, let supported):
            "\(path): format version \(found) is newer than this program supports (\(supported)); "
                + "upgrade wayfind to use it (the file was left unchanged)"
        }
    }
}
