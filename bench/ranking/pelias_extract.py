#!/usr/bin/env python3
"""Select the Pelias acceptance cases that can fairly be asked of a place gazetteer, and
write them as pelias-cases.tsv (the file pelias.py runs).

    python3 bench/ranking/pelias_extract.py PATH > bench/ranking/pelias-cases.tsv

PATH is a checkout of github.com/pelias/acceptance-tests (a folder with test_cases/),
or its git directory (a bare mirror: the files are read from HEAD with git show).

Kept: the search and autocomplete cases with a text, whose first expected result is a
city or town (Pelias layers locality, localadmin, borough), a region or county (region,
macroregion, county, macrocounty) or a country (country, dependency). Their focus point
(focus.point.lat/lon → --location), country filter (boundary.country → --country) and
rectangle (boundary.rect → --extent) come along; their language (lang) is recorded, and
the tools have no option for it.

Left out: reverse, place, nearby and structured queries; addresses, streets, postcodes,
venues, neighbourhoods and continents; filters the tools cannot express (boundary.gid,
boundary.circle, categories); cases whose `layers` asks only for what a gazetteer of
places has not; cases whose expectation names no place (only a source or a confidence);
and cases identical for the tools to one kept before (same text, focus, filters and
expected place: Pelias repeats some with other `layers` or `sources`).

Many cases give no layer; the script infers it from the expected fields (a name equal to
the locality field is a locality, ...), from the label (one part: a country), or else by
looking the name up in places.tsv (a country, a place, a region: else a venue). The
inference is wrong now and then: OVERRIDES below corrects those cases by hand, each with
its reason, and also spells in English the region or country that a case in another
language names (`Огайо` → Ohio), so that the pass rule can compare it.
"""
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no bench/ranking/__pycache__: .gitignore does not cover it
import common  # noqa: E402

PLACE_LAYERS = {"locality": "place", "localadmin": "place", "borough": "place",
                "region": "region", "macroregion": "region", "county": "region", "macrocounty": "region",
                "country": "country", "dependency": "country"}
ADMIN_FIELDS = ("locality", "localadmin", "borough", "neighbourhood", "macrohood", "county", "macrocounty",
                "region", "macroregion", "dependency", "country")
UNSUPPORTED_INPUTS = ("boundary.gid", "boundary.circle.lat", "boundary.circle.lon", "point.lat", "point.lon",
                      "categories")

# ISO 3166 alpha-3 → alpha-2, for the codes the cases use; an unknown code stops the script.
ISO3 = {
    "ASM": "AS", "AUS": "AU", "AUT": "AT", "AZE": "AZ", "BFA": "BF", "BIH": "BA", "BLR": "BY", "BOL": "BO",
    "BRA": "BR", "CAN": "CA", "CHN": "CN", "COD": "CD", "COL": "CO", "CUB": "CU", "CZE": "CZ", "DEU": "DE",
    "DNK": "DK", "ECU": "EC", "EGY": "EG", "ESP": "ES", "FIN": "FI", "FRA": "FR", "GBR": "GB", "GEO": "GE",
    "GRC": "GR", "GUM": "GU", "HKG": "HK", "HUN": "HU", "IND": "IN", "ITA": "IT", "JPN": "JP", "KGZ": "KG",
    "KOR": "KR", "LAO": "LA", "LBY": "LY", "LSO": "LS", "LTU": "LT", "LUX": "LU", "MEX": "MX", "MYS": "MY",
    "NAM": "NA", "NLD": "NL", "NZL": "NZ", "PAN": "PA", "POL": "PL", "PRI": "PR", "RUS": "RU", "SVN": "SI",
    "SWE": "SE", "THA": "TH", "TJK": "TJ", "USA": "US", "VAT": "VA", "ZMB": "ZM", "FRO": "FO", "AIA": "AI",
    "BMU": "BM", "PCN": "PN", "NIU": "NU", "NCL": "NC", "VIR": "VI", "XKX": "XK", "MAR": "MA", "ZAF": "ZA",
}
# Country names places.tsv spells otherwise, and names in the cases' other languages.
COUNTRY_NAMES = {
    "usa": "US", "us": "US", "uk": "GB", "netherlands": "NL", "democratic republic of congo": "CD",
    "vatican city": "VA", "us virgin islands": "VI", "pitcairn islands": "PN", "eesti": "EE",
    "egipto": "EG", "agypten": "EG", "مصر": "EG", "埃及": "EG", "estados unidos": "US",
    "stany zjednoczone": "US", "соединённые штаты америки": "US", "съединени американски щати": "US",
    "сједињене америчке државе": "US", "الولايات المتحدة": "US", "frankrijk": "FR", "フランス": "FR",
    "japan": "JP", "japán": "JP", "日本": "JP", "marokko": "MA", "polska": "PL", "royaume-uni": "GB",
    "sud africa": "ZA", "sverige": "SE", "vatikanstaten": "VA", "osterreich": "AT", "белоруссия": "BY",
    "রাশিয়া": "RU", "加拿大": "CA", "한국": "KR", "홍콩": "HK", "færøerne": "FO", "faroerne": "FO",
}

