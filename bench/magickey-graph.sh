#!/usr/bin/env bash
# magickey-suggest --graph and magickey-find --graph against their peers, in one run each
# (issue 44's targets):
#   a search box's stream: 100 keystroke queries through one magickey-suggest --graph G
#     process <= 1.5x the same stream without --graph;
#   one process per query: magickey-suggest --graph G QUERY <= 4x without --graph
#     (sa, and bos, which few of the graph's places match);
#   magickey-find --graph G KEY <= 1.5x routegraph-visit --graph G.
# G is a 10,000-edge graph of 2,000 gazetteer labels.
#
# Usage: bash bench/magickey-graph.sh        (after `make build`; needs hyperfine)
# Environment: BIN (the release build), BENCH_DIR (/tmp/wayfind-bench-magickey-graph),
# RUNS (hyperfine runs per command, 30). Prints hyperfine's table and the ratios of the
# medians; the JSON is kept in BENCH_DIR.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
BIN="${BIN:-$ROOT/.build/release}"
WORK="${BENCH_DIR:-/tmp/wayfind-bench-magickey-graph}"
RUNS="${RUNS:-30}"
export TZ=UTC
mkdir -p "$WORK/bin"
for tool in magickey-suggest magickey-find routegraph-visit; do
  strip -o "$WORK/bin/$tool" "$BIN/$tool"
done
B="$WORK/bin"
# A 10,000-edge graph: a seeded random walk over 2,000 labels from the whole gazetteer,
# and the keystrokes of typing 20 of them (every prefix of their first word, then the
# rest a word at a time): 100 queries.
python3 - "$ROOT/Sources/WayfindPlacesData/places.tsv" "$WORK" <<'PY'
import random, sys
rng = random.Random(26)
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")][1:]
labels = []
for r in rows:
    name, region, country = r[1], r[11], r[9]
    labels.append(", ".join([name] + ([region] if region and region != name else []) + ([country] if country else [])))
places = rng.sample(labels, 2000)
with open(sys.argv[2] + "/walk.txt", "w", encoding="utf-8") as walk:
    for _ in range(10300):
        print(rng.choice(places), file=walk)
keys = []
for label in rng.sample(places, 200):
    name = label.split(",")[0]
    keys += [name[:n] for n in range(1, len(name) + 1)]
    if len(keys) >= 100:
        break
with open(sys.argv[2] + "/keystrokes.txt", "w", encoding="utf-8") as out:
    out.write("\n".join(keys[:100]) + "\n")
PY
rm -f "$WORK/graph.json"*
"$B/routegraph-visit" --graph "$WORK/graph.json" --at 1700000000 - < "$WORK/walk.txt"
cp "$WORK/graph.json" "$WORK/graph-find.json"
cp "$WORK/graph.json" "$WORK/graph-visit.json"
edges=$(grep -c '"origin"' "$WORK/graph.json")
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); graph: $edges edges, $(wc -c < "$WORK/graph.json") bytes;" \
  "$(wc -l < "$WORK/keystrokes.txt") keystroke queries"
KEY=$("$B/magickey-suggest" --location 42.36,-71.06 boston | head -1 | cut -f2)
LABEL=$("$B/magickey-suggest" --location 42.36,-71.06 boston | head -1 | cut -f1)
G=(--graph "$WORK/graph.json" --at 1700003600)

# Pairs of commands, the one measured first, its peer second.
# (-N: no shell, except for the stream, which a shell redirects: the same on both sides.)
run() {
  local name=$1 shell=-N
  shift
  if [ "$1" = --shell ]; then shell=""; shift; fi
  hyperfine $shell --warmup 3 --runs "$RUNS" --export-json "$WORK/$name.json" "$@" > /dev/null
  python3 - "$WORK/$name.json" "$name" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))["results"]
m = [statistics.median(x["times"]) * 1000 for x in r]
print(f"  {sys.argv[2]:<28} {m[0]:8.2f} ms  peer {m[1]:8.2f} ms  ratio {m[0] / m[1]:.2f}")
PY
}
echo "medians of $RUNS runs (hyperfine):"
run "stream-100" --shell \
  "$B/magickey-suggest ${G[*]} --location 42.36,-71.06 < $WORK/keystrokes.txt" \
  "$B/magickey-suggest --location 42.36,-71.06 < $WORK/keystrokes.txt"
for query in sa bos; do
  run "process-$query" "$B/magickey-suggest ${G[*]} --location 42.36,-71.06 $query" \
    "$B/magickey-suggest --location 42.36,-71.06 $query"
done
run "find-vs-visit" \
  --prepare "sh -c 'cp $WORK/graph.json $WORK/graph-find.json; cp $WORK/graph.json $WORK/graph-visit.json'" \
  "$B/magickey-find --graph $WORK/graph-find.json --at 1700007200 $KEY" \
  "$B/routegraph-visit --graph $WORK/graph-visit.json --at 1700007200 '$LABEL'"
echo "targets: stream-100 <= 1.5, process-* <= 4, find-vs-visit <= 1.5"
