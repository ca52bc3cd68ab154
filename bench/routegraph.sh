#!/usr/bin/env bash
# Benchmark routegraph-visit and routegraph-suggest against zoxide add and zoxide query,
# in the same hyperfine run, on route graphs of 1k, 10k and 100k edges and zoxide
# databases of 1k, 10k and 100k entries; and a batch of 10,000 visits on stdin.
#
# Usage: bash bench/routegraph.sh            (after `make build`)
#
# Environment:
#   ROUTEGRAPH_BIN   folder with the routegraph binaries (default: the release build)
#   BENCH_DIR        where inputs and results go (default: /tmp/wayfind-bench-routegraph)
#   BENCH_RUNS       hyperfine --runs (default 30)
#   SIZES            the sizes (default "1000 10000 100000")
#
# Targets (issue 3): routegraph-visit, fsync included, <= 1.0x zoxide add; routegraph-suggest
# <= 0.5x zoxide query; 10,000 visits on stdin <= 1 s on a 10k-edge graph.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
BIN="${ROUTEGRAPH_BIN:-$(cd "$ROOT" && swift build -c release -Xswiftc -static-executable --show-bin-path 2>/dev/null)}"
WORK="${BENCH_DIR:-/tmp/wayfind-bench-routegraph}"
RUNS="${BENCH_RUNS:-30}"
SIZES="${SIZES:-1000 10000 100000}"
for tool in hyperfine zoxide python3; do
  command -v "$tool" >/dev/null || { echo "routegraph.sh: $tool is needed (apt-get install $tool)" >&2; exit 2; }
done
for tool in routegraph-visit routegraph-suggest; do
  [ -x "$BIN/$tool" ] || { echo "routegraph.sh: $BIN/$tool not found; run make build" >&2; exit 2; }
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $(zoxide --version); $(hyperfine --version)"

mkdir -p "$WORK/results"
for n in $SIZES; do
  [ -f "$WORK/graph-$n.json" ] || python3 "$HERE/make-routegraph-corpus.py" "$WORK" "$n"
done

# Fresh copies each run: both tools change their file on every add/visit.
export _ZO_MAXAGE=1000000000   # keep zoxide from ageing entries away mid-run
for n in $SIZES; do
  cp "$WORK/graph-$n.json" "$WORK/run-graph-$n.json"
  rm -rf "$WORK/run-zoxide-$n" && mkdir -p "$WORK/run-zoxide-$n"
  _ZO_DATA_DIR="$WORK/run-zoxide-$n" zoxide import "$WORK/zoxide-$n.txt" >/dev/null
  place=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["edges"][7]["destination"])' "$WORK/graph-$n.json")
  dir="$WORK/dirs-$n/north/project-7"
  [ -d "$dir" ] || dir=$(head -8 "$WORK/zoxide-$n.txt" | tail -1 | cut -d'|' -f1)
  echo
  echo "== $n edges / entries"
  _ZO_DATA_DIR="$WORK/run-zoxide-$n" hyperfine -N --output=pipe --warmup 3 --runs "$RUNS" \
    --export-json "$WORK/results/visit-$n.json" \
    -n "routegraph-visit" "$BIN/routegraph-visit --graph $WORK/run-graph-$n.json '$place'" \
    -n "zoxide add" "zoxide add $dir" | grep -E "^(Benchmark|  Time)"
  _ZO_DATA_DIR="$WORK/run-zoxide-$n" hyperfine -N --output=pipe --warmup 3 --runs "$RUNS" \
    --export-json "$WORK/results/suggest-$n.json" \
    -n "routegraph-suggest" "$BIN/routegraph-suggest --graph $WORK/run-graph-$n.json" \
    -n "zoxide query" "zoxide query project" | grep -E "^(Benchmark|  Time)"
done

# The start-up floor, in one run with zoxide query at the smallest size: a program that
# does nothing, statically linked with glibc (C, when a C compiler is here) and in Swift,
# and our own --version. Half of zoxide query at 1k is compared with these.
first=${SIZES%% *}
floor=()
if command -v cc >/dev/null; then
  printf 'int main(void) { return 0; }\n' > "$WORK/empty.c"
  cc -O2 -static -o "$WORK/empty-c" "$WORK/empty.c" 2>/dev/null && floor+=(-n "empty static C program" "$WORK/empty-c")
  # Without any libc (x86-64): exec and exit alone, without glibc's start-up.
  if [ "$(uname -m)" = x86_64 ]; then
    printf 'void _start(void) { __asm__ volatile("mov $60, %%eax\\n xor %%edi, %%edi\\n syscall"); }\n' > "$WORK/exit.c"
    cc -O2 -static -nostdlib -nostartfiles -o "$WORK/exit-only" "$WORK/exit.c" 2>/dev/null \
      && floor+=(-n "exit system call only, no libc" "$WORK/exit-only")
  fi
fi
# glibc's start-up identifies the CPU with CPUID instructions (dozens of them, for the
# features and the cache sizes); in a virtual machine each one traps to the hypervisor.
if command -v cc >/dev/null && [ "$(uname -m)" = x86_64 ]; then
  cat > "$WORK/cpuid.c" <<'C'
#include <cpuid.h>
#include <stdio.h>
#include <time.h>
int main(void) {
  unsigned a, b, c, d;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < 2000; i++) __cpuid_count(0x8000001d, i & 3, a, b, c, d);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("one CPUID instruction takes %.2f us here\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 2000 / 1000);
  return 0;
}
C
  cc -O2 -o "$WORK/cpuid" "$WORK/cpuid.c" 2>/dev/null && "$WORK/cpuid"