# Hand decisions, by case id (file#id): "skip" with a reason, or fields to set
# (kind/layer/name/region/country) and the reason in "note".
OVERRIDES = {
    # A field, not a name, says what is expected.
    "admin_lookup#2": {"layer": "county", "name": "Bronx County", "country": "US", "note": "layers=county"},
    "admin_lookup#3": {"layer": "county", "name": "Lake County", "region": "MT", "country": "US",
                       "note": "layers=county"},
    "admin_lookup#15": {"layer": "locality", "name": "Cardiff", "country": "GB",
                        "note": "expects the place Cardiff (Pelias: locality Cardiff County)"},
    "admin_lookup#16": {"layer": "locality", "name": "Cardiff", "country": "GB",
                        "note": "expects the place Cardiff (Pelias checks its county)"},
    "autocomplete_boundary_country#1": {"layer": "locality", "name": "London", "country": "US",
                                        "note": "any London in the United States"},
    "search_boundary_coutry#1": {"layer": "locality", "name": "London", "country": "US",
                                 "note": "any London in the United States"},
    "autocomplete_boundary_rect#1": {"layer": "locality", "name": "San Francisco", "country": "MX",
                                     "note": "any San Francisco in the rectangle (Mexico)"},
    "french_addresses#5": {"layer": "locality", "note": "the expected locality field names the town"},
    "placeholder_sorting#1400": {"name": "Felton", "country": "US", "note": "expects Feltons by WOF id"},
    "result_properties#2": {"name": "London", "country": "GB", "note": "expects London by WOF id"},
    "search_city_country#26": {"country": "NC", "note": "GeoNames puts New Caledonia apart from France"},
    # The expected name or region in another language, spelled in English by hand.
    "admin_translations#0": {"layer": "locality", "name": "Wan Chai", "note": "lang=ko: 완쯔 is Wan Chai"},
    "admin_translations#4": {"layer": "locality", "name": "Yasnaya Polyana", "country": "RU",
                             "note": "lang=bn: expects the village in the text, in Russia"},
    "admin_translations#13": {"name": "Beverly Hills", "region": "Texas", "note": "lang=sr, in English"},
    "admin_translations#14": {"name": "Springfield", "region": "Ohio", "note": "lang=ru, in English"},
    "admin_translations#15": {"name": "Lebanon", "region": "Tennessee", "note": "lang=ar, in English"},
    "admin_translations#18": {"layer": "locality", "name": "Damascus", "region": "Oregon",
                              "note": "lang=bg, in English"},
    "admin_translations#21": {"layer": "locality", "region": "Maine", "note": "lang=ru: region in English"},
    "admin_translations#22": {"layer": "country", "name": "Germany", "note": "lang=ru: Германия"},
    "korean_admin#1": {"region": "Seoul", "note": "lang=ko: region in English"},
    "korean_admin#3": {"name": "Pohang", "region": "Gyeongsangbuk-do", "note": "lang=ko: 포항시 is Pohang City"},
    "korean_admin#4": {"region": "Gyeonggi-do", "note": "lang=ko: region in English"},
    "wof_localities#10": {"region": "Nordrhein-Westfalen", "note": "GeoNames' spelling of North Rhine-Westphalia"},
    # The text names the region or country; the expectation (a WOF id) does not.
    "placeholder_general#1": {"region": "FL", "country": "US", "note": "region and country from the text"},
    "placeholder_general#2": {"region": "FL", "country": "US", "note": "region and country from the text"},
    "placeholder_general#3": {"region": "Ontario", "country": "CA", "note": "region and country from the text"},
    "placeholder_general#4": {"region": "Ontario", "country": "CA", "note": "region and country from the text"},
    "placeholder_general#5": {"region": "TX", "country": "US", "note": "region and country from the text"},
    "placeholder_general#6": {"region": "TX", "country": "US", "note": "region and country from the text"},
    "placeholder_general#7": {"region": "SC", "country": "US", "note": "region and country from the text"},
    "placeholder_general#8": {"region": "SC", "country": "US", "note": "region and country from the text"},
    "placeholder_general#9": {"region": "CA", "country": "US", "note": "region and country from the text"},
    "placeholder_general#10": {"region": "CA", "country": "US", "note": "region and country from the text"},
    "placeholder_general#12": {"country": "GB", "note": "country from the text"},
    "placeholder_general#13": {"region": "NM", "country": "US", "note": "region and country from the text"},
    "placeholder_general#14": {"region": "CA", "country": "US", "note": "region and country from the text"},
    "placeholder_general#17": {"country": "DE", "note": "country from the text"},
    "placeholder_sorting#701": {"region": "New York", "country": "US", "note": "region and country from the text"},
    "placeholder_sorting#900": {"region": "NM", "country": "US", "note": "region and country from the text"},
    "search#5": {"region": "New York", "country": "US", "note": "region and country from the text"},
    # A village or town the name lookup took for a venue, or a neighbourhood it took for a place.
    "autocomplete_admin_areas#13": {"layer": "locality", "note": "a village in Tamil Nadu"},
    "labels#26": {"layer": "neighbourhood"},
    "quattroshapes_popularity#3": {"layer": "neighbourhood", "note": "Ridgewood, Queens"},
    "quattroshapes_popularity#3-1": {"layer": "neighbourhood", "note": "Ridgewood, Queens"},
    "admin_lookup#8": {"layer": "neighbourhood"},
    # The text is an address: a gazetteer of places is not asked that.
    "placeholder_geometric_filters#1": {"skip": "the text is an address"},
    "confidence_score#3": {"skip": "the text is an address"},
    # An arrondissement named after its seat: the text names the city as much, and a
    # gazetteer of places rightly answers with the city.
    "wof_macrocounties#1": {"skip": "names the city Saint-Dié-des-Vosges as much"},
    "wof_macrocounties#2": {"skip": "names the city Münster as much"},
    "wof_macrocounties#3": {"skip": "names the city Perpignan as much"},
    "wof_macrocounties#4": {"skip": "names the city Les Sables-d'Olonne as much"},
    "fallback#4": {"skip": "the text is a street"},
}


