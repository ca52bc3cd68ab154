import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

@Suite struct SuggestRankingTests {
    static let chicago = Coordinate(latitude: 41.88, longitude: -87.63)
    static let boston = Coordinate(latitude: 42.36, longitude: -71.06)
    static let dallas = Coordinate(latitude: 32.78, longitude: -96.80)

    /// A word typed again needs a word of the name of its own (`san san` is not San
    /// Marino): counted once per name, not tried in every split of the query, and a query
    /// of more than `PlaceSearch.mostPieces` pieces finds nothing.
    @Test func repeatedWordsNeedWordsOfTheirOwnAndHugeQueriesFindNothing() throws {
        #expect(PlaceMatcher.matchingSize(["san", "san", "san"].map { Array($0.utf8) }, to: ["san", "juan", "sant"].map { Array($0.utf8) }) == 2)
        #expect(try PlacesTestSupport.suggest(Array(repeating: "san", count: 10).joined(separator: " ")).places.isEmpty)
        let most = Array(repeating: "paris", count: PlaceSearch.mostPieces).joined(separator: " ")
        let bias = LocationBias(location: nil, radius: nil)
        #expect(!PlaceSearch(text: most, bias: bias, filters: PlaceFilters(), limit: 5).isEmpty)
        #expect(PlaceSearch(text: most + " paris", bias: bias, filters: PlaceFilters(), limit: 5).isEmpty)
    }

    /// A comma ends a word, with or without a space after it.
    @Test func aCommaWithoutASpaceStillSetsTheQualifierApart() throws {
        for (text, label) in [("austin,tx", "Austin, Texas, United States"), ("perth,wa", "Perth, Western Australia, Australia"),
            ("victoria,bc", "Victoria, British Columbia, Canada")] {
            #expect(try PlacesTestSupport.geocode(text).places.first?.place.label == label, "\(text)")
        }
    }

    /// Without a comma, a country or region may follow by an alternate name spelled whole
    /// (as with one); begun, it does not (`berlin paris` is not Région parisienne).
    @Test func aTrailingAreaByAWholeAlternateNameNarrowsWithoutAComma() throws {
        for (text, label) in [("munich bavaria", "Munich, Bayern, Germany"), ("köln deutschland", "Köln, Nordrhein-Westfalen, Germany"),
            ("москва россия", "Moscow, Moskva, Russia"), ("praha česká republika", "Prague, Hlavní město Praha, Czechia"),
            ("glasgow royaume uni", "Glasgow, Scotland, United Kingdom")] {
            #expect(try PlacesTestSupport.geocode(text).places.first?.place.label == label, "\(text)")
        }
        // Only the area's own places, by their region, not by a box around it (Stuttgart
        // is in Baden-Württemberg, inside Bayern's box); and a word of another name is
        // not the area (`écosse` of Nouvelle-Écosse).
        for text in ["stuttgart bavaria", "glasgow, écosse", "reno california"] {
            #expect(try PlacesTestSupport.geocode(text).places.isEmpty, "\(text)")
        }
        // (`berlin paris`: MagickeyToolTests.aListOfCountriesFiltersByEach.)
    }

    /// What an input method types in full width reads as typed in ASCII, before the
    /// folding too: its commas, spaces and codes.
    @Test func fullwidthCommasSpacesAndCodesReadAsTheirOrdinaryForms() throws {
        for (text, label) in [("ｐａｒｉｓ，ｔｘ", "Paris, Texas, United States"), ("灣仔，香港", "Wan Chai, Hong Kong"),
            ("munich、bavaria", "Munich, Bayern, Germany"), ("ｍｕｎｉｃｈ\u{3000}ｂａｖａｒｉａ", "Munich, Bayern, Germany"),
            ("ＤＥＵ", "Germany")] {
            #expect(try PlacesTestSupport.geocode(text).places.first?.place.label == label, "\(text)")
        }
        #expect(try PlacesTestSupport.geocode("seattle, ＣＡ").places.isEmpty)
    }

