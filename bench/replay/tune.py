#!/usr/bin/env python3
"""Tune the blend's constants on the tuning half of a replay (even-numbered people).

Collects, for each question replay.py asks the tuning half, the graph's scored list
(routegraph-suggest --scores -n 10) and the geocoder's (magickey-suggest -n 10), then
tries the blend of Sources/WayfindCore/Places/PredictiveSuggest.swift (restated here for
the search only; the figures to report come from replay.py running the tool) over a grid
of letterTrust and nearnessDistance, printing top-5 per letter count for each.
The whole-name rule is left out: the replay never types a whole name.

    BIN=.build/release python3 bench/replay/tune.py visits.tsv
"""
import collections
import math
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from replay import LETTERS, WARMUP, run, prefix  # noqa: E402


def km(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1, math.sqrt(h)))


def main():
    import tempfile
    every = int(os.environ.get("EVERY", "3"))
    rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1], encoding="utf-8")]
    people = collections.defaultdict(list)
    where = {}
    for person, t, label, lat, lon in rows:
        people[int(person)].append((int(t), label, (float(lat), float(lon))))
        where[label] = (float(lat), float(lon))
    cases = []
    cache = os.environ.get("CACHE")
    loaded = bool(cache and os.path.exists(cache))
    if loaded:
        import pickle
        cases = pickle.load(open(cache, "rb"))
    with tempfile.TemporaryDirectory() as tmp:
        for person, visits in sorted(people.items()):
            if person % 2 or loaded:
                continue
            graph = os.path.join(tmp, f"{person}.json")
            for i, (t, label, _) in enumerate(visits):
                if i >= WARMUP and i % every == 0:
                    here = visits[i - 1][2]
                    loc = f"{here[0]:.5f},{here[1]:.5f}"
                    for k in LETTERS:
                        p = prefix(label, k)
                        g = []
                        for line in run(["routegraph-suggest", "--graph", graph, "--at", str(t), "--scores", "-n", "10"] + ([p] if p else [])).splitlines():
                            name, score, _ = line.split("\t")
                            g.append((name, float(score)))
                        geo = [x.split("\t")[0] for x in run(["magickey-suggest", "-n", "10", "--location", loc, p]).splitlines()] if p else []
                        cases.append((k, label, here, g, geo))
                run(["routegraph-visit", "--graph", graph, "--at", str(t), label])
    if cache and not loaded:
        import pickle
        pickle.dump(cases, open(cache, "wb"))

    def blend(case, trust, near, power=1.0, letters=True):
        k, _, here, g, geo = case
        if k == 0:
            return [n for n, _ in g][:5]
        score = collections.defaultdict(float)
        for n, s in g:
            d = km(here, where[n]) if n in where else 0
            score[n] += s / (1 + d / near)
        for r, n in enumerate(geo):
            score[n] += trust * (min(k, 4) if letters else 1) / (1 + r) ** power
        order = {n: i for i, n in enumerate([n for n, _ in g] + geo)}
        return sorted(score, key=lambda n: (-score[n], order[n]))[:5]

    def hand(case):
        _, _, _, g, geo = case
        return list(dict.fromkeys([n for n, _ in g][:5] + geo[:5]))[:5]

    def report(name, pick):
        hits = [0] * len(LETTERS)
        count = [0] * len(LETTERS)
        for c in cases:
            count[c[0]] += 1
            hits[c[0]] += c[1] in pick(c)
        print(f"{name:<28}" + "".join(f"{100 * h / max(n, 1):6.1f}%" for h, n in zip(hits, count)))

    report("hand merge", hand)
    grid = os.environ.get("GRID", "trust")
    if grid == "trust":
        for trust in (0.02, 0.05, 0.1, 0.2, 0.3, 0.6):
            for near in (10, 30, 100, 1000, 1e9):
                report(f"trust {trust} near {near:g}", lambda c: blend(c, trust, near))
    else:
        for trust in (0.03, 0.05, 0.08, 0.15, 0.3):
            for power in (0.5, 1, 2):
                for letters in (True, False):
                    report(f"t{trust} p{power} l{letters}", lambda c: blend(c, trust, 100, power, letters))


if __name__ == "__main__":
    main()
