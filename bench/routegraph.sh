#!/usr/bin/env bash
# Benchmark routegraph-visit and routegraph-suggest against zoxide add and zoxide query on
# route graphs of 1k, 10k and 100k edges and zoxide databases of as many entries, and a
# batch of 10,000 visits on stdin.
#
# Usage: bash bench/routegraph.sh            (after `make build`)
#
# The tools are timed as `make install` installs them: stripped (`install -s`) copies in
# BENCH_DIR/bin. The empty Swift program is stripped too.
#
# Environment:
#   ROUTEGRAPH_BIN   folder with the routegraph binaries (default: the release build)
#   BENCH_DIR        where inputs and results go (default: /tmp/wayfind-bench-routegraph)
#   BENCH_RUNS       rounds per interleaved run (default 100)
#   SIZES            the sizes (default "1000 10000 100000")
#
# Every ratio is measured in one run of bench/interleave.c, which alternates two commands
# run by run, each first in every other round (this VM's speed drifts more than the
# margins between hyperfine's blocks), and is the median of the rounds' ratios, printed
# with its 95% interval.
# Visits are timed with INTERLEAVE_SYNC=1 (sync before each command, untimed) and, for
# reference, without.
# Targets (issue 44):
#   routegraph-suggest <= 1.1x zoxide query at 10k, <= 1.0x at 100k;
#   routegraph-suggest <= 2.5x an empty -static-executable Swift program at 1k;
#   routegraph-visit   <= 1.5x zoxide add at 1k, 10k and 100k (a visit writes and
#                      fsyncs a new file; zoxide syncs nothing).
# Other sizes in SIZES are timed without a target, and so is a batch of 10,000 visits
# on stdin on a 10k-edge graph (hyperfine), for reference.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
BIN="${ROUTEGRAPH_BIN:-$(cd "$ROOT" && swift build -c release -Xswiftc -static-executable --show-bin-path 2>/dev/null)}"
WORK="${BENCH_DIR:-/tmp/wayfind-bench-routegraph}"
RUNS="${BENCH_RUNS:-100}"
SIZES="${SIZES:-1000 10000 100000}"
for tool in hyperfine zoxide python3 cc swiftc; do
  command -v "$tool" >/dev/null || { echo "routegraph.sh: $tool is needed" >&2; exit 2; }
done
mkdir -p "$WORK/bin"
for tool in routegraph-visit routegraph-suggest; do
  [ -x "$BIN/$tool" ] || { echo "routegraph.sh: $BIN/$tool not found; run make build" >&2; exit 2; }
  install -s -m 755 "$BIN/$tool" "$WORK/bin/$tool"
done
BIN="$WORK/bin"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $(zoxide --version); $(hyperfine --version)"

mkdir -p "$WORK/results"
for n in $SIZES; do
  [ -f "$WORK/graph-$n.json" ] || python3 "$HERE/make-routegraph-corpus.py" "$WORK" "$n"
done
cc -O2 -o "$WORK/interleave" "$HERE/interleave.c"
# The start-up floor: a Swift program that does nothing, linked and stripped as our tools are.
printf '#if canImport(Glibc)\nimport Glibc\n#endif\nexit(0)\n' > "$WORK/empty.swift"
(cd "$WORK" && swiftc -O -static-executable -module-name Empty empty.swift -o empty-swift >/dev/null 2>&1 && strip empty-swift)

# Every program timed is dropped from the page cache and read back once (bench/read-back.py).
python3 "$HERE/read-back.py" "$BIN/routegraph-visit" "$BIN/routegraph-suggest" "$WORK/empty-swift" "$(command -v zoxide)"

