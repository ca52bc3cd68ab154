import Foundation
import Testing
import WayfindCLI
import WayfindCore
import WayfindTestSupport

/// An app using the library (`import WayfindCore`, public API only) and the shell tools
/// write one graph file at once.
@Suite("GraphFile: an app and the tools share a file")
struct GraphFileSharingTests {
    /// What a server shares among its tasks must be `Sendable` (a compile-time check).
    func requireSendable<T: Sendable>(_: T.Type) {}

    @Test func theLibrarysSharedTypesAreSendable() {
        requireSendable(Geocoder.self)
        requireSendable(RouteGraph.self)
        requireSendable(GraphFile.self)
        requireSendable(GraphFileError.self)
        requireSendable(MatchQuery.self)
    }

    @Test func appThreadsAndToolProcessesWritingAtOnceLoseNoVisit() async throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        let processes = 4
        let threads = 4
        let visitsEach = 150
        let script = """
            for p in $(seq 1 \(processes)); do
              ( for i in $(seq 1 \(visitsEach)); do routegraph-visit --self-loops --graph '\(scratch.graph)' "Shell $p-$((i % 3))" || echo "failed $p $i" >&2; done ) &
            done
            wait
            """
        let graph = scratch.graph
        // The app's writers: half record through `record` (the patch path), half through
        // `update` (load, change, save); each thread opens the file as the tools do.
        let app = Task.detached { () throws -> Void in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for t in 0..<threads {
                    group.addTask {
                        let file = try GraphFile(resolving: graph)
                        for i in 0..<visitsEach {
                            let visit = VisitRequest.Visit(place: "App \(t)-\(i % 3)", time: 1_800_000_000 + Int64(i))
                            if t % 2 == 0 {
                                try file.record(VisitRequest(visits: [visit], selfLoops: true))
                            } else {
                                try file.update { graph in graph.record(VisitRequest(visits: [visit], selfLoops: true)) }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let shell = try await Binaries.shell(script)
        try await app.value
        #expect(shell.status == 0)
        #expect(shell.stderr.split(separator: "\n").allSatisfy { $0.contains(": waiting for the lock on ") }, "\(shell)")
        let total = (processes + threads) * visitsEach
        // With self-loops every visit but the very first adds exactly 1 to some edge.
        #expect(try scratch.totalWeight() == total - 1)
        let places = try #require(try scratch.parsed()["places"] as? [[String: Any]])
        #expect(places.reduce(0) { $0 + ($1["visits"] as? Int ?? 0) } == total)
        // The library reads back what everyone wrote.
        let loaded = try GraphFile(path: graph).load()
        #expect(loaded.edges.reduce(0) { $0 + $1.weight } == total - 1)
        #expect(loaded.places.count == (processes + threads) * 3)
    }

    @Test func aDamagedFileIsAPublicErrorAndIsLeftAlone() throws {
        let scratch = try GraphScratch()
        defer { scratch.cleanUp() }
        try scratch.write("{\"edges\": [")
        let file = GraphFile(path: scratch.graph)
        #expect {
            try file.record(VisitRequest(visits: [.init(place: "Home", time: 1_800_000_000)]))
        } throws: { error in
            guard case .corrupt(let path, _, _) = error as? GraphFileError else { return false }
            return path == scratch.graph && "\(error)".contains("the file was left unchanged")
        }
        #expect(scratch.bytes() == Data("{\"edges\": [".utf8))
    }
}
