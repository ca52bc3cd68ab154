import WayfindSystemC

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file as `stat` tells versions of it apart: its inode, size and modification time
/// (to the nanosecond the file system keeps). Writing to a file changes its time; renaming
/// another file over its name changes the inode.
public struct FileIdentity: Equatable, Sendable {
    var inode: UInt64
    var size: Int64
    var seconds: Int64
    var nanoseconds: Int64

    init(_ info: stat) {
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = Int64(info.st_mtim.tv_sec)
        nanoseconds = Int64(info.st_mtim.tv_nsec)
    }

    /// The identity as a stamp holds it: `1 inode size seconds.nanoseconds`.
    var stampValue: [UInt8] {
        Array("1 \(inode) \(size) \(seconds).\(nanoseconds)".utf8)
    }
}

/// A stamp: an extended attribute holding a file's identity at the moment a program
/// vouched for its content (a writer that wrote it, a reader that checked every byte),
/// so that a later reader can trust the content while the identity is unchanged, the way
/// git trusts a file whose `stat` matches its index.
///
/// A stamp is a hint that is never needed: where extended attributes are not supported
/// or not allowed (another user's file, a read-only file system), nothing is stamped and
/// readers check the content as if there were no stamp. Copying the file drops the stamp
/// or, with the attributes, keeps the old inode in it, which no longer matches.
///
/// What it cannot see is a change that keeps the inode, the size and the time to the
/// nanosecond: writing into the file in place, within the same tick of the file
/// system's clock as the stamped write, bytes of the same length, or setting the time
/// back by hand after a change.
enum FileStamp {
    /// The longest stamp value read.
    private static let maximumLength = 96

    /// Whether the file open at `descriptor`, whose identity is `identity`, carries the
    /// stamp `name` with exactly that identity.
    static func matches(_ descriptor: Int32, name: String, identity: FileIdentity) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { buffer in
            let length = wayfind_get_attribute(descriptor, name, buffer.baseAddress, UInt(maximumLength))
            guard length > 0 else { return false }
            return buffer.prefix(length).elementsEqual(identity.stampValue)
        }
    }

    /// Stamps the file open at `descriptor` with `identity`; where that fails, removes any
    /// older stamp it carries, so that it carries none.
    static func set(_ descriptor: Int32, name: String, identity: FileIdentity) {
        let value = identity.stampValue
        let isSet = value.withUnsafeBytes { wayfind_set_attribute(descriptor, name, $0.baseAddress, UInt($0.count)) == 0 }
        if !isSet { _ = wayfind_remove_attribute(descriptor, name) }
    }

    /// Removes the stamp `name` from the file open at `descriptor`, if it has one.
    static func remove(_ descriptor: Int32, name: String) {
        _ = wayfind_remove_attribute(descriptor, name)
    }

    /// Stamps the file at `path` with `identity`, if it still has that identity; best
    /// effort, silent when it cannot.
    static func set(path: String, name: String, identity: FileIdentity) {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, FileIdentity(info) == identity else { return }
        let value = identity.stampValue
        _ = value.withUnsafeBytes { wayfind_set_attribute(descriptor, name, $0.baseAddress, UInt($0.count)) }
    }
}
