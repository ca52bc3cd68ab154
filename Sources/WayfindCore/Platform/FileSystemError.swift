/// A failed file operation: what was tried, on which path, and the system's reason.
///
/// Messages are lowercase and complete, ready for `tool: message` on stderr:
/// `cannot write /home/a/.local/state/wayfind/routegraph.json.tmp: file too large`.
public enum FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `open(2)` failed.
    case cannotOpen(path: String, errno: Int32)
    /// `read(2)` or `fstat(2)` failed.
    case cannotRead(path: String, errno: Int32)
    /// `write(2)` failed, or wrote nothing.
    case cannotWrite(path: String, errno: Int32)
    /// `fsync(2)` or `close(2)` failed, so the data may not be on disk.
    case cannotSync(path: String, errno: Int32)
    /// `flock(2)` failed.
    case cannotLock(path: String, errno: Int32)
    /// `rename(2)` failed.
    case cannotRename(from: String, to: String, errno: Int32)
    /// `mkdir(2)` failed.
    case cannotCreateDirectory(path: String, errno: Int32)
    /// The path exists but is a directory, device or other non-regular file.
    case notARegularFile(path: String)
    /// The file's owner took away its write permission.
    case readOnly(path: String)
    /// A symbolic link that another user owns, in a directory others can write to: not
    /// followed (see `FileSystem.mayFollowLink`).
    case untrustedLink(path: String, owner: UInt32)
    /// A symbolic link to nothing: no file is created through it.
    case danglingLink(path: String, target: String)
    /// Another process held the lock for the whole time allowed.
    case lockTimedOut(path: String, seconds: Int64)
    /// Another program rewrote the file in place while it was read (it shrank, or its
    /// size or times moved): what was read is not one version of it.
    case changedWhileRead(path: String)

    /// The errno value, if the failure came from a system call.
    package var errno: Int32? {
        switch self {
        case .cannotOpen(_, let code), .cannotRead(_, let code), .cannotWrite(_, let code),
            .cannotSync(_, let code), .cannotLock(_, let code), .cannotRename(_, _, let code),
            .cannotCreateDirectory(_, let code):
            code
        case .notARegularFile, .readOnly, .untrustedLink, .danglingLink, .lockTimedOut, .changedWhileRead: nil
        }
    }

    /// Whether the system refused for want of permission (or on a read-only file system).
    package var isPermissionProblem: Bool { errno.map { SystemError(code: $0).isPermissionProblem } ?? false }

    /// Whether the disk or the user's quota is full.
    package var isOutOfSpace: Bool { errno.map { SystemError(code: $0).isOutOfSpace } ?? false }

    /// Whether the file would grow past the size limit (`ulimit -f`).
    package var isBeyondFileSizeLimit: Bool { errno.map { SystemError(code: $0).isBeyondFileSizeLimit } ?? false }

    /// A lowercase message naming the path and the reason.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let code): "cannot open \(path): \(Self.reason(code))"
        case .cannotRead(let path, let code): "cannot read \(path): \(Self.reason(code))"
        case .cannotWrite(let path, let code): "cannot write \(path): \(Self.reason(code))"
        case .cannotSync(let path, let code): "cannot flush \(path) to disk: \(Self.reason(code))"
        case .cannotLock(let path, let code): "cannot lock \(path): \(Self.reason(code))"
        case .cannotRename(let from, let to, let code): "cannot rename \(from) to \(to): \(Self.reason(code))"
        case .cannotCreateDirectory(let path, let code): "cannot create directory \(path): \(Self.reason(code))"
        case .notARegularFile(let path): "\(path) is not a regular file"
        case .readOnly(let path): "\(path) is read-only"
        case .untrustedLink(let path, let owner):
            "\(path) is a symbolic link of another user (uid \(owner)) in a shared directory; not followed"
        case .danglingLink(let path, let target):
            "\(path) is a symbolic link to \(target), which does not exist; nothing was created there"
        case .lockTimedOut(let path, let seconds):
            "gave up waiting for the lock on \(path) after \(seconds) second\(seconds == 1 ? "" : "s")"
        case .changedWhileRead(let path): "\(path): changed while being read"
        }
    }

    /// `strerror(code)` with its first letter lowered: `no space left on device`
    /// (an acronym such as `EOF` is left alone).
    static func reason(_ code: Int32) -> String {
        let message = SystemError(code: code).description
        let letters = Array(message.prefix(2))
        guard letters.count == 2, letters[0].isUppercase, letters[1].isLowercase else { return message }
        return letters[0].lowercased() + message.dropFirst()
    }
}

/// What `call` returns; its failure becomes the error `failure` makes of the errno:
/// `try attempt({ .cannotSync(path: path, errno: $0) }, systemSync(descriptor))`.
func attempt<Value>(_ failure: (Int32) -> FileSystemError, _ call: @autoclosure () throws(SystemError) -> Value) throws(FileSystemError)
    -> Value
{
    do throws(SystemError) {
        return try call()
    } catch {
        throw failure(error.code)
    }
}
