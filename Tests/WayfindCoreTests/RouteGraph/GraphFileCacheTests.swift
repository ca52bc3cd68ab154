import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCore

/// `GraphFileCache`: what a suggestion read of a graph file keeps in the user's cache, and
/// takes back instead of parsing the file while it is unchanged.
@Suite("RouteGraph: the graph's cache")
struct GraphFileCacheTests {
    /// A graph file in a scratch folder, asked through a cache in the same folder.
    struct Setup {
        let scratch: ScratchDirectory
        let path: String
        let cacheDirectory: String
        /// Through the cache, by a clock at which the file has settled.
        var file: GraphFile { GraphFile(path: path).caching(in: cacheDirectory, now: { Platform.currentTime() + 10 }) }
        var cachePath: String { GraphFileCache.path(of: path, in: cacheDirectory) }

        init(_ bytes: [UInt8]) throws {
            scratch = try ScratchDirectory()
            path = scratch.file("graph.json")
            cacheDirectory = scratch.file("cache/wayfind")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }

        /// The cached contents for the file as it is now, with every edge; nil when the
        /// cache holds none for this version.
        func cached() throws -> GraphFileContents? {
            let mapping = try #require(try FileSystem.mapFile(at: path))
            return GraphFileCache.load(for: mapping, from: cachePath, edges: .every)
        }
    }

    static func seed() -> RouteGraph {
        var graph = RouteGraph()
        for (step, place) in ["Home", "Work", "Gym", "Home", "Work", "Café Zürich", "Home", "Airport"].enumerated() {
            graph.visit(place, at: RandomGraphs.epoch + Int64(step) * 3600)
        }
        return graph
    }

    /// Random graphs, in the writer's layout and in others: the suggestions of a file
    /// asked twice through the cache (parsed and kept, then taken from the cache) are a
    /// full load's, with and without a filter, from the last place or another.
    @Test func suggestionsThroughTheCacheAreAFullLoads() throws {
        var random = SplitMix64(seed: 36)
        var fromCache = 0
        for round in 0..<60 {
            let graph = RandomGraphs.graph(using: &random)
            let bytes = round % 3 == 0 ? RandomGraphs.otherLayout(of: graph, using: &random) : graph.json()
            let loaded = try RouteGraph(json: bytes)
            let setup = try Setup(bytes)
            defer { setup.scratch.remove() }
            for _ in 0..<6 {
                let request = RandomGraphs.request(using: &random)
                let letter = ["a", "c", "h", "o"].randomElement(using: &random)!
                let filter: ((String) -> Bool)? = random.next() % 3 == 0 ? { RouteGraph.placeKey($0).contains(letter) } : nil
                let expected = loaded.suggestions(for: request, filter: filter)
                #expect(try setup.file.suggestions(for: request, filter: filter) == expected, "\(request)")
                if try setup.cached() != nil { fromCache += 1 }
                #expect(try setup.file.suggestions(for: request, filter: filter) == expected, "\(request), from the cache")
            }
        }
        // Every file that is not empty is kept (the empty graph has no file contents).
        #expect(fromCache > 300, "\(fromCache)")
    }

    /// A search box's filter (`Geocoder.predictionFilter`), which skips the names whose
    /// initials the cache keeps and cannot match: the suggestions through the cache are a
    /// full load's with the same filter, for queries cut from the graph's names.
    @Test func aSearchBoxsFilterThroughTheCacheIsAFullLoads() throws {
        var random = SplitMix64(seed: 38)
        var skipped = 0
        for _ in 0..<40 {
            let graph = RandomGraphs.graph(using: &random)
            let bytes = graph.json()
            let loaded = try RouteGraph(json: bytes)
            let setup = try Setup(bytes)
            defer { setup.scratch.remove() }
            for _ in 0..<8 {
                var request = RandomGraphs.request(using: &random)
                request.limit = [1, 3, 10].randomElement(using: &random)!
                let name = Array(RandomGraphs.names.randomElement(using: &random)!)
                let text = String(name.prefix(Int.random(in: 1...name.count, using: &random)))
                    + (random.next() % 4 == 0 ? " " + ["s", "c", "h", "z"].randomElement(using: &random)! : "")
                guard let filter = Geocoder.predictionFilter(text) else { continue }
                let expected = loaded.suggestions(for: request, filter: RouteGraph.stringFilter(filter))
                #expect(try setup.file.suggestions(for: request, matching: filter) == expected, "\(text) \(request)")
                let cached = try setup.cached()
                #expect(try setup.file.suggestions(for: request, matching: filter) == expected, "\(text) \(request), from the cache")
                if let initials = cached?.recordInitials, let needed = filter.initials {
                    skipped += initials.filter { !RouteGraph.NameFilter.mayAccept(initials: $0, needing: needed) }.count
                }
            }
        }
        #expect(skipped > 100, "\(skipped) names skipped by their initials")
    }

