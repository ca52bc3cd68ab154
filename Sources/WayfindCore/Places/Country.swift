/// Countries as `--country` names them: an ISO 3166-1 alpha-2 code (`FR`), an alpha-3
/// code (`FRA`) or an English name (`France`, `Ivory Coast`, `Côte d'Ivoire`), in any
/// case, with or without accents and apostrophes, as ArcGIS's `countryCode` and
/// `sourceCountry` take them. The table (`CountryCodes.generated.swift`) is ISO's list
/// plus GeoNames' Kosovo (`XK`), with the names of Debian's iso-codes and of the
/// embedded gazetteer.
public enum Country {
    /// The alpha-2 code `text` names, or nil when it names no country.
    public static func code(_ text: String) -> String? {
        // (A code typed in full width, ＦＲ, is FR.)
        let trimmed = SearchText.ordinaryWidths(text)[...].trimmingCharacters(in: " ")
        let upper = trimmed.uppercased()
        if upper.utf8.count == 2, let entry = table.first(where: { $0.alpha2 == upper }) { return entry.alpha2 }
        if upper.utf8.count == 3, let entry = table.first(where: { $0.alpha3 == upper }) { return entry.alpha2 }
        let key = Self.key(String(trimmed))
        return table.first { $0.names.contains { Self.key($0) == key } }?.alpha2
    }

    /// A name as names are compared: folded, its apostrophes left out, as the place
    /// search reads them (`Côte d’Ivoire`, `cote d'ivoire` and `cote divoire` are one).
    private static func key(_ name: String) -> [UInt8] {
        var name = name
        let kept = name.withUTF8 { SearchText.withoutApostrophes($0) }
        return TextFolding.fold(kept.map { String(decoding: $0, as: UTF8.self) } ?? name)
    }

    /// The English names of the country whose alpha-2 code is `alpha2` (upper case), as
    /// `--country` takes them; none for an unknown code.
    package static func names(ofCode alpha2: String) -> [String] {
        table.first { $0.alpha2 == alpha2 }?.names ?? []
    }

    /// The ISO 3166-1 alpha-3 code of the country whose alpha-2 code is `alpha2` (`FR` →
    /// `FRA`), as ArcGIS's `Country` attribute gives it; nil for a code of no country.
    public static func alpha3(_ alpha2: String) -> String? {
        let code = alpha2.uppercased()
        return table.first { $0.alpha2 == code }?.alpha3
    }
}
