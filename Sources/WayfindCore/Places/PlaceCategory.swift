/// Categories: what a place is (`capital`, `admin_seat`, `city`, `section`, or a user
/// TSV's own values such as `coffee`), and the collections a query can name.
package enum PlaceCategory {
    /// GeoNames' feature codes mapped as the embedded places.tsv maps them: PPLC is a
    /// capital, PPLA…PPLA4 an admin seat, PPLX a section of a city, any other populated
    /// place (class P) a city; other features keep their code in lower case (`mt`, `lk`).
    package static func fromFeatureCode(_ code: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: code, as: UTF8.self)
        switch text {
        case "PPLC": return "capital"
        case "PPLA", "PPLA2", "PPLA3", "PPLA4": return "admin_seat"
        case "PPLX": return "section"
        case "": return "city"
        default: return text.hasPrefix("PPL") ? "city" : text.lowercased()
        }
    }

    /// The categories `fromFeatureCode` gives populated places (GeoNames' PPL codes).
    package static let populatedPlaceCategories = ["capital", "admin_seat", "section", "city"]

    /// The categories of the embedded gazetteer: its towns', and its areas' (`isArea`).
    package static let embeddedCategories = populatedPlaceCategories + ["region", "country"]

    /// How much a category changes a place's importance from its bare population. A
    /// capital or a region's seat gets nothing more: the replays (`bench/ranking`) find
    /// the population alone orders them best. A transit station gathers the stops of one
    /// place (its platforms) and is the one meant; a section of a city is usually meant
    /// only by its full name.
    package static func importanceFactor(_ category: String) -> Double {
        switch category {
        case "station": 2
        case "section": 0.5
        // An area (`make-places.py`'s regions and countries) is not as likely meant as a
        // town of its population: named whole it ranks as a large city, begun (`chi`
        // begins China) it does not crowd out its towns (`RankKey.begunAreaWeight`).
        case "region", "country": 0.15
        default: 1
        }
    }

    /// Whether places of `category` are areas: the embedded gazetteer's countries and
    /// regions (`RankKey.begunAreaWeight`).
    package static func isArea(_ category: String) -> Bool { category == "region" || category == "country" }

    /// The words a category is called by: `admin_seat` is "admin seat".
    package static func displayName(_ category: String) -> String {
        var name = category.replacingUnderscores()
        if let first = name.first {
            name = first.uppercased() + name.dropFirst()
        }
        return name
    }

    /// The category's name folded for comparison: `Admin Seat`, `admin_seat` and
    /// `admin seat` are all `admin seat`.
    package static func normalized(_ category: String) -> [UInt8] {
        TextFolding.fold(category.replacingUnderscores())
    }

    /// A query must have at least this many letters to suggest a collection: with one or
    /// two letters every category would be offered on every keystroke.
    package static let minimumCollectionQueryLength = 3

    /// The plural of a category's name, by English spelling: `stop` → `stops`, `city` →
    /// `cities`, `bus` → `buses`, `admin seat` → `admin seats`. (The one rule: `singulars`
    /// undoes it.)
    package static func plural(_ name: String) -> String {
        let bytes = Array(name.utf8)
        let vowels = Array("aeiou".utf8)
        if bytes.count > 1, bytes.last == UInt8(ascii: "y"), !vowels.contains(bytes[bytes.count - 2]) {
            return String(name.dropLast()) + "ies"
        }
        if ["s", "x", "z", "ch", "sh"].contains(where: { name.hasSuffix($0) }) { return name + "es" }
        return name + "s"
    }

    /// The names a typed category name may be the plural of, and itself (`cities` → city;
    /// `buses` → bus, buse; `stops` → stop), folded: what `plural` made, undone, among
    /// others that harm nothing.
    package static func singulars(_ typed: String) -> [[UInt8]] {
        let name = normalized(typed)
        var forms = [name]
        func ends(_ suffix: String) -> Bool { name.count > suffix.utf8.count + 1 && name.reversed().starts(with: suffix.utf8.reversed()) }
        if ends("ies") { forms.append(name.dropLast(3) + Array("y".utf8)) }
        if ends("es") { forms.append(Array(name.dropLast(2))) }
        if ends("s") { forms.append(Array(name.dropLast())) }
        return forms
    }

    /// Whether `query` names `category`: every query word starts a different word of the
    /// category's name or of its plural (`capitals`, `admin seats`, `cities`), as
    /// smartgrep matches.
    /// Whether `text` spells the category's name or its plural whole (`capitals`,
    /// `admin seat`), rather than beginning it (`cap`): then its collection comes before
    /// the places, else after the first (`Geocoder.suggestions`).
    package static func spelledWhole(by text: String, category: String) -> Bool {
        let typed = SearchText.words(text)
        return [category.replacingUnderscores(), plural(category.replacingUnderscores())].contains { SearchText.words($0) == typed }
    }

    package static func queryNames(_ matcher: LineMatcher, category: String) -> Bool {
        let letters = matcher.query.words.reduce(0) { $0 + $1.count }
        guard letters >= minimumCollectionQueryLength else { return false }
        for form in [category.replacingUnderscores(), plural(category.replacingUnderscores())] {
            var bytes = Array(form.utf8)
            let hit = bytes.withUnsafeMutableBufferPointer { matcher.matches(UnsafeBufferPointer($0)) }
            if hit { return true }
        }
        return false
    }
}

extension String {
    /// The string with `_` replaced by spaces.
    func replacingUnderscores() -> String {
        String(self.map { $0 == "_" ? " " : $0 })
    }
}
