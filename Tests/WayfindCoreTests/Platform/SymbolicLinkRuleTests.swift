import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// `FileSystem.mayFollowLink`: the kernel's `protected_symlinks` rule, applied to the
/// links we resolve ourselves, as a table (no second user needed).
@Suite("Platform: which symbolic links are followed")
struct SymbolicLinkRuleTests {
    static let user: uid_t = 1000
    static let other: uid_t = 65534
    static let root: uid_t = 0

    @Test(
        arguments: [
            // (link owner, directory mode, directory owner, followed)
            (user, 0o1777, root, true),  // the user's own link, even in /tmp
            (other, 0o1777, root, false),  // another user's link in /tmp
            (other, 0o0777, root, false),  // world-writable, not sticky
            (other, 0o1755, root, false),  // sticky, not world-writable
            (other, 0o1777, other, true),  // the link of the directory's owner
            (other, 0o0755, root, true),  // a directory only its owner may write to
            (root, 0o0755, root, true),  // /dev/stdin, root's link in /dev
            (root, 0o1777, root, true),  // a link of root's in /tmp, which root owns
            (other, 0o0775, user, true),  // group-writable only: not what the rule is about
        ] as [(uid_t, mode_t, uid_t, Bool)])
    func anotherUsersLinkInASharedDirectoryIsNotFollowed(
        owner: uid_t, directoryMode: mode_t, directoryOwner: uid_t, followed: Bool
    ) {
        let mode = directoryMode | S_IFDIR
        #expect(
            FileSystem.mayFollowLink(owner: owner, directoryMode: mode, directoryOwner: directoryOwner, user: Self.user)
                == followed)
    }

    /// Root follows no one else's link in a shared directory either: the attack works
    /// best against root.
    @Test func rootIsHeldToTheSameRule() {
        #expect(!FileSystem.mayFollowLink(owner: Self.other, directoryMode: S_IFDIR | 0o1777, directoryOwner: Self.root, user: Self.root))
        #expect(FileSystem.mayFollowLink(owner: Self.root, directoryMode: S_IFDIR | 0o1777, directoryOwner: Self.other, user: Self.root))
    }
}
