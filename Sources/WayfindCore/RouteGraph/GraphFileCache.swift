#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a read of a graph file found (`GraphFileContents`), kept in the user's cache, so
/// that a search box reading the same graph on every keystroke parses it once per
/// version, not once per key.
///
///     ${XDG_CACHE_HOME:-$HOME/.cache}/wayfind/graph-<the graph's path, hashed>.contents
///
/// The contents of a read that kept every edge and every record's hours are written as
/// they are in memory (edges, records, hours: arrays of plain values, copied whole when
/// loaded), with the stamp of the file they came from (`FileMapping.stamp`: device,
/// inode, size, modification and change time), the records' keys
/// (`GraphFileContents.RecordKeys`), the initials of their display names (for a search
/// box's filter, `GraphFileContents.recordInitials`) and a fingerprint of each edge's
/// origin key. Names stay in the graph file, which is mapped as before; only names with escapes are
/// copied. A read whose file has the same stamp takes the contents from here instead of
/// parsing 1.7 MB of JSON (10,000 edges), keeping only the edges it asks for (those
/// leaving the from-place, found by their fingerprints and checked by their keys).
/// Whatever answers, `RouteGraph.scannedSuggestions` then reads the same contents.
///
/// Equal stamps mean equal bytes only for a file that had settled: a write sets the
/// change time, which cannot be set back, but from a clock that ticks coarsely, so two
/// writes of the same size in one tick (an inode reused by two quick saves) keep the
/// stamp. As git does with its index, a file changed in the last `settledSeconds` is
/// parsed and not kept: a later write then has a later change time.
///
/// The header holds what must match for the arrays to mean the same: their layout, the
/// machine's byte order, and the key rule (`ruleFingerprint`: the keys and initials of
/// names that exercise folding, so a build that folds or splits names otherwise reads no
/// cache of another).
///
/// The file is ours alone: written atomically (a new file renamed over the old, without
/// `fsync`: a cache lost in a crash is read again from the graph), one per graph path,
/// replaced when the graph changes; a cache another user owns is not read. Every span,
/// range and count is checked when it is loaded, so a damaged, cut or foreign file is
/// read as no cache (the graph is parsed, and the cache written again); a byte changed
/// in a number (a time, a count of visits) reads, but no span leaves the graph's bytes.
/// A cache that cannot be written (a read-only home) costs nothing but the speed.
package enum GraphFileCache {
    /// The first bytes of a cache file, with the layout's version: a layout change makes
    /// older caches unreadable, to be replaced.
    static let magic = Array("wayfind graph contents 3\n".utf8)

    /// A file changed less than this many seconds ago is parsed and not kept: its stamp
    /// may not change with its next write (see above). Two seconds cover the coarsest
    /// clocks of local file systems.
    static let settledSeconds: Int64 = 2

    /// The key rule's fingerprint: the keys (`PlaceName.withKey`) and initials
    /// (`initials(of:)`) of names that exercise case, accents, whitespace, scripts and
    /// word splitting, and a number in the machine's byte order.
    static let ruleFingerprint: UInt64 = {
        var print: UInt64 = 0x0102_0304_0506_0708
        let names = ["  Zürich  Süd ", "ΑΘΗΝΑ", "Straße", "İstanbul", "Ångström", "Москва", "東京", "Ǆemal", "Ⅻ ﬁ", "ŁÓDŹ", "McDonald's 7-Eleven", "Øresund·Ærø"]
        let matcher = initialsMatcher()
        for name in names {
            var name = name
            print = (print ^ name.withUTF8 { PlaceName.withKey(UnsafeRawBufferPointer($0), GraphFileContents.RecordKeys.fingerprint) })
                &* 0x9E37_79B9_7F4A_7C15
            print = (print ^ name.withUTF8 { initials(of: UnsafeRawBufferPointer($0), matcher) }) &* 0x9E37_79B9_7F4A_7C15
        }
        return print
    }()

    /// The matcher whose word mode splits names for their initials: the default mode,
    /// that of `Geocoder.predictionFilter`'s queries.
    static func initialsMatcher() -> LineMatcher { LineMatcher(MatchQuery("")) }

    /// The initials (`LineMatcher.initials`) of the display name of the place spelled
    /// `name`; `matcher` is an `initialsMatcher()`.
    static func initials(of name: UnsafeRawBufferPointer, _ matcher: LineMatcher) -> UInt64 {
        PlaceName.withDisplay(name, matcher.initials)
    }

    /// The sizes and field offsets of the values stored as they are in memory: a build
    /// that lays them out otherwise reads no cache of another.
    static let layout: [UInt64] = {
        typealias C = GraphFileContents
        return [
            MemoryLayout<C.Edge>.stride, MemoryLayout<C.Edge>.offset(of: \.origin)!, MemoryLayout<C.Edge>.offset(of: \.destination)!, MemoryLayout<C.Edge>.offset(of: \.weight)!,
            MemoryLayout<C.Edge>.offset(of: \.timeValue)!, MemoryLayout<C.Edge>.offset(of: \.element)!,
            MemoryLayout<C.Record>.stride, MemoryLayout<C.Record>.offset(of: \.name)!, MemoryLayout<C.Record>.offset(of: \.visits)!, MemoryLayout<C.Record>.offset(of: \.timeValue)!,
            MemoryLayout<C.Record>.offset(of: \.element)!, MemoryLayout<C.Record>.offset(of: \.hoursIndex)!,
            MemoryLayout<HourCounts>.stride, MemoryLayout<C.Name>.stride, MemoryLayout<Range<Int32>>.stride,
        ].map { UInt64($0) }
    }()

    /// Where the cache of the graph at `path` is kept in `directory`.
    package static func path(of graphPath: String, in directory: String) -> String {
        var absolute = graphPath
        if !absolute.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            if getcwd(&buffer, buffer.count) != nil {
                let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                absolute = cwd + "/" + graphPath
            }
        }
        var hash = GazetteerFingerprint()
        hash.update(Array(absolute.utf8))
        return directory + "/graph-" + GazetteerFingerprint.hex(hash.value) + ".contents"
    }

    /// The contents kept at `cachePath` for `file`, with the edges `selection` keeps (as
    /// `GraphFileContents.read` keeps them), when they are its version's and whole.
    static func load(for file: FileMapping, from cachePath: String, edges selection: GraphFileContents.EdgeSelection)
        -> GraphFileContents?
    {
        guard let cache = try? FileSystem.mapFile(at: cachePath) else { return nil }
        return withExtendedLifetime(cache) {
            guard cache.isOwnedByCurrentUser else { return nil }
            let contents = self.contents(ofImage: cache.bytes, file: file.bytes, stamp: file.stamp, edges: selection)
            return cache.wasCutShort ? nil : contents
        }
    }

    /// Keeps `contents`, read from `file` with every edge and every record's hours, at
    /// `cachePath`; quietly does nothing when it cannot (the cache only saves time).
    /// Only a file that had settled (`settledSeconds`) is kept.
    static func store(_ contents: GraphFileContents, of file: FileMapping, at cachePath: String, now: Int64) {
        guard contents.keptOrigin == nil, contents.keepsHours, file.secondsSinceChange(now: now) >= settledSeconds else { return }
        let image = image(of: contents, file: file.bytes, stamp: file.stamp)
        guard !file.hasChanged else { return }
        do {
            try FileSystem.createDirectories(FileSystem.directory(of: cachePath))
            try FileSystem.writeAtomically(image, to: cachePath, durable: false)
        } catch {}
    }

    /// The bytes a cache file holds for `contents`, read with every edge and every
    /// record's hours from `file`, whose stamp is `stamp`.
    static func image(of contents: GraphFileContents, file: UnsafeRawBufferPointer, stamp: [UInt64]) -> [UInt8] {
        precondition(contents.keptOrigin == nil && contents.keepsHours, "a cache holds every edge and every record's hours")
        var writer = Writer()
        writer.bytes += magic
        for value in layout + [ruleFingerprint] + stamp { writer.u64(value) }
        writer.contents(contents, file: file)
        return writer.bytes
    }

    /// The contents a cache file's bytes `image` hold for `file`, whose stamp is `stamp`,
    /// with the edges `selection` keeps; nil when they are another file's or version's, or
    /// anything in them is out of place (no span leaves `file`, whatever the bytes).
    static func contents(
        ofImage image: UnsafeRawBufferPointer, file: UnsafeRawBufferPointer, stamp: [UInt64],
        edges selection: GraphFileContents.EdgeSelection
    ) -> GraphFileContents? {
        var reader = Reader(bytes: image, file: file)
        guard reader.take(magic.count).map({ $0.elementsEqual(magic) }) == true else { return nil }
        for value in layout + [ruleFingerprint] + stamp { guard reader.u64() == value else { return nil } }
        guard let contents = reader.contents(edges: selection), reader.isAtEnd else { return nil }
        return contents
    }

    /// The keys of top-level members, by their number in the cache.
    private static let keys: [GraphFileContents.Key] = [.edges, .places, .lastVisitedLocation, .lastVisitedAt, .version, .successors, .other]

    /// Appends the contents in the cache's layout: little-endian integers, and arrays of
    /// plain values as they are in memory.
    private struct Writer {
        var bytes: [UInt8] = []

        mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }
        mutating func values<T>(_ array: [T]) {
            u64(UInt64(array.count))
            array.withUnsafeBytes { bytes += $0 }
        }

        mutating func contents(_ c: GraphFileContents, file: UnsafeRawBufferPointer) {
            i64(Int64(c.edgeCount))
            i64(Int64(c.lastEdgeStart))
            values(c.lastName.map { [$0] } ?? [])
            values(c.lastVisitedAt.map { [$0] } ?? [])
            i64(c.version)
            i64(Int64(c.elementsReadByGeneralPath))
            u64(UInt64(c.decodedNames.names.count))
            for decoded in c.decodedNames.names {
                u64(UInt64(decoded.count))
                bytes += decoded
            }
            u64(UInt64(c.members.count))
            for member in c.members {
                u64(UInt64(GraphFileCache.keys.firstIndex(of: member.key)!))
                i64(Int64(member.start))
                i64(Int64(member.value.lowerBound))
                i64(Int64(member.value.upperBound))
            }
            let keys = c.recordKeys ?? GraphFileContents.RecordKeys(c, in: file)
            u64(keys.allDifferent ? 1 : 0)
            values(keys.fingerprints)
            let matcher = initialsMatcher()
            values(c.recordInitials ?? c.records.map { GraphFileCache.initials(of: c.bytes(of: $0.name, in: file), matcher) })
            values(c.edges.map { PlaceName.withKey(c.bytes(of: $0.origin, in: file), GraphFileContents.RecordKeys.fingerprint) })
            values(c.edges)
            values(c.hourCounts)
            // A record's padding is zeroed (not whatever memory held): the same contents
            // always make the same bytes.
            typealias R = GraphFileContents.Record
            u64(UInt64(c.records.count))
            for record in c.records {
                var chunk = [UInt8](repeating: 0, count: MemoryLayout<R>.stride)
                chunk.withUnsafeMutableBytes { chunk in
                    func put<T>(_ value: T, _ field: PartialKeyPath<R>) {
                        withUnsafeBytes(of: value) {
                            UnsafeMutableRawBufferPointer(rebasing: chunk[MemoryLayout<R>.offset(of: field)!...]).copyMemory(from: $0)
                        }
                    }
                    put(record.name, \R.name)
                    put(record.visits, \R.visits)
                    put(record.timeValue, \R.timeValue)
                    put(record.element, \R.element)
                    put(record.hoursIndex, \R.hoursIndex)
                }
                bytes += chunk
            }
        }
    }

    /// Reads the cache's layout, checking every count against what is left and every span
    /// against the graph file; nil at the first thing out of place.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        /// The graph file's bytes.
        let file: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count >= 0, count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
        }
        mutating func u64() -> UInt64? {
            take(8).map { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        }
        mutating func i64() -> Int64? { u64().map { Int64(bitPattern: $0) } }
        mutating func i32() -> Int32? { i64().flatMap { Int32(exactly: $0) } }
        /// The bytes of a count of `T`s stored as they are in memory, and the count.
        mutating func block<T>(of type: T.Type) -> (bytes: UnsafeRawBufferPointer, count: Int)? {
            guard let n = u64(), n <= UInt64(bytes.count - offset) / UInt64(MemoryLayout<T>.stride),
                let block = take(Int(n) * MemoryLayout<T>.stride)
            else { return nil }
            return (block, Int(n))
        }
        /// The `T`s of a block, copied (`T` is a plain value: no references).
        mutating func values<T>(of type: T.Type) -> [T]? {
            precondition(_isPOD(T.self))
            guard let (block, count) = block(of: T.self) else { return nil }
            return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: block)
                initialized = count
            }
        }

        func isValid(_ range: Range<Int32>) -> Bool {
            0 <= range.lowerBound && range.lowerBound <= range.upperBound && Int(range.upperBound) <= file.count
        }
        /// Whether `name`'s bytes lie in the graph file or among `decoded`.
        func isValid(_ name: GraphFileContents.Name, decoded: GraphFileContents.DecodedNames) -> Bool {
            guard name.count >= 0 else { return false }
            if name.start >= 0 { return Int(name.start) + Int(name.count) <= file.count }
            let index = -(Int(name.start) + 1)
            return index < decoded.names.count && decoded.names[index].count == Int(name.count)
        }

        mutating func contents(edges selection: GraphFileContents.EdgeSelection) -> GraphFileContents? {
            var c = GraphFileContents()
            c.keepsHours = true
            guard let edgeCount = i64(), edgeCount >= 0, let lastEdgeStart = i32(), let lastName = values(of: GraphFileContents.Name.self),
                lastName.count <= 1, let lastVisitedAt = values(of: Int64.self), lastVisitedAt.count <= 1, let version = i64(),
                (0...Int64(RouteGraph.currentVersion)).contains(version), let general = i64(), general >= 0, let decodedCount = u64(), decodedCount <= UInt64(bytes.count - offset) / 8
            else { return nil }
            (c.edgeCount, c.lastEdgeStart, c.lastVisitedAt, c.version) = (Int(edgeCount), lastEdgeStart, lastVisitedAt.first, version)
            c.elementsReadByGeneralPath = Int(general)
            for _ in 0..<decodedCount {
                guard let n = u64(), let decoded = take(Int(clamping: n)), !decoded.contains(0) else { return nil }
                _ = c.decodedNames.append(decoded)
            }
            if let name = lastName.first {
                guard isValid(name, decoded: c.decodedNames) else { return nil }
                c.lastName = name
            }
            guard let memberCount = u64(), memberCount <= UInt64(bytes.count - offset) / 32 else { return nil }
            for _ in 0..<memberCount {
                guard let key = u64(), key < UInt64(GraphFileCache.keys.count), let start = i32(), let lower = i32(), let upper = i32(),
                    0 <= start, start <= lower, lower <= upper, isValid(lower..<upper)
                else { return nil }
                c.members.append(.init(key: GraphFileCache.keys[Int(key)], start: start, value: lower..<upper))
            }
            guard let allDifferent = u64(), let prints = values(of: UInt64.self), let initials = values(of: UInt64.self),
                initials.count == prints.count
            else { return nil }
            c.recordKeys = .init(fingerprints: prints, allDifferent: allDifferent != 0)
            c.recordInitials = initials
            // The edges: every one, or those leaving the place of one key, found by the
            // fingerprints of their origins' keys and checked by the key itself.
            var kept: [UInt8]? = nil
            switch selection {
            // (A visit reads no cache; every edge holds those it asks for.)
            case .every, .touchingLastPlace: break
            case .leaving(let key): kept = key
            case .leavingLastPlace: kept = c.lastName.map { PlaceName.withKey(c.bytes(of: $0, in: file)) { Array($0) } }
            }
            guard let (origins, edgeListCount) = block(of: UInt64.self), let (edges, count) = block(of: GraphFileContents.Edge.self),
                count == edgeListCount
            else { return nil }
            func edge(_ i: Int) -> GraphFileContents.Edge? {
                let stride = MemoryLayout<GraphFileContents.Edge>.stride
                var edge = GraphFileContents.Edge(origin: .init(start: 0, count: 0), destination: .init(start: 0, count: 0), weight: 0, timeValue: 0, element: 0..<0)
                withUnsafeMutableBytes(of: &edge) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: edges[i * stride..<(i + 1) * stride])) }
                guard isValid(edge.origin, decoded: c.decodedNames), isValid(edge.destination, decoded: c.decodedNames),
                    isValid(edge.element), edge.weight >= 0
                else { return nil }
                return edge
            }
            if let kept {
                c.keptOrigin = kept
                let print = kept.withUnsafeBytes(GraphFileContents.RecordKeys.fingerprint)
                for i in 0..<count where origins.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self) == print {
                    guard let edge = edge(i) else { return nil }
                    if kept.withUnsafeBytes({ PlaceName.hasKey(c.bytes(of: edge.origin, in: file), $0) }) { c.edges.append(edge) }
                }
            } else {
                c.edges.reserveCapacity(count)
                for i in 0..<count {
                    guard let edge = edge(i) else { return nil }
                    c.edges.append(edge)
                }
                c.lastEdgeEnd = c.edges.last?.element.upperBound ?? .min
            }
            guard let hourCounts = values(of: HourCounts.self), let records = values(of: GraphFileContents.Record.self),
                prints.count == records.count
            else { return nil }
            for record in records {
                let hours = Int(record.hoursIndex)
                guard isValid(record.name, decoded: c.decodedNames), isValid(record.element), record.visits >= 0,
                    hours == -1 || (hours < -1 && -2 - hours < hourCounts.count)
                else { return nil }
            }
            (c.hourCounts, c.records) = (hourCounts, records)
            return c
        }
    }
}
