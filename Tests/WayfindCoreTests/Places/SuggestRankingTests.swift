import Testing

@testable import WayfindCore

@Suite struct SuggestRankingTests {
    static let chicago = Coordinate(latitude: 41.88, longitude: -87.63)
    static let boston = Coordinate(latitude: 42.36, longitude: -71.06)
    static let dallas = Coordinate(latitude: 32.78, longitude: -96.80)

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

    @Test func wholeNamesComeBeforePrefixes() throws {
        let result = try PlacesTestSupport.suggest("paris", limit: 15)
        let tiers = result.places.map(\.rank.tier)
        #expect(tiers == tiers.sorted())
        #expect(result.places.contains { $0.place.name == "Paris" && $0.place.countryCode == "US" })
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

    @Test func distanceBandsDoubleInWidth() {
        let bias = LocationBias(location: Coordinate(latitude: 0, longitude: 0), radius: 100_000)
        #expect(bias.band(of: Coordinate(latitude: 0, longitude: 0.5)) == 0)
        #expect(bias.band(of: Coordinate(latitude: 0, longitude: 1.5)) == 1)
        #expect(bias.band(of: Coordinate(latitude: 0, longitude: 3)) == 2)
    }
}
