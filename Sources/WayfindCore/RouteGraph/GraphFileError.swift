/// Why a route graph file could not be read or saved (`GraphFile`). Whatever the case,
/// the file on disk was left as it was, and nothing was recorded.
public enum GraphFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Reading, locking or saving failed in the file system.
    case fileSystem(FileSystemError)
    /// The file looks like a route graph (a JSON object) but is not a valid one (corrupt
    /// or truncated): where and what is wrong, and whether a backup (`FILE.bak`) is
    /// there to restore.
    case corrupt(path: String, error: JSONError, hasBackup: Bool = false)
    /// The file is not a route graph at all (not a JSON object, or one without any of the
    /// graph's keys): probably the wrong file, someone else's.
    case notAGraph(path: String, reason: String)
    /// The file was written by a newer program.
    case unsupportedVersion(path: String, found: Int64, supported: Int)
    /// The folder of a graph that someone named (`--graph FILE`) does not exist, and only
    /// the folders of the default graphs are made.
    case missingFolder(path: String, folder: String)

    /// A lowercase message naming the file, the problem and the way out.
    public var description: String { description(notRecorded: "; nothing was recorded") }

    /// The message, saying what was not recorded as `notRecorded` does (a visit that saved
    /// earlier batches says from where on nothing was recorded).
    package func description(notRecorded: String) -> String {
        switch self {
        case .fileSystem(let error):
            "\(error)\(Self.hint(for: error, notRecorded: notRecorded))"
        case .corrupt(let path, let error, let hasBackup):
            "\(path): not a valid route graph: \(error); the file was left unchanged (to recover, "
                + (hasBackup ? "restore the previous copy from \(path).bak, or " : "")
                + "move \(path) away to start a new graph)"
        case .notAGraph(let path, let reason):
            "\(path): not a route graph (\(reason)); the file was left unchanged (name the graph with --graph FILE)"
        case .unsupportedVersion(let path, let found, let supported):
            "\(path): format version \(found) is newer than this program supports (\(supported)); "
                + "upgrade wayfind to use it (the file was left unchanged)"
        case .missingFolder(let path, let folder):
            "\(path): the folder \(folder) does not exist (make it first: only the default graphs' folders are made)"
        }
    }

    /// How to get past a file-system failure: what to check, or what to use instead.
    static func hint(for error: FileSystemError, notRecorded: String) -> String {
        switch error {
        case .notARegularFile:
            return " (move it away, or name another file with --graph FILE)"
        case .readOnly:
            return "\(notRecorded) (make it writable to record visits)"
        case .untrustedLink:
            return " (use --graph with a file in a directory of your own)"
        case .danglingLink:
            return " (create the file, or name another with --graph)"
        case .lockTimedOut(let path, _):
            return "\(notRecorded) (another process holds it: see fuser \(path))"
        case .changedWhileRead:
            return " (another program wrote into it meanwhile; try again)"
        case .cannotOpen, .cannotRead, .cannotLock:
            return error.isPermissionProblem ? " (check the permissions of the file and its folder, or use --graph FILE)" : ""
        case .cannotWrite, .cannotSync, .cannotRename, .cannotCreateDirectory:
            if error.isPermissionProblem { return " (check the permissions of the file's folder)" }
            if error.isOutOfSpace { return " (free some space on its disk)" }
            if error.isBeyondFileSizeLimit { return " (the file size limit, ulimit -f, is below the graph's size)" }
            return ""
        }
    }
}