def read_cases(path):
    """(file name, parsed JSON) for each test_cases/*.json, and the commit if known."""
    folder = os.path.join(path, "test_cases")
    if os.path.isdir(folder):
        names = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
        files = [(n, json.load(open(os.path.join(folder, n), encoding="utf-8"))) for n in names]
        commit = git(path, "rev-parse", "HEAD", check=False)
        return files, commit
    listing = git(path, "ls-tree", "--name-only", "HEAD", "test_cases/")
    names = sorted(n for n in listing.split("\n") if n.endswith(".json"))
    files = [(os.path.basename(n), json.loads(git(path, "show", f"HEAD:{n}"))) for n in names]
    return files, git(path, "rev-parse", "HEAD")


def git(path, *args, check=True):
    flag = "-C" if os.path.isdir(os.path.join(path, ".git")) else "--git-dir"
    r = subprocess.run(["git", flag, path] + list(args), capture_output=True, encoding="utf-8")
    if r.returncode != 0:
        if not check:
            return ""
        common.fail(f"{path}: not a checkout of pelias/acceptance-tests ({r.stderr.strip()})")
    return r.stdout.strip()


class Gazetteer:
    """What places.tsv knows, to infer a case's layer and spell its country."""

    def __init__(self):
        self.places = common.load_places()
        self.country_codes = {common.fold(p.country_name): p.country_code for p in self.places}
        self.country_codes.update({common.fold(k): v for k, v in COUNTRY_NAMES.items()})
        self.place_names = set().union(*(p.names for p in self.places))
        self.regions = {" ".join(common.words(p.admin1_name)) for p in self.places}

    def country(self, value):
        """ISO alpha-2 for an alpha-2 or alpha-3 code or a name, else None."""
        if value is None:
            return None
        v = value.strip()
        if len(v) == 3 and v.isupper():
            if v not in ISO3:
                common.fail(f"add {v} to ISO3 in pelias_extract.py")
            return ISO3[v]
        if len(v) == 2 and v.isupper():
            return v
        return self.country_codes.get(common.fold(v))

    def guess(self, name, region_first):
        """A layer for a name the case does not classify: country, place, region, venue."""
        key = " ".join(common.words(name))
        if self.country(name):
            return "country"
        order = (("region", self.regions), ("locality", self.place_names))
        for layer, names in (order if region_first else order[::-1]):
            if key in names:
                return layer
        return "venue"


