#!/usr/bin/env python3
"""Replay a visit log (bench/replay/simulate.py) through the built tools; print top-5.

Each person's earlier visits are their route graph (routegraph-visit --at, the time of
each visit). From the WARMUP-th visit on, before recording a visit, it is asked for at its
time, from where the person was (--location = that place's coordinates), after 0 to 3
typed letters (the first letters of the target's label), by:

    geocoder     magickey-suggest --location L PREFIX
    graph        routegraph-suggest --at T -n 5 PREFIX
    hand merge   graph's list, then geocoder's, duplicates dropped, first 5
    --graph      magickey-suggest --graph G --at T --location L PREFIX

and the share of visits whose place is in the top 5 is printed per half of the people
(even: the tuning half, odd: the test half).

    python3 bench/replay/simulate.py > visits.tsv
    BIN=.build/release python3 bench/replay/replay.py visits.tsv
"""
import collections
import os
import subprocess
import sys
import tempfile

BIN = os.environ.get("BIN", ".build/release")
WARMUP = 15
EVERY = int(os.environ.get("EVERY", "2"))  # ask at every EVERY-th visit after the warm-up
LETTERS = (0, 1, 2, 3)
METHODS = ("geocoder", "graph", "hand merge", "--graph")
ENV = dict(os.environ, TZ="UTC")


def run(args, stdin=None):
    r = subprocess.run([f"{BIN}/{args[0]}"] + args[1:], input=stdin, capture_output=True, text=True, env=ENV)
    if r.returncode == 2:
        sys.exit(f"replay: {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


def blocks(text):
    """magickey-suggest's TSV for several stdin queries, split by query: one call per
    query would cost a process each, so queries go one by one through stdin with -n 5
    and are told apart by running them separately when needed."""
    return [line.split("\t")[0] for line in text.splitlines() if line]


def prefix(label, k):
    return label[:k]


def main():
    rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1], encoding="utf-8")]
    people = collections.defaultdict(list)
    for person, t, label, lat, lon in rows:
        people[int(person)].append((int(t), label, f"{float(lat):.5f},{float(lon):.5f}"))
    hits = {half: {m: [0] * len(LETTERS) for m in METHODS} for half in ("tuning", "test")}
    asked = {"tuning": 0, "test": 0}
    with tempfile.TemporaryDirectory() as tmp:
        # The graphs' cache (magickey-suggest --graph) with the graphs, not in the user's.
        ENV["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
        for person, visits in sorted(people.items()):
            half = "tuning" if person % 2 == 0 else "test"
            graph = os.path.join(tmp, f"{person}.json")
            for i, (t, label, _) in enumerate(visits):
                if i >= WARMUP and i % EVERY == 0:
                    asked[half] += 1
                    location = visits[i - 1][2]
                    for j, k in enumerate(LETTERS):
                        p = prefix(label, k)
                        g = [x for x in run(["routegraph-suggest", "--graph", graph, "--at", str(t), "-n", "5"] + ([p] if p else [])).splitlines() if x]
                        geo = blocks(run(["magickey-suggest", "--location", location, p])) if p else []
                        merged = list(dict.fromkeys(g + geo))[:5]
                        blend = blocks(run(["magickey-suggest", "--graph", graph, "--at", str(t), "--location", location, p]))
                        for m, found in zip(METHODS, (geo, g, merged, blend)):
                            if label in found[:5]:
                                hits[half][m][j] += 1
                run(["routegraph-visit", "--graph", graph, "--at", str(t), label])
    hits["both"] = {m: [a + b for a, b in zip(hits["tuning"][m], hits["test"][m])] for m in METHODS}
    asked["both"] = asked["tuning"] + asked["test"]
    for half in ("tuning", "test", "both"):
        n = asked[half]
        people_in = len([p for p in people if half == "both" or (p % 2 == 0) == (half == "tuning")])
        print(f"{half} half: {n} visits asked, {people_in} people" if half != "both" else f"both halves: {n} visits asked, {people_in} people")
        print("  letters      " + "".join(f"{k:>14}" for k in LETTERS))
        for m in METHODS:
            print(f"  {m:<12} " + "".join(f"{100 * h / max(n, 1):6.1f}% ({h:>4})" for h in hits[half][m]))


if __name__ == "__main__":
    main()
