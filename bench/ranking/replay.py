#!/usr/bin/env python3
"""Type places' names letter by letter into magickey-suggest; count the letters each
needs before it is the first suggestion, against a plain ranker (issue 46).

Replay A, populous places: the 300 most populous places of places.tsv, typed with no
--location. Plain ranker: the places whose own name starts with the typed text, most
populous first.

Replay B, smaller places from nearby: 150 places ranked 1,000th or lower by population
(sections of cities left out), drawn at random with a fixed seed, at most 10 from one
country; each typed from a point 20 km away in a random (seeded) direction, given as
--location. Plain ranker: the places whose own name starts with the typed text, nearest
to that point first.

What is typed: the place's own name (the `name` column) as a person types it on a plain
keyboard (common.typed_form): lowercase, accents dropped, ł→l, ß→ss, transliteration marks
(‘ ’ ʻ) left out, spaces, hyphens, apostrophes and dots kept as written (`São Paulo` →
`s`, `sa`, `sao`, `sao `, `sao p`, …; `’Aïn el Turk` → `ain el turk`). A letter is one character
typed, spaces included. A place not first after its whole name is a failure and counts
as the name's length plus one (FAILURE_PENALTY).

The rule the issue sets for later, printed as PASS/FAIL for each replay: mean letters
no more than the plain ranker's, and no place needing more than three letters more than
the plain ranker does.

    python3 bench/ranking/replay.py                 # both replays, BIN=.build/release
    python3 bench/ranking/replay.py a --results     # replay A, per-place rows to bench/results/
    python3 bench/ranking/replay.py --show 'portland' --location 41.88,-87.63
"""
import argparse
import bisect
import collections
import os
import random
import signal
import sys

sys.dont_write_bytecode = True  # no bench/ranking/__pycache__: .gitignore does not cover it
import common  # noqa: E402

SEED = 46                 # the number; changing it draws another sample
POPULOUS = 300            # replay A: places taken, most populous first
SMALL_FROM_RANK = 1000    # replay B: places from this population rank on (1 = most populous)
SMALL_COUNT = 150         # replay B: places drawn
MAX_PER_COUNTRY = 10      # replay B: so the sample is spread over countries
NEARBY_KM = 20            # replay B: the typing point's distance from the place
FAILURE_PENALTY = 1       # letters beyond the whole name charged for a place never first
MAX_EXTRA_LETTERS = 3     # the rule: no place needs more than this many letters over plain
WORST_SHOWN = 15          # worst cases printed (the results file has every place)


class PlainRanker:
    """Places whose own name, as typed (common.typed_form), starts with the typed text;
    with `alternates`, also those with an alternate name that does."""

    def __init__(self, places, alternates=False):
        self.places = places
        pairs = {(common.typed_form(n), p.row) for p in places
                 for n in ((p.name,) + (p.alternates if alternates else ()))}
        pairs = sorted(pairs)
        self.names = [n for n, _ in pairs]
        self.rows = [r for _, r in pairs]

    def matching(self, text):
        lo = bisect.bisect_left(self.names, text)
        hi = bisect.bisect_left(self.names, text + "\U0010ffff")
        return [self.places[r] for r in sorted(set(self.rows[lo:hi]))]

    def ranked(self, text, near=None):
        """Most populous first, or with `near` (lat, lon), nearest first; then file order."""
        if near is None:
            key = lambda p: (-p.population, p.row)
        else:
            key = lambda p: (common.km(near[0], near[1], p.lat, p.lon), p.row)
        return sorted(self.matching(text), key=key)

    def first(self, text, near=None):
        found = self.ranked(text, near)
        return found[0] if found else None


def prefixes(typed):
    return [typed[:k] for k in range(1, len(typed) + 1)]


def letters_needed(target, firsts):
    """Letters typed until `target` is first; `firsts[k-1]` is the first place's
    GeoNames id after k letters. A failure costs the whole name plus the penalty."""
    for k, first in enumerate(firsts, start=1):
        if first == target.geonameid:
            return k, False
    return len(firsts) + FAILURE_PENALTY, True


