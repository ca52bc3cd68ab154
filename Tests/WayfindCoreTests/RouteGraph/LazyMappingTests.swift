import Foundation
import Testing

@testable import WayfindCore

#if canImport(Glibc)
    import Glibc
#endif

/// A stamped graph file that `routegraph-suggest` maps lazily (pages read in as they are
/// touched) is never rewritten under the reader while it holds it: saves go elsewhere.
@Suite("RouteGraph: a lazily mapped file while visits are saved")
struct LazyMappingTests {
    static let epoch: Int64 = 1_700_000_000

    func visit(_ file: GraphFile, _ place: String, _ time: Int64) throws {
        try file.update(patching: { bytes, isChecked in
            RouteGraph.visitPatch(bytes, place: place, at: time, selfLoops: true, edgesChecked: isChecked).map { ($0, ()) }
        }) { graph in graph.visit(place, at: time, selfLoops: true) }
    }

    @Test func aLazilyMappedFileIsNeverRewrittenUnderTheReader() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanUp() }
        let file = GraphFile(path: scratch.path + "/graph.json")
        try file.update { graph in
            for step in 0..<200 { graph.visit("Place \(step % 37)", at: Self.epoch + Int64(step)) }
        }
        let original = try Array(Data(contentsOf: URL(fileURLWithPath: file.path)))
        let mapped = try #require(try FileSystem.mapFile(at: file.path, stamp: GraphFile.checkedStamp, lazilyIfStamped: true))
        // Six saves: enough for the file to come round as the spare three times over.
        for step in 0..<6 { try visit(file, "Place \(step)", Self.epoch + 1000 + Int64(step)) }
        #expect(Array(mapped.bytes) == original, "the mapped file changed under the reader")
        let request = SuggestionRequest(limit: 3, now: Self.epoch + 2000)
        if mapped.isStamped {
            let answer = withExtendedLifetime(mapped) {
                RouteGraph.scannedSuggestions(in: mapped.bytes, for: request, edgesChecked: true)
            }
            #expect(answer == (try RouteGraph(json: original)).suggestions(for: request))
        }
    }
}
