#!/usr/bin/env bash
# Benchmark `smartgrep -r` against ripgrep (its default threads) on two real trees, in one
# hyperfine run (issue 47). Builds nothing: it measures the binary that is there.
#
# Usage: bash bench/smartgrep-tree.sh     (from anywhere; paths are resolved from this file)
#
# Environment:
#   SMARTGREP     smartgrep binary (default: <repo>/.build/release/smartgrep)
#   TEXT_TREE     a tree of text files (default /usr/include: the system's C headers)
#   MIXED_TREE    a tree of text and binary files (default /usr/share: docs, .gz, icons)
#   BENCH_RUNS    hyperfine --runs (default 5); BENCH_WARMUP hyperfine --warmup (default 1)
#
# The peers do the same work: `rg -uu` reads hidden and ignored files as `grep -r` and
# `smartgrep -r` do, `rg -uuu` also searches binary files (as `smartgrep -r` does on the
# mixed tree), and `smartgrep -r -I` skips binary files as `rg -uu` does. Each query word
# is a word start for rg too (`-i '\bword'`); two words are a pipeline, as in bench/smartgrep.sh.
# `smartgrep -j 1` (one thread) is measured for the record.
#
# Results: bench/results/smartgrep-tree.json (hyperfine --export-json), and a table of
# medians and ratios to the peer on standard output.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
SMARTGREP="${SMARTGREP:-$ROOT/.build/release/smartgrep}"
TEXT_TREE="${TEXT_TREE:-/usr/include}"
MIXED_TREE="${MIXED_TREE:-/usr/share}"
BENCH_RUNS="${BENCH_RUNS:-5}"
BENCH_WARMUP="${BENCH_WARMUP:-1}"
RESULTS="$BENCH_DIR/results"
JSON="$RESULTS/smartgrep-tree.json"

for tool in hyperfine rg python3; do
    command -v "$tool" >/dev/null || { echo "missing: $tool (apt-get install hyperfine ripgrep python3)" >&2; exit 1; }
done
[[ -x "$SMARTGREP" ]] || { echo "no smartgrep at $SMARTGREP: run 'make build' first, or set SMARTGREP" >&2; exit 1; }
mkdir -p "$RESULTS"

q() { printf '%q' "$1"; }
SG=$(q "$SMARTGREP")
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "smartgrep: $SMARTGREP"
echo "rg:        $(rg --version | sed -n 1p)"
for tree in "$TEXT_TREE" "$MIXED_TREE"; do
    echo "$tree: $(find "$tree" -type f 2>/dev/null | wc -l) files, $(du -sh "$tree" 2>/dev/null | cut -f1)"
done

# key|smartgrep flags|tree|rg flags
SETS=(
    "text|-r|$TEXT_TREE|-uu"
    "mixed|-r|$MIXED_TREE|-uuu"
    "mixed -I|-r -I|$MIXED_TREE|-uu"
)
QUERIES=("lib" "size t" "zebra")

args=(--output=pipe --warmup "$BENCH_WARMUP" --runs "$BENCH_RUNS" --ignore-failure --style basic --export-json "$JSON")
for set in "${SETS[@]}"; do
    IFS='|' read -r key sg_flags tree rg_flags <<< "$set"
    for query in "${QUERIES[@]}"; do
        read -r -a words <<< "$query"
        rg_cmd="rg $rg_flags -i $(q "\\b${words[0]}") $(q "$tree")"
        for w in "${words[@]:1}"; do rg_cmd+=" | rg -i $(q "\\b$w")"; done
        args+=(-n "$key '$query' smartgrep" "$SG $sg_flags $(q "$query") $(q "$tree")")
        args+=(-n "$key '$query' rg" "$rg_cmd")
        if [[ "$sg_flags" == "-r" ]]; then
            args+=(-n "$key '$query' smartgrep -j 1" "$SG -j 1 $sg_flags $(q "$query") $(q "$tree")")
        fi
    done
done
hyperfine "${args[@]}"

python3 - "$JSON" <<'EOF'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
def median(name):
    return results[name]["median"] if name in results else None
def ms(seconds):
    return f"{seconds * 1000:,.0f} ms"
print()
print("| tree | query | smartgrep | peer | ratio | smartgrep -j 1 |")
print("| --- | --- | --- | --- | --- | --- |")
for name in results:
    if not name.endswith(" smartgrep"):
        continue
    base = name[: -len(" smartgrep")]
    tree, _, query = base.partition(" '")
    sg, rg, one = median(name), median(base + " rg"), median(base + " smartgrep -j 1")
    ratio = f"{sg / rg:.2f}×" if rg else "?"
    print(f"| {tree} | '{query} | {ms(sg)} | {ms(rg)} | {ratio} | {ms(one) if one else ''} |")
EOF
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
