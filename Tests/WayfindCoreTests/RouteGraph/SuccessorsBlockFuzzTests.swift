import Testing
import WayfindTestSupport

@testable import WayfindCore

@Suite("RouteGraph: the successors block, fuzzed against the full load")
struct SuccessorsBlockFuzzTests {
    typealias Random = SuggestionScanTests
    static let epoch = Random.epoch

    static let tricky = [
        "[", "]", "],", "  ],", "successors", "successors: [", "places: [", "{destination:", "    {destination:x}",
        "version: 1", "}", "{", "[]", "], [", "\\back", "Qu\"ote", "a,\tb", "x ],\n  y",
    ]
    static let pool = Random.names + tricky

    static func randomGraph(using random: inout SplitMix64, plainOnly: Bool) -> RouteGraph {
        var graph = RouteGraph()
        let source = plainOnly ? pool.filter { !$0.contains("\\") && !$0.contains("\"") && !$0.contains("\n") } : pool
        let poolSlice = source.shuffled(using: &random).prefix(Int.random(in: 1...source.count, using: &random))
        for step in 0..<Int.random(in: 0...50, using: &random) {
            let place = poolSlice.randomElement(using: &random)!
            let time = epoch + Int64(step) * Int64.random(in: 1...200_000, using: &random)
            graph.visit(place, at: time, selfLoops: random.next() % 2 == 0, newTrip: random.next() % 6 == 0)
        }
        if random.next() % 6 == 0, let doomed = poolSlice.randomElement(using: &random) { _ = graph.forget(doomed) }
        if random.next() % 6 == 0 { _ = graph.prune(maxPlaces: Int.random(in: 1...6, using: &random)) }
        return graph
    }

    static func spellings(of name: String, using random: inout SplitMix64) -> String {
        switch random.next() % 4 {
        case 0: return name.lowercased()
        case 1: return name.uppercased()
        case 2: return "  " + name.replacingOccurrences(of: " ", with: "   ") + " "
        default: return name
        }
    }

    static func randomRequest(_ graph: RouteGraph, using random: inout SplitMix64) -> SuggestionRequest {
        var from: String? = nil
        switch random.next() % 4 {
        case 0: from = pool.randomElement(using: &random)
        case 1: from = graph.lastVisitedLocation.map { spellings(of: $0, using: &random) }
        default: from = nil
        }
        return SuggestionRequest(
            from: from,
            limit: [nil, 0, 1, 2, 3, 5, 10, 50].randomElement(using: &random)!,
            successorsOnly: random.next() % 4 == 0,
            halfLife: random.next() % 3 == 0 ? Int64.random(in: 1...1_000_000, using: &random) : nil,
            now: epoch + Int64.random(in: 0...10_000_000, using: &random))
    }

