/// "City, qualifier": a query whose last words name a country or a region, in a form the
/// place's own qualifiers do not hold (`灣仔, 香港`, `adamstown, pitcairn islands`,
/// `münchen, deutschland`): the words before it are searched again inside that area.
///
/// A place's qualifiers (`SearchText.qualifiers`) hold its region's and country's names
/// in English and their codes, so `paris tx`, `cardiff, gbr` and `springfield il` match
/// as typed. The gazetteer's countries and regions have many more names (the embedded
/// one's, in every CLDR language), too many to index for every town. So only when a query
/// finds nothing is its tail tried as an area: the text after its last comma, else its last
/// one or two words, looked up as `--country` looks up a value (codes, English names),
/// else as the embedded gazetteer's country and region rows spelled by it (for a `--places`
/// file too, whose rows they narrow by country and extent). The rest of the query
/// is then searched in that country (and, for a region with an extent, inside it). When
/// nothing there has that name and a comma set the area apart, the area itself is the
/// answer, as geocoders fall back (`seattle, canada` gives Canada).
extension Geocoder {
    /// The places of `text`'s head inside the area its tail names, or the area itself;
    /// nil when no tail names an area.
    func searchQualified(text: String, lastWordComplete: Bool, bias: LocationBias, filters: PlaceFilters, limit: Int)
        throws(GeocoderError) -> SearchResult?
    {
        // `San Francisco, San Francisco County, CA`: the name and the last part, first.
        let parts = text.split(separator: ",")
        if parts.count >= 3 {
            let result = try searchVariants(
                text: parts[0] + " " + parts[parts.count - 1], lastWordComplete: lastWordComplete, bias: bias, filters: filters, limit: limit)
            if !result.places.isEmpty { return result }
        }
        let comma = text.contains(",")
        for (head, tail) in Self.qualifierSplits(text) {
            guard let area = try area(named: tail, lastWordComplete: lastWordComplete, filters: filters, ownNameOnly: !comma)
            else { continue }
            var narrowed = filters
            narrowed.countries = [area.code]
            if let extent = area.extent, filters.extent == nil { narrowed.extent = extent }
            var result = try searchVariants(text: head, lastWordComplete: true, bias: bias, filters: narrowed, limit: limit)
            // (Only after a comma, and not for a code alone: `CA` may be California as well
            // as Canada.)
            if result.places.isEmpty, comma, let place = area.place, !area.byCode {
                result.places = [place]
            }
            return result
        }
        return nil
    }

    /// The ways `text` may end in an area's name, longest head first: at its last comma
    /// (only that, when it has one), else before its last word and before its last two.
    static func qualifierSplits(_ text: String) -> [(head: String, tail: String)] {
        let trimmed = text[...].trimmingCharacters(in: " \t")
        if let comma = trimmed.lastIndex(of: ",") {
            let head = trimmed[..<comma].trimmingCharacters(in: " \t")
            let tail = trimmed[trimmed.index(after: comma)...].trimmingCharacters(in: " \t")
            return head.isEmpty || tail.isEmpty ? [] : [(head, tail)]
        }
        let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
        var splits: [(head: String, tail: String)] = []
        for n in 1...2 where words.count > n {
            splits.append((words.dropLast(n).joined(separator: " "), words.suffix(n).joined(separator: " ")))
        }
        return splits
    }

    /// An area a qualifier names: its country code, its extent when it is a region, and
    /// its row (nil for a country known only by `--country`'s names).
    struct Area {
        var code: String
        var extent: Extent?
        var place: FoundPlace?
        /// Whether the qualifier was an ISO code (`CA`, `GBR`), not a name.
        var byCode = false
    }

    /// The country or region `tail` names: a `--country` value (`GBR`, `czech republic`),
    /// else the gazetteer's best country or region row whose name (own or alternate, not
    /// rare) `tail` spells, whole or, while it is being typed, begun. With `ownNameOnly`,
    /// as without a comma, an alternate name only spelled whole: `munich bavaria` and
    /// `köln deutschland` name their areas, but `berlin paris` is not Berlin in
    /// Île-de-France, a.k.a. Région parisienne. Nil when none, or when the filters
    /// exclude its country.
    func area(named tail: String, lastWordComplete: Bool, filters: PlaceFilters, ownNameOnly: Bool) throws(GeocoderError) -> Area? {
        let allowed = { (code: String) in filters.countries.isEmpty || filters.countries.contains(code) }
        if let code = Country.code(tail) {
            guard allowed(code) else { return nil }
            let row = try searchVariants(
                text: tail, lastWordComplete: true, bias: LocationBias(location: nil, radius: nil),
                filters: PlaceFilters(countries: [code], categories: ["country"]), limit: 1
            ).places.first
            let byCode = tail.utf8.count <= 3 && tail.uppercased() == code || Country.alpha3(code) == tail.uppercased()
            return Area(code: code, extent: nil, place: row, byCode: byCode)
        }
        // A `--places` file's own areas are not ours (a dump's ADM1 rows, a feed's none):
        // the embedded gazetteer's countries and regions name them, and only narrow.
        guard let areas = isEmbedded ? self : try? Geocoder.installedEmbedded() else { return nil }
        let search = PlaceSearch(
            text: tail, bias: LocationBias(location: nil, radius: nil), filters: PlaceFilters(categories: ["country", "region"]), limit: 1)
        guard !search.isEmpty, let found = try areas.search(search).places.first,
            found.rank.coverage == search.pieces.count, found.rank.tier == 0 || (!lastWordComplete && found.rank.tier == 1),
            found.rank.ownName || found.rank.wholeName || !ownNameOnly,
            allowed(found.place.countryCode)
        else { return nil }
        return Area(
            code: found.place.countryCode, extent: found.place.category == "region" ? found.place.extent : nil,
            place: isEmbedded ? found : nil)
    }
}
