import Foundation

/// Scratch files and folders for tests: all in one folder per test process,
/// `wayfind-test-PID`, removed when the process exits. The folder is on `/dev/shm` when
/// there is one (a memory file system: the tools' `fsync`s cost nothing there, and
/// nothing a test checks depends on the disk), else in the temporary directory.
public enum TestFiles {
    /// The folder, created on first use.
    public static let folder: URL = {
        let url = folderURL(for: getpid())
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // A C function pointer cannot capture: the handler finds the folder again.
        atexit { try? FileManager.default.removeItem(at: TestFiles.folderURL(for: getpid())) }
        return url
    }()

    /// Where the per-process folders go.
    static let parent: URL = {
        access("/dev/shm", W_OK | X_OK) == 0
            ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
    }()

    static func folderURL(for process: pid_t) -> URL {
        parent.appendingPathComponent("wayfind-test-\(process)")
    }

    /// A new, empty folder of its own.
    public static func directory() throws -> URL {
        let url = folder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `data` to a new file named `name`, in a folder of its own, and returns its
    /// path.
    public static func write(_ data: Data, name: String) throws -> String {
        let url = try directory().appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }
}

/// A fresh folder for one test, removed by `remove()` (or, at the latest, when the test
/// process exits).
public struct ScratchDirectory: Sendable {
    /// The folder.
    public let url: URL
    /// The folder's path.
    public var path: String { url.path }

    /// A new, empty folder.
    public init() throws { url = try TestFiles.directory() }

    /// The path of `name` in the folder (nothing is created).
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` in the folder (or in `directory`) and returns its path.
    @discardableResult
    public func write(_ text: String, to name: String, in directory: URL? = nil) throws -> String {
        let target = (directory ?? url).appendingPathComponent(name)
        try Data(text.utf8).write(to: target)
        return target.path
    }

    /// The names in the folder, sorted.
    public func contents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Deletes the folder and everything in it, even if a test made it read-only.
    public func remove() {
        chmod(path, 0o700)
        try? FileManager.default.removeItem(at: url)
    }
}

/// Files of this repository that tests read.
public enum Repository {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The fixtures folder: the SF Symbols names and a sample of city names.
    public static let fixtures = root.appendingPathComponent("Tests/EndToEndTests/Fixtures")
}

extension Data {
    /// The UTF-8 bytes of `text`.
    public init(_ text: String) { self = Data(text.utf8) }
}
