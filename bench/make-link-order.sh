#!/usr/bin/env bash
# Writes Sources/link-order.txt, the symbol order the release link uses (see the Makefile's
# LINK_ORDER): every function and every piece of data that routegraph-suggest and
# routegraph-visit touch, start-up included, in the order they are first touched, so that
# lld puts them next to each other and a run faults in fewer pages.
#
# Usage: bash bench/make-link-order.sh      (after `make build`; needs valgrind, python3)
#
# It then removes the five release binaries, so that the next `make build` links them
# with the new list (the build does not track the file). Rerun it after changes to what
# the tools run at start-up. A stale list only costs speed: lld skips names it does not
# find, and what it does not name keeps its place.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
for tool in swift valgrind python3 nm strip; do
  command -v "$tool" >/dev/null || { echo "make-link-order.sh: $tool is needed" >&2; exit 2; }
done
BIN="$(cd "$ROOT" && swift build -c release -Xswiftc -static-executable --show-bin-path)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 "$ROOT/bench/make-routegraph-corpus.py" "$WORK" 1000 >/dev/null
# valgrind 3.19 cannot read the toolchain's DWARF 5: traced copies go without it.
for tool in routegraph-suggest routegraph-visit; do
  [ -x "$BIN/$tool" ] || { echo "make-link-order.sh: $BIN/$tool not found; run make build" >&2; exit 2; }
  strip --strip-debug -o "$WORK/$tool" "$BIN/$tool"
done
# Each run's every instruction fetch and data access (lackey), one file per run, and the
# tool it ran. Every run must succeed (status 0), or the list would be of an error path.
run=0
trace() {
  local tool=$1
  shift
  run=$((run + 1))
  echo "$tool" > "$WORK/run-$run.tool"
  valgrind --tool=lackey --trace-mem=yes --log-file="$WORK/run-$run.trace" "$WORK/$tool" "$@" \
    >/dev/null 2>"$WORK/run-$run.err" || {
    echo "make-link-order.sh: $tool $* failed:" >&2
    cat "$WORK/run-$run.err" >&2
    exit 2
  }
}
graph="$WORK/graph-1000.json"
places() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["edges"][int(sys.argv[2])]["destination"])' "$graph" "$1"; }
first=$(places 7)
second=$(places 8)
trace routegraph-suggest --graph "$graph"
trace routegraph-suggest --graph "$graph" --scores "${first%% *}"
cp "$graph" "$WORK/visited.json"
trace routegraph-visit --graph "$WORK/visited.json" "$first"
trace routegraph-visit --graph "$WORK/visited.json" "$second"
trace routegraph-suggest --version
# Each address, in the order first touched, named by the symbol it lies in (static
# binaries: the addresses are the same in every run and in both tools' shared code).
python3 - "$WORK" "$run" "$ROOT/Sources/link-order.txt" <<'PY'
import bisect, subprocess, sys
work, runs, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
names = {}
for run in range(1, runs + 1):
    tool = open(f"{work}/run-{run}.tool").read().strip()
    # Sized symbols only ("address size type name"): markers such as __bss_start have no
    # size, and name nothing.
    symbols = []
    for line in subprocess.run(["nm", "-n", "-S", "--defined-only", f"{work}/{tool}"],
                               capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "tTwWdDbBrRgGsSvViu":
            symbols.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
    starts = [start for start, _, _ in symbols]
    for line in open(f"{work}/run-{run}.trace"):
        # "I  0400d30,3", " L 0bf7a48,8", " S …", " M …"
        if line[:1] not in ("I", " ") or "," not in line:
            continue
        address = int(line[3:].split(",")[0], 16)
        index = bisect.bisect_right(starts, address) - 1
        if index >= 0 and address < symbols[index][0] + symbols[index][1]:
            names.setdefault(symbols[index][2])
# A list without the tools' entry points traced nothing worth ordering.
if "routegraph_suggest_main" not in names or "routegraph_visit_main" not in names:
    sys.exit("make-link-order.sh: the traces do not reach the tools' code")
with open(out, "w") as file:
    file.write("# The code and data routegraph-suggest and routegraph-visit touch, first touched first:\n")
    file.write("# lld's --symbol-ordering-file (see the Makefile). Made by bench/make-link-order.sh.\n")
    file.write("".join(name + "\n" for name in names))
PY
for tool in routegraph-suggest routegraph-visit smartgrep magickey-suggest magickey-find; do rm -f "$BIN/$tool"; done
echo "wrote Sources/link-order.txt ($(grep -vc '^#' "$ROOT/Sources/link-order.txt") symbols)"