    /// The area itself, the answer after a comma when nothing there has the name, obeys
    /// the filters.
    @Test func theAreaGivenForNothingInItObeysTheFilters() {
        #expect(runInProcess(MagickeySuggest.run, ["munich, bavaria"]).status == 0)
        #expect(runInProcess(MagickeySuggest.run, ["seattle, canada"]).out.hasPrefix("Canada\t"))
        for filter in [["--category", "city"], ["--extent", "0,40,5,45"]] {
            let r = runInProcess(MagickeySuggest.run, filter + ["seattle, canada"])
            #expect(r.status == 1 && r.out == "", "\(filter)")
        }
    }

    /// A `--places` file's places are narrowed by the embedded gazetteer's areas: its own
    /// have no regions or countries of ours (a dump's admin1 codes, a feed's none).
    @Test func aTrailingAreaNarrowsAPlacesFileByTheEmbeddedAreas() throws {
        let line = PlacesTestSupport.geonamesLine
        let text =
            [
                line(5_690_532, "Munich", "48.67", "-98.83", "PPL", "US", "ND", 5_000_000),
                line(2_867_714, "Munich", "48.14", "11.58", "PPLA", "DE", "02", 1_260_391),
            ].joined(separator: "\n") + "\n"
        let path = try PlacesTestSupport.temporaryFile(text, name: "munich.txt")
        let home = try ScratchDirectory()
        defer { home.remove() }
        for (query, latitude) in [("munich", "48.67"), ("munich bavaria", "48.14"), ("munich, deutschland", "48.14"), ("munich north dakota", "48.67")] {
            let r = runInProcess(MagickeySuggest.run, ["--places", path, "--max-suggestions", "1", query], environment: ["HOME": home.path])
            let key = try #require(r.out.split(separator: "\t").dropFirst().first.map(String.init), "\(query)")
            let found = runInProcess(MagickeyFind.run, ["--places", path, "--json", key], environment: ["HOME": home.path])
            #expect(found.out.contains("\"y\":\(latitude)"), "\(query): \(found.out)")
        }
    }

    /// Issue 46's table of first letters, as magickey-suggest prints them: what a person
    /// expects first, and what came first before (an alternate, region or country word
    /// carrying the match) nowhere in the first three.
    @Test(arguments: [
        ("san f", "San Francisco, California", "Bogotá"), ("new", "New York City, New York", "Sydney"),
        ("st", "Stockholm, Stockholms län", "New York City"), ("chi", "Chicago, Illinois", "Beijing"),
        ("ber", "Berlin, Germany", "Véroia"), ("lon", "London, England", "Hanoi"), ("new y", "New York City, New York", "New City"),
        ("new o", "New Orleans, Louisiana", "Jakarta"), ("new d", "New Delhi, Delhi", "Jakarta"), ("mu", "Mumbai, Mahārāshtra", "Lima"),
        ("mün", "Munich, Bayern", "Lima"),
    ])
    func theFirstLettersGiveWhatAPersonExpects(text: String, first: String, absent: String) {
        let lines = runInProcess(MagickeySuggest.run, ["-n", "3", text]).out.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        #expect(lines.first?.hasPrefix(first) == true, "\(text): \(lines)")
        #expect(!lines.contains { $0.hasPrefix(absent) }, "\(text): \(lines)")
    }

    /// Near Chicago: the Portlands people mean (not Blue Island by an old name), and the
    /// Springfield of Illinois for `spring`.
    @Test func theFirstLettersNearChicago() {
        func first(_ n: Int, _ text: String) -> [String] {
            runInProcess(MagickeySuggest.run, ["--location", "41.88,-87.63", "-n", String(n), text]).out.split(separator: "\n")
                .map { String($0.prefix { $0 != "\t" }) }
        }
        #expect(Set(first(2, "portland")) == ["Portland, Oregon, United States", "Portland, Maine, United States"])
        #expect(first(1, "spring") == ["Springfield, Illinois, United States"])
    }

    @Test func springfieldNearIllinoisIsSpringfieldIllinois() throws {
        let result = try PlacesTestSupport.suggest("springfield", near: Self.chicago)
        #expect(result.places.first?.place.label == "Springfield, Illinois, United States")
    }

