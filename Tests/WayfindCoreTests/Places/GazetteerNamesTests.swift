import Testing

@testable import WayfindCLI
@testable import WayfindCore

/// The embedded gazetteer finds well-known cities by the names people type: the exonym in
/// other languages and the local name, in Latin, Cyrillic, Greek, Arabic, Hebrew, CJK,
/// Hangul, Kana, Devanagari, Thai, Georgian and Armenian script. Each query's first
/// suggestion must be the city named (GeoNames name and country code).
@Suite struct GazetteerNamesTests {
    /// (query, language or script, name, country code) of the first suggestion.
    static let table: [(String, String, String, String)] = [
        ("moskva", "Russian, romanised", "Moscow", "RU"), ("москва", "Russian", "Moscow", "RU"),
        ("moscou", "French", "Moscow", "RU"), ("moskau", "German", "Moscow", "RU"),
        ("mosca", "Italian", "Moscow", "RU"),
        ("mcallen", "a name joined in camelCase, typed whole", "McAllen", "US"),
        ("maanshan", "pinyin typed without its apostrophe", "Ma’anshan", "CN"), ("luan", "the same, spelled whole", "Lu’an", "CN"),
        ("yan'an", "pinyin with its apostrophe", "Yan’an", "CN"), ("coxs bazar", "an apostrophe left out", "Cox’s Bāzār", "BD"),
        ("laquila", "an elision typed without its apostrophe", "L'Aquila", "IT"),
        ("tokio", "Spanish", "Tokyo", "JP"), ("東京", "Japanese", "Tokyo", "JP"),
        ("东京", "Chinese, simplified", "Tokyo", "JP"), ("도쿄", "Korean", "Tokyo", "JP"),
        ("東", "Japanese, start of the name", "Tokyo", "JP"),
        ("القاهرة", "Arabic", "Cairo", "EG"), ("le caire", "French", "Cairo", "EG"),
        ("kairo", "German", "Cairo", "EG"),
        ("athina", "Greek, romanised", "Athens", "GR"), ("Αθήνα", "Greek", "Athens", "GR"),
        ("αθηνα", "Greek, no accent", "Athens", "GR"), ("atenas", "Spanish", "Athens", "GR"),
        ("athen", "German", "Athens", "GR"),
        ("peking", "German", "Beijing", "CN"), ("北京", "Chinese", "Beijing", "CN"),
        ("pékin", "French", "Beijing", "CN"),
        ("kiev", "English, old", "Kyiv", "UA"), ("київ", "Ukrainian", "Kyiv", "UA"),
        ("киев", "Russian", "Kyiv", "UA"),
        ("den haag", "Dutch", "The Hague", "NL"),
        ("genf", "German", "Geneva", "CH"), ("genève", "French", "Geneva", "CH"),
        ("ginevra", "Italian", "Geneva", "CH"),
        ("firenze", "Italian", "Florence", "IT"), ("florenz", "German", "Florence", "IT"),
        ("københavn", "Danish", "Copenhagen", "DK"), ("kopenhagen", "German", "Copenhagen", "DK"),
        ("saigon", "Vietnamese, old", "Ho Chi Minh City", "VN"),
        ("londres", "French", "London", "GB"), ("лондон", "Russian", "London", "GB"),
        ("لندن", "Arabic", "London", "GB"), ("ロンドン", "Japanese", "London", "GB"),
        ("lissabon", "German", "Lisbon", "PT"), ("lisboa", "Portuguese", "Lisbon", "PT"),
        ("roma", "Italian", "Rome", "IT"), ("рим", "Russian", "Rome", "IT"),
        ("ローマ", "Japanese", "Rome", "IT"), ("روما", "Arabic", "Rome", "IT"),
        ("warszawa", "Polish", "Warsaw", "PL"), ("varsovie", "French", "Warsaw", "PL"),
        ("варшава", "Russian", "Warsaw", "PL"),
        ("venezia", "Italian", "Venice", "IT"), ("venedig", "German", "Venice", "IT"),
        ("wien", "German", "Vienna", "AT"), ("praha", "Czech", "Prague", "CZ"),
        ("prag", "German", "Prague", "CZ"), ("münchen", "German", "Munich", "DE"),
        ("bruxelles", "French", "Brussels", "BE"), ("milano", "Italian", "Milan", "IT"),
        ("mailand", "German", "Milan", "IT"), ("napoli", "Italian", "Naples", "IT"),
        ("nueva york", "Spanish", "New York City", "US"), ("нью-йорк", "Russian", "New York City", "US"),
        ("서울", "Korean", "Seoul", "KR"), ("上海", "Chinese", "Shanghai", "CN"),
        ("bombay", "English, old", "Mumbai", "IN"), ("मुंबई", "Marathi", "Mumbai", "IN"),
        ("दिल्ली", "Hindi", "Delhi", "IN"), ("ירושלים", "Hebrew", "Jerusalem", "IL"),
        ("القدس", "Arabic", "Jerusalem", "IL"), ("стамбул", "Russian", "Istanbul", "TR"),
        ("กรุงเทพมหานคร", "Thai", "Bangkok", "TH"), ("baile átha cliath", "Irish", "Dublin", "IE"),
        ("београд", "Serbian", "Belgrade", "RS"), ("bucurești", "Romanian", "Bucharest", "RO"),
        ("თბილისი", "Georgian", "Tbilisi", "GE"), ("Երևան", "Armenian", "Yerevan", "AM"),
        ("sankt petersburg", "German", "Saint Petersburg", "RU"),
        ("ft worth", "abbreviation", "Fort Worth", "US"), ("mt vernon", "abbreviation", "Mount Vernon", "US"),
        ("ft lauderdale", "abbreviation", "Fort Lauderdale", "US"),
    ]

