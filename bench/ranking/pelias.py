#!/usr/bin/env python3
"""Ask magickey-suggest the Pelias acceptance cases a place gazetteer can fairly be
asked (pelias-cases.tsv, made by pelias_extract.py), and judge its first suggestion.

Each case's text goes to magickey-suggest as typed, with --location for its focus
point, --country for its boundary.country and --extent for its boundary.rect (one
process per set of options, all that set's cases on its standard input).

Pass rule: the first suggestion is the expected place.
- A city or town (Pelias locality, localadmin, borough): the first suggestion's place
  (its GeoNames row, through magickey-find's id) has the expected name among its names
  (own, ASCII or alternate; folded; `Sendai-shi`, `City of Durham` and `Vatican City`
  also match without `shi`, `City of`, `City`), lies in the expected country when the
  case names one, and in the expected region when the case names one (the row's region
  name, folded, equal to or containing it or contained in it, or its code: `OR`, `NSW`).
- A region, county or country: the first suggestion must be that region or country
  itself: magickey-find's category says region, county or country (or the row's GeoNames
  feature code is ADM* or PCL*), with the expected name, or for a country the expected
  country code. The gazetteer holds countries and first-level regions (GeoNames PCL*
  and ADM1 rows) but no counties or smaller areas.
Pelias lets many cases pass with the place anywhere in the first 3 to 10 results; a
type-ahead is judged here on its first. How many failures had the expected place
somewhere in the first five is printed too.

Failure causes, the first that applies:
1. an area the gazetteer lacks: a county, district or second-level region;
2. not in the gazetteer: no row of places.tsv would pass (the population floor of
   15,000 left the place out, or GeoNames spells it otherwise);
3. "city, qualifier": the text goes on after the name (`paris, texas`, `billerica, ma`,
   `Paris France`);
4. wrong place near the focus: the case gives a focus point;
5. other.

    python3 bench/ranking/pelias.py                  # BIN=.build/release
    python3 bench/ranking/pelias.py --results        # per-case rows to bench/results/
    python3 bench/ranking/pelias.py --cases FILE     # other cases (pelias_extract.py's output)
"""
import argparse
import collections
import csv
import os
import signal
import sys

sys.dont_write_bytecode = True  # no bench/ranking/__pycache__: .gitignore does not cover it
import common  # noqa: E402

CASES = os.path.join(common.HERE, "pelias-cases.tsv")
TOP = 5  # suggestions asked for: the first is judged, the rest tell "in the first five"
REGION_CATEGORIES = {"region", "county", "country", "state", "province"}
REGION_FEATURE_PREFIXES = ("ADM", "PCL", "TERR")
# Abbreviations people and Pelias use for Canada's provinces and Australia's states
# (GeoNames codes them with numbers; the United States' codes are their postal codes).
PROVINCES = {
    "AB": "Alberta", "BC": "British Columbia", "MB": "Manitoba", "NB": "New Brunswick",
    "NL": "Newfoundland and Labrador", "NS": "Nova Scotia", "ON": "Ontario", "PE": "Prince Edward Island",
    "QC": "Quebec", "SK": "Saskatchewan", "YT": "Yukon", "NT": "Northwest Territories", "NU": "Nunavut",
    "ACT": "Australian Capital Territory", "NSW": "New South Wales", "NT ": "Northern Territory",
    "QLD": "Queensland", "SA": "South Australia", "TAS": "Tasmania", "VIC": "Victoria", "WA": "Western Australia",
}
CAUSES = ("an area the gazetteer lacks (county, district)", "not in the gazetteer (population floor or spelling)",
          "\"city, qualifier\" text", "wrong place near the focus", "other")
SHOWN_PER_CAUSE = 12


