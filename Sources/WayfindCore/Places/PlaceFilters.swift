/// The filters that exclude places: `--country`, `--extent`, `--category`.
public struct PlaceFilters: Sendable {
    /// Upper-case ISO codes; empty means any country.
    public var countries: [String] = []
    /// The rectangle places must lie in, if any.
    public var extent: Extent? = nil
    /// Normalized category names (`PlaceCategory.normalized`); empty means any.
    public var categories: [[UInt8]] = []

    /// No filter.
    public init() {}

    /// Whether a place passes.
    public func accepts(countryCode: String, coordinate: Coordinate, category: String) -> Bool {
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