fi
printf '#if canImport(Glibc)\nimport Glibc\n#endif\nexit(0)\n' > "$WORK/empty.swift"
(cd "$WORK" && swiftc -O -static-executable -module-name Empty empty.swift -o empty-swift >/dev/null 2>&1) \
  && floor+=(-n "empty static Swift program" "$WORK/empty-swift")
echo
echo "== start-up floor (zoxide database of $first entries)"
_ZO_DATA_DIR="$WORK/run-zoxide-$first" hyperfine -N --output=pipe --warmup 10 --runs "$((RUNS * 3))" \
  --export-json "$WORK/results/floor.json" "${floor[@]}" \
  -n "routegraph-suggest --version" "$BIN/routegraph-suggest --version" \
  -n "routegraph-suggest" "$BIN/routegraph-suggest --graph $WORK/run-graph-$first.json" \
  -n "zoxide query" "zoxide query project" | grep -E "^(Benchmark|  Time)"

# The same at the smallest size, interleaved: hyperfine runs one command's runs back to
# back, and this VM's speed drifts by more than the margins at 1k between them, so here
# every round runs each command once, in turn (bench/interleave.c; needs a C compiler).
# An Embedded Swift program that does nothing (experimental compiler mode, no Swift
# runtime) shows what the Swift runtime's own start-up costs.
if command -v cc >/dev/null && cc -O2 -o "$WORK/interleave" "$HERE/interleave.c" 2>/dev/null; then
  printf '@_extern(c, "exit") func cexit(_ code: Int32)\ncexit(0)\n' > "$WORK/embedded.swift"
  embedded=()
  (cd "$WORK" && swiftc -target "$(uname -m)-unknown-linux-gnu" -enable-experimental-feature Embedded \
      -enable-experimental-feature Extern -wmo -O -c embedded.swift -o embedded.o >/dev/null 2>&1 \
    && clang -static -O2 embedded.o -o empty-embedded >/dev/null 2>&1) && embedded=("$WORK/empty-embedded" :::)
  exits=()
  [ -x "$WORK/exit-only" ] && exits+=("$WORK/exit-only" :::)
  [ -x "$WORK/empty-c" ] && exits+=("$WORK/empty-c" :::)
  cp "$WORK/run-graph-$first.json" "$WORK/interleave-graph.json"
  place=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["edges"][7]["destination"])' "$WORK/graph-$first.json")
  dir="$WORK/dirs-$first/north/project-7"
  [ -d "$dir" ] || dir=$(head -8 "$WORK/zoxide-$first.txt" | tail -1 | cut -d'|' -f1)
  echo
  echo "== interleaved, $first edges / entries: median, p25, p10, ratio to the last command"
  _ZO_DATA_DIR="$WORK/run-zoxide-$first" "$WORK/interleave" "$((RUNS * 5))" \
    "$BIN/routegraph-visit" --graph "$WORK/interleave-graph.json" "$place" ::: zoxide add "$dir" \
    | sed "s|$WORK/||g; s|$BIN/||g" | tee "$WORK/results/interleaved-visit.txt"
  _ZO_DATA_DIR="$WORK/run-zoxide-$first" "$WORK/interleave" "$((RUNS * 5))" "${exits[@]}" "${embedded[@]}" \
    "$WORK/empty-swift" ::: "$BIN/routegraph-suggest" --version ::: \
    "$BIN/routegraph-suggest" --graph "$WORK/interleave-graph.json" ::: zoxide query project \
    | sed "s|$WORK/||g; s|$BIN/||g" | tee "$WORK/results/interleaved-suggest.txt"
fi

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
import json, sys
results, sizes = sys.argv[1], sys.argv[2].split()
def median(path, name):
    for r in json.load(open(path))["results"]:
        if r["command"] == name:
            return r["median"] * 1000
print(f"{'size':>7}  {'visit ms':>9} {'zoxide add':>10} {'ratio':>6} {'≤1.0':>5}   {'suggest ms':>10} {'zoxide query':>12} {'ratio':>6} {'≤0.5':>5}")
for n in sizes:
    v, a = median(f"{results}/visit-{n}.json", "routegraph-visit"), median(f"{results}/visit-{n}.json", "zoxide add")
    s, q = median(f"{results}/suggest-{n}.json", "routegraph-suggest"), median(f"{results}/suggest-{n}.json", "zoxide query")
    print(f"{n:>7}  {v:9.2f} {a:10.2f} {v/a:6.2f} {'pass' if v <= a else 'FAIL':>5}   {s:10.2f} {q:12.2f} {s/q:6.2f} {'pass' if s <= 0.5*q else 'FAIL':>5}")
floor = json.load(open(f"{results}/floor.json"))["results"]
query = next(r["median"] for r in floor if r["command"] == "zoxide query") * 1000
for r in floor:
    print(f"{r['command']:>30}: {r['median'] * 1000:6.2f} ms = {r['median'] * 1000 / query:4.2f}x zoxide query (same run)")
b = median(f"{results}/batch-10000.json", "routegraph-visit < 10,000 lines")
print(f"10,000 visits on stdin (10k-edge graph): median {b:.1f} ms (target ≤ 1000 ms: {'pass' if b <= 1000 else 'FAIL'})")
PY
