/// "City, qualifier": a query whose last words name a country or a region, in a form the
/// place's own qualifiers do not hold (`灣仔, 香港`, `adamstown, pitcairn islands`,
/// `münchen, deutschland`): the words before it are searched again with the area's own.
///
/// A place's qualifiers (`SearchText.qualifiers`) hold its region's and country's names
/// in English and their codes, so `paris tx`, `cardiff, gbr` and `springfield il` match
/// as typed. The gazetteer's countries and regions have many more names (the embedded
/// one's, in every CLDR language), too many to index for every town. So only when a query
/// finds nothing is its tail tried as an area: the text after its last comma, else its last
/// word, then its last two, looked up as `--country` looks up a value (codes, English
/// names), else among the embedded gazetteer's country and region rows (for a `--places`
/// file too). The rest of the query is then searched with the area as its places'
/// qualifiers name it (the region's own name, the country's code), in that country: only
/// places of that region or country, by their own data, not a box around it. When
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
            guard let area = try area(named: tail, lastWordComplete: lastWordComplete, filters: filters) else { continue }
            // The area as the place's own qualifiers hold it (`munich bavaria` is searched as
            // `munich bayern`, `köln deutschland` as `köln deu`): only places whose region or
            // country it is, in any gazetteer that has them, a `--places` dump too.
            var narrowed = filters
            narrowed.countries = [area.code]
            var result = try searchVariants(
                text: head + " " + area.qualifier, lastWordComplete: true, bias: bias, filters: narrowed, limit: limit)
            // (Only after a comma, and not for a code alone: `CA` may be California as well
            // as Canada.)
            if result.places.isEmpty, comma, let place = area.place, !area.byCode,
                filters.accepts(countryCode: place.place.countryCode, coordinate: place.place.coordinate, category: place.place.category)
            {
                result.places = [place]
            }
            // (Without a comma, a last word that names an area where nothing has the rest
            // may be the end of a longer one: `praha česká republika` is not in Republika Srpska.)
            if !result.places.isEmpty || comma { return result }
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

    /// An area a qualifier names: its country code, the words its places' qualifiers
    /// hold for it, and its row (nil for a country known only by `--country`'s names, and
    /// for a `--places` file, whose rows are not the embedded areas).
    struct Area {
        var code: String
        var qualifier: String
        var place: FoundPlace?
        /// Whether the qualifier was an ISO code (`CA`, `GBR`), not a name.
        var byCode = false
    }

    /// The country or region `tail` names: a `--country` value (`GBR`, `czech republic`),
    /// else the embedded gazetteer's best country or region row that `tail` names by its
    /// own name, by another (not rare) name spelled whole, or, while the last word is
    /// being typed, by the start of one: `munich bavaria`, `köln deutschland` and
    /// `münchen, deutschl` name theirs, `berlin paris` is not Île-de-France (a.k.a.
    /// Région parisienne) nor `glasgow, écosse` Nova Scotia (Nouvelle-Écosse). Nil when
    /// none, or when the filters exclude its country.
    func area(named tail: String, lastWordComplete: Bool, filters: PlaceFilters) throws(GeocoderError) -> Area? {
        let allowed = { (code: String) in filters.countries.isEmpty || filters.countries.contains(code) }
        let countryQualifier = { (code: String) in (Country.alpha3(code) ?? code).lowercased() }
        if let code = Country.code(tail) {
            guard allowed(code) else { return nil }
            // (The country's row, the answer when nothing in it has the name: the embedded
            // gazetteer's only; a `--places` file is not searched for one.)
            let row =
                isEmbedded
                ? try searchVariants(
                    text: tail, lastWordComplete: true, bias: LocationBias(location: nil, radius: nil),
                    filters: PlaceFilters(countries: [code], categories: ["country"]), limit: 1
                ).places.first : nil
            let byCode = tail.utf8.count <= 3 && tail.uppercased() == code || Country.alpha3(code) == tail.uppercased()
            return Area(code: code, qualifier: countryQualifier(code), place: row, byCode: byCode)
        }
        // A `--places` file's own areas are not ours (a dump's ADM1 rows, a feed's none):
        // the embedded gazetteer's countries and regions name them.
        guard let areas = isEmbedded ? self : try? Geocoder.installedEmbedded() else { return nil }
        let search = PlaceSearch(
            text: tail, bias: LocationBias(location: nil, radius: nil), filters: PlaceFilters(categories: ["country", "region"]), limit: 1)
        guard !search.isEmpty, let found = try areas.search(search).places.first,
            found.rank.coverage == search.pieces.count, found.rank.tier == 0 || (!lastWordComplete && found.rank.tier == 1),
            found.rank.ownName || found.rank.wholeName
                || (!lastWordComplete && TextFolding.fold(found.matched ?? found.place.name).starts(with: TextFolding.fold(tail))),
            allowed(found.place.countryCode)
        else { return nil }
        let region = found.place.category == "region"
        return Area(
            code: found.place.countryCode, qualifier: region ? found.place.name : countryQualifier(found.place.countryCode),
            place: isEmbedded ? found : nil)
    }
}
