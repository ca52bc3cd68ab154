import Testing

@testable import WayfindCLI
@testable import WayfindCore

/// The library's geocoder: suggest → magicKey → find over a gazetteer in memory, as an
/// app would use it.
@Suite("Geocoder")
struct GeocoderTests {
    static let tsv = """
        name\tlatitude\tlongitude\tcategory\tcountry_code\tpopulation
        São Paulo\t-23.5475\t-46.63611\tcity\tBR\t10021295
        Saint Paul\t44.94441\t-93.09327\tcity\tUS\t285068
        Paris\t48.85341\t2.3488\tcapital\tFR\t2138551
        Paris\t33.66094\t-95.55551\tcity\tUS\t24782
        Berlin\t52.52437\t13.41053\tcapital\tDE\t3426354

        """

    @Test func whatSuggestOffersFindResolves() throws {
        let geocoder = try Geocoder(tsv: Array(Self.tsv.utf8))
        let suggestions = try geocoder.suggest("sao pau")
        #expect(suggestions.map(\.text) == ["São Paulo"])
        let place = try #require(try geocoder.find(magicKey: suggestions[0].magicKey).first).place
        #expect(place.name == "São Paulo" && place.coordinate == Coordinate(latitude: -23.5475, longitude: -46.63611))
    }

    /// `st`, `ft` and `mt` stand for Saint, Fort and Mount, and back, on any gazetteer:
    /// GeoNames lists such spellings for some places only, and `st petersburg` found St.
    /// Petersburg, Florida, in cities500 but not Saint Petersburg, Russia.
    @Test func abbreviationsFindThePlacesTheyStandFor() throws {
        let tsv = """
            name\tlatitude\tlongitude\tcategory\tcountry_code\tpopulation
            Saint Petersburg\t59.93863\t30.31413\tcity\tRU\t5351935
            St. Petersburg\t27.77086\t-82.67927\tcity\tUS\t258308
            Fort Worth\t32.72541\t-97.32085\tcity\tUS\t918915
            Mount Vernon\t40.9126\t-73.83708\tcity\tUS\t67292
            Stockholm\t59.32938\t18.06871\tcapital\tSE\t1515017
            Saint-Étienne\t45.43389\t4.39\tcity\tFR\t171483
            Sainte-Foy\t46.77\t-71.28\tcity\tCA\t99888

            """
        let geocoder = try Geocoder(tsv: Array(tsv.utf8))
        let both = ["Saint Petersburg", "St. Petersburg"]
        for text in ["st petersburg", "saint petersburg", "st. petersburg", "sankt petersburg", "St Petersburg"] {
            #expect(try geocoder.suggest(text).map(\.text) == both, "\(text)")
            #expect(try geocoder.find(text: text).first?.place.name == "Saint Petersburg", "\(text)")
        }
        #expect(try geocoder.suggest("ft worth").map(\.text) == ["Fort Worth"])
        #expect(try geocoder.suggest("fort worth").map(\.text) == ["Fort Worth"])
        #expect(try geocoder.suggest("mt vernon").map(\.text) == ["Mount Vernon"])
        #expect(try geocoder.suggest("st-etienne").map(\.text) == ["Saint-Étienne"])
        #expect(try geocoder.suggest("ste-foy").map(\.text) == ["Sainte-Foy"])
        // A hyphen joins what a name may spell apart, and the other way round.
        #expect(try geocoder.suggest("saint-petersburg").map(\.text) == both)
        #expect(try geocoder.suggest("saint-etienne").map(\.text) == ["Saint-Étienne"])
        // A last word may still be being typed: `st` stays a prefix (of Stockholm, and of
        // St. Petersburg's `St`), and is swapped only once complete.
        #expect(try geocoder.suggest("st").map(\.text) == ["Stockholm", "St. Petersburg"])
        #expect(try geocoder.suggest("st ").map(\.text).contains("Saint Petersburg"))
    }

