import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Files that tests write and do not remove one by one: all in one folder per test
/// process, `wayfind-test-PID` in the temporary directory, removed when the process
/// exits.
public enum TestFiles {
    /// The folder, created on first use.
    public static let folder: URL = {
        let url = folderURL(for: getpid())
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // A C function pointer cannot capture: the handler finds the folder again.
        atexit { try? FileManager.default.removeItem(at: TestFiles.folderURL(for: getpid())) }
        return url
    }()

    static func folderURL(for process: pid_t) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("wayfind-test-\(process)")
    }

    /// Writes `data` to a new file named `name`, in a folder of its own, and returns its
    /// path.
    public static func write(_ data: Data, name: String) throws -> String {
        let directory = folder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }
}
