#!/usr/bin/env bash
# Writes Sources/link-order.txt, the symbol order the release link uses (see the Makefile's
# LINK_ORDER): every function routegraph-suggest and routegraph-visit run, start-up
# included, in the order callgrind first meets them, so that lld puts them next to each
# other and a run faults in fewer 64 KiB windows of the 6 MB of code.
#
# Usage: bash bench/make-link-order.sh      (after `make build`; needs valgrind, python3)
#
# Rerun it after changes to what the tools run at start-up. A stale file only costs speed:
# lld skips names it does not find, and functions it does not name keep their place.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="$(cd "$ROOT" && swift build -c release -Xswiftc -static-executable --show-bin-path 2>/dev/null)"
for tool in valgrind python3; do
  command -v "$tool" >/dev/null || { echo "make-link-order.sh: $tool is needed" >&2; exit 2; }
done
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 "$ROOT/bench/make-routegraph-corpus.py" "$WORK" 1000 10000 >/dev/null
# valgrind 3.19 cannot read the toolchain's DWARF 5: profile copies without it.
for tool in routegraph-suggest routegraph-visit; do
  [ -x "$BIN/$tool" ] || { echo "make-link-order.sh: $BIN/$tool not found; run make build" >&2; exit 2; }
  strip --strip-debug -o "$WORK/$tool" "$BIN/$tool"
done
run=0
profile() {
  run=$((run + 1))
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$WORK/run-$run.out" "$@" >/dev/null 2>&1 || true
}
for n in 1000 10000; do
  graph="$WORK/graph-$n.json"
  place=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["edges"][7]["destination"])' "$graph")
  profile "$WORK/routegraph-suggest" --graph "$graph"
  profile "$WORK/routegraph-suggest" --graph "$graph" --scores "${place%% *}"
  cp "$graph" "$WORK/visited-$n.json"
  profile "$WORK/routegraph-visit" --graph "$WORK/visited-$n.json" "$place"
  profile "$WORK/routegraph-visit" --graph "$WORK/visited-$n.json" "$place"
done
profile "$WORK/routegraph-suggest" --version
{
  echo "# The functions routegraph-suggest and routegraph-visit run, first met first:"
  echo "# lld's --symbol-ordering-file (see the Makefile). Made by bench/make-link-order.sh."
  # Callgrind names each function once per file: `fn=(id) name`, `cfn=(id) name`, with
  # `'N` after a recursion level; unnamed code shows as an address.
  for i in $(seq 1 "$run"); do
    sed -n -E "s/^c?fn=\([0-9]+\) (.*)$/\1/p" "$WORK/run-$i.out"
  done | sed -E "s/'[0-9]+$//" | grep -v '^0x' | awk '!seen[$0]++'
} > "$ROOT/Sources/link-order.txt"
# The build does not track the file: the next `make build` links the tools again.
for tool in routegraph-suggest routegraph-visit smartgrep magickey-suggest magickey-find; do rm -f "$BIN/$tool"; done
echo "wrote Sources/link-order.txt ($(grep -vc '^#' "$ROOT/Sources/link-order.txt") functions)"
