/// The filters that exclude places: `--country`, `--extent`, `--category`.
public struct PlaceFilters: Sendable {
    /// Upper-case ISO codes; empty means any country.
    public var countries: [String] = []
    /// The rectangle places must lie in, if any.
    public var extent: Extent? = nil
    /// Normalized category names (`PlaceCategory.normalized`); empty means any.
    package var categories: [[UInt8]] = []

    /// Filters: places in `countries` (ISO alpha-2 codes; empty: any), inside `extent`,
    /// of `categories` (names such as `capital`, `admin seat`, `capitals`; empty: any).
    public init(countries: [String] = [], extent: Extent? = nil, categories: [String] = []) {
        self.countries = countries.map { $0.uppercased() }
        self.extent = extent
        // `capitals` means `capital`, `cities` `city`.
        for name in categories { self.categories += PlaceCategory.singulars(name) }
    }

    /// Whether no filter is set: every place passes.
    package var isEmpty: Bool { countries.isEmpty && extent == nil && categories.isEmpty }

    /// Whether a place passes.
    package func accepts(countryCode: String, coordinate: Coordinate, category: String) -> Bool {
        if !countries.isEmpty && !countries.contains(countryCode) { return false }
        if let extent, !extent.contains(coordinate) { return false }
        if !categories.isEmpty && !categories.contains(PlaceCategory.normalized(category)) { return false }
        return true
    }

    /// Whether a place passes, for the embedded index's packed country code.
    func accepts(packedCountry: UInt16, coordinate: Coordinate, category: String) -> Bool {
        let code = String(decoding: [UInt8(packedCountry & 0xFF), UInt8(packedCountry >> 8)].filter { $0 != 0 }, as: UTF8.self)
        return accepts(countryCode: code, coordinate: coordinate, category: category)
    }
}
