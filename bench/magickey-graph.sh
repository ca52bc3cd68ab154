#!/usr/bin/env bash
# magickey-suggest --graph and magickey-find --graph against their peers in the same run:
#   magickey-suggest --graph G (10,000-edge graph of gazetteer labels) <= 2x the same
#   query without --graph (sa, and bos, which few of the graph's places match);
#   magickey-find --graph G KEY <= 1.5x routegraph-visit --graph G.
#
# Usage: bash bench/magickey-graph.sh        (after `make build`)
#
# Instructions by callgrind on stripped copies (they do not drift with the machine's load),
# and wall-clock medians by bench/interleave.c when the load average is below LOAD_MAX
# (1.2). Environment: BIN (the release build), BENCH_DIR
# (/tmp/wayfind-bench-magickey-graph), RUNS (interleaved rounds, 100).
# The graph's cache (GraphFileCache) is kept in BENCH_DIR/cache; the figures with --graph
# are of a cached graph (as every keystroke after the first), and one line gives the
# first read's.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
BIN="${BIN:-$ROOT/.build/release}"
WORK="${BENCH_DIR:-/tmp/wayfind-bench-magickey-graph}"
LOAD_MAX="${LOAD_MAX:-1.2}"
export TZ=UTC
export XDG_CACHE_HOME="$WORK/cache"
mkdir -p "$WORK/bin"
for tool in magickey-suggest magickey-find routegraph-visit; do
  strip -o "$WORK/bin/$tool" "$BIN/$tool"
done
B="$WORK/bin"
# A 10,000-edge graph: a seeded random walk over 2,000 labels near Boston and Paris.
python3 - "$ROOT/Sources/WayfindPlacesData/places.tsv" > "$WORK/walk.txt" <<'PY'
import random, sys
rng = random.Random(26)
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")][1:]
labels = []
for r in rows:
    name, region, country = r[1], r[11], r[9]
    labels.append(", ".join([name] + ([region] if region and region != name else []) + ([country] if country else [])))
places = rng.sample(labels, 2000)
for _ in range(10300):
    print(rng.choice(places))
PY
rm -f "$WORK/graph.json"*
"$B/routegraph-visit" --graph "$WORK/graph.json" --at 1700000000 - < "$WORK/walk.txt"
edges=$(grep -c '"origin"' "$WORK/graph.json")
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); graph: $edges edges, $(wc -c < "$WORK/graph.json") bytes"
# The cache keeps a graph only once it has not changed for two seconds (GraphFileCache).
sleep 2
cp "$WORK/graph.json" "$WORK/graph-find.json"
cp "$WORK/graph.json" "$WORK/graph-visit.json"
KEY=$("$B/magickey-suggest" --location 42.36,-71.06 boston | head -1 | cut -f2)
LABEL=$("$B/magickey-suggest" --location 42.36,-71.06 boston | head -1 | cut -f1)

instructions() {
  { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null || true; } | sed -n "s/.*Collected : //p"
}
ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }
echo "instructions (millions, callgrind):"
rm -rf "$XDG_CACHE_HOME"
first=$(instructions "$B/magickey-suggest" --graph "$WORK/graph.json" --at 1700003600 --location 42.36,-71.06 sa)
printf "  suggest 'sa' --graph, first read (no cache yet): %.2f\n" "$(echo "$first/1000000" | bc -l)"
for text in "" s sa bos; do
  plain=$(instructions "$B/magickey-suggest" --location 42.36,-71.06 "$text")
  graph=$(instructions "$B/magickey-suggest" --graph "$WORK/graph.json" --at 1700003600 --location 42.36,-71.06 "$text")
  printf "  suggest '%s': without %.2f, --graph %.2f, ratio %s\n" "$text" "$(echo "$plain/1000000" | bc -l)" "$(echo "$graph/1000000" | bc -l)" "$(ratio "$graph" "${plain:-1}")"
done
find=$(instructions "$B/magickey-find" --graph "$WORK/graph-find.json" --at 1700007200 "$KEY")
visit=$(instructions "$B/routegraph-visit" --graph "$WORK/graph-visit.json" --at 1700007200 "$LABEL")
printf "  find --graph %.2f, routegraph-visit %.2f, ratio %s\n" "$(echo "$find/1000000" | bc -l)" "$(echo "$visit/1000000" | bc -l)" "$(ratio "$find" "$visit")"

load=$(cut -d' ' -f1 /proc/loadavg)
if python3 -c "import sys; sys.exit(0 if $load < $LOAD_MAX else 1)" && command -v cc >/dev/null; then
  # Wall clock by bench/interleave.c, which alternates the commands run by run (this VM's
  # speed drifts more than the margins between hyperfine's back-to-back blocks), with
  # each binary first read back from disk (bench/read-back.py). Each line's ratio is to
  # the last command of its run (the peer).
  cc -O2 -o "$WORK/interleave" "$HERE/interleave.c"
  python3 "$HERE/read-back.py" "$B/magickey-suggest" "$B/magickey-find" "$B/routegraph-visit"
  RUNS="${RUNS:-100}"
  echo "wall clock, interleaved ($RUNS rounds): median, p25, p10, ratio to the last command"
  for query in "--location 42.36,-71.06 sa" "sa" "--location 42.36,-71.06 bos" "bos"; do
    # shellcheck disable=SC2086
    "$WORK/interleave" "$RUNS" "$B/magickey-suggest" --graph "$WORK/graph.json" --at 1700003600 $query \
      ::: "$B/magickey-suggest" $query | sed "s|$B/||g; s|$WORK/||g"
  done
  "$WORK/interleave" "$RUNS" "$B/magickey-find" --graph "$WORK/graph-find.json" --at 1700007200 "$KEY" \
    ::: "$B/routegraph-visit" --graph "$WORK/graph-visit.json" --at 1700007200 "$LABEL" | sed "s|$B/||g; s|$WORK/||g"
else
  echo "load average $load >= $LOAD_MAX: no wall-clock timing (instructions above)"
fi