def replay(tools, plain, targets, near_of):
    """One row per target: letters for ours and plain, and what ours put first where
    the plain ranker was done. `near_of(target)` is None or the typing point."""
    groups = collections.defaultdict(list)  # option set → targets, one process each
    for t in targets:
        near = near_of(t)
        groups[() if near is None else (f"--location={near[0]:.5f},{near[1]:.5f}",)].append(t)
    answered = []  # (target, its answers), all processes first, then one magickey-find
    for options, group in groups.items():
        answers = tools.suggest([q for t in group for q in prefixes(common.typed_form(t.name))], options, limit=1)
        i = 0
        for t in group:
            n = len(common.typed_form(t.name))
            answered.append((t, answers[i:i + n]))
            i += n
    keys = [a[0][1] for _, answers in answered for a in answers if a and not a[0][2]]
    ids = {k: r["id"] for k, r in tools.find(keys).items()}
    firsts = {}
    for t, answers in answered:
        firsts[t.row] = [(ids[a[0][1]] if a and not a[0][2] else None, a[0][0] if a else "") for a in answers]
    rows = []
    for t in targets:
        typed = common.typed_form(t.name)
        near = near_of(t)
        ours, ours_failed = letters_needed(t, [g for g, _ in firsts[t.row]])
        plain_firsts = [(p.geonameid if p else None) for p in (plain.first(q, near) for q in prefixes(typed))]
        theirs, plain_failed = letters_needed(t, plain_firsts)
        at = min(theirs, len(typed))
        rows.append({
            "place": t, "typed": typed, "near": near, "ours": ours, "plain": theirs,
            "ours_failed": ours_failed, "plain_failed": plain_failed,
            "ours_first_at_plain": firsts[t.row][at - 1][1], "plain_text": typed[:at]})
    return rows


def populous_targets(places):
    return sorted(places, key=lambda p: (-p.population, p.row))[:POPULOUS]


def small_targets(places, seed=SEED, count=SMALL_COUNT):
    """The seeded sample of replay B and each place's typing point."""
    ranked = sorted(places, key=lambda p: (-p.population, p.row))
    pool = [p for p in ranked[SMALL_FROM_RANK - 1:] if p.category != "section"]
    rng = random.Random(seed)
    rng.shuffle(pool)
    picked, per_country = [], collections.Counter()
    for p in pool:
        if per_country[p.country_code] < MAX_PER_COUNTRY:
            picked.append(p)
            per_country[p.country_code] += 1
            if len(picked) == count:
                break
    points = {}
    for p in picked:
        bearing = random.Random(f"{seed}:{p.geonameid}").uniform(0, 360)
        lat, lon = common.destination(p.lat, p.lon, bearing, NEARBY_KM)
        points[p.row] = (round(lat, 5), round(lon, 5))
    return picked, points


def report(name, title, rows, summary):
    """Prints the figures, the worst cases and the rule's verdicts."""
    n = len(rows)
    ours_mean = sum(r["ours"] for r in rows) / n
    plain_mean = sum(r["plain"] for r in rows) / n
    worse = sorted((r for r in rows if r["ours"] > r["plain"]),
                   key=lambda r: (r["plain"] - r["ours"], r["place"].row))
    better = sum(1 for r in rows if r["ours"] < r["plain"])
    ours_failed = sum(r["ours_failed"] for r in rows)
    plain_failed = sum(r["plain_failed"] for r in rows)
    print(f"{title}")
    print(f"  ours   {ours_mean:.2f} letters on average; {ours_failed} of {n} not first after the whole name")
    print(f"  plain  {plain_mean:.2f} letters on average; {plain_failed} of {n} not first after the whole name")
    print(f"  ours needs more letters than plain for {len(worse)} places, fewer for {better}, "
          f"as many for {n - len(worse) - better}")
    if worse:
        print(f"  worst (ours - plain: place; what ours put first when plain was done):")
    for r in worse[:WORST_SHOWN]:
        p = r["place"]
        where = f" from {r['near'][0]:.2f},{r['near'][1]:.2f}" if r["near"] else ""
        fails = " (never first)" if r["ours_failed"] else ""
        print(f"    +{r['ours'] - r['plain']:<2} {p.label}{where}: ours {r['ours']}{fails}, plain {r['plain']}; "
              f"'{r['plain_text']}' gave {r['ours_first_at_plain'] or 'nothing'}")
    if len(worse) > WORST_SHOWN:
        print(f"    … {len(worse) - WORST_SHOWN} more (--results writes every place)")
    mean_ok = ours_mean <= plain_mean
    most = worse[0]["ours"] - worse[0]["plain"] if worse else 0
    over = [r for r in worse if r["ours"] - r["plain"] > MAX_EXTRA_LETTERS]
    print(f"  {'PASS' if mean_ok else 'FAIL'} mean letters: ours {ours_mean:.2f}, plain {plain_mean:.2f} (rule: ours ≤ plain)")
    print(f"  {'PASS' if not over else 'FAIL'} most letters over plain: {most:+d}"
          f"{' (' + worse[0]['place'].name + ')' if worse else ''}; {len(over)} places over +{MAX_EXTRA_LETTERS}"
          f" (rule: none over +{MAX_EXTRA_LETTERS})")
    print()
    common.write_summary(summary, [
        (name, "mean letters", f"{ours_mean:.2f}", f"{plain_mean:.2f}", "ours ≤ plain", "PASS" if mean_ok else "FAIL"),
        (name, f"places over +{MAX_EXTRA_LETTERS} letters (most)", f"{len(over)} ({most:+d})", "",
         "none", "PASS" if not over else "FAIL"),
        (name, "not first after the whole name", ours_failed, plain_failed, "", "")])


