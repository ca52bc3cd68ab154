"""What the ranking benches share: the embedded gazetteer, the folding of typed text,
distances, and the built tools driven through standard input.

The tools are asked in bulk: all the queries of one option set go to one
magickey-suggest process (its answers end with an empty line each), and the keys
of the suggestions worth resolving go to one magickey-find process. --location is
a process option, so a bench asks one process per location it needs, never one
per query.
"""
import collections
import csv
import datetime
import math
import os
import subprocess
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PLACES_TSV = os.path.join(ROOT, "Sources", "WayfindPlacesData", "places.tsv")
EARTH_KM = 6371.0088
# magickey-suggest's limit; the benches ask for the first suggestion, Pelias's also for
# the top 5 (a diagnostic, not the pass rule).
MAX_SUGGESTIONS = 15

# Letters a reader sees as accented that Unicode does not decompose; a person on a
# plain keyboard types them so (as the tools' own folding spells them).
_SPELLED = {"ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "þ": "th",
            "ı": "i", "ħ": "h", "ŧ": "t", "ŋ": "ng", "ß": "ss", "ĸ": "k"}

Place = collections.namedtuple(
    "Place", "row geonameid name alternates names lat lon country_code country_name admin1_code "
             "admin1_name population category feature_code label")


def fold(text):
    """Text as a person types it on a plain keyboard: lowercase, accents dropped
    (`São Paulo` → `sao paulo`, `Łódź` → `lodz`), everything else kept as written."""
    out = []
    for ch in unicodedata.normalize("NFKD", text.lower()):
        if unicodedata.combining(ch):
            continue
        out.append(_SPELLED.get(ch, ch))
    return unicodedata.normalize("NFC", "".join(out))


# Transliteration marks (ayn, hamza, okina) that a plain keyboard has no key for, and
# dashes that it types as a hyphen.
_UNTYPED = dict.fromkeys(map(ord, "‘’ʻʼ`´"), None) | {ord("–"): "-", ord("—"): "-"}


def typed_form(name):
    """A place's name as a person types it into a search box: folded, transliteration
    marks left out, leading punctuation dropped, spaces collapsed (`’Aïn el Turk` →
    `ain el turk`, `Alem T’ēna` → `alem tena`, `'s-Hertogenbosch` → `s-hertogenbosch`)."""
    typed = " ".join(fold(name).translate(_UNTYPED).split())
    while typed and not typed[0].isalnum():
        typed = typed[1:]
    return typed


def words(text):
    """The folded words of `text`: runs of letters and digits, as the tools split them."""
    out, word = [], []
    for ch in fold(text):
        if ch.isalnum():
            word.append(ch)
        elif word:
            out.append("".join(word))
            word = []
    if word:
        out.append("".join(word))
    return out


def label_of(name, region, country):
    """The label magickey-suggest prints: the region left out when it repeats the name."""
    parts = [name] + ([region] if region and region != name else []) + ([country] if country else [])
    return ", ".join(parts)


# The categories of areas (countries, first-level regions): not towns, which the replays
# type and the plain rankers rank.
AREAS = ("country", "region")


def load_places(path=PLACES_TSV, areas=False):
    """The gazetteer's rows in file order, with their names folded for matching; the
    towns only, unless `areas`."""
    places = []
    with open(path, encoding="utf-8", newline="") as f:
        header = f.readline().rstrip("\n").split("\t")
        col = {n: i for i, n in enumerate(header)}
        for row, line in enumerate(f):
            r = line.rstrip("\n").split("\t")
            if not areas and r[col["category"]] in AREAS:
                continue
            name = r[col["name"]]
            alternates = [a for a in r[col["alternatenames"]].split(",") if a]
            names = {" ".join(words(n)) for n in [name, r[col["asciiname"]]] + alternates}
            names.discard("")
            places.append(Place(
                row=len(places), geonameid=r[col["geonameid"]], name=name, names=frozenset(names),
                alternates=tuple([r[col["asciiname"]]] + alternates),
                lat=float(r[col["latitude"]]), lon=float(r[col["longitude"]]),
                country_code=r[col["country_code"]], country_name=r[col["country_name"]],
                admin1_code=r[col["admin1_code"]], admin1_name=r[col["admin1_name"]],
                population=int(r[col["population"]] or 0), category=r[col["category"]],
                feature_code=r[col["feature_code"]],
                label=label_of(name, r[col["admin1_name"]], r[col["country_name"]])))
    return places