def same(a, b):
    return a is not None and b is not None and common.words(a) == common.words(b)


def classify(p, gaz, asked):
    """(layer, how it was found) for the first expected result `p`; `asked` is the one
    kind of place the case's `layers` asks for, if it asks for one."""
    if p.get("layer"):
        return p["layer"], "layer"
    gid = p.get("gid", "")
    if gid.count(":") >= 2:
        return gid.split(":")[1], "gid"
    if "housenumber" in p or "street" in p:
        return "address", "fields"
    if "postalcode" in p and ("name" not in p or same(p["name"], p["postalcode"])):
        return "postalcode", "fields"
    label = [part.strip() for part in p.get("label", "").split(",") if part.strip()]
    name = p.get("name") or (label[0] if label else None)
    if not name:
        return None, "no name"
    if any(ch.isdigit() for ch in name):
        return "address", "a number in the name"
    for field in ADMIN_FIELDS:
        if same(p.get(field), name):
            return field, "fields"
    if asked:
        return asked, "layers"
    if len(label) == 1 and "name" not in p:
        return "country", "label"
    return gaz.guess(name, region_first=len(label) == 2), "gazetteer"


def expectation(p, layer, gaz, country_filter):
    """(name, region, country alpha-2) that the first suggestion must name; a case that
    names no country but keeps to one (boundary.country) expects that one."""
    label = [part.strip() for part in p.get("label", "").split(",") if part.strip()]
    name = p.get("name") or p.get(layer) or (label[0] if label else "")
    region = p.get("region") or p.get("region_a") or ""
    country = (gaz.country(p.get("country_a")) or gaz.country(p.get("dependency_a"))
               or gaz.country(p.get("country")) or gaz.country(p.get("dependency")))
    if not country and len(label) > 1:
        country = gaz.country(label[-1])
    if not country and country_filter and "," not in country_filter:
        country = gaz.country(country_filter)
    if layer == "dependency":
        country = gaz.country(name) or country  # a territory is its own country in GeoNames
    if layer in ("country", "dependency"):
        country = country or gaz.country(name)
        region = ""
    if layer in ("region", "macroregion") and not p.get("region") and not p.get("region_a"):
        region = name
    return name, region, country or ""