def read_cases(path):
    with open(path, encoding="utf-8", newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def name_keys(name):
    """The folded forms a name matches by: whole, and without a generic head or tail."""
    w = common.words(name)
    keys = {" ".join(w)}
    if len(w) > 1 and w[-1] in ("city", "shi", "cdp", "township"):
        keys.add(" ".join(w[:-1]))
    if len(w) > 2 and w[:2] == ["city", "of"]:
        keys.add(" ".join(w[2:]))
    keys.discard("")
    return keys


def region_matches(expected, place):
    """True when the row's region is the expected one, by name or code (or the row
    has no region to tell: Vatican City, Singapore)."""
    if not expected or not place.admin1_name:
        return True
    code = expected.strip().upper()
    if code == place.admin1_code.upper() or (place.country_code in ("CA", "AU") and
                                             PROVINCES.get(code) == place.admin1_name):
        return True
    want, have = common.words(expected), common.words(place.admin1_name)
    if not want or not have:
        return False
    n, m = len(want), len(have)
    contains = lambda a, b: any(a[i:i + len(b)] == b for i in range(len(a) - len(b) + 1))
    return contains(have, want) if m >= n else contains(want, have)


class Judge:
    """The pass rule, over places.tsv."""

    def __init__(self, places):
        self.by_id = {p.geonameid: p for p in places}
        self.by_name = collections.defaultdict(list)
        self.keys = {}
        for p in places:
            self.keys[p.geonameid] = set().union(*(name_keys(n) for n in p.names))
            for k in self.keys[p.geonameid]:
                self.by_name[k].append(p)

    def is_place(self, case, place):
        """The rule for a city or town, on one row of places.tsv (or None)."""
        if place is None or place.category in common.AREAS:
            return False
        if not name_keys(case["name"]) & self.keys[place.geonameid]:
            return False
        if case["country"] and place.country_code != case["country"]:
            return False
        return region_matches(case["region"], place)

    def has_area(self, case):
        """Whether places.tsv holds the region or country a case expects."""
        return any(p.category in common.AREAS and (not case["country"] or p.country_code == case["country"])
                   for k in name_keys(case["name"]) for p in self.by_name.get(k, []))

    def in_gazetteer(self, case):
        """Whether any row of places.tsv would pass (inside the case's rectangle, if any)."""
        inside = lambda p: True
        if case["extent"]:
            w, s, e, n = (float(x) for x in case["extent"].split(","))
            inside = lambda p: w <= p.lon <= e and s <= p.lat <= n
        return any(self.is_place(case, p) and inside(p)
                   for k in name_keys(case["name"]) for p in self.by_name.get(k, []))

    def passes(self, case, record):
        """Whether the suggestion (magickey-find's record, or None) is the expected place."""
        if record is None:
            return False
        if case["kind"] == "place":
            return self.is_place(case, self.by_id.get(record["id"]))
        row = self.by_id.get(record["id"])
        feature = row.feature_code if row else ""
        if record["category"] not in REGION_CATEGORIES and not feature.startswith(REGION_FEATURE_PREFIXES):
            return False
        label_name = record["label"].split(",")[0]
        names = (row.names if row else set()) | name_keys(label_name)
        if case["kind"] == "country":
            return record["country"] == case["country"] or bool(name_keys(case["name"]) & names)
        return bool(name_keys(case["name"]) & names) and (not case["country"] or record["country"] == case["country"])


def qualified(case):
    """The text goes on after the expected name: a comma, or more words than the name."""
    if "," in case["text"]:
        return True
    typed, name = common.words(case["text"]), common.words(case["name"])
    return len(typed) > len(name) and typed[len(name):] != ["city"]


def options_of(case):
    options = []
    if case["focus"]:
        options.append(f"--location={case['focus']}")
    if case["country_filter"]:
        options.append(f"--country={case['country_filter']}")
    if case["extent"]:
        options.append(f"--extent={case['extent']}")
    return tuple(options)


def run(tools, judge, cases):
    groups = collections.defaultdict(list)
    for i, case in enumerate(cases):
        groups[options_of(case)].append(i)
    answers = [None] * len(cases)
    for options, indices in groups.items():
        for i, answer in zip(indices, tools.suggest([cases[i]["text"] for i in indices], options, limit=TOP)):
            answers[i] = answer
    records = tools.find([key for a in answers for _, key, collection in a if not collection])
    results = []
    for case, answer in zip(cases, answers):
        recs = [None if collection else records[key] for _, key, collection in answer]
        ok = judge.passes(case, recs[0] if recs else None)
        cause = ""
        if not ok:
            if case["kind"] != "place" and not judge.has_area(case):
                cause = CAUSES[0]
            elif case["kind"] == "place" and not judge.in_gazetteer(case):
                cause = CAUSES[1]
            elif qualified(case):
                cause = CAUSES[2]
            elif case["focus"]:
                cause = CAUSES[3]
            else:
                cause = CAUSES[4]
        in_top = any(judge.passes(case, r) for r in recs)
        results.append({"case": case, "pass": ok, "cause": cause, "in_top": in_top,
                        "first": answer[0][0] if answer else "", "options": " ".join(options_of(case))})
    return results


def report(results, summary):
    n = len(results)
    passed = sum(r["pass"] for r in results)
    kinds = collections.Counter(r["case"]["kind"] for r in results)
    kinds_passed = collections.Counter(r["case"]["kind"] for r in results if r["pass"])
    print(f"Pelias acceptance cases: {n} asked ({kinds['place']} cities and towns, "
          f"{kinds['region'] + kinds['country']} regions, counties and countries)")
    print(f"  first suggestion right: {passed} of {n} ({100 * passed / n:.0f}%); cities and towns "
          f"{kinds_passed['place']} of {kinds['place']}; regions and countries "
          f"{kinds_passed['region'] + kinds_passed['country']} of {kinds['region'] + kinds['country']}")
    failed = [r for r in results if not r["pass"]]
    print(f"  failures by cause ({sum(r['in_top'] for r in failed)} of {len(failed)} had the place in the first {TOP}):")
    by_cause = collections.defaultdict(list)
    for r in failed:
        by_cause[r["cause"]].append(r)
    for cause in CAUSES:
        rows = by_cause.get(cause, [])
        top = sum(r["in_top"] for r in rows)
        print(f"    {len(rows):4d}  {cause}" + (f" ({top} in the first {TOP})" if top else ""))
    for cause in CAUSES[1:]:
        rows = by_cause.get(cause, [])
        if not rows:
            continue
        print(f"  {cause}:")
        for r in rows[:SHOWN_PER_CAUSE]:
            c = r["case"]
            want = ", ".join(x for x in (c["name"], c["region"], c["country"]) if x)
            opts = f" [{r['options']}]" if r["options"] else ""
            print(f"    '{c['text']}'{opts}: wanted {want}; got {r['first'] or 'nothing'}")
        if len(rows) > SHOWN_PER_CAUSE:
            print(f"    … {len(rows) - SHOWN_PER_CAUSE} more (--results writes every case)")
    print()
    common.write_summary(summary, [
        ("Pelias", "first suggestion right", f"{passed}/{n} ({100 * passed / n:.0f}%)", "", "", ""),
        ("Pelias", "cities and towns right", f"{kinds_passed['place']}/{kinds['place']}", "", "", "")]
        + [("Pelias", f"failed: {cause}", len(by_cause.get(cause, [])), "", "", "") for cause in CAUSES])


def write_results(path, results):
    columns = ["id", "text", "options", "kind", "name", "region", "country", "pass", "cause",
               "in_first_five", "first_suggestion"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\t".join(columns) + "\n")
        for r in results:
            c = r["case"]
            f.write("\t".join([c["id"], c["text"], r["options"], c["kind"], c["name"], c["region"], c["country"],
                               "1" if r["pass"] else "0", r["cause"], "1" if r["in_top"] else "0", r["first"]]) + "\n")
    print(f"  per-case rows: {os.path.relpath(path)}")


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the report quietly
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default=CASES, help="the cases (default bench/ranking/pelias-cases.tsv)")
    parser.add_argument("--results", nargs="?", const="", default=None, metavar="DIR",
                        help="write per-case rows to DIR (default bench/results/), dated")
    parser.add_argument("--summary", metavar="FILE", help="append summary rows for run.sh")
    args = parser.parse_args()
    if not os.path.exists(args.cases):
        common.fail(f"{args.cases}: no such file (make it with pelias_extract.py)")
    tools = common.Tools(os.environ.get("BIN", os.path.join(common.ROOT, ".build", "release")))
    judge = Judge(common.load_places(areas=True))
    results = run(tools, judge, read_cases(args.cases))
    report(results, args.summary)
    if args.results is not None:
        write_results(common.results_path(args.results, "pelias"), results)


if __name__ == "__main__":
    main()