    @Test func springfieldNearMassachusettsIsSpringfieldMassachusetts() throws {
        let result = try PlacesTestSupport.suggest("springfield", near: Self.boston)
        #expect(result.places.first?.place.label == "Springfield, Massachusetts, United States")
    }

    @Test func parisNearTexasIsParisTexasAndParisAloneIsTheCapital() throws {
        #expect(try PlacesTestSupport.suggest("paris", near: Self.dallas).places.first?.place.label == "Paris, Texas, United States")
        #expect(try PlacesTestSupport.suggest("paris").places.first?.place.label == "Paris, Île-de-France, France")
    }

    /// A short query is typed on: a village spelled whole does not come before the city
    /// the query starts, nor before the places near the user (`RankKey.shortQueryLetters`).
    @Test func aShortQueryFindsTheCityItStartsBeforeAVillageItSpells() throws {
        #expect(try PlacesTestSupport.suggest("tok").places.first?.place.label == "Tokyo, Japan")
        let sanFrancisco = Coordinate(latitude: 37.77, longitude: -122.42)
        #expect(
            try PlacesTestSupport.suggest("san", near: sanFrancisco).places.first?.place.label
                == "San Francisco, California, United States")
        // A whole name still weighs: Bath before Bathinda, three times its size.
        #expect(try PlacesTestSupport.suggest("bath").places.first?.place.label == "Bath, England, United Kingdom")
        #expect(try PlacesTestSupport.suggest("bath").places.first?.rank.wholeName == true)
    }

    /// The last word of several, still typed and short, is short as a one-word query is:
    /// St. Louis stays first from `st l` to `st louis`, though `st lo` spells Saint-Lô
    /// whole, a place of a thirteenth of its people. Typed in full, a space after it, or
    /// with its accent, the word spells Saint-Lô.
    @Test func aShortLastWordKeepsThePlaceItBegins() throws {
        let geocoder = Geocoder(IndexedGazetteer(tsv: TestGazetteer.tsv, index: try TestGazetteer.index(), path: "(gazetteer)"))
        for query in ["st l", "st lo", "st lou", "st. lo", "saint lo"] {
            #expect(try geocoder.suggest(query, limit: 1).first?.text == "St. Louis, Missouri, United States", "\(query)")
        }
        for query in ["st lo ", "saint lo ", "st lô", "saint lô"] {
            #expect(try geocoder.suggest(query, limit: 1).first?.text == "Saint-Lô, Normandie, France", "\(query)")
        }
        // A short last word that qualifies a name typed in full leaves its weight whole.
        for (query, first) in [
            ("central la", "Central, Louisiana, United States"), ("deerfield, US", "Deerfield, Illinois, United States"),
            ("bra, IT", "Bra, Piemonte, Italy"),
        ] {
            #expect(try geocoder.suggest(query, limit: 1).first?.text == first, "\(query)")
        }
    }

    /// A place ranks by its best name: while `sana` is typed, it begins Sanaa's own name
    /// (ownNameWeight) and spells its alternate Sana whole (shortWholeNameWeight, less),
    /// and the own name is the match.
    @Test func aPlaceRanksByItsBestName() throws {
        let first = try #require(try PlacesTestSupport.suggest("sana").places.first)
        #expect(first.place.name == "Sanaa" && first.rank.ownName && first.matched == nil, "\(first.place.label) \(first.matched ?? "-")")
        // Typed in full, the alternate spelled whole weighs more than the own name begun.
        let whole = try #require(try PlacesTestSupport.suggest("sana ").places.first { $0.place.name == "Sanaa" })
        #expect(whole.rank.wholeName && whole.matched == "Sana")
    }

    /// A word typed in full, a space after it, is a word of the name: `la ` gives La Paz
    /// before Lagos, ten times its size, which `la` begins (`RankKey.begunWordWeight`),
    /// and near a location a place with the word before a nearer one it only begins.
    @Test func aWordTypedInFullPrefersANameWithThatWord() throws {
        #expect(try PlacesTestSupport.suggest("la").places.first?.place.label == "Lagos, Nigeria")
        #expect(try PlacesTestSupport.suggest("la ").places.first?.place.label == "La Paz, Bolivia")
        #expect(try PlacesTestSupport.suggest("al ").places.first?.place.label.hasPrefix("Al ") == true)
        // A word before another is typed in full: `san f` is San Francisco, not Sanford.
        #expect(
            try PlacesTestSupport.suggest("san f").places.first?.place.label == "San Francisco, California, United States")
        // Near Chicago, `st ` and `saint ` are St. Charles and St. Louis, not Streamwood and
        // Carol Stream next door, which `st` only begins (as the tools search: `st` is also
        // `saint` and `sankt`).
        let chicago = Coordinate(latitude: 41.88, longitude: -87.63)
        for text in ["st ", "saint "] {
            let near = try PlacesTestSupport.geocode(text, near: chicago).places.prefix(3).map(\.place.name)
            #expect(
                Array(near.prefix(2)) == ["St. Charles", "St. Louis"] && !near.contains("Streamwood") && !near.contains("Carol Stream"),
                "\(text) \(near)")
        }
    }

    /// Typing a name in its own language, accents and all, keeps the place first: from
    /// `mün` to `münchen` Munich, though `münc` begins Muncie's own name
    /// (`PlaceMatch.beginsAsTyped`); without the accent `munc` is Muncie's.
    @Test func aNameBegunAsTypedWithAccentsStaysFirst() throws {
        for text in ["mün", "münc", "münch", "münche", "münchen"] {
            #expect(try PlacesTestSupport.suggest(text).places.first?.place.label == "Munich, Bayern, Germany", "\(text)")
        }
        #expect(try PlacesTestSupport.suggest("munc").places.first?.place.label.hasPrefix("Muncie") == true)
    }

    /// A continent away, distance stops counting (`LocationBias.farDistance`): from
    /// Sydney, Parys, South Africa (11,000 km) is not nearer than Paris (17,000 km) in any
    /// way that matters, and importance decides.
    @Test func aContinentAwayImportanceDecides() throws {
        let sydney = Coordinate(latitude: -33.87, longitude: 151.21)
        #expect(try PlacesTestSupport.suggest("paris", near: sydney).places.first?.place.label == "Paris, Île-de-France, France")
        #expect(try PlacesTestSupport.suggest("london", near: sydney).places.first?.place.label == "London, England, United Kingdom")
        // Nearer than that, distance still counts (Springfield, Missouri is 700 km from
        // Chicago, Springfield, Illinois 290 km).
        let bias = LocationBias(location: Self.chicago, radius: nil)
        func penalty(_ point: Coordinate) -> Double { bias.penalty(bias.distance(to: point)!) }
        #expect(penalty(Coordinate(latitude: 37.21, longitude: -93.29)) > penalty(Coordinate(latitude: 39.8, longitude: -89.64)))
        #expect(penalty(sydney) == penalty(Coordinate(latitude: 48.86, longitude: 2.35)))
    }

    /// What people type for a country or region that the gazetteer spells otherwise.
    @Test(arguments: [
        ("london uk", "London, England, United Kingdom"), ("chicago usa", "Chicago, Illinois, United States"),
        ("vancouver bc", "Vancouver, British Columbia, Canada"), ("sydney nsw", "Sydney, New South Wales, Australia"),
        ("perth wa", "Perth, Western Australia, Australia"), ("dubai uae", "Dubai, Dubayy, United Arab Emirates"),
    ])
    func commonAbbreviationsPickTheCountryOrRegion(query: String, label: String) throws {
        #expect(try PlacesTestSupport.suggest(query).places.first?.place.label == label)
    }

    @Test func aRegionCodePicksTheRegion() throws {
        #expect(try PlacesTestSupport.suggest("paris tx").places.first?.place.label == "Paris, Texas, United States")
    }

    @Test(arguments: [
        ("sao paulo", "São Paulo, Brazil"), ("zurich", "Zürich, Switzerland"), ("krakow", "Kraków, Małopolskie, Poland"),
        ("lodz", "Łódź, Łódzkie, Poland"),
    ])
    func accentsAndCaseAreIgnored(query: String, label: String) throws {
        #expect(try PlacesTestSupport.suggest(query).places.first?.place.label == label)
    }

    @Test func placesComeInTheOrderOfTheirKeysWholeNamesWeighing() throws {
        let result = try PlacesTestSupport.suggest("paris", limit: 15)
        let keys = result.places.map(\.rank)
        #expect(keys == keys.sorted())
        #expect(result.places.prefix(2).allSatisfy { $0.place.name == "Paris" && $0.rank.wholeName })
        #expect(result.places.contains { $0.place.name == "Paris" && $0.place.countryCode == "US" })
    }

    /// A last word `City` need not be typed: in GeoNames' cities500, New York City has no
    /// alternate name `New York` while York, Nebraska has, and `new york` gave York first.
    /// Scanned and indexed alike.
    @Test func aLastWordCityNeedNotBeTyped() throws {
        let line = PlacesTestSupport.geonamesLine
        var york = line(5_082_331, "York", "40.87", "-97.59", "PPLA2", "US", "NE", 7_766)
        york = york.replacingOccurrences(of: "York\tYork\t\t", with: "York\tYork\tJork,New York,York\t")
        let text =
            [
                york,
                line(5_128_581, "New York City", "40.71", "-74.01", "PPL", "US", "NY", 8_804_190),
                line(4_398_614, "Mexico", "39.17", "-91.88", "PPLA2", "US", "MO", 11_469),
                line(3_530_597, "Mexico City", "19.43", "-99.13", "PPLC", "MX", "09", 12_294_193),
                line(5_106_292, "Yorkville", "43.11", "-75.27", "PPL", "US", "NY", 2_600),
            ].joined(separator: "\n") + "\n"
        let path = try PlacesTestSupport.temporaryFile(text, name: "city.txt")
        let bytes = Array(text.utf8)
        let image = try PlacesIndex.build(tsv: bytes.withUnsafeBufferPointer { $0 })
        for (query, first) in [("new york", "New York City"), ("mexico", "Mexico City"), ("new york city", "New York City")] {
            let scanned = try PlacesTestSupport.suggest(query, inFile: path)
            #expect(scanned.places.first?.place.name == first, "\(query), scanned")
            #expect(scanned.places.first?.rank.tier == 0, "\(query), scanned")
            let indexed = try image.withUnsafeBufferPointer { image in
                try bytes.withUnsafeBufferPointer { tsv in
                    try PlaceSearch(text: query, bias: LocationBias(location: nil, radius: nil), filters: PlaceFilters(), limit: 5)
                        .search(index: #require(PlacesIndex(image)), tsv: tsv)
                }
            }
            #expect(indexed.places.first?.place.name == first, "\(query), indexed")
        }
        // Only a last `City`, and only after another word: `york` does not spell Yorkville,
        // and `new` alone does not spell New York City.
        #expect(try PlacesTestSupport.suggest("new", inFile: path).places.first { $0.place.name == "New York City" }?.rank.wholeName == false)
    }

    @Test func theCountryFilterExcludesOtherCountries() throws {
        var filters = PlaceFilters()
        filters.countries = ["US"]
        let result = try PlacesTestSupport.suggest("paris", filters: filters, limit: 15)
        #expect(!result.places.isEmpty)
        #expect(result.places.allSatisfy { $0.place.countryCode == "US" })
    }

    @Test func theExtentFilterExcludesPlacesOutsideIt() throws {
        var filters = PlaceFilters()
        filters.extent = Extent(minLongitude: -107, minLatitude: 25, maxLongitude: -93, maxLatitude: 37)
        let result = try PlacesTestSupport.suggest("paris", filters: filters)
        #expect(result.places.map(\.place.label) == ["Paris, Texas, United States"])
    }

    @Test func theCategoryFilterExcludesOtherCategories() throws {
        var filters = PlaceFilters()
        filters.categories = [PlaceCategory.normalized("capital")]
        let result = try PlacesTestSupport.suggest("s", filters: filters, limit: 15)
        #expect(result.places.count == 15)
        #expect(result.places.allSatisfy { $0.place.category == "capital" })
    }

    @Test(arguments: [("capitals", "capital"), ("capital", "capital"), ("admin seat", "admin_seat")])
    func aQueryNamingACategorySuggestsItsCollection(query: String, category: String) throws {
        #expect(try PlacesTestSupport.suggest(query).collections == [category])
    }

    @Test func aShortPrefixSuggestsNoCollection() throws {
        #expect(try PlacesTestSupport.suggest("ca").collections.isEmpty)
    }

    /// Nearness counts as the man page says: a place at the distance scale loses a factor
    /// of 2^distanceWeight, and from `farDistance` on nothing more.
    @Test func nearnessCountsAsTheManPageSays() {
        let bias = LocationBias(location: Coordinate(latitude: 0, longitude: 0), radius: 100_000)
        #expect(abs(bias.penalty(100_000) - RankKey.distanceWeight * Platform.log(2)) < 1e-9)
        #expect(bias.penalty(0) == 0)
        #expect(bias.penalty(3_000_000) == bias.penalty(12_000_000))
        #expect(bias.penalty(1_000_000) > bias.penalty(500_000))
    }

    /// The grid walk skips whole cells by their bound: no point of a cell, its edges and
    /// corners included, is nearer than it, wherever the location is (inside the cell,
    /// across the antimeridian, at a pole).
    @Test func aCellsDistanceLowerBoundNeverExceedsTheDistanceOfItsPoints() {
        var random = SplitMix64(seed: 35)
        var tight = 0
        for round in 0..<4_000 {
            let cell = Int(random.next() % UInt64(PlacesIndex.gridCellCount))
            let (latitudes, longitudes) = PlacesIndex.gridBounds(ofCell: cell)
            func inside() -> Coordinate {
                let corner = random.next() % 4
                let lat = corner == 0 ? latitudes.lowerBound : corner == 1 ? latitudes.upperBound : latitudes.lowerBound + Double(random.next() % 1001) / 1000
                let lon = corner == 2 ? longitudes.lowerBound : corner == 3 ? longitudes.upperBound : longitudes.lowerBound + Double(random.next() % 1001) / 1000
                return Coordinate(latitude: lat, longitude: lon)
            }
            // The location: anywhere, near the cell, inside it, or on the other side of ±180.
            let location: Coordinate
            switch round % 5 {
            case 0: location = Coordinate(latitude: Double(random.next() % 180_001) / 1000 - 90, longitude: Double(random.next() % 360_001) / 1000 - 180)
            case 1: location = inside()
            case 2: location = Coordinate(latitude: min(90, max(-90, inside().latitude + Double(random.next() % 5) - 2)), longitude: inside().longitude)
            case 3: location = Coordinate(latitude: inside().latitude, longitude: inside().longitude > 0 ? -179.5 : 179.5)
            // A map's unwrapped longitude, a turn or two away.
            default: location = Coordinate(latitude: inside().latitude, longitude: inside().longitude + [360.0, -360, 720][Int(random.next() % 3)])
            }
            let bias = LocationBias(location: location, radius: nil)
            let bound = bias.distanceLowerBound(latitudes: latitudes, longitudes: longitudes)!
            var least = Double.infinity
            for _ in 0..<16 {
                let point = inside()
                least = min(least, bias.distance(to: point)!)
            }
            #expect(bound <= least, "cell \(latitudes) \(longitudes) location \(location)")
            // The sampled points lie at most the cell's diagonal beyond its nearest point.
            let diagonal = Coordinate(latitude: latitudes.lowerBound, longitude: longitudes.lowerBound)
                .distance(to: Coordinate(latitude: latitudes.upperBound, longitude: longitudes.upperBound))
            if least - bound <= diagonal + 0.002 * least { tight += 1 }
        }
        // Close enough to skip most cells that are out of reach.
        #expect(tight > 3_900, "\(tight)")
    }
}
