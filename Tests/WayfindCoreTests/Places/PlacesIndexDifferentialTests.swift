import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

/// The index of a `--places` file finds what a scan of the file finds: a GeoNames dump made
/// from the embedded gazetteer's 34,006 rows (cities500-like: names, alternate names,
/// feature codes, populations, region codes without names), searched both ways for a few
/// hundred random queries.
@Suite struct PlacesIndexDifferentialTests {
    /// The dump: places.tsv's rows in GeoNames' 19 columns, in file order.
    static let dump: (path: String, bytes: [UInt8]) = {
        let text = try! String(contentsOfFile: PlacesTestSupport.placesTSV, encoding: .utf8)
        var lines: [String] = []
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            // geonameid name asciiname alternatenames latitude longitude feature_code category
            // country_code country_name admin1_code admin1_name population timezone
            lines.append(
                [
                    f[0], f[1], f[2], f[3], f[4], f[5], "P", f[6].isEmpty ? "PPL" : f[6], f[8], "", f[10], "", "", "", f[12], "", "0",
                    f[13],
                    "2024-01-01",
                ].joined(separator: "\t"))
        }
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let path = try! TestFiles.write(Data(bytes), name: "cities-like.txt")
        return (path, bytes)
    }()

    /// The dump's index, built as the cache builds it, in aligned memory.
    nonisolated(unsafe) static let indexed: (index: PlacesIndex, tsv: UnsafeBufferPointer<UInt8>) = {
        let descriptor = try! FileDescriptor.openForReading(dump.path)
        defer { descriptor.close() }
        let image = try! PlacesIndex.build(reading: descriptor, path: dump.path, names: try! TestGazetteer.index(), source: .init())
        let bytes = image.bytes()
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count + dump.bytes.count)
        _ = storage.initialize(from: bytes + dump.bytes)
        let index = PlacesIndex(UnsafeBufferPointer(rebasing: storage[..<bytes.count]))!
        return (index, UnsafeBufferPointer(rebasing: storage[bytes.count...]))
    }()

    static func compare(_ query: String, near location: Coordinate?, filters: PlaceFilters = PlaceFilters(), limit: Int) throws {
        let search = { PlaceSearch(text: query, bias: LocationBias(location: location, radius: nil), filters: filters, limit: limit) }
        let viaIndex = try search().search(index: indexed.index, tsv: indexed.tsv, path: dump.path)
        let descriptor = try FileDescriptor.openForReading(dump.path)
        defer { descriptor.close() }
        let scanned = try search().search(scanning: descriptor, path: dump.path, names: TestGazetteer.index())
        func describe(_ r: SearchResult) -> [String] {
            r.places.map {
                "\($0.place.label) @\($0.place.offset):\($0.place.line) tier \($0.rank.tier) own \($0.rank.ownName) \($0.matched ?? "-") \($0.score)"
            } + r.collections.map { "collection \($0)" }
        }
        #expect(describe(viaIndex) == describe(scanned), "query \(query) near \(String(describing: location)) limit \(limit)")
        // The two ways of uniting posting lists, each forced, find the same.
        for bitmaps in [true, false] {
            let forced = search()
            forced.unitesInBitmaps = bitmaps
            let found = try forced.search(index: indexed.index, tsv: indexed.tsv, path: dump.path)
            #expect(
                describe(found) == describe(scanned),
                "query \(query) near \(String(describing: location)) limit \(limit), bitmaps \(bitmaps)")
        }
        // The grid walk, forced on with no budget and a small one (the postings take over
        // past it), and forced off.
        for (grid, rows) in [(true, nil), (true, 200), (true, 3_000), (false, nil)] as [(Bool, Int?)] {
            let forced = search()
            forced.usesGrid = grid
            forced.gridRowLimit = rows
            let found = try forced.search(index: indexed.index, tsv: indexed.tsv, path: dump.path)
            #expect(
                describe(found) == describe(scanned),
                "query \(query) near \(String(describing: location)) limit \(limit), grid \(grid) budget \(String(describing: rows))")
        }
        #expect(viaIndex.fingerprint == scanned.fingerprint)
    }

    @Test(arguments: [
        "s", "sa", "san", "paris", "san jose", "new york", "springfield", "sao paulo", "moskva", "東京", "paris tx", "m", "x", "roma",
        "mexico", "salt lake", "new york city", "city", "london uk", "vancouver bc", "sydney nsw", "usa",
        // Words run on across an apostrophe, which the scan's finder cannot see.
        "maanshan", "luan", "coxs bazar", "laquila", "yanan", "feld", "anshan", "echo",
        // A word of a region's name run on across an apostrophe: O'Higgins, Tul'skaya.
        "ohiggins rancagua", "rancagua ohiggins", "tulskaya aleksin", "aleksin tulskaya",
        // A query word with an apostrophe or a dot inside is two pieces, for the scan's
        // first look too (`heart's` is `heart` and `s`), and a word begun in an alternate
        // name but not at the start of the own one may still enter (Las Cruces is Cruces).
        "n'djamena", "st.louis", "st.p", "san'a", "xi'an ", "lu'an ", "saint's", "cruces ",
        // A short last word that qualifies a whole name (`PlaceMatch.typedShort`): the
        // scan's bound must not take the name as short.
        "central la", "deerfield us", "bra it", "st lo",
    ])
    func typeAheadQueriesFindWhatTheScanFinds(query: String) throws {
        try Self.compare(query, near: nil, limit: 5)
        try Self.compare(query, near: Coordinate(latitude: 41.88, longitude: -87.63), limit: 5)
        try Self.compare(query, near: nil, limit: 15)
    }

    /// A word the own name holds but does not begin may begin an alternate name, and the
    /// index's bound for the row must count that start: Las Cruces, Chiapas, is also
    /// Cruces, which `cruces` spells whole, so it beats Cruces de Rojas, twice its size,
    /// which the index had found first and then kept.
    @Test func aWordInsideTheOwnNameMayBeginAnAlternateName() throws {
        let text = """
            name\talternatenames\tlatitude\tlongitude\tcountry_code\tpopulation
            Cruces de Rojas\t\t20.5\t-101.0\tMX\t2000
            Las Cruces\tCruces\t16.8\t-92.6\tMX\t1000

            """
        let path = try PlacesTestSupport.temporaryFile(text, name: "cruces.tsv")
        func search() -> PlaceSearch {
            PlaceSearch(text: "cruces", bias: LocationBias(location: nil, radius: nil), filters: PlaceFilters(), limit: 1)
        }
        let descriptor = try FileDescriptor.openForReading(path)
        defer { descriptor.close() }
        let image = try PlacesIndex.build(reading: descriptor, path: path, names: try TestGazetteer.index(), source: .init())
        let bytes = image.bytes() + Array(text.utf8)
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        defer { storage.deallocate() }
        _ = storage.initialize(from: bytes)
        let index = try #require(PlacesIndex(UnsafeBufferPointer(rebasing: storage[..<image.bytes().count])))
        let viaIndex = try search().search(index: index, tsv: UnsafeBufferPointer(rebasing: storage[image.bytes().count...]), path: path)
        let rescan = try FileDescriptor.openForReading(path)
        defer { rescan.close() }
        let scanned = try search().search(scanning: rescan, path: path, names: TestGazetteer.index())
        #expect(scanned.places.first?.place.name == "Las Cruces")
        #expect(viaIndex.places.first?.place.name == "Las Cruces")
    }

    /// One-word queries near places all over the Earth: in dense and empty cells, near the
    /// poles and the antimeridian, at longitudes beyond ±180 (the library takes them), and
    /// with a filter.
    @Test func shortQueriesNearAnywhereFindWhatTheScanFinds() throws {
        let locations = [
            Coordinate(latitude: 41.88, longitude: -87.63), Coordinate(latitude: 48.85, longitude: 2.35),
            Coordinate(latitude: -33.87, longitude: 151.2), Coordinate(latitude: 35.68, longitude: 139.69),
            Coordinate(latitude: 0, longitude: -150), Coordinate(latitude: 89.9, longitude: 0),
            Coordinate(latitude: -16.5, longitude: 179.9), Coordinate(latitude: 64.1, longitude: -21.9),
            Coordinate(latitude: 41.88, longitude: 272.37), Coordinate(latitude: -33.87, longitude: -208.8),
            Coordinate(latitude: 48.85, longitude: 722.35),
        ]
        var filters = PlaceFilters()
        filters.countries = ["FR"]
        // (And one word typed in full: `st ` and `saint ` walk the grid as `s` does.)
        for query in ["s", "sa", "san", "sant", "n", "m", "mo", "x", "q", "é", "東", "м", "ab", "st ", "san ", "saint ", "s ", "mo "] {
            for location in locations {
                try Self.compare(query, near: location, limit: 5)
            }
            try Self.compare(query, near: locations[0], filters: filters, limit: 15)
        }
    }

    /// Several pieces near places all over the Earth (a second word begun, two whole
    /// words): past the head, the grid's near cells and every whole name.
    @Test func severalPiecesNearAnywhereFindWhatTheScanFinds() throws {
        let locations = [
            Coordinate(latitude: 41.88, longitude: -87.63), Coordinate(latitude: 48.85, longitude: 2.35),
            Coordinate(latitude: -33.87, longitude: 151.2), Coordinate(latitude: 0, longitude: -150),
            Coordinate(latitude: -23.55, longitude: -46.63), Coordinate(latitude: 41.88, longitude: 272.37),
        ]
        for query in ["new y", "san j", "sao p", "los a", "st p", "salt l", "new york", "san jose", "paris t", "a b", "s s", "la p"] {
            for location in locations {
                try Self.compare(query, near: location, limit: 5)
            }
            try Self.compare(query, near: locations[0], limit: 15)
        }
    }

    /// A query of several spellings (`st l` is also `saint l` and `sankt l`) is searched
    /// longest first, each later spelling only for what beats the last of the list so
    /// far (`PlaceSearch.floor`): the answer is the best of every spelling searched in
    /// full, merged by rank, and the scan's, which has no floor.
    @Test func aSpellingSearchedAfterAnotherFindsWhatItWouldAlone() throws {
        let indexed = Geocoder(IndexedGazetteer(tsv: Self.indexed.tsv, index: Self.indexed.index, path: Self.dump.path))
        let scanned = Geocoder(ScannedGazetteer(path: Self.dump.path, access: GazetteerAccess(cacheFolder: nil)))
        let locations = [nil, Coordinate(latitude: 41.88, longitude: -87.63), Coordinate(latitude: 45.5, longitude: -73.6)]
        for query in ["st l", "st ", "saint p", "st. p", "st-l", "mt v", "ft w", "fort w", "st louis", "sankt p", "san j"] {
            for location in locations {
                for limit in [1, 5, 15] {
                    let bias = LocationBias(location: location, radius: nil)
                    let found = try indexed.searchVariants(
                        text: query, lastWordComplete: false, bias: bias, filters: PlaceFilters(), limit: limit)
                    // Every spelling alone, in full, merged by each place's best rank.
                    var best: [Int: FoundPlace] = [:]
                    for variant in SearchText.queryVariants(query, lastWordComplete: false) {
                        let search = PlaceSearch(text: variant, bias: bias, filters: PlaceFilters(), limit: limit)
                        for place in try search.search(index: Self.indexed.index, tsv: Self.indexed.tsv, path: Self.dump.path).places {
                            if best[place.place.offset].map({ place.rank < $0.rank }) ?? true { best[place.place.offset] = place }
                        }
                    }
                    let merged = best.values.sorted { $0.rank < $1.rank }.prefix(limit)
                    let context = "\(query) near \(String(describing: location)) limit \(limit)"
                    #expect(found.places.map(\.place.offset) == merged.map(\.place.offset), "\(context)")
                    #expect(found.places.map(\.matched) == merged.map(\.matched), "\(context)")
                    let viaScan = try scanned.searchVariants(
                        text: query, lastWordComplete: false, bias: bias, filters: PlaceFilters(), limit: limit)
                    #expect(found.places.map(\.place.offset) == viaScan.places.map(\.place.offset), "\(context)")
                }
            }
            // No room: no place (a search's bound read the last of an empty list).
            #expect(try indexed.suggest(query, limit: 0).isEmpty)
            #expect(try indexed.find(text: query, limit: 0).isEmpty)
            #expect(try scanned.suggest(query, near: locations[1], limit: 0).isEmpty)
            #expect(try indexed.suggest(query, history: RouteGraph(), at: 0, limit: 0).isEmpty)
        }
    }

    /// A search with a floor finds the places of the search without one that rank before
    /// it, through every source: the grid forced on (with a small budget too) and off,
    /// bitmaps and lists.
    @Test func aFloorKeepsThePlacesThatRankBeforeIt() throws {
        let locations = [nil, Coordinate(latitude: 41.88, longitude: -87.63), Coordinate(latitude: 48.85, longitude: 2.35)]
        for query in ["s", "st ", "saint ", "st l", "sa", "san j", "paris", "new y"] {
            for location in locations {
                let bias = LocationBias(location: location, radius: nil)
                let all = try PlaceSearch(text: query, bias: bias, filters: PlaceFilters(), limit: 12)
                    .search(index: Self.indexed.index, tsv: Self.indexed.tsv, path: Self.dump.path).places
                for k in [0, 2, 5, 9] where k < all.count {
                    for (grid, rows, bitmaps) in [(true, nil, nil), (true, 200, nil), (false, nil, true), (false, nil, false)]
                        as [(Bool, Int?, Bool?)]
                    {
                        let search = PlaceSearch(text: query, bias: bias, filters: PlaceFilters(), limit: 5)
                        (search.floor, search.usesGrid, search.gridRowLimit, search.unitesInBitmaps) = (all[k].rank, grid, rows, bitmaps)
                        let found = try search.search(index: Self.indexed.index, tsv: Self.indexed.tsv, path: Self.dump.path).places
                        #expect(
                            found.map(\.place.offset) == all.prefix(min(k, 5)).map(\.place.offset),
                            "\(query) near \(String(describing: location)) below place \(k), grid \(grid) \(String(describing: rows))")
                    }
                }
            }
        }
    }

    @Test func randomQueriesFindWhatTheScanFinds() throws {
        var random = SplitMix64(seed: 29)
        let rows = String(decoding: Self.dump.bytes, as: UTF8.self).split(separator: "\n")
        for _ in 0..<300 {
            let f = rows[Int(random.next() % UInt64(rows.count))].split(separator: "\t", omittingEmptySubsequences: false)
            let words = (f[1] + " " + f[3].replacingOccurrences(of: ",", with: " ")).split(separator: " ").map { String($0) }
            var query = words[Int(random.next() % UInt64(words.count))]
            switch random.next() % 4 {
            case 0: query = String(query.prefix(1 + Int(random.next() % 3)))
            case 1: query += " " + String(f[8]).lowercased()
            case 2: query = String(f[1])
            default: break
            }
            let location =
                random.next() % 3 == 0 ? Coordinate(latitude: Double(f[4])!, longitude: Double(f[5])! + Double(random.next() % 5)) : nil
            var filters = PlaceFilters()
            if random.next() % 8 == 0 { filters.countries = [String(f[8])] }
            try Self.compare(query, near: location, filters: filters, limit: random.next() % 2 == 0 ? 5 : 15)
        }
    }

    /// `Geocoder.place(labelled:)` reads a label's rows from the index; a scanned file
    /// finds them by a search for the name. Both give the same row, with and without a
    /// location, for the labels of random rows, and none for a label no row has.
    @Test func aLabelsRowIsTheSameThroughTheIndexAndTheScan() throws {
        let indexed = Geocoder(IndexedGazetteer(tsv: Self.indexed.tsv, index: Self.indexed.index, path: Self.dump.path))
        let scanned = Geocoder(ScannedGazetteer(path: Self.dump.path, access: GazetteerAccess(cacheFolder: nil)))
        var random = SplitMix64(seed: 26)
        let rowStarts = [0] + Self.dump.bytes.indices.filter { Self.dump.bytes[$0] == 0x0A }.map { $0 + 1 }.dropLast()
        var labels = ["Springfield, Massachusetts, United States", "San Antonio, Texas, United States", "Nowhere, Texas", "paris"]
        for _ in 0..<120 {
            let offset = rowStarts[Int(random.next() % UInt64(rowStarts.count))]
            let found = try indexed.find(
                magicKey: MagicKey.place(fingerprint: Self.indexed.index.fingerprint, offset: offset, line: 0).encoded)
            labels.append(found[0].place.label)
        }
        // Case does not split a name's words (`pARIS` is not `p` and `aris`).
        let swapped = ["pARIS, îLE-DE-FRANCE, fRANCE", "sPRINGFIELD, mASSACHUSETTS, uNITED sTATES", "SAN ANTONIO, TEXAS, UNITED STATES"]
        for label in swapped { #expect(try indexed.place(labelled: label, near: nil) != nil, "\(label)") }
        labels += swapped
        for label in labels {
            for location in [nil, Coordinate(latitude: 41.88, longitude: -87.63), Coordinate(latitude: -33.87, longitude: 151.2)] {
                let viaIndex = try indexed.place(labelled: label, near: location)
                let viaScan = try scanned.place(labelled: label, near: location)
                #expect(viaIndex?.place.offset == viaScan?.place.offset, "\(label) near \(String(describing: location))")
                if label.contains(",") && !label.hasPrefix("Nowhere") {
                    #expect(viaIndex.map { TextFolding.fold($0.place.label) } == TextFolding.fold(label))
                }
            }
        }
        let filtered = PlaceFilters(countries: ["FR"])
        #expect(try indexed.place(labelled: "Paris, Texas, United States", near: nil, filters: filtered) == nil)
        #expect(try indexed.place(labelled: "Paris, Île-de-France, France", near: nil, filters: filtered)?.place.name == "Paris")
    }

    @Test func theDumpsRegionAndCountryNamesAreResolvedAtBuildTime() throws {
        let found = try PlaceSearch(text: "paris", bias: LocationBias(location: nil, radius: nil), filters: PlaceFilters(), limit: 1)
            .search(index: Self.indexed.index, tsv: Self.indexed.tsv, path: Self.dump.path)
        #expect(found.places.first?.place.label == "Paris, Île-de-France, France")
        // A query word that only the resolved region name holds.
        let texas = try PlaceSearch(text: "paris texas", bias: LocationBias(location: nil, radius: nil), filters: PlaceFilters(), limit: 1)
            .search(index: Self.indexed.index, tsv: Self.indexed.tsv, path: Self.dump.path)
        #expect(texas.places.first?.place.label == "Paris, Texas, United States")
    }

    @Test func rowsAreNumberedByImportance() throws {
        let index = Self.indexed.index
        let factors = index.categories.map { PlaceCategory.importanceFactor($0) }
        var previous = Double.infinity
        for r in 0..<index.rowCount {
            let importance = Double(index.population(ofRow: r) + 1) * factors[index.categoryIndex(ofRow: r)]
            #expect(importance <= previous, "row \(r)")
            if importance > previous { break }
            previous = importance
        }
        #expect(index.prefixList(Array("s".utf8)) != nil)
    }

    /// Found by the fuzz target: a TSV without a category column has one category, the
    /// empty one, which the index must keep.
    @Test func aGazetteerWithoutCategoriesIsSearchedThroughItsIndex() throws {
        let geocoder = try Geocoder(
            tsv: Array("name\tlatitude\tlongitude\r\n{Brace} Corner\t10.5\t20.25\r\nSão Paulo\t-23.5\t-46.6\r\n".utf8))
        #expect(try geocoder.suggest("sao").map(\.text) == ["São Paulo"])
    }
}