def write_results(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        f.write("geonameid\tlabel\tpopulation\tlocation\ttyped\tours\tplain\tours_minus_plain\t"
                "ours_failed\tplain_failed\tours_first_when_plain_done\n")
        for r in rows:
            p = r["place"]
            loc = f"{r['near'][0]:.5f},{r['near'][1]:.5f}" if r["near"] else ""
            f.write(f"{p.geonameid}\t{p.label}\t{p.population}\t{loc}\t{r['typed']}\t{r['ours']}\t{r['plain']}\t"
                    f"{r['ours'] - r['plain']}\t{int(r['ours_failed'])}\t{int(r['plain_failed'])}\t"
                    f"{r['ours_first_at_plain']}\n")
    print(f"  per-place rows: {os.path.relpath(path)}")


def show(tools, plain, text, location):
    """Ours and the plain ranker side by side for one query, to check them by hand."""
    near = None
    options = []
    if location:
        try:
            near = tuple(float(x) for x in location.split(","))
        except ValueError:
            common.fail(f"bad --location {location!r}")
        options = [f"--location={location}"]
    ours = [label for label, _, _ in tools.suggest([text], options, limit=5)[0]]
    order = "nearest first" if near else "most populous first"
    print(f"'{text}'" + (f" near {location}" if location else ""))
    print(f"  ours:")
    for label in ours:
        print(f"    {label}")
    print(f"  plain ({order}):")
    for p in plain.ranked(common.typed_form(text), near)[:5]:
        extra = f"{common.km(near[0], near[1], p.lat, p.lon):.0f} km" if near else f"pop {p.population:,}"
        print(f"    {p.label} ({extra})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("which", nargs="?", choices=("a", "b", "both"), default="both")
    parser.add_argument("--results", nargs="?", const="", default=None, metavar="DIR",
                        help="write per-place rows to DIR (default bench/results/), dated")
    parser.add_argument("--summary", metavar="FILE", help="append summary rows for run.sh")
    parser.add_argument("--show", metavar="TEXT", help="print ours and plain for TEXT, and stop")
    parser.add_argument("--location", metavar="LAT,LON", help="with --show: the typing point")
    parser.add_argument("--plain-alternates", action="store_true",
                        help="the plain ranker also matches alternate names (as the issue's figures did)")
    parser.add_argument("--seed", type=int, default=SEED,
                        help=f"replay B: draw another sample (default {SEED}, the bench's; its rule is judged on that one)")
    parser.add_argument("--count", type=int, default=SMALL_COUNT, help=f"replay B: places drawn (default {SMALL_COUNT})")
    args = parser.parse_args()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the report quietly
    tools = common.Tools(os.environ.get("BIN", os.path.join(common.ROOT, ".build", "release")))
    places = common.load_places()
    plain = PlainRanker(places, alternates=args.plain_alternates)
    if args.show is not None:
        show(tools, plain, args.show, args.location)
        return
    if args.which in ("a", "both"):
        rows = replay(tools, plain, populous_targets(places), lambda t: None)
        report("Replay A", f"Replay A: the {POPULOUS} most populous places, typed with no --location", rows, args.summary)
        if args.results is not None:
            write_results(common.results_path(args.results, "replay-a"), rows)
    if args.which in ("b", "both"):
        targets, points = small_targets(places, args.seed, args.count)
        rows = replay(tools, plain, targets, lambda t: points[t.row])
        countries = len({t.country_code for t in targets})
        report("Replay B", f"Replay B: {len(targets)} smaller places ({countries} countries), "
               f"typed {NEARBY_KM} km away (--location)", rows, args.summary)
        if args.results is not None:
            write_results(common.results_path(args.results, "replay-b"), rows)


if __name__ == "__main__":
    main()