    /// The contents taken from a cache image answer every request as the file's own read
    /// does, keeping only the edges asked for.
    @Test func theImageKeepsWhatTheReadFound() throws {
        var random = SplitMix64(seed: 37)
        var answered = 0
        for _ in 0..<80 {
            let bytes = RandomGraphs.graph(using: &random).json()
            let loaded = try RouteGraph(json: bytes)
            let stamp: [UInt64] = [1, 2, 3, 4, 5, 6, 7]
            try bytes.withUnsafeBytes { buffer in
                let image = GraphFileCache.image(of: try RouteGraph.contents(of: buffer, keepingHours: true), file: buffer, stamp: stamp)
                // Another file's stamp is refused.
                #expect(image.withUnsafeBytes { GraphFileCache.contents(ofImage: $0, file: buffer, stamp: [1, 2, 3, 4, 5, 6, 8], edges: .every) } == nil)
                for _ in 0..<6 {
                    let request = RandomGraphs.request(using: &random)
                    let selection = GraphFileContents.edges(for: request, filtered: false)
                    let cached = try #require(image.withUnsafeBytes {
                        GraphFileCache.contents(ofImage: $0, file: buffer, stamp: stamp, edges: selection)
                    })
                    // The edges leaving the place asked for (a read of the file may keep
                    // every edge where it cannot tell the last place early; the cache can).
                    let every = try RouteGraph.contents(of: buffer, keepingHours: true)
                    let leaving = every.edges.filter { edge in
                        cached.keptOrigin.map { key in key.withUnsafeBytes { PlaceName.hasKey(every.bytes(of: edge.origin, in: buffer), $0) } }
                            ?? true
                    }
                    #expect(cached.edges.map(\.element) == leaving.map(\.element))
                    if case .leaving(let key) = selection { #expect(cached.keptOrigin == key) }
                    guard let scanned = RouteGraph.scannedSuggestions(cached, in: buffer, for: request, filter: nil) else { continue }
                    answered += 1
                    #expect(scanned == loaded.suggestions(for: request), "\(request)")
                }
            }
        }
        #expect(answered > 200, "\(answered)")
    }

    /// Contents no read could find, written to a cache (as a damaged or crafted file may
    /// hold them), are refused: a member's key after its value, a name or element out of
    /// the file, a negative count, hours out of the list.
    @Test func contentsNoReadCouldFindAreRefused() throws {
        let bytes = Self.seed().json()
        try bytes.withUnsafeBytes { buffer in
            let read = try RouteGraph.contents(of: buffer, keepingHours: true)
            let stamp: [UInt64] = [1, 2, 3, 4, 5, 6, 7]
            func taken(_ contents: GraphFileContents) -> Bool {
                GraphFileCache.image(of: contents, file: buffer, stamp: stamp).withUnsafeBytes {
                    GraphFileCache.contents(ofImage: $0, file: buffer, stamp: stamp, edges: .every) != nil
                }
            }
            #expect(taken(read))
            var damaged: [GraphFileContents] = []
            var c = read
            c.members[0].start = c.members[0].value.lowerBound + 1
            damaged.append(c)
            c = read
            c.records[0].name.start = Int32(buffer.count - 2)
            damaged.append(c)
            c = read
            c.edges[0].element = 0..<Int32(buffer.count + 1)
            damaged.append(c)
            c = read
            c.edges[0].weight = -1
            damaged.append(c)
            c = read
            c.records[0].hoursIndex = Int32(-2 - c.hourCounts.count)
            damaged.append(c)
            c = read
            c.records[0].hoursIndex = 5
            damaged.append(c)
            c = read
            c.lastName = .init(start: -5, count: 3)
            damaged.append(c)
            for contents in damaged { #expect(!taken(contents)) }
        }
    }

    /// Names with escapes (decoded, not spans of the file) survive the cache.
    @Test func namesWithEscapesAreKept() throws {
        var graph = RouteGraph()
        for (step, place) in ["Say \"cheese\"", "Back\\slash", "Tab\there", "Home"].enumerated() {
            graph.visit(place, at: RandomGraphs.epoch + Int64(step) * 3600)
        }
        let setup = try Setup(graph.json())
        defer { setup.scratch.remove() }
        let request = SuggestionRequest(from: "Say \"cheese\"", limit: 3, now: RandomGraphs.epoch + 20_000)
        let expected = graph.suggestions(for: request)
        #expect(try setup.file.suggestions(for: request) == expected)
        let read = try graph.json().withUnsafeBytes { try RouteGraph.contents(of: $0, keepingHours: true) }
        #expect(read.decodedNames.names.count >= 2)
        #expect(try setup.cached()?.decodedNames.names.count == read.decodedNames.names.count)
        #expect(try setup.file.suggestions(for: request) == expected)
        #expect(expected.map(\.place).contains("Back\\slash"))
    }

    /// A visit, or any write (even one that keeps the size and sets the modification time
    /// back), makes the next suggestion read the file again.
    @Test func aChangedFileIsReadAgain() throws {
        let setup = try Setup(Self.seed().json())
        defer { setup.scratch.remove() }
        let request = SuggestionRequest(limit: 3, now: RandomGraphs.epoch + 40_000)
        _ = try setup.file.suggestions(for: request)
        #expect(try setup.cached() != nil)
        // A visit through the file (a new file renamed over the old).
        try setup.file.record(VisitRequest(visits: [.init(place: "Harbour", time: RandomGraphs.epoch + 30_000)]))
        #expect(try setup.cached() == nil)
        let visited = try RouteGraph(json: Array(Data(contentsOf: URL(fileURLWithPath: setup.path))))
        #expect(try setup.file.suggestions(for: SuggestionRequest(from: "Airport", limit: 3, now: RandomGraphs.epoch + 40_000))
            == visited.suggestions(for: SuggestionRequest(from: "Airport", limit: 3, now: RandomGraphs.epoch + 40_000)))
        // Written in place, same size, modification time set back.
        var info = stat()
        #expect(stat(setup.path, &info) == 0)
        var text = try String(contentsOfFile: setup.path, encoding: .utf8)
        text = text.replacingOccurrences(of: "Harbour", with: "Harboor")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: setup.path))
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, setup.path, &times, 0) == 0)
        let rewritten = try RouteGraph(json: Array(text.utf8))
        let next = SuggestionRequest(from: "Airport", limit: 3, now: RandomGraphs.epoch + 40_000)
        #expect(try setup.file.suggestions(for: next) == rewritten.suggestions(for: next))
        let places = try setup.file.suggestions(for: next).map(\.place)
        #expect(places.contains("Harboor") && !places.contains("Harbour"), "\(places)")
    }

    /// A cache cut short, emptied, another file's, of garbage or with a byte of its header
    /// changed is never trusted: the answer is a full load's, and the cache is written
    /// again. A byte changed elsewhere is refused or read (a number: a time, a count)
    /// without a trap; no span it holds leaves the file.
    @Test func aDamagedCacheIsNeverTrusted() throws {
        let graph = Self.seed()
        let setup = try Setup(graph.json())
        defer { setup.scratch.remove() }
        let request = SuggestionRequest(limit: 4, now: RandomGraphs.epoch + 40_000)
        let expected = graph.suggestions(for: request)
        _ = try setup.file.suggestions(for: request)
        let good = try Data(contentsOf: URL(fileURLWithPath: setup.cachePath))
        var otherRandom = SplitMix64(seed: 5)
        let other = try Setup(RandomGraphs.graph(using: &otherRandom).json())
        defer { other.scratch.remove() }
        _ = try other.file.suggestions(for: request)
        // Each damage, and whether it must be refused: any cut, an empty or zeroed file,
        // garbage, another graph's cache; a changed byte may fall in a number (a time, a
        // count of visits), which reads, or anywhere else, which is refused.
        var damages: [(Data, refused: Bool)] = [
            (Data(), true), (Data(repeating: 0, count: good.count), true), (Data("not a cache".utf8), true),
            (try Data(contentsOf: URL(fileURLWithPath: other.cachePath)), true),
        ]
        // The header: what it is, the layout, the graph file's stamp.
        let header = GraphFileCache.magic.count + 8 * (GraphFileCache.layout.count + 7)
        var random = SplitMix64(seed: 38)
        for _ in 0..<60 {
            damages.append((good.prefix(Int.random(in: 0..<good.count, using: &random)), true))
            var flipped = good
            let at = Int.random(in: 0..<good.count, using: &random)
            flipped[at] ^= UInt8.random(in: 1...255, using: &random)
            damages.append((flipped, at < header))
            var inHeader = good
            inHeader[Int.random(in: 0..<header, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            damages.append((inHeader, true))
        }
        for (damaged, mustBeRefused) in damages {
            try damaged.write(to: URL(fileURLWithPath: setup.cachePath))
            let answer = try setup.file.suggestions(for: request)
            let refused = try Data(contentsOf: URL(fileURLWithPath: setup.cachePath)) == good
            if mustBeRefused { #expect(refused, "\(damaged.count) bytes") }
            if refused { #expect(answer == expected) }
        }
    }

    /// No cache folder can be made, or the cache's name is taken by a folder: the answer
    /// is the same, and nothing fails.
    @Test func aCacheThatCannotBeWrittenCostsOnlyTime() throws {
        let graph = Self.seed()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.file("graph.json")
        try Data(graph.json()).write(to: URL(fileURLWithPath: path))
        let blocker = try scratch.write("a file", to: "blocker")
        let request = SuggestionRequest(limit: 3, now: RandomGraphs.epoch + 40_000)
        let file = GraphFile(path: path).caching(in: blocker + "/wayfind", now: { Platform.currentTime() + 10 })
        #expect(try file.suggestions(for: request) == graph.suggestions(for: request))
        let taken = GraphFile(path: path).caching(in: scratch.path, now: { Platform.currentTime() + 10 })
        try FileManager.default.createDirectory(atPath: try #require(taken.cachePath), withIntermediateDirectories: true)
        #expect(try taken.suggestions(for: request) == graph.suggestions(for: request))
        #expect(try taken.suggestions(for: request) == graph.suggestions(for: request))
    }

    /// A link planted at the cache's name is replaced, and what it points to untouched.
    @Test func aLinkAtTheCachesNameIsNotFollowed() throws {
        let setup = try Setup(Self.seed().json())
        defer { setup.scratch.remove() }
        let victim = try setup.scratch.write("precious", to: "victim")
        try FileManager.default.createDirectory(atPath: setup.cacheDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: setup.cachePath, withDestinationPath: victim)
        _ = try setup.file.suggestions(for: SuggestionRequest(limit: 3, now: RandomGraphs.epoch + 40_000))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(try setup.cached() != nil)
    }

    /// A file changed within `settledSeconds` is parsed and not kept; the same file,
    /// settled, is.
    @Test func onlyASettledFileIsKept() throws {
        let setup = try Setup(Self.seed().json())
        defer { setup.scratch.remove() }
        let request = SuggestionRequest(limit: 3, now: RandomGraphs.epoch + 40_000)
        let now = GraphFile(path: setup.path).caching(in: setup.cacheDirectory, now: { Platform.currentTime() })
        #expect(try now.suggestions(for: request) == Self.seed().suggestions(for: request))
        #expect(!FileManager.default.fileExists(atPath: setup.cachePath))
        _ = try setup.file.suggestions(for: request)
        #expect(try setup.cached() != nil)
    }

    /// A cache another user owns is not read (root can give it away).
    @Test(.enabled(if: geteuid() == 0)) func anotherUsersCacheIsNotRead() throws {
        let setup = try Setup(Self.seed().json())
        defer { setup.scratch.remove() }
        _ = try setup.file.suggestions(for: SuggestionRequest(limit: 3, now: RandomGraphs.epoch + 40_000))
        #expect(try setup.cached() != nil)
        #expect(chown(setup.cachePath, 65534, 65534) == 0)
        #expect(try setup.cached() == nil)
    }

    /// One cache per graph path, relative paths made absolute.
    @Test func eachGraphPathHasItsOwnCache() {
        let a = GraphFileCache.path(of: "/home/me/graph.json", in: "/c")
        let b = GraphFileCache.path(of: "/home/me/other.json", in: "/c")
        #expect(a != b)
        #expect(a.hasPrefix("/c/graph-") && a.hasSuffix(".contents"))
        let cwd = FileManager.default.currentDirectoryPath
        #expect(GraphFileCache.path(of: "g.json", in: "/c") == GraphFileCache.path(of: cwd + "/g.json", in: "/c"))
    }
}