def km(lat1, lon1, lat2, lon2):
    """Great-circle distance in kilometres (haversine)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_KM * math.asin(min(1.0, math.sqrt(h)))


def destination(lat, lon, bearing_degrees, distance_km):
    """The point `distance_km` from (lat, lon) along the initial bearing, on a sphere."""
    p1, l1, b = math.radians(lat), math.radians(lon), math.radians(bearing_degrees)
    d = distance_km / EARTH_KM
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(b))
    l2 = l1 + math.atan2(math.sin(b) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
    return math.degrees(p2), (math.degrees(l2) + 540) % 360 - 180


def fail(message):
    """Stops the bench as the tools do: one line on stderr, exit status 2."""
    print(f"ranking: {message}", file=sys.stderr)
    sys.exit(2)


def results_path(directory, bench):
    """bench/results/ranking-DATE-BENCH.tsv (or the same name in `directory`)."""
    directory = directory or os.path.join(ROOT, "bench", "results")
    os.makedirs(directory, exist_ok=True)
    return os.path.join(directory, f"ranking-{datetime.date.today().isoformat()}-{bench}.tsv")


def print_summary(path):
    """The rows write_summary appended, as one Markdown table."""
    print("| bench | measure | ours | plain ranker | rule | verdict |")
    print("| --- | --- | --- | --- | --- | --- |")
    with open(path, encoding="utf-8") as f:
        for line in f:
            print("| " + " | ".join(line.rstrip("\n").split("\t")) + " |")


def write_summary(path, rows):
    """Appends summary rows (bench, measure, ours, plain, rule, verdict) for run.sh's table."""
    if not path:
        return
    with open(path, "a", encoding="utf-8") as f:
        for row in rows:
            f.write("\t".join(str(c) for c in row) + "\n")


class Tools:
    """The built magickey-suggest and magickey-find in `bin_dir`."""

    def __init__(self, bin_dir):
        self.bin_dir = bin_dir
        for tool in ("magickey-suggest", "magickey-find"):
            if not os.access(os.path.join(bin_dir, tool), os.X_OK):
                fail(f"no {tool} in {bin_dir} (run make build, or set BIN)")
        self.processes = 0
        self._found = {}

    def _run(self, tool, args, lines):
        for line in lines:
            if "\n" in line or "\0" in line:
                fail(f"a query cannot hold a line break or NUL: {line!r}")
        self.processes += 1
        r = subprocess.run([os.path.join(self.bin_dir, tool)] + args, input="".join(l + "\n" for l in lines),
                           capture_output=True, encoding="utf-8")
        if r.returncode not in (0, 1):
            fail(f"{tool} {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
        return r.stdout

    def suggest(self, queries, options=(), limit=1):
        """One answer per query, each a list of (label, magicKey, isCollection)."""
        if not queries:
            return []
        out = self._run("magickey-suggest", list(options) + ["-n", str(limit)], queries)
        answers, current = [], []
        for line in out.split("\n")[:-1]:
            if line == "":
                answers.append(current)
                current = []
            else:
                label, key, collection = line.split("\t")
                current.append((label, key, collection == "true"))
        if current or len(answers) != len(queries):
            fail(f"magickey-suggest gave {len(answers)} answers to {len(queries)} queries")
        return answers

    def find(self, keys):
        """magickey-find's record for each place key, as a dict: label, category,
        country (code), region, population, id (the GeoNames id). Collections are not
        places: leave their keys out."""
        todo = sorted({k for k in keys if k not in self._found})
        if todo:
            out = self._run("magickey-find", [], todo).split("\n")[:-1]
            if len(out) != len(todo):
                fail(f"magickey-find gave {len(out)} lines for {len(todo)} keys")
            for key, line in zip(todo, out):
                f = line.split("\t")
                self._found[key] = {"label": f[0], "category": f[4], "country": f[5], "region": f[6],
                                    "population": f[7], "id": f[8]}
        return {k: self._found[k] for k in keys}