def main():
    if len(sys.argv) != 2:
        common.fail("usage: pelias_extract.py PATH-TO-ACCEPTANCE-TESTS > pelias-cases.tsv")
    files, commit = read_cases(sys.argv[1])
    gaz = Gazetteer()
    kept, seen, dropped = [], set(), {}

    def drop(reason):
        dropped[reason] = dropped.get(reason, 0) + 1

    for file_name, data in files:
        endpoint = data.get("endpoint", "search")
        for test in data.get("tests", []):
            case_id = f"{file_name[:-5]}#{test.get('id')}"
            given = test.get("in", {})
            ep = test.get("endpoint", endpoint)
            if ep not in ("search", "autocomplete") or "text" not in given:
                drop(f"endpoint {ep}" if ep not in ("search", "autocomplete") else "no text")
                continue
            if any(k in given for k in UNSUPPORTED_INPUTS):
                drop("a filter the tools cannot express (boundary.gid, boundary.circle, categories)")
                continue
            layers = set(str(given.get("layers", "coarse")).split(","))
            if not layers & (set(PLACE_LAYERS) | {"coarse"}):
                drop("layers asks for no kind of place")
                continue
            props = (test.get("expected") or {}).get("properties") or []
            props = [props] if isinstance(props, dict) else props
            if not props or not isinstance(props[0], dict):
                drop("no expected result")
                continue
            p = props[0]
            asked = [l for l in layers if l in PLACE_LAYERS]
            layer, how = classify(p, gaz, asked[0] if len(asked) == 1 and len(layers) == 1 else None)
            override = OVERRIDES.get(case_id, {})
            if override.get("skip"):
                drop("left out by hand (OVERRIDES)")
                continue
            layer = override.get("layer", layer)
            if layer not in PLACE_LAYERS:
                drop(f"expects {layer or 'no place'}")
                continue
            name, region, country = expectation(p, layer, gaz, given.get("boundary.country", ""))
            name = override.get("name", name)
            region = override.get("region", region)
            country = override.get("country", country)
            focus = ""
            if "focus.point.lat" in given:
                focus = f"{float(given['focus.point.lat']):.6f},{float(given['focus.point.lon']):.6f}"
            extent = ""
            if "boundary.rect.min_lon" in given:
                extent = ",".join(str(float(given[f"boundary.rect.{k}"])) for k in ("min_lon", "min_lat", "max_lon", "max_lat"))
            row = {
                "id": case_id, "endpoint": ep, "status": test.get("status", ""), "text": given["text"],
                "focus": focus, "country_filter": given.get("boundary.country", ""), "extent": extent,
                "lang": given.get("lang", ""), "kind": PLACE_LAYERS[layer], "layer": layer, "name": name,
                "region": region, "country": country,
                "note": override.get("note", "" if how in ("layer", "gid", "fields") else f"layer from {how}")}
            key = tuple(row[k] for k in ("text", "focus", "country_filter", "extent", "lang", "kind", "name",
                                         "region", "country"))
            if key in seen:
                drop("same as a case kept before")
                continue
            seen.add(key)
            kept.append(row)
    columns = ["id", "endpoint", "status", "text", "focus", "country_filter", "extent", "lang", "kind", "layer",
               "name", "region", "country", "note"]
    out = sys.stdout
    out.reconfigure(encoding="utf-8")
    out.write(f"# Selected from github.com/pelias/acceptance-tests at {commit or 'an unknown commit'} "
              f"(MIT: see PELIAS-LICENSE) by bench/ranking/pelias_extract.py.\n")
    out.write("\t".join(columns) + "\n")
    for row in kept:
        out.write("\t".join(str(row[c]).replace("\t", " ") for c in columns) + "\n")
    kinds = {}
    for row in kept:
        kinds[row["kind"]] = kinds.get(row["kind"], 0) + 1
    print(f"pelias_extract: kept {len(kept)} cases ({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))})",
          file=sys.stderr)
    for reason, n in sorted(dropped.items(), key=lambda x: -x[1]):
        print(f"  left out {n}: {reason}", file=sys.stderr)


if __name__ == "__main__":
    main()
