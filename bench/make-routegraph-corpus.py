#!/usr/bin/env python3
"""Make the routegraph benchmark inputs: route graphs and zoxide databases of equal size.

usage: make-routegraph-corpus.py OUT_DIR SIZE...

For each SIZE it writes OUT_DIR/graph-SIZE.json, a route graph with SIZE edges over
SIZE/5 places, and OUT_DIR/zoxide-SIZE.txt, a z-format file (path|rank|time) with SIZE
entries for `zoxide import --from=z`, plus the directories those entries name, so that
`zoxide query` finds them. Place names are real city names with a district word and a
number ("São Paulo Hauptbahnhof 12", about 24 bytes), paths are of similar length.
Each place record has its visits by hour of day ("hours"), as routegraph-visit writes
them: most at one to three hours of the place's own, the rest anywhere.
The output is deterministic (a fixed seed).
"""
import json, os, random, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CITIES = [l.strip() for l in open(os.path.join(ROOT, "Tests/EndToEndTests/Fixtures/cities-sample.txt"), encoding="utf-8") if l.strip()]
DISTRICTS = ["Hauptbahnhof", "Airport", "Old Town", "Harbour", "University", "Stadium", "Market", "North", "South", "Centre"]
EPOCH = 1_700_000_000

def main():
    out, sizes = sys.argv[1], [int(s) for s in sys.argv[2:]]
    os.makedirs(out, exist_ok=True)
    for size in sizes:
        rng = random.Random(size)
        places = max(size // 5, 10)
        names = [f"{CITIES[i % len(CITIES)]} {DISTRICTS[(i // len(CITIES)) % len(DISTRICTS)]} {i}" for i in range(places)]
        edges, seen = [], set()
        while len(edges) < size:
            a, b = rng.randrange(places), rng.randrange(places)
            if a == b or (a, b) in seen:
                continue
            seen.add((a, b))
            edges.append({"destination": names[b], "lastVisitedAt": EPOCH + rng.randrange(10**7), "origin": names[a], "weight": 1 + int(rng.expovariate(0.3))})
        visits = {}
        for e in edges:
            v = visits.setdefault(e["destination"], [0, 0])
            v[0] += e["weight"]; v[1] = max(v[1], e["lastVisitedAt"])
        # Visits by hour, from a generator of their own (the edges and the zoxide file
        # stay as they were before places had hours).
        hour_rng = random.Random(size + 1)
        hours = {}
        for name, (count, _) in visits.items():
            favourite = [hour_rng.randrange(24) for _ in range(1 + hour_rng.randrange(3))]
            h = [0] * 24
            for _ in range(count):
                h[hour_rng.choice(favourite) if hour_rng.random() < 0.8 else hour_rng.randrange(24)] += 1
            hours[name] = h
        path = os.path.join(out, f"graph-{size}.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write('{\n  "edges": [\n')
            f.write(",\n".join("    " + json.dumps(e, ensure_ascii=False, separators=(",", ":"), sort_keys=True) for e in edges))
            f.write(f'\n  ],\n  "lastVisitedAt": {EPOCH + 10**7},\n  "lastVisitedLocation": {json.dumps(names[0], ensure_ascii=False)},\n  "places": [\n')
            f.write(",\n".join("    " + json.dumps({"hours": hours[n], "lastVisitedAt": t, "name": n, "visits": c}, ensure_ascii=False, separators=(",", ":"), sort_keys=True) for n, (c, t) in visits.items()))
            f.write('\n  ],\n  "version": 1\n}\n')
        base = os.path.join(out, f"dirs-{size}")
        with open(os.path.join(out, f"zoxide-{size}.txt"), "w", encoding="utf-8") as f:
            for i in range(size):
                d = f"{base}/{DISTRICTS[i % len(DISTRICTS)].lower().replace(' ', '-')}/project-{i}"
                os.makedirs(d, exist_ok=True)
                f.write(f"{d}|{1 + int(rng.expovariate(0.3))}|{EPOCH + rng.randrange(10**7)}\n")

main()