    static func randomFilter(using random: inout SplitMix64) -> ((String) -> Bool)? {
        let letter = ["a", "c", "h", "z", "o", "[", "]", "s"].randomElement(using: &random)!
        return random.next() % 3 == 0 ? { RouteGraph.placeKey($0).contains(letter) } : nil
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Compares every fast path on `bytes` with the full load. `stamped`: the file could
    /// carry the stamp (written by our code).
    static func compare(_ bytes: [UInt8], stamped: Bool, using random: inout SplitMix64, count: Int = 6) throws -> Int {
        let loaded = try RouteGraph(json: bytes)
        var answered = 0
        for _ in 0..<count {
            let request = randomRequest(loaded, using: &random)
            let filter = randomFilter(using: &random)
            let full = loaded.suggestions(for: request, filter: filter)
            var vouching = false
            let parallelAbove = random.next() % 2 == 0 ? 0 : RouteGraph.parallelScanBytes
            let scanned = withExactCopy(of: bytes) {
                RouteGraph.scannedSuggestions(
                    in: $0, for: request, filter: filter, parallelAbove: parallelAbove, edgesChecked: false,
                    vouching: &vouching)
            }
            if let scanned {
                answered += 1
                if scanned != full {
                    throw Failure(
                        description: "unstamped scan \(request): \(scanned) vs \(full)\n\(String(decoding: bytes, as: UTF8.self))")
                }
            }
            if stamped || vouching {
                let skimmed = withExactCopy(of: bytes) {
                    RouteGraph.scannedSuggestions(
                        in: $0, for: request, filter: filter, parallelAbove: parallelAbove, edgesChecked: true)
                }
                if let skimmed, skimmed != full {
                    throw Failure(
                        description:
                            "stamped(\(stamped)) vouched(\(vouching)) scan \(request): \(skimmed) vs \(full)\n\(String(decoding: bytes, as: UTF8.self))"
                    )
                }
            }
        }
        return answered
    }

    @Test func fuzzWriterFilesAndPatchChains() throws {
        var random = SplitMix64(seed: 9001)
        var answered = 0
        var patched = 0
        for _ in 0..<1500 {
            let plainOnly = random.next() % 4 != 0
            let graph = Self.randomGraph(using: &random, plainOnly: plainOnly)
            var bytes = graph.json()
            var stamped = graph.namesAreWrittenPlain
            // The block found from the end is the one the forward reader finds.
            let fromTail = bytes.withUnsafeBytes { RouteGraph.successorsFromTail($0) }
            #expect(fromTail == SuccessorsBlockTests.blockLines(bytes) || (fromTail == nil && !stamped))
            answered += try Self.compare(bytes, stamped: stamped, using: &random)
            for _ in 0..<5 {
                let last = try RouteGraph(json: bytes).lastVisitedLocation
                var place = Self.pool.randomElement(using: &random)!
                if random.next() % 3 == 0, let last { place = Self.spellings(of: last, using: &random) }
                guard !RouteGraph.placeKey(place).isEmpty else { continue }
                let time = Self.epoch + Int64.random(in: -1000...20_000_000, using: &random)
                let selfLoops = random.next() % 2 == 0
                let newTrip = random.next() % 6 == 0
                let tripGap: Int64? = random.next() % 4 == 0 ? Int64.random(in: 1...5_000_000, using: &random) : nil
                let maxPlaces = [0, 0, 0, 3, 5, 12, 50_000].randomElement(using: &random)!
                let expected = try VisitPatchTests.fullRewrite(
                    bytes, place: place, at: time, selfLoops: selfLoops, newTrip: newTrip, tripGap: tripGap,
                    maxPlaces: maxPlaces)
                let parallelAbove = random.next() % 2 == 0 ? 0 : RouteGraph.parallelScanBytes
                let patch = withExactCopy(of: bytes) {
                    RouteGraph.visitPatch(
                        $0, place: place, at: time, selfLoops: selfLoops, newTrip: newTrip, tripGap: tripGap,
                        maxPlaces: maxPlaces, parallelAbove: parallelAbove, edgesChecked: stamped)
                }
                if let patch {
                    patched += 1
                    let actual = bytes.withUnsafeBytes { patch.applied(to: $0) }
                    if actual != expected {
                        Issue.record(
                            """
                            patch differs: visit \(place) selfLoops \(selfLoops) newTrip \(newTrip) gap \(String(describing: tripGap)) max \(maxPlaces) stamped \(stamped)
                            \(String(decoding: bytes, as: UTF8.self))
                            expected
                            \(String(decoding: expected, as: UTF8.self))
                            actual
                            \(String(decoding: actual, as: UTF8.self))
                            """)
                        break
                    }
                    bytes = actual
                    stamped = true
                } else {
                    bytes = expected
                    stamped = try RouteGraph(json: expected).namesAreWrittenPlain
                }
                answered += try Self.compare(bytes, stamped: stamped, using: &random, count: 3)
            }
        }
        #expect(answered > 1000)
        #expect(patched > 300)
    }

    /// Files with a wrong block (edited), never stamped by us: the unstamped scan must not
    /// vouch, answers must match, and a patch must produce the full rewrite.
    @Test func fuzzWrongBlocks() throws {
        var random = SplitMix64(seed: 9002)
        var tampered = 0
        for _ in 0..<1500 {
            let graph = Self.randomGraph(using: &random, plainOnly: true)
            let bytes = graph.json()
            guard let range = SuccessorsBlockTests.blockLines(bytes) else { continue }
            let text = String(decoding: bytes[range], as: UTF8.self)
            var lines = text.isEmpty ? [] : text.components(separatedBy: ",\n    ")
            let edgesText = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n").filter {
                $0.hasPrefix("    {\"destination\"")
            }.map { String($0.dropFirst(4)).trimmingSuffix(",") }
            switch random.next() % 7 {
            case 0: if !lines.isEmpty { lines.removeLast() } else { continue }
            case 1: if let other = edgesText.randomElement(using: &random) { lines.append(other) } else { continue }
            case 2: if lines.count >= 2 { lines.swapAt(0, 1) } else { continue }
            case 3:
                if !lines.isEmpty { lines[0] = lines[0].replacingOccurrences(of: "\"weight\":", with: "\"weight\":1") } else { continue }
            case 4: if let other = edgesText.randomElement(using: &random), !lines.isEmpty { lines[0] = other } else { continue }
            case 5: if !lines.isEmpty { lines.append(lines[0]) } else { continue }
            default: if !lines.isEmpty { lines = [] } else { continue }
            }
            let newText = lines.joined(separator: ",\n    ")
            var newBytes: [UInt8]
            if newText.isEmpty {
                // `[],` form
                let full = String(decoding: bytes, as: UTF8.self)
                guard let key = full.range(of: "  \"successors\": ["), let end = full.range(of: "  \"version\": 1\n}\n")
                else { continue }
                newBytes = Array((String(full[..<key.upperBound]) + "],\n" + String(full[end.lowerBound...])).utf8)
            } else if text.isEmpty {
                let full = String(decoding: bytes, as: UTF8.self)
                guard let key = full.range(of: "  \"successors\": ["), let end = full.range(of: "  \"version\": 1\n}\n")
                else { continue }
                newBytes = Array((String(full[..<key.upperBound]) + "\n    " + newText + "\n  ],\n" + String(full[end.lowerBound...])).utf8)
            } else {
                newBytes = Array(bytes[..<range.lowerBound]) + Array(newText.utf8) + Array(bytes[range.upperBound...])
            }
            if newBytes == bytes { continue }
            tampered += 1
            // The full reader reads it the same.
            #expect(try RouteGraph(json: newBytes).json() == bytes)
            let loaded = try RouteGraph(json: newBytes)
            for _ in 0..<6 {
                let request = Self.randomRequest(loaded, using: &random)
                let filter = Self.randomFilter(using: &random)
                var vouching = false
                let scanned = withExactCopy(of: newBytes) {
                    RouteGraph.scannedSuggestions(
                        in: $0, for: request, filter: filter, parallelAbove: 0, edgesChecked: false, vouching: &vouching)
                }
                if vouching {
                    Issue.record("vouched for a wrong block: \(request)\n\(String(decoding: newBytes, as: UTF8.self))")
                }
                if let scanned { #expect(scanned == loaded.suggestions(for: request, filter: filter)) }
            }
            let place = Self.pool.filter { !$0.contains("\\") && !$0.contains("\"") }.randomElement(using: &random)!
            guard !RouteGraph.placeKey(place).isEmpty else { continue }
            let selfLoops = random.next() % 2 == 0
            let time = Self.epoch + 30_000_000
            let patch = newBytes.withUnsafeBytes { RouteGraph.visitPatch($0, place: place, at: time, selfLoops: selfLoops) }
            if let patch {
                let expected = try VisitPatchTests.fullRewrite(
                    newBytes, place: place, at: time, selfLoops: selfLoops, newTrip: false, tripGap: nil, maxPlaces: 0)
                #expect(newBytes.withUnsafeBytes { patch.applied(to: $0) } == expected)
            }
        }
        #expect(tampered > 500)
    }
    /// Damage concentrated in the tail (records and block), and every truncation of a
    /// small file: the stamped paths must not crash (run under ASan); the unstamped scan
    /// must never answer where the full reader rejects.
    @Test func damagedTails() throws {
        var random = SplitMix64(seed: 9003)
        let replacements: [UInt8] = Array("\n\"},:0 {[]".utf8) + [0x01, 0xC3, 0xFF]
        var fastOnRejected = 0
        for iteration in 0..<3000 {
            let graph = Self.randomGraph(using: &random, plainOnly: true)
            var bytes = graph.json()
            guard bytes.count > 20 else { continue }
            let tailStart = max(0, bytes.count - Int.random(in: 1...400, using: &random))
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                bytes[Int.random(in: tailStart..<bytes.count, using: &random)] = replacements.randomElement(using: &random)!
            }
            if random.next() % 3 == 0 { bytes.removeLast(Int.random(in: 0...min(bytes.count, 60), using: &random)) }
            if iteration % 50 == 0 {
                let whole = graph.json()
                for cut in 0..<whole.count {
                    let part = Array(whole[..<cut])
                    _ = withExactCopy(of: part) { RouteGraph.successorsFromTail($0) }
                    _ = withExactCopy(of: part) {
                        RouteGraph.scannedSuggestions(
                            in: $0, for: SuggestionRequest(limit: 3, now: Self.epoch), filter: nil, parallelAbove: 0,
                            edgesChecked: true)
                    }
                }
            }
            _ = withExactCopy(of: bytes) { RouteGraph.successorsFromTail($0) }
            let rejected = (try? RouteGraph(json: bytes)) == nil
            let loaded = try? RouteGraph(json: bytes)
            for _ in 0..<3 {
                let request = Self.randomRequest(loaded ?? graph, using: &random)
                _ = withExactCopy(of: bytes) {
                    RouteGraph.scannedSuggestions(in: $0, for: request, filter: nil, parallelAbove: 0, edgesChecked: true)
                }
                var vouching = false
                let scanned = withExactCopy(of: bytes) {
                    RouteGraph.scannedSuggestions(
                        in: $0, for: request, filter: nil, parallelAbove: 0, edgesChecked: false, vouching: &vouching)
                }
                if rejected && scanned != nil {
                    fastOnRejected += 1
                    Issue.record("unstamped scan answered a rejected file\n\(String(decoding: bytes, as: UTF8.self))")
                }
                if let scanned, let loaded { #expect(scanned == loaded.suggestions(for: request)) }
            }
            let place = Self.pool.randomElement(using: &random)!
            _ = withExactCopy(of: bytes) {
                RouteGraph.visitPatch($0, place: place, at: Self.epoch, selfLoops: true, edgesChecked: true)
            }
            let patch = withExactCopy(of: bytes) { RouteGraph.visitPatch($0, place: place, at: Self.epoch, selfLoops: true) }
            if rejected && patch != nil { Issue.record("patched a rejected file\n\(String(decoding: bytes, as: UTF8.self))") }
        }
        #expect(fastOnRejected == 0)
    }
    /// Hand-edited but valid files: the last place spelled differently in the header, its
    /// record and on each edge line, with the block copying the edge lines exactly (so a
    /// scan may vouch for it). Once vouched, the stamped path must agree with the full load.
    @Test func lastPlaceSpelledDifferently() throws {
        var random = SplitMix64(seed: 9004)
        var vouchedAnswers = 0
        var stampedAnswers = 0
        var patches = 0
        for _ in 0..<2000 {
            let graph = Self.randomGraph(using: &random, plainOnly: true)
            guard let last = graph.lastVisitedLocation else { continue }
            let text = String(decoding: graph.json(), as: UTF8.self)
            func variant() -> String {
                switch random.next() % 3 {
                case 0: return last.lowercased()
                case 1: return last.uppercased()
                default: return last
                }
            }
            var lines = text.components(separatedBy: "\n")
            var edgeLines: [String] = []
            let lastKey = RouteGraph.placeKey(last)
            var blockIndex: Int? = nil
            for index in lines.indices {
                let line = lines[index]
                if line == "  \"successors\": [" || line == "  \"successors\": []," {
                    blockIndex = index
                    break
                }
                if line.hasPrefix("    {\"destination\":\"") {
                    var edge = line
                    if let range = edge.range(of: ",\"origin\":\"" + last + "\","), random.next() % 2 == 0 {
                        edge.replaceSubrange(range, with: ",\"origin\":\"" + variant() + "\",")
                    }
                    if let range = edge.range(of: "{\"destination\":\"" + last + "\","), random.next() % 2 == 0 {
                        edge.replaceSubrange(range, with: "{\"destination\":\"" + variant() + "\",")
                    }
                    lines[index] = edge
                    edgeLines.append(edge)
                } else if line.hasPrefix("  \"lastVisitedLocation\": ") {
                    lines[index] = "  \"lastVisitedLocation\": \"" + variant() + "\","
                } else if line.contains("\"name\":\"" + last + "\",") {
                    lines[index] = line.replacingOccurrences(
                        of: "\"name\":\"" + last + "\",", with: "\"name\":\"" + variant() + "\",")
                }
            }
            guard let blockIndex else { continue }
            var leaving: [String] = []
            for edge in edgeLines {
                var body = String(edge.dropFirst(4))
                if body.hasSuffix(",") { body.removeLast() }
                guard let o = body.range(of: ",\"origin\":\""),
                    let w = body.range(of: "\",\"weight\":", range: o.upperBound..<body.endIndex)
                else { continue }
                if RouteGraph.placeKey(String(body[o.upperBound..<w.lowerBound])) == lastKey { leaving.append(body) }
            }
            let head = lines[..<blockIndex].joined(separator: "\n")
            let block =
                leaving.isEmpty
                ? "  \"successors\": [],"
                : "  \"successors\": [\n    " + leaving.joined(separator: ",\n    ") + "\n  ],"
            let bytes = Array((head + "\n" + block + "\n  \"version\": 1\n}\n").utf8)
            guard let loaded = try? RouteGraph(json: bytes) else {
                Issue.record("edited file rejected\n\(String(decoding: bytes, as: UTF8.self))")
                continue
            }
            for _ in 0..<6 {
                let request = Self.randomRequest(loaded, using: &random)
                let filter = Self.randomFilter(using: &random)
                let full = loaded.suggestions(for: request, filter: filter)
                var vouching = false
                let scanned = bytes.withUnsafeBytes {
                    RouteGraph.scannedSuggestions(in: $0, for: request, filter: filter, vouching: &vouching)
                }
                if let scanned {
                    #expect(scanned == full, "unstamped \(request)\n\(String(decoding: bytes, as: UTF8.self))")
                }
                guard vouching else { continue }
                vouchedAnswers += 1
                for _ in 0..<4 {
                    let request = Self.randomRequest(loaded, using: &random)
                    let filter = Self.randomFilter(using: &random)
                    let skimmed = bytes.withUnsafeBytes {
                        RouteGraph.scannedSuggestions(in: $0, for: request, filter: filter, edgesChecked: true)
                    }
                    if let skimmed {
                        stampedAnswers += 1
                        #expect(
                            skimmed == loaded.suggestions(for: request, filter: filter),
                            "stamped \(request)\n\(String(decoding: bytes, as: UTF8.self))")
                    }
                    let place =
                        random.next() % 2 == 0
                        ? Self.spellings(of: last, using: &random) : Self.pool.randomElement(using: &random)!
                    guard !RouteGraph.placeKey(place).isEmpty, !place.contains("\""), !place.contains("\\") else {
                        continue
                    }
                    let selfLoops = random.next() % 2 == 0
                    let time = Self.epoch + 30_000_000
                    let patch = bytes.withUnsafeBytes {
                        RouteGraph.visitPatch($0, place: place, at: time, selfLoops: selfLoops, edgesChecked: true)
                    }
                    if let patch {
                        patches += 1
                        let expected = try VisitPatchTests.fullRewrite(
                            bytes, place: place, at: time, selfLoops: selfLoops, newTrip: false, tripGap: nil,
                            maxPlaces: 0)
                        let actual = bytes.withUnsafeBytes { patch.applied(to: $0) }
                        let actualLoaded = try RouteGraph(json: actual)
                        #expect(
                            actualLoaded.json() == expected,
                            "patch \(place)\n\(String(decoding: bytes, as: UTF8.self))\nactual\n\(String(decoding: actual, as: UTF8.self))")
                        for _ in 0..<3 {
                            let request = Self.randomRequest(actualLoaded, using: &random)
                            let skimmed = actual.withUnsafeBytes {
                                RouteGraph.scannedSuggestions(in: $0, for: request, filter: nil, edgesChecked: true)
                            }
                            if let skimmed {
                                #expect(
                                    skimmed == actualLoaded.suggestions(for: request),
                                    "patched stamped \(request)\n\(String(decoding: actual, as: UTF8.self))")
                            }
                        }
                    }
                }
                break
            }
        }
        print("vouched \(vouchedAnswers) stamped \(stampedAnswers) patches \(patches)")
        #expect(vouchedAnswers > 100)
        #expect(stampedAnswers > 100)
    }

}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
