/// Fuzz target `graph`: arbitrary bytes as a route graph file.
///
/// An input is a graph file (any bytes). For each input:
///
/// - the one reader (`GraphFileContents.read`) and the full load (`RouteGraph(json:)`)
///   agree on whether the file is a graph, and neither traps, whatever the bytes;
/// - a graph that loads, saved with `json()` and loaded again, is the same graph, and
///   saving that gives the same bytes (the writer is a fixed point);
/// - suggestions scanned from the file (the fast path of routegraph-suggest), when the
///   scan answers, equal those of the whole graph, and the whole graph never traps on
///   ranking whatever times and weights the file holds;
/// - a visit patched into the file (the fast path of routegraph-visit), when the patch
///   answers, reads back as the graph a full load, visit and save gives; for a file
///   `json()` wrote, byte for byte.
///
/// A difference prints the case and aborts, so libFuzzer keeps the input.

import Glibc

private func graphFuzzFail(_ message: String) -> Never {
    let text = "graph fuzz: " + message + "\n"
    var copy = text
    copy.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    abort()
}

private func shown(_ bytes: [UInt8]) -> String {
    String(decoding: bytes.prefix(2000), as: UTF8.self)
}

/// A time in the range the tools accept (1970 to 9999), taken from the input.
private let graphFuzzNow: Int64 = 1_800_000_000

/// The file with a visit patched in, or nil when the patch leaves it to a full rewrite.
private func graphFuzzPatched(_ bytes: [UInt8], place: String, at time: Int64, selfLoops: Bool, newTrip: Bool) -> [UInt8]? {
    let request = VisitRequest(
        visits: [.init(place: place, time: time)], newTrip: newTrip, selfLoops: selfLoops, timeZone: .utc)
    return bytes.withUnsafeBytes { buffer in
        guard let contents = try? RouteGraph.contents(of: buffer) else { return nil }
        func patched(_ changes: [FileChange]?) -> [UInt8]? {
            changes.map { FileChange.withPieces(of: buffer, with: $0[...]) { $0.reduce(into: []) { $0 += $1 } } }
        }
        return patched(RouteGraph.visitPatch(contents, in: buffer, request))
    }
}

/// Checks the fast paths on `bytes`, a file that loads as `graph`.
private func graphFuzzCheckFastPaths(_ bytes: [UInt8], _ graph: RouteGraph, places: [String], written: Bool) {
    // Suggestions: the scan against the whole graph, from a read of every edge and from
    // one of the edges leaving the from-place (as `GraphFile.suggestions` reads first).
    for from in [nil] + places.prefix(2).map(Optional.some) {
        for limit in [1, 3] {
            let request = SuggestionRequest(from: from, limit: limit, now: graphFuzzNow)
            let whole = graph.suggestions(for: request, filter: nil)
            for edges in [GraphFileContents.EdgeSelection.every, GraphFileContents.edges(for: request, filtered: false)] {
                let scanned = bytes.withUnsafeBytes { buffer in
                    (try? RouteGraph.contents(of: buffer, edges: edges)).flatMap {
                        RouteGraph.scannedSuggestions($0, in: buffer, for: request, filter: nil)
                    }
                }
                if let scanned, scanned != whole {
                    graphFuzzFail("scan \(request): \(scanned) but the whole graph gives \(whole) on\n\(shown(bytes))")
                }
            }
        }
    }
    // A visit: the patch against a full load, visit and save.
    for (index, place) in (places.prefix(2) + ["Fuzz Place"]).enumerated() {
        let selfLoops = index == 1
        let newTrip = index == 2
        var full = graph
        full.visit(place, at: graphFuzzNow, selfLoops: selfLoops, newTrip: newTrip, timeZone: .utc)
        let expected = full.json()
        guard let patched = graphFuzzPatched(bytes, place: place, at: graphFuzzNow, selfLoops: selfLoops, newTrip: newTrip)
        else { continue }
        if written {
            if patched != expected {
                graphFuzzFail("visit \(place): patched\n\(shown(patched))\nbut a full save writes\n\(shown(expected))")
            }
        } else {
            guard let reread = try? RouteGraph(json: patched) else {
                graphFuzzFail("visit \(place): the patched file does not load:\n\(shown(patched))\nfrom\n\(shown(bytes))")
            }
            if reread.json() != expected {
                graphFuzzFail("visit \(place): patched\n\(shown(patched))\nreads as\n\(shown(reread.json()))\nnot\n\(shown(expected))")
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func graphFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let read = bytes.withUnsafeBytes { (try? RouteGraph.contents(of: $0)) != nil }
    let graph = try? RouteGraph(json: bytes)
    if read != (graph != nil) {
        graphFuzzFail("the reader says \(read ? "a graph" : "not a graph"), the full load the opposite, on\n\(shown(bytes))")
    }
    guard let graph else { return 0 }

    // Round trip: save, load, save.
    let saved = graph.json()
    guard let again = try? RouteGraph(json: saved) else {
        graphFuzzFail("a saved graph does not load:\n\(shown(saved))\nfrom\n\(shown(bytes))")
    }
    if again != graph {
        graphFuzzFail("a saved graph loads as another graph:\n\(shown(saved))\nfrom\n\(shown(bytes))")
    }
    if again.json() != saved {
        graphFuzzFail("saving a saved graph changes it:\n\(shown(saved))\nthen\n\(shown(again.json()))")
    }

    let places = graph.placeStatistics.map(\.name)
    graphFuzzCheckFastPaths(bytes, graph, places: places, written: false)
    graphFuzzCheckFastPaths(saved, again, places: places, written: true)
    return 0
}
