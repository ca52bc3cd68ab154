import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// The index of a `--places` file in the cache: built once with a note, reused, rebuilt
/// when the file or the cache file changes, skipped with a note when it cannot be kept.
@Suite struct PlacesIndexCacheTests {
    /// A fresh cache folder and a copy of places.tsv (7 MB: large enough to be indexed).
    func scratch() throws -> (cache: String, file: String) {
        let folder = try TestFiles.directory().path
        let file = try TestFiles.write(try Data(contentsOf: URL(fileURLWithPath: PlacesTestSupport.placesTSV)), name: "places-copy.tsv")
        return (folder, file)
    }

    func suggest(_ file: String, _ query: String, cache: String) -> RunResult {
        runInProcess(MagickeySuggest.run, ["--places", file, query], environment: ["XDG_CACHE_HOME": cache])
    }

    func indexFiles(_ cache: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache + "/wayfind")) ?? []).sorted()
    }

    @Test func theFirstUseBuildsTheIndexWithANoteAndLaterUsesReuseIt() throws {
        let (cache, file) = try scratch()
        let first = suggest(file, "paris", cache: cache)
        #expect(first.status == 0)
        #expect(first.stderr.hasPrefix("magickey-suggest: indexing "), "\(first.stderr)")
        #expect(first.stderr.split(separator: "\n").count == 1)
        #expect(indexFiles(cache).count == 1)
        #expect(indexFiles(cache).allSatisfy { $0.hasPrefix("places-") && $0.hasSuffix(".index") })
        let second = suggest(file, "paris", cache: cache)
        #expect(second.stderr == "")
        #expect(second.out == first.out)
        #expect(first.lines.first?.hasPrefix("Paris, Île-de-France, France\t") == true)
        // Without a cache folder the file is scanned, with the same keys.
        let scanned = runInProcess(MagickeySuggest.run, ["--places", file, "paris"], environment: [:])
        #expect(scanned.stderr == "")
        #expect(scanned.out == first.out)
    }

    @Test func keysFromTheIndexAreFoundByTheScanAndTheOtherWayRound() throws {
        let (cache, file) = try scratch()
        let key = try #require(suggest(file, "zurich", cache: cache).lines.first?.split(separator: "\t")[1])
        let viaScan = runInProcess(MagickeyFind.run, ["--places", file, String(key)], environment: [:])
        let viaIndex = runInProcess(MagickeyFind.run, ["--places", file, String(key)], environment: ["XDG_CACHE_HOME": cache])
        #expect(viaScan.status == 0)
        #expect(viaIndex.stderr == "")
        #expect(viaIndex.out == viaScan.out)
        #expect(viaIndex.out.hasPrefix("Zürich, Zurich, Switzerland\t") || viaIndex.out.hasPrefix("Zürich, Switzerland\t"), "\(viaIndex.out)")
    }

    @Test func aChangedFileIsIndexedAgainUnderTheSameName() throws {
        let (cache, file) = try scratch()
        _ = suggest(file, "paris", cache: cache)
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("99999999\tZzyzxville\tZzyzxville\t\t35.1\t-116.1\tPPL\tcity\tUS\tUnited States\tCA\tCalifornia\t10\tAmerica/Los_Angeles\t\t\t\n".utf8))
        try handle.close()
        let again = suggest(file, "zzyzx", cache: cache)
        #expect(again.stderr.hasPrefix("magickey-suggest: indexing "))
        #expect(again.lines.first?.hasPrefix("Zzyzxville, California, United States\t") == true)
        #expect(indexFiles(cache).count == 1)
    }

    @Test(arguments: ["truncated", "garbage", "empty", "foreign", "other rules"])
    func aDamagedCacheFileIsBuiltAgain(damage: String) throws {
        let (cache, file) = try scratch()
        let expected = suggest(file, "sao paulo", cache: cache).out
        let index = cache + "/wayfind/" + indexFiles(cache)[0]
        let bytes = try Data(contentsOf: URL(fileURLWithPath: index))
        switch damage {
        case "truncated": try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: index))
        case "garbage": try Data(repeating: 0x5A, count: bytes.count).write(to: URL(fileURLWithPath: index))
        case "empty": try Data().write(to: URL(fileURLWithPath: index))
        case "other rules":
            // Made under other folding, word or importance rules (`PlacesIndex.rules`),
            // header words 29 and 30: whole and consistent, but not to be trusted.
            var stamped = bytes
            stamped[PlacesIndex.bannerSize + 4 * 29] ^= 1
            try stamped.write(to: URL(fileURLWithPath: index))
        default:
            // The index of another file (the embedded places.tsv's) under this file's name.
            try Data(TestGazetteer.indexBytes).write(to: URL(fileURLWithPath: index))
        }
        let again = suggest(file, "sao paulo", cache: cache)
        #expect(again.status == 0)
        #expect(again.stderr.hasPrefix("magickey-suggest: indexing "), "\(again.stderr)")
        #expect(again.out == expected)
        #expect(suggest(file, "sao paulo", cache: cache).stderr == "")
    }

    @Test func aCacheThatCannotBeWrittenFallsBackToTheScanWithANote() throws {
        let (cache, file) = try scratch()
        // A regular file where the cache folder should be: mkdir fails, even for root.
        let blocked = try TestFiles.write(Data("x".utf8), name: "not-a-folder")
        let expected = suggest(file, "springfield", cache: cache).out
        let r = suggest(file, "springfield", cache: blocked)
        #expect(r.status == 0)
        #expect(r.out == expected)
        #expect(r.stderr.hasPrefix("magickey-suggest: cannot keep an index of "), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("; searching the whole file\n"))
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test func smallFilesAndStandardInputAreScannedWithoutACache() throws {
        let cache = try TestFiles.directory().path
        let small = try TestFiles.write(Data("name\tlatitude\tlongitude\nSmallville\t1\t2\n".utf8), name: "small.tsv")
        let r = suggest(small, "small", cache: cache)
        #expect(r.stderr == "")
        #expect(r.lines.first?.hasPrefix("Smallville\t") == true)
        #expect(indexFiles(cache).isEmpty)
    }
}
