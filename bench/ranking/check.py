#!/usr/bin/env python3
"""Check the benches' own rulers on cases worked out by hand: the plain rankers of
replay.py and the pass rule of pelias.py. Needs no built tool; run.sh runs it first,
so a ruler that drifts stops the bench before it measures anything.

    python3 bench/ranking/check.py
"""
import sys

sys.dont_write_bytecode = True  # no bench/ranking/__pycache__: .gitignore does not cover it
import common  # noqa: E402
import pelias
import replay

# (typed text, typing point or None, what the plain ranker must put first, worked out
# from places.tsv: the most populous own name starting with the text, or the nearest).
PLAIN = [
    ("san f", None, "San Francisco, California, United States"),   # 827,526 before San Fernando, PH
    ("new", None, "New York City, New York, United States"),
    ("st", None, "Stockholm, Stockholms län, Sweden"),             # 1.5 M; Stuttgart 0.6 M next
    ("chi", None, "Chicago, Illinois, United States"),
    ("ber", None, "Berlin, Germany"),
    ("lon", None, "London, England, United Kingdom"),
    ("new y", None, "New York City, New York, United States"),     # only New Yekepa, Liberia besides
    ("portland", (41.88, -87.63), "Portland, Maine, United States"),  # 1,429 km; Texas 1,788, Oregon 2,823
    ("ain el t", None, "’Aïn el Turk, Oran, Algeria"),             # typed without the leading mark
]
PLAIN_WITH_ALTERNATES = [
    ("chi", None, "Qingdao, Shandong Sheng, China"),  # its alternate name Chindao; 7.2 M, above Chicago
]

# (expected name, region, country, kind, first suggestion's label, passes?)
RULE = [
    ("Portland", "OR", "US", "place", "Portland, Oregon, United States", True),
    ("Portland", "OR", "US", "place", "Portland, Maine, United States", False),
    ("Portland", "Oregon", "", "place", "Portland, Oregon, United States", True),
    ("New York", "", "US", "place", "New York City, New York, United States", True),   # an alternate name
    ("New York", "New York", "", "place", "New City, New York, United States", False),
    ("Sendai-shi", "", "JP", "place", "Sendai, Miyagi, Japan", True),                    # `shi` dropped
    ("City of Durham", "", "GB", "place", "Durham, England, United Kingdom", True),     # `City of` dropped
    ("Toronto", "ON", "CA", "place", "Toronto, Ontario, Canada", True),                  # province code
    ("Sydney", "NSW", "AU", "place", "Sydney, New South Wales, Australia", True),        # state code
    ("Parijs", "", "FR", "place", "Paris, Île-de-France, France", True),                 # Dutch name
    ("Paris", "", "FR", "place", "Paris, Texas, United States", False),
    ("Shanghai", "Shanghai", "CN", "place", "Shanghai, Shanghai Shi, China", True),     # Shanghai Shi contains it
    ("Vatican City", "Vatican", "VA", "place", "Vatican City, Vatican", True),          # no region to compare
    ("Berlin", "Berlin", "DE", "region", "Berlin, Germany", False),                     # a city, not the state
    ("France", "", "FR", "country", "Paris, Île-de-France, France", False),
]


def main():
    places = common.load_places()
    by_label = {}
    for p in places:
        by_label.setdefault(p.label, p)
    failures = []
    for alternates, table in ((False, PLAIN), (True, PLAIN_WITH_ALTERNATES)):
        ranker = replay.PlainRanker(places, alternates=alternates)
        for text, near, want in table:
            got = ranker.first(common.typed_form(text), near)
            if got is None or got.label != want:
                failures.append(f"plain{' with alternates' if alternates else ''} '{text}': "
                                f"want {want}, got {got.label if got else 'nothing'}")
    judge = pelias.Judge(places)
    for name, region, country, kind, label, want in RULE:
        p = by_label[label]
        record = {"label": p.label, "category": p.category, "country": p.country_code, "region": p.admin1_name,
                  "population": str(p.population), "id": p.geonameid}
        case = {"name": name, "region": region, "country": country, "kind": kind}
        if judge.passes(case, record) != want:
            failures.append(f"rule: {name}/{region}/{country} ({kind}) with {label}: want {want}")
    for f in failures:
        print(f"check: {f}", file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"check: {len(PLAIN) + len(PLAIN_WITH_ALTERNATES)} plain-ranker and {len(RULE)} pass-rule cases as worked out by hand")


if __name__ == "__main__":
    main()