    @Test func theOtherSpellingsOfAQueryAreItsAbbreviationsSwapped() {
        #expect(
            SearchText.queryVariants("st petersburg", lastWordComplete: false) == [
                "st petersburg", "saint petersburg", "sankt petersburg",
            ])
        #expect(SearchText.queryVariants("Mt. Vernon", lastWordComplete: false) == ["Mt. Vernon", "mount Vernon"])
        #expect(SearchText.queryVariants("paris st", lastWordComplete: false) == ["paris st"])
        #expect(SearchText.queryVariants("paris st", lastWordComplete: true) == ["paris st", "paris saint", "paris sankt"])
        #expect(SearchText.queryVariants("", lastWordComplete: true) == [""])
        // A Korean or Chinese word for "city" written onto a name may be left out.
        #expect(SearchText.queryVariants("포항시", lastWordComplete: false) == ["포항시", "포항"])
        #expect(SearchText.queryVariants("시", lastWordComplete: false) == ["시"])
        // Words end at `-` and `.` too.
        #expect(
            SearchText.queryVariants("st-etienne", lastWordComplete: false) == [
                "st-etienne", "saint-etienne", "sankt-etienne", "st etienne", "saint etienne", "sankt etienne",
            ])
        #expect(SearchText.queryVariants("ste-foy", lastWordComplete: false) == ["ste-foy", "sainte-foy", "ste foy", "sainte foy"])
        // A hyphen is also a space: a name may spell apart what the query joins.
        #expect(SearchText.queryVariants("new-york", lastWordComplete: false) == ["new-york", "new york"])
        #expect(SearchText.queryVariants("Санкт-Петербург", lastWordComplete: false) == ["Санкт-Петербург", "Санкт Петербург"])
        #expect(SearchText.queryVariants("a-b-c-d", lastWordComplete: false) == ["a-b-c-d", "a b c d"])
        // Many hyphens keep the swaps: each variant is spaced whole, after them.
        #expect(
            SearchText.queryVariants("st-jean-de-la-ruelle", lastWordComplete: false) == [
                "st-jean-de-la-ruelle", "saint-jean-de-la-ruelle", "sankt-jean-de-la-ruelle", "st jean de la ruelle",
                "saint jean de la ruelle", "sankt jean de la ruelle",
            ])
        #expect(SearchText.queryVariants("St.Louis", lastWordComplete: false) == ["St.Louis", "saint Louis", "sankt Louis"])
        // Every combination, up to six.
        let many = SearchText.queryVariants("st st st", lastWordComplete: true)
        #expect(many.count == SearchText.maximumQueryVariants && many.first == "st st st" && Set(many).count == many.count)
    }

    /// A word is also run on across an apostrophe between letters, as people type names
    /// without them (`luan` for Lu’an), and a name is spelled whole either way; the words
    /// on either side stay words of their own (`aquila` still begins L'Aquila).
    @Test func wordsRunOnAcrossApostrophes() {
        func words(_ text: String, joined: Bool = true, across: Bool = false) -> [String] {
            var text = text
            return text.withUTF8 { SearchText.words($0, joined: joined, acrossApostrophes: across) }.map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        #expect(words("Lu’an") == ["lu", "luan", "an"])
        // A chain runs on from its first word only, as the row reads without apostrophes.
        #expect(words("Ma’an’shan") == ["ma", "maanshan", "an", "shan"])
        #expect(words("McDonald’s") == ["mc", "mcdonald", "donald", "donalds", "s"])
        #expect(words("L'Aquila") == ["l", "laquila", "aquila"])
        #expect(words("Cox‘s Bāzār") == ["cox", "coxs", "s", "bazar"])
        #expect(words("Lu’an", joined: false) == ["lu", "an"])
        #expect(words("Cox’s Bāzār", joined: false, across: true) == ["coxs", "bazar"])
        #expect(words("Ma’an’shan", joined: false, across: true) == ["maanshan"])
        // Not between letters: an apostrophe at an end, or beside a space, joins nothing.
        #expect(words("Oblast' Luan'") == ["oblast", "luan"])
        #expect(words("rock ’n’ roll") == ["rock", "n", "roll"])
        #expect(words("d’ ax", joined: false, across: true) == ["d", "ax"])
        // Spelled whole with or without them; an alternate that is a code still spells nothing.
        for (form, pieces, spelled) in [
            ("Lu’an", ["luan"], true), ("Lu’an", ["lu", "an"], true), ("Lu’an", ["lu"], false),
            ("Cox’s Bāzār", ["coxs", "bazar"], true), ("Cox’s Bāzār", ["coxs"], false),
        ] {
            var form = form
            let set = Set(pieces.map { Array($0.utf8) })
            #expect(form.withUTF8 { SearchText.isSpelled($0, alternate: false, by: set) } == spelled, "\(form) \(pieces)")
        }
    }

    /// The matcher skips a name none of whose words a query word could begin
    /// (`SearchText.mayHoldWord`): it must never skip one it could. Every beginning of
    /// every word of the embedded gazetteer's names (joined forms too) is found, and so
    /// are those of names with marks, invalid bytes, scripts and camelCase.
    @Test func noNameAQueryWordBeginsIsSkipped() throws {
        var scratch: [UInt8] = []
        var checked = 0
        func check(_ form: UnsafeBufferPointer<UInt8>) {
            for word in SearchText.words(form, joined: true) {
                for length in [1, 2, word.count / 2, word.count - 1, word.count] where length > 0 {
                    let piece = Array(word.prefix(length))
                    checked += 1
                    if !SearchText.mayHoldWord(startingWithOneOf: [Array("zzqx".utf8), piece], in: form, scratch: &scratch) {
                        Issue.record("\(String(decoding: form, as: UTF8.self)): \(String(decoding: piece, as: UTF8.self))")
                        return
                    }
                }
            }
        }
        let text = try String(contentsOfFile: PlacesTestSupport.placesTSV, encoding: .utf8)
        for line in text.split(separator: "\n").prefix(3000) {
            for field in line.split(separator: "\t", omittingEmptySubsequences: false).prefix(4) {
                for var form in field.split(separator: ",").map(String.init) { form.withUTF8 { check($0) } }
            }
        }
        for nasty: [UInt8] in [
            Array("McAllen Lu’an L'Aquila Ma’an’shan ‘x rock ’n’ roll caPitals".utf8), Array("Zürich Ÿ Ǆemal ß İstanbul".utf8),
            Array("北京市 Москва 東京 서울시 Ｔｏｋｙｏ ﾄｳｷｮｳ".utf8), [0x61, 0xFF, 0x62, 0xC3, 0x28, 0x63], Array("e\u{301}cole a\u{308}b".utf8),
        ] {
            nasty.withUnsafeBufferPointer { check($0) }
        }
        #expect(checked > 100_000)
        // A name without any of them is skipped, whatever its case or accents.
        for (form, piece, holds) in [
            ("Paris", "ari", true), ("Paris", "pax", false), ("Lu’an", "luan", true), ("Zürich", "zur", true),
            ("ZÜRICH", "rich", true), ("Москва", "mos", false), ("", "a", false),
        ] {
            var form = form
            let found = form.withUTF8 { SearchText.mayHoldWord(startingWithOneOf: [Array(piece.utf8)], in: $0, scratch: &scratch) }
            #expect(found == holds, "\(form) \(piece)")
        }
    }

    /// The apostrophes are one set, known by scalar (`isApostrophe`) and by bytes
    /// (`apostropheLength`, `withoutApostrophes`, the scan's search for them).
    @Test func theApostrophesAreTheSameByScalarAndByBytes() {
        for value in UInt32(0)...0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let bytes = Array(String(scalar).utf8)
            let length = bytes.withUnsafeBufferPointer { SearchText.apostropheLength(in: $0, at: 0) }
            #expect((length == bytes.count) == SearchText.isApostrophe(value), "U+\(String(value, radix: 16))")
            #expect(length == nil || length == bytes.count, "U+\(String(value, radix: 16))")
        }
        func stripped(_ text: String) -> String? {
            var text = text
            return text.withUTF8 { SearchText.withoutApostrophes($0) }.map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(stripped("L'Aquila, Ma’an’shan ‘x") == "LAquila, Maanshan x")
        #expect(stripped("Paris") == nil)
        #expect(stripped("’") == "")
    }

    @Test func locationBiasPutsTheNearerPlaceFirst() throws {
        let geocoder = try Geocoder(tsv: Array(Self.tsv.utf8))
        let texas = Coordinate(latitude: 32.78, longitude: -96.80)
        #expect(try geocoder.suggest("paris").first?.text == "Paris")
        let near = try geocoder.find(text: "paris", near: texas).first?.place
        #expect(near?.countryCode == "US")
        let far = try geocoder.find(text: "paris").first?.place
        #expect(far?.countryCode == "FR")
    }

    @Test func aCollectionFindsItsPlacesNearestWhereItWasSuggested() throws {
        let geocoder = try Geocoder(tsv: Array(Self.tsv.utf8))
        let vienna = Coordinate(latitude: 48.21, longitude: 16.37)
        let collection = try #require(try geocoder.suggest("capitals", near: vienna).first)
        #expect(collection.isCollection && collection.text == "Capital")
        #expect(try geocoder.find(magicKey: collection.magicKey).map(\.place.name) == ["Berlin", "Paris"])
    }

    @Test func filtersExclude() throws {
        let geocoder = try Geocoder(tsv: Array(Self.tsv.utf8))
        var filters = PlaceFilters()
        filters.countries = ["US"]
        #expect(try geocoder.suggest("paris", filters: filters).map(\.text) == ["Paris"])
        #expect(try geocoder.find(text: "paris", filters: filters).first?.place.countryCode == "US")
    }

    @Test func badKeysAndBadGazetteersAreErrors() throws {
        let geocoder = try Geocoder(tsv: Array(Self.tsv.utf8))
        #expect(throws: GeocoderError.self) { try geocoder.find(magicKey: "not-a-key") }
        // A key of another gazetteer is found by its text when given, else refused.
        let other = try Geocoder(tsv: Array((Self.tsv + "Gdańsk\t54.35\t18.64\tcity\tPL\t1\n").utf8))
        let key = try #require(try other.suggest("sao").first).magicKey
        #expect(throws: GeocoderError.self) { try geocoder.find(magicKey: key) }
        #expect(try geocoder.find(magicKey: key, text: "São Paulo").first?.place.name == "São Paulo")
        #expect(throws: GeocoderError.self) { try Geocoder(tsv: Array("no header\n".utf8)) }
        #expect(throws: GeocoderError.self) { try Geocoder(tsv: Array("name\tlatitude\tlongitude\nX\t91\t0\n".utf8)) }
    }
}