# Fresh copies each run: both tools change their file on every add/visit.
export _ZO_MAXAGE=1000000000   # keep zoxide from ageing entries away mid-run
for n in $SIZES; do
  cp "$WORK/graph-$n.json" "$WORK/run-graph-$n.json"
  rm -f "$WORK/run-graph-$n.json".{bak,tmp,lock}
  rm -rf "$WORK/run-zoxide-$n" && mkdir -p "$WORK/run-zoxide-$n"
  _ZO_DATA_DIR="$WORK/run-zoxide-$n" zoxide import "$WORK/zoxide-$n.txt" >/dev/null
  place=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["edges"][7]["destination"])' "$WORK/graph-$n.json")
  dir="$WORK/dirs-$n/north/project-7"
  [ -d "$dir" ] || dir=$(head -8 "$WORK/zoxide-$n.txt" | tail -1 | cut -d'|' -f1)
  echo
  echo "== $n edges / entries, interleaved: median, p25, p10, ratio to the second command (of medians; paired: the rounds' median, 95% interval)"
  # Visits twice: with sync(2) before each command (the target: a visit's fsyncs then
  # wait for its own writes, not for the 1-14 MB zoxide add left to the kernel just
  # before), and without (for reference).
  for settle in 1 0; do
    suffix=$([ "$settle" = 1 ] || echo "-unsettled")
    echo "routegraph-visit against zoxide add, $([ "$settle" = 1 ] && echo "sync before each" || echo "no sync between")"
    INTERLEAVE_SYNC=$settle _ZO_DATA_DIR="$WORK/run-zoxide-$n" "$WORK/interleave" "$RUNS" \
      "$BIN/routegraph-visit" --graph "$WORK/run-graph-$n.json" "$place" ::: zoxide add "$dir" \
      | sed "s|$BIN/||g; s|$WORK/||g" | tee "$WORK/results/visit-$n$suffix.txt"
  done
  # Against the start-up floor at the smallest size, in a run of its own: a program
  # is slower right after another than after itself, so only two commands, each first
  # in every other round, share that alike.
  if [ "$n" = "${SIZES%% *}" ]; then
    "$WORK/interleave" "$RUNS" "$BIN/routegraph-suggest" --graph "$WORK/run-graph-$n.json" ::: "$WORK/empty-swift" \
      | sed "s|$BIN/||g; s|$WORK/||g" | tee "$WORK/results/floor-$n.txt"
  else
    rm -f "$WORK/results/floor-$n.txt"
  fi
  _ZO_DATA_DIR="$WORK/run-zoxide-$n" "$WORK/interleave" "$RUNS" \
    "$BIN/routegraph-suggest" --graph "$WORK/run-graph-$n.json" ::: zoxide query project \
    | sed "s|$BIN/||g; s|$WORK/||g" | tee "$WORK/results/suggest-$n.txt"
done

# 10,000 visits on stdin, one read-modify-write, on the 10k-edge graph.
python3 - "$WORK" <<'PY'
import json, random, sys
work = sys.argv[1]
names = [e["origin"] for e in json.load(open(f"{work}/graph-10000.json"))["edges"]]
rng = random.Random(10000)
open(f"{work}/visits-10000.txt", "w", encoding="utf-8").write("".join(rng.choice(names) + "\n" for _ in range(10000)))
PY
cp "$WORK/graph-10000.json" "$WORK/run-batch.json"
echo
echo "== 10,000 visits on stdin, 10k-edge graph"
hyperfine --output=pipe --warmup 1 --runs 10 --export-json "$WORK/results/batch-10000.json" \
  -n "routegraph-visit < 10,000 lines" "$BIN/routegraph-visit --graph $WORK/run-batch.json < $WORK/visits-10000.txt" \
  | grep -E "^(Benchmark|  Time)"

echo
python3 - "$WORK/results" "$SIZES" <<'PY'
import json, os, re, sys
results, sizes = sys.argv[1], sys.argv[2].split()
def run(path):
    """The first command of an interleave run against the second: their medians (ms),
    and the median of the rounds' ratios with its 95% interval."""
    lines = open(path).read().splitlines()
    ours, peer = (float(line.split()[0]) for line in lines[:2])
    ratio, low, high = map(float, re.search(r"paired +([0-9.]+)x \[([0-9.]+) ([0-9.]+)\]", lines[0]).groups())
    return ours, peer, ratio, low, high
def row(what, path, peer_name, target):
    ours, peer, ratio, low, high = run(path)
    verdict = f"≤ {target:.1f}x  {'pass' if ratio <= target else 'FAIL'}" if target else "(no target)"
    print(f"{what:<24} {ours:8.2f} ms  {peer_name:<20} {peer:8.2f} ms  {ratio:5.2f}x [{low:.2f} {high:.2f}]  {verdict}")
VISIT = {"1000": 1.5, "10000": 1.5, "100000": 1.5}
SUGGEST = {"10000": 1.1, "100000": 1.0}
for n in sizes:
    row(f"routegraph-visit {n}", f"{results}/visit-{n}.txt", "zoxide add", VISIT.get(n))
    ours, peer, ratio, low, high = run(f"{results}/visit-{n}-unsettled.txt")
    print(f"  (no sync between: {ours:.2f} ms against {peer:.2f} ms, {ratio:.2f}x [{low:.2f} {high:.2f}])")
    if os.path.exists(f"{results}/floor-{n}.txt"):
        row(f"routegraph-suggest {n}", f"{results}/floor-{n}.txt", "empty Swift program", 2.5 if n == "1000" else None)
    row(f"routegraph-suggest {n}", f"{results}/suggest-{n}.txt", "zoxide query", SUGGEST.get(n))
b = next(r["median"] for r in json.load(open(f"{results}/batch-10000.json"))["results"]) * 1000
print(f"10,000 visits on stdin (10k-edge graph): median {b:.1f} ms (no target)")
PY
