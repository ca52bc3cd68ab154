import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// Timings for reading and writing graph files, printed, never asserted.
/// Run with `WAYFIND_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter GraphFileBenchmarks`.
@Suite("RouteGraph: timings", .serialized, .enabled(if: ProcessInfo.processInfo.environment["WAYFIND_BENCH"] != nil))
struct GraphFileBenchmarks {
    /// A graph with `count` edges over `count / 5` places with realistic names.
    static func sampleGraph(edges count: Int) -> RouteGraph {
        var graph = RouteGraph()
        let places = max(count / 5, 10)
        let names = (0..<places).map { "Haltestelle Nummer \($0) Süd" }
        for index in 0..<count {
            let origin = index % places
            let destination = (origin + 1 + index / places) % places
            let from = graph.intern(display: names[origin], key: RouteGraph.placeKey(names[origin]))
            let to = graph.intern(display: names[destination], key: RouteGraph.placeKey(names[destination]))
            graph.strengthen(from: from, to: to, by: 1 + index % 13, at: 1_700_000_000 + Int64(index))
        }
        graph.lastPlace = 0
        graph.lastVisitedAt = 1_700_000_000
        return graph
    }

    static func milliseconds(_ runs: Int = 7, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return times.sorted()[runs / 2]
    }

    @Test(arguments: [1_000, 10_000, 100_000])
    func loadAndSaveTimings(edges: Int) throws {
        let graph = Self.sampleGraph(edges: edges)
        let bytes = graph.json()
        let parse = try Self.milliseconds { _ = try RouteGraph(json: bytes) }
        let validate = Self.milliseconds { #expect(validationError(bytes) == nil) }
        let write = Self.milliseconds { _ = graph.json() }
        let data = Data(bytes)
        let seed = try JSONDecoder().decode(Seed.RouteGraph.self, from: data)
        let foundation = try Self.milliseconds { _ = try JSONEncoder().encode(JSONDecoder().decode(Seed.RouteGraph.self, from: data)) }
        _ = seed
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        try FileSystem.writeAtomically(bytes, to: file.path)
        var tick: Int64 = 0
        let update = try Self.milliseconds {
            tick += 1
            try file.update { $0.visit("Haltestelle Nummer \(tick % 50) Süd", at: 1_800_000_000 + tick) }
        }
        let load = try Self.milliseconds { _ = try file.load() }
        print(
            "timings edges=\(edges) bytes=\(bytes.count): validate \(validate) ms, parse \(parse) ms, serialize \(write) ms, "
                + "load (read+parse) \(load) ms, update (lock+read+parse+visit+write+fsync+rename) \(update) ms; "
                + "Foundation JSONDecoder+JSONEncoder \(foundation) ms")
    }
}
