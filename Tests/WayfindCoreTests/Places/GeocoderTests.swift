import Testing

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
