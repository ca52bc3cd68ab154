#!/usr/bin/env python3
"""The other side of replay B: near a metropolis, do its first letters give it?

Issue 46 asks that a near place beat a far one, "but one letter from a metropolis is not
drowned by hamlets next door either". Replay B rewards distance alone; this counts what
that costs. The 100 most populous places of places.tsv (towns, not sections), each typed
from a point 20 km away along a seeded bearing (as replay B's), one and two letters of
its name: how often magickey-suggest gives it first, how often only in its first five,
and where not at all (printed). No rule: a figure to weigh a distance weight by.

    python3 bench/ranking/metros.py [--seed N] [--summary FILE]     # BIN=.build/release
"""
import argparse
import os
import random
import signal
import sys

sys.dont_write_bytecode = True  # no bench/ranking/__pycache__: .gitignore does not cover it
import common  # noqa: E402

COUNT = 100        # the most populous places typed
NEARBY_KM = 20     # as replay B
LETTERS = (1, 2)   # letters typed
SHOWN = 5          # suggestions looked at


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=46, help="the bearings' seed (default 46, replay B's)")
    parser.add_argument("--summary", metavar="FILE", help="append summary rows for run.sh")
    args = parser.parse_args()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    tools = common.Tools(os.environ.get("BIN", os.path.join(common.ROOT, ".build", "release")))
    places = [p for p in common.load_places() if p.category != "section"]
    targets = sorted(places, key=lambda p: (-p.population, p.row))[:COUNT]
    answered = []  # (target, letters, answer): one magickey-suggest per typing point
    for t in targets:
        bearing = random.Random(f"{args.seed}:{t.geonameid}").uniform(0, 360)
        lat, lon = common.destination(t.lat, t.lon, bearing, NEARBY_KM)
        typed = common.typed_form(t.name)
        queries = [typed[:n] for n in LETTERS]
        answers = tools.suggest(queries, [f"--location={lat:.5f},{lon:.5f}"], limit=SHOWN)
        answered += [(t, n, a) for n, a in zip(LETTERS, answers)]
    ids = {k: r["id"] for k, r in tools.find([s[1] for _, _, a in answered for s in a if not s[2]]).items()}
    print(f"The {COUNT} most populous places, typed from {NEARBY_KM} km away (--location)")
    rows = []
    for n in LETTERS:
        first = top = 0
        for t, m, answer in answered:
            if m != n:
                continue
            found = [ids.get(s[1]) for s in answer if not s[2]]
            if found[:1] == [t.geonameid]:
                first += 1
            elif t.geonameid in found:
                top += 1
            else:
                print(f"  {n} letter{'s' if n > 1 else ''}: {t.label} not in the first {SHOWN}; "
                      f"{answer[0][0] if answer else 'nothing'} first")
        print(f"  {n} letter{'s' if n > 1 else ''}: first {first}, in the first {SHOWN} only {top}, "
              f"drowned {COUNT - first - top}")
        rows.append(("Metropolises", f"first after {n} letter{'s' if n > 1 else ''} (drowned)",
                     f"{first}/{COUNT} ({COUNT - first - top})", "", "", ""))
    common.write_summary(args.summary, rows)
    print()


if __name__ == "__main__":
    main()
