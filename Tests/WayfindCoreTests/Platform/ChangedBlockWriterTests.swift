import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCore

#if canImport(Glibc)
    import Glibc
#endif

/// `ChangedBlockWriter`: whatever a spare held, it ends up holding exactly the new bytes,
/// and blocks that already held them are not written.
@Suite("Platform: writing only the changed blocks of a spare")
struct ChangedBlockWriterTests {
    static let block = ChangedBlockWriter.blockSize

    /// Writes `new`, cut into `pieces` (their lengths, summing to `new.count`), over a
    /// file holding `old`, truncates it as a save does, and returns what the file then
    /// holds and how many bytes were written; nil when the writer declined the file.
    func overwrite(_ old: [UInt8], with new: [UInt8], pieces lengths: [Int]) throws -> (bytes: [UInt8], written: Int)? {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        let path = scratch.path + "/spare"
        try Data(old).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDWR)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        guard let writer = ChangedBlockWriter(descriptor: descriptor, size: old.count, path: path) else { return nil }
        try new.withUnsafeBytes { all in
            var pieces: [UnsafeRawBufferPointer] = []
            var start = 0
            for length in lengths {
                pieces.append(UnsafeRawBufferPointer(rebasing: all[start..<start + length]))
                start += length
            }
            #expect(start == new.count)
            try writer.write(pieces)
        }
        #expect(ftruncate(descriptor, off_t(new.count)) == 0)
        return (try #require(fileBytes(path)), writer.bytesWritten)
    }

    /// Random lengths summing to `total`, some of them empty.
    func randomPieces(_ total: Int, using random: inout SplitMix64) -> [Int] {
        var lengths: [Int] = []
        var left = total
        while left > 0 {
            let length = Int.random(in: 0...min(left, Self.block * 2), using: &random)
            lengths.append(length)
            left -= length
        }
        if Bool.random(using: &random) { lengths.insert(0, at: 0) }
        return lengths
    }

    @Test func theFileEndsUpHoldingExactlyTheNewBytes() throws {
        var random = SplitMix64(seed: 0x5EA5_1DE)
        for round in 0..<300 {
            let oldCount = Int.random(in: 0...(5 * Self.block + 100), using: &random)
            let old = (0..<oldCount).map { _ in UInt8.random(in: 97...100, using: &random) }
            var new = old
            switch round % 6 {
            case 0: break  // the same bytes
            case 1:  // a few bytes changed in place
                for _ in 0..<3 where !new.isEmpty { new[Int.random(in: 0..<new.count, using: &random)] &+= 1 }
            case 2:  // bytes inserted: everything after them moves
                new.insert(contentsOf: [1, 2, 3], at: Int.random(in: 0...new.count, using: &random))
            case 3:  // bytes removed
                if !new.isEmpty { new.removeSubrange(Int.random(in: 0..<new.count, using: &random)..<new.count) }
            case 4:  // longer, the old bytes kept
                new += (0..<Int.random(in: 1...(2 * Self.block), using: &random)).map { _ in UInt8(ascii: "z") }
            default:  // unrelated
                new = (0..<Int.random(in: 0...(3 * Self.block), using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
            let result = try #require(try overwrite(old, with: new, pieces: randomPieces(new.count, using: &random)))
            let isNew = result.bytes == new
            #expect(isNew, "round \(round): \(old.count) → \(new.count) bytes")
            if old == new { #expect(result.written == 0, "round \(round)") }
        }
    }

    @Test func onlyTheBlocksThatDifferAreWritten() throws {
        let old = (0..<(10 * Self.block)).map { UInt8(truncatingIfNeeded: $0 % 251) }
        var new = old
        new[3 * Self.block + 17] &+= 1
        new[7 * Self.block] &+= 1
        // One piece, and many pieces that cut blocks in two: the same blocks either way.
        for lengths in [[new.count], Array(repeating: 1000, count: 40) + [new.count - 40_000]] {
            let result = try #require(try overwrite(old, with: new, pieces: lengths))
            let isNew = result.bytes == new
            #expect(isNew)
            #expect(result.written > 0 && result.written <= 2 * Self.block, "\(result.written) bytes written")
        }
        // A shorter version: the blocks before the change are left alone.
        let shorter = Array(old.prefix(4 * Self.block + 9))
        let cut = try #require(try overwrite(old, with: shorter, pieces: [shorter.count]))
        let isShorter = cut.bytes == shorter
        #expect(isShorter && cut.written == 0)
        // A longer one writes just what is new.
        let longer = old + Array(repeating: 7, count: 100)
        let grown = try #require(try overwrite(old, with: longer, pieces: [longer.count]))
        let isLonger = grown.bytes == longer
        #expect(isLonger && grown.written == 100)
    }

    @Test func saveAfterSaveEachNameHoldsItsVersion() throws {
        // Versions of several blocks, each a small edit of the one before (as visits
        // are), some longer and some shorter: the spare is two saves behind.
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        let path = scratch.path + "/graph.json"
        var random = SplitMix64(seed: 42)
        var versions: [[UInt8]] = [(0..<(6 * Self.block)).map { _ in UInt8.random(in: 97...122, using: &random) }]
        for _ in 0..<12 {
            var next = versions.last!
            let at = Int.random(in: 0..<next.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: next[at] = UInt8(ascii: "#")
            case 1: next.insert(contentsOf: Array("inserted".utf8), at: at)
            default: next.removeSubrange(at..<min(next.count, at + 50))
            }
            versions.append(next)
        }
        for (index, version) in versions.enumerated() {
            try FileSystem.writeAtomically(version, to: path, backupPath: path + ".bak")
            // Compared to Bools first: a failure would print whole versions.
            let (saved, backup, spare) = (
                fileBytes(path) == version, index < 1 || fileBytes(path + ".bak") == versions[index - 1],
                index < 2 || fileBytes(path + ".tmp") == versions[index - 2]
            )
            #expect(saved && backup && spare, "save \(index + 1): file \(saved), backup \(backup), spare \(spare)")
        }
    }
}