    @Test(arguments: table)
    func theCityComesFirst(query: String, language: String, name: String, country: String) throws {
        let first = try PlacesTestSupport.suggest(query, limit: 1).places.first
        #expect(
            first?.place.name == name && first?.place.countryCode == country, "\(query) (\(language)): \(first?.place.label ?? "nothing")")
    }

    @Test func theTableCoversEnoughQueriesLanguagesAndScripts() {
        #expect(Self.table.count >= 60)
        #expect(Set(Self.table.map { $0.1.split(separator: ",")[0] }).count >= 8)
    }

    // MARK: Ranking (RankKey.ownNameAdvantage)

    static let rome = Coordinate(latitude: 41.9, longitude: 12.5)
    static let petersburg = Coordinate(latitude: 59.9, longitude: 30.3)
    static let tampa = Coordinate(latitude: 27.9, longitude: -82.5)
    static let illinois = Coordinate(latitude: 40.0, longitude: -89.6)

    @Test func aCapitalWinsOnAnAlternateNameOverATownWithTheSameAlternateName() throws {
        let places = try PlacesTestSupport.suggest("roma", limit: 2).places
        #expect(places.first?.place.label == "Rome, Lazio, Italy")
        #expect(places.first?.matched == "Roma")
        let moscows = try PlacesTestSupport.suggest("moskva", limit: 2).places
        #expect(moscows.map(\.place.label) == ["Moscow, Moskva, Russia", "Moscow, Idaho, United States"])
    }

    /// The score is the share of the letters typed of what the query spelled: the name,
    /// or the name with its region and country when the query needs them to match.
    @Test func aPlaceFoundByItsCountryScoresTheShareOfItsCountryTyped() throws {
        func score(_ query: String, _ name: String) throws -> Int {
            let places = try PlacesTestSupport.suggest(query, limit: 20).places
            return try #require(places.first { $0.place.name == name }, "\(name) for \(query)").score
        }
        // Houston spelled whole, Texas a whole qualifier: 100; 12 letters of Houston, Texas,
        // United States begun (`houston tex`): their share, at least 50.
        let scores = try [score("houston texas", "Houston"), score("houston tex", "Houston"),
            // A prefix of the name itself: its share of the name; the whole alternate name Roma.
            score("bucha", "Bucharest"), score("roma", "Rome")]
        #expect(scores == [100, 100, 100 * 5 / 9, 100])
    }

    @Test func theLocationBiasBeatsAnAlternateNameInAnotherCountry() throws {
        #expect(try PlacesTestSupport.suggest("roma", near: Self.rome).places.first?.place.label == "Rome, Lazio, Italy")
        // St. Petersburg, Florida is named so; Saint Petersburg has it as an alternate name.
        // Typed `saint`, the tools also search `st` (`Geocoder.search`) and find Florida's.
        #expect(
            try PlacesTestSupport.suggest("st petersburg", near: Self.petersburg).places.first?.place.label
                == "Saint Petersburg, Sankt-Peterburg, Russia")
        #expect(
            try PlacesTestSupport.geocode("saint petersburg", near: Self.tampa).places.first?.place.label
                == "St. Petersburg, Florida, United States")
        #expect(
            try PlacesTestSupport.suggest("springfield", near: Self.illinois).places.first?.place.label
                == "Springfield, Illinois, United States")
    }

    @Test func theOwnNameWinsAmongPlacesOfSimilarImportance() throws {
        // Paris, Texas (25 k people) by its own name before Parys, South Africa (48 k),
        // whose alternate name Paris is rare (Paris, France's own): after every own name.
        let labels = try PlacesTestSupport.suggest("paris", limit: 10).places.map(\.place.label)
        #expect(labels.prefix(2) == ["Paris, Île-de-France, France", "Paris, Texas, United States"])
        let texas = try #require(labels.firstIndex(of: "Paris, Texas, United States"))
        #expect(texas < labels.firstIndex(of: "Parys, Free State, South Africa") ?? labels.count)
    }

    @Test func anOwnNameMatchWeighsTenTimesAnAlternateNameMatch() {
        let bias = LocationBias(location: nil, radius: nil)
        func key(_ kind: PlaceMatch.Kind, whole: Bool, coverage: Int = 1, importance: Double) -> RankKey {
            RankKey(
                match: PlaceMatch(coverage: coverage, kind: kind, whole: whole, atStart: true, alternate: nil), importance: importance,
                distance: nil, bias: bias, order: 1)
        }
        let own = key(.own, whole: true, importance: 100)
        #expect(own < key(.common, whole: true, importance: 999))
        #expect(key(.common, whole: true, importance: 1001) < own)
        // More words in the name, or a better tier, still come first.
        #expect(key(.own, whole: true, coverage: 2, importance: 1) < key(.own, whole: true, importance: 1e9))
        #expect(key(.common, whole: false, importance: 1e9) > key(.common, whole: true, importance: 1))
        #expect(key(.rare, whole: true, importance: 1e9) > key(.own, whole: false, importance: 1))
    }

    // MARK: Why a place matched

    @Test(arguments: [
        ("roma", "Roma"), ("東京", "東京"), ("athina", "Athina"), ("sankt petersburg", "Sankt Petersburg"),
        ("münchen", "München"), ("munchen", "Munchen"), ("moskva", "Moskva"), ("róma", "Róma"),
    ])
    func theAlternateNameThatMatchedIsShown(query: String, matched: String) throws {
        #expect(try PlacesTestSupport.suggest(query, limit: 1).places.first?.matched == matched)
    }

    @Test(arguments: ["paris", "paris tx", "springfield", "sao paulo", "italy"])
    func nothingIsShownWhenTheOwnNameRegionOrCountryMatched(query: String) throws {
        #expect(try PlacesTestSupport.suggest(query, limit: 1).places.first?.matched == nil)
    }

    @Test func suggestAndFindPrintWhatMatchedInTheirJSON() throws {
        let suggest = String(decoding: runInProcess(MagickeySuggest.run, ["--json", "-n1", "roma"]).stdout, as: UTF8.self)
        #expect(suggest.contains("\"isCollection\":false,\"matched\":\"Roma\"}"), "\(suggest)")
        let find = String(decoding: runInProcess(MagickeyFind.run, ["--json", "--text", "athina"]).stdout, as: UTF8.self)
        #expect(find.contains("\"score\":100,\"matched\":\"Athina\",\"attributes\""), "\(find)")
        let own = String(decoding: runInProcess(MagickeySuggest.run, ["--json", "-n1", "paris"]).stdout, as: UTF8.self)
        #expect(own.hasPrefix("{\"suggestions\"") && !own.contains("matched"), "\(own)")
    }
}
