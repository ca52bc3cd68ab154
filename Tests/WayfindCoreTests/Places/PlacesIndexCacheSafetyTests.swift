import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// The index cache as an attacker and a careless user meet it: only a folder and files of
/// the user's own are used, new indexes are private whatever was planted, a damaged index
/// is made again (never a crash), and the folder stays bounded.
@Suite struct PlacesIndexCacheSafetyTests {
    /// A fresh cache folder and a copy of places.tsv (large enough to be indexed).
    func scratch() throws -> (cache: String, file: String) {
        let folder = try TestFiles.directory().path
        let file = try TestFiles.write(try Data(contentsOf: URL(fileURLWithPath: PlacesTestSupport.placesTSV)), name: "safety-copy.tsv")
        return (folder, file)
    }

    func suggest(_ file: String, _ query: String, cache: String) -> RunResult {
        runInProcess(MagickeySuggest.run, ["--places", file, "-n", "1", query], environment: ["XDG_CACHE_HOME": cache])
    }

    func indexPath(_ cache: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: cache + "/wayfind").filter { $0.hasSuffix(".index") }
        return cache + "/wayfind/" + (try #require(names.first))
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test func aCacheFolderThatIsALinkIsNotFollowed() throws {
        let (cache, file) = try scratch()
        let victim = try TestFiles.directory().path
        try FileManager.default.createSymbolicLink(atPath: cache + "/wayfind", withDestinationPath: victim)
        let r = suggest(file, "paris", cache: cache)
        #expect(r.status == 0 && r.lines.first?.hasPrefix("Paris, Île-de-France, France\t") == true)
        #expect(r.stderr == "magickey-suggest: not using the cache folder \(cache)/wayfind: it is a symbolic link; searching the whole file\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim).isEmpty)
    }

    @Test func aCacheFolderOthersCanWriteToIsNotUsed() throws {
        let (cache, file) = try scratch()
        try FileManager.default.createDirectory(atPath: cache + "/wayfind", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        chmod(cache + "/wayfind", 0o777)
        let r = suggest(file, "paris", cache: cache)
        #expect(r.status == 0)
        #expect(r.stderr == "magickey-suggest: not using the cache folder \(cache)/wayfind: others can write to it; searching the whole file\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache + "/wayfind").isEmpty)
    }

    /// Another user's file at the index's path (possible only where someone could write into
    /// the folder): it decides nothing; the new index replaces it, 0600.
    @Test func anIndexOfAnotherUserOrAnyoneWritableIsBuiltAgainPrivately() throws {
        let (cache, file) = try scratch()
        let expected = suggest(file, "sao paulo", cache: cache).out
        let index = try indexPath(cache)
        chmod(index, 0o666)
        let again = suggest(file, "sao paulo", cache: cache)
        #expect(again.stderr.hasPrefix("magickey-suggest: indexing "), "\(again.stderr)")
        #expect(again.out == expected)
        #expect(try mode(index) == 0o600)
    }

    @Test(.enabled(if: geteuid() == 0, "a second user's file needs root to make (CI runs as root)"))
    func anIndexOfAnotherUserIsBuiltAgain() throws {
        let (cache, file) = try scratch()
        let expected = suggest(file, "sao paulo", cache: cache).out
        let index = try indexPath(cache)
        chown(index, 65534, 65534)
        let foreign = suggest(file, "sao paulo", cache: cache)
        #expect(foreign.stderr.hasPrefix("magickey-suggest: indexing "), "\(foreign.stderr)")
        #expect(foreign.out == expected)
        #expect(try FileManager.default.attributesOfItem(atPath: index)[.ownerAccountID] as? Int == 0)
    }

    @Test func aPlantedFileDoesNotChooseTheModeOfTheNewIndex() throws {
        let (cache, file) = try scratch()
        _ = suggest(file, "paris", cache: cache)
        let index = try indexPath(cache)
        try Data("planted".utf8).write(to: URL(fileURLWithPath: index))
        chmod(index, 0o644)
        _ = suggest(file, "paris", cache: cache)
        #expect(try mode(index) == 0o600)
    }

    /// An index whose header is whole but whose rows point anywhere: the search finds it
    /// out, says so, and answers from a new index.
    @Test func anIndexFoundDamagedInASearchIsMadeAgain() throws {
        let (cache, file) = try scratch()
        let expected = suggest(file, "paris", cache: cache).out
        let index = try indexPath(cache)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: index)))
        // The first rows' TSV offsets (after the banner and the header).
        let rows = PlacesIndex.bannerSize + 4 * PlacesIndex.headerWords
        for row in 0..<2_000 { for b in 0..<4 { bytes[rows + row * 4 * PlacesIndex.rowWords + b] = 0xFF } }
        try Data(bytes).write(to: URL(fileURLWithPath: index))
        let r = suggest(file, "paris", cache: cache)
        #expect(r.status == 0)
        #expect(r.out == expected)
        let notes = r.stderr.split(separator: "\n")
        #expect(notes.count == 2 && notes[0].hasPrefix("magickey-suggest: the index ") && notes[0].hasSuffix(" is damaged; making it again"), "\(r.stderr)")
        #expect(notes.last?.hasPrefix("magickey-suggest: indexing ") == true)
        #expect(suggest(file, "paris", cache: cache).stderr == "")
    }

    /// Every byte of the header, and bytes throughout the rest, changed one at a time: a
    /// search through the index answers or finds the damage, never traps.
    @Test func noSingleDamagedByteMakesASearchTrap() throws {
        let tsv = Array(try Data(contentsOf: URL(fileURLWithPath: PlacesTestSupport.placesTSV)).prefix(60_000))
        let cut = Array(tsv[...tsv.lastIndex(of: 0x0A)!])
        let good = try cut.withUnsafeBufferPointer { try PlacesIndex.build(tsv: $0) }
        let header = PlacesIndex.bannerSize + 4 * PlacesIndex.headerWords
        let offsets = Array(0..<header) + Array(stride(from: header, to: good.count, by: 211))
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: good.count, alignment: 16)
        defer { storage.deallocate() }
        var searched = 0
        for offset in offsets {
            for value: UInt8 in [0x00, 0xFF, 0x0A] {
                storage.copyBytes(from: good)
                storage[offset] = value
                guard let index = PlacesIndex(UnsafeBufferPointer(storage.bindMemory(to: UInt8.self))) else { continue }
                try cut.withUnsafeBufferPointer { tsv in
                    for query in ["p", "par", "new y", "san jose", "paris tx"] {
                        let search = PlaceSearch(text: query, bias: LocationBias(location: nil, radius: nil), filters: PlaceFilters(), limit: 5)
                        do throws(GazetteerError) {
                            _ = try search.search(index: index, tsv: tsv, path: "places.tsv")
                        } catch .damagedIndex {
                        } catch {
                            Issue.record("byte \(offset) = \(value), \(query): \(error)")
                        }
                        searched += 1
                    }
                }
            }
        }
        #expect(searched > 1_000)
    }

    @Test func leftoversOfKilledSavesAndIndexesOfGoneFilesArePruned() throws {
        let (cache, file) = try scratch()
        _ = suggest(file, "paris", cache: cache)
        let folder = cache + "/wayfind"
        let leftover = folder + "/places-0123456789abcdef.index.tmp.AbCdEfGhIjKl"
        try Data("half a save".utf8).write(to: URL(fileURLWithPath: leftover))
        let other = try TestFiles.write(try Data(contentsOf: URL(fileURLWithPath: file)), name: "safety-other.tsv")
        _ = suggest(other, "paris", cache: cache)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 2)
        #expect(!FileManager.default.fileExists(atPath: leftover))
        try FileManager.default.removeItem(atPath: other)
        let third = try TestFiles.write(try Data(contentsOf: URL(fileURLWithPath: file)), name: "safety-third.tsv")
        _ = suggest(third, "paris", cache: cache)
        let entries = PlacesIndexCache.entries(in: folder)
        #expect(entries.count == 2 && entries.allSatisfy { $0.stale == nil }, "\(entries)")
        #expect(Set(entries.compactMap(\.source)) == Set([file, third].map { Platform.canonicalPath($0)! }))
    }

    /// A copy put in place with its old times (`cp -p`) has another change time.
    @Test func aFileCopiedInPlaceWithItsTimesIsIndexedAgain() throws {
        let (cache, file) = try scratch()
        _ = suggest(file, "paris", cache: cache)
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        // Same size, same samples' neighbourhood: a name changed in place, in a middle row.
        let middle = bytes.count / 2 + 1_000
        let start = bytes[..<middle].lastIndex(of: 0x0A)! + 1
        let tab = bytes[start...].firstIndex(of: 0x09)! + 1
        bytes[tab] = bytes[tab] == 0x51 ? 0x52 : 0x51
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: file)
        #expect(suggest(file, "paris", cache: cache).stderr.hasPrefix("magickey-suggest: indexing "))
    }

    @Test(.enabled(if: geteuid() == 0, "a full disk (a 1 MB tmpfs) needs root to mount (CI runs as root)"))
    func aFullDiskMeansANoteAndTheScanNotABuildEachRun() throws {
        let (_, file) = try scratch()
        let cache = try TestFiles.directory().path
        guard mount("tmpfs", cache, "tmpfs", 0, "size=1m") == 0 else {
            print("PlacesIndexCacheSafetyTests: cannot mount a tmpfs here (\(String(cString: strerror(errno)))): the full disk was not tried")
            return
        }
        defer { umount(cache) }
        let r = suggest(file, "paris", cache: cache)
        #expect(r.status == 0 && r.lines.first?.hasPrefix("Paris, Île-de-France, France\t") == true)
        #expect(r.stderr.hasPrefix("magickey-suggest: not enough free space in \(cache)/wayfind to keep an index of "), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache + "/wayfind").isEmpty)
    }
}
