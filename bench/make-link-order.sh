#!/usr/bin/env bash
# Writes Sources/link-order.txt, the symbol order the release link uses (see the Makefile's
# LINK_ORDER): every function and every piece of data that routegraph-suggest and
# routegraph-visit touch, start-up included, in the order they are first touched, so that
# lld puts them next to each other and a run faults in fewer pages.
#
# Usage: bash bench/make-link-order.sh      (after `make build`; needs valgrind, python3)
#
# Rerun it after changes to what the tools run at start-up. A stale file only costs speed:
# lld skips names it does not find, and what it does not name keeps its place.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="$(cd "$ROOT" && swift build -c release -Xswiftc -static-executable --show-bin-path 2>/dev/null)"
for tool in valgrind python3; do
  command -v "$tool" >/dev/null || { echo "make-link-order.sh: $tool is needed" >&2; exit 2; }
done
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 "$ROOT/bench/make-routegraph-corpus.py" "$WORK" 1000 >/dev/null
# valgrind 3.19 cannot read the toolchain's DWARF 5: traced copies go without it.
for tool in routegraph-suggest routegraph-visit; do
  [ -x "$BIN/$tool" ] || { echo "make-link-order.sh: $BIN/$tool not found; run make build" >&2; exit 2; }
  strip --strip-debug -o "$WORK/$tool" "$BIN/$tool"
done
# Each run's every instruction fetch and data access (lackey), one file per run.
run=0
trace() {
  local tool=$1
  shift
  run=$((run + 1))
  valgrind --tool=lackey --trace-mem=yes --log-file="$WORK/run-$run.trace" "$WORK/$tool" "$@" >/dev/null 2>&1 || true
}
graph="$WORK/graph-1000.json"
place=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["edges"][7]["destination"])' "$graph")
trace routegraph-suggest --graph "$graph"
trace routegraph-suggest --graph "$graph" --scores "${place%% *}"
cp "$graph" "$WORK/visited.json"
trace routegraph-visit --graph "$WORK/visited.json" "$place"
trace routegraph-visit --graph "$WORK/visited.json" "$place"
trace routegraph-suggest --version
# Each address, in the order first touched, named by the symbol it lies in (static
# binaries: the addresses are the same in every run and in both tools' shared code).
python3 - "$WORK" "$run" "$ROOT/Sources/link-order.txt" <<'PY'
import bisect, subprocess, sys
work, runs, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
names = {}
for run in range(1, runs + 1):
    tool = "routegraph-visit" if run in (3, 4) else "routegraph-suggest"
    symbols = []
    for line in subprocess.run(["nm", "-n", "--defined-only", f"{work}/{tool}"], capture_output=True, text=True).stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tTwWdDbBrRgGsSvViu":
            symbols.append((int(fields[0], 16), fields[2]))
    end = next(address for address, name in symbols if name == "_end")
    starts = [address for address, _ in symbols]
    for line in open(f"{work}/run-{run}.trace"):
        # "I  0400d30,3", " L 0bf7a48,8", " S …", " M …"
        if line[:1] not in ("I", " ") or "," not in line:
            continue
        address = int(line[3:].split(",")[0], 16)
        if address >= end:
            continue
        index = bisect.bisect_right(starts, address) - 1
        if index >= 0:
            names.setdefault(symbols[index][1])
with open(out, "w") as file:
    file.write("# The code and data routegraph-suggest and routegraph-visit touch, first touched first:\n")
    file.write("# lld's --symbol-ordering-file (see the Makefile). Made by bench/make-link-order.sh.\n")
    file.write("".join(name + "\n" for name in names))
PY
# The build does not track the file: the next `make build` links the tools again.
for tool in routegraph-suggest routegraph-visit smartgrep magickey-suggest magickey-find; do rm -f "$BIN/$tool"; done
echo "wrote Sources/link-order.txt ($(grep -vc '^#' "$ROOT/Sources/link-order.txt") symbols)"
