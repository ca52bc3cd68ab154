#!/usr/bin/env bash
# Times this build against another (BASE_BIN: say the previous commit's `make build`, in a
# `git worktree`) in one interleaved run per pair (bench/interleave.c), so that the
# machine's drift falls on both: magickey-suggest on one- and two-letter queries and whole
# words, magickey-find on a key, and every tool's start-up (`--version`). With INSTALLED
# (the bin folder of a `make install`), our side runs the installed multi-call binary
# through its links, as users do. Prints each pair's medians and the ratio ours / base.
# Usage: BIN=<release bin dir> BASE_BIN=<other release bin dir> [INSTALLED=<dir>] [RUNS=300] \
#          bash bench/magickey-compare.sh
set -euo pipefail
BIN=${BIN:?set BIN to the release bin directory}
BASE_BIN=${BASE_BIN:?set BASE_BIN to the release bin directory of the build to compare with}
OURS=${INSTALLED:-$BIN}
RUNS=${RUNS:-300}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cc -O2 -o "$WORK/interleave" "$HERE/interleave.c"
cd "$WORK"
pair() { # label, arguments...: ours first, base last (the peer the ratio is to)
  local label=$1 tool=$2
  shift 2
  local out
  out=$("$WORK/interleave" "$RUNS" "$OURS/$tool" "$@" ::: "$BASE_BIN/$tool" "$@")
  local ours base ratio
  ours=$(echo "$out" | sed -n 1p | awk '{print $1}')
  base=$(echo "$out" | sed -n 2p | awk '{print $1}')
  ratio=$(echo "$out" | sed -n 1p | awk '{for (i = 1; i <= NF; i++) if ($i ~ /x$/) { print $i; exit }}')
  printf '| %s | %s ms | %s ms | %s |\n' "$label" "$ours" "$base" "$ratio"
}
echo "| command | ours | base | ratio |"
echo "| --- | --- | --- | --- |"
for q in s m sa lo paris springfield 'sao paulo' roma; do pair "\`magickey-suggest $q\`" magickey-suggest $q; done
pair '`magickey-suggest springfield --location 41.88,-87.63`' magickey-suggest springfield --location 41.88,-87.63
key_ours=$("$OURS/magickey-suggest" paris | head -1 | cut -f2)
key_base=$("$BASE_BIN/magickey-suggest" paris | head -1 | cut -f2)
out=$("$WORK/interleave" "$RUNS" "$OURS/magickey-find" "$key_ours" ::: "$BASE_BIN/magickey-find" "$key_base")
printf '| `magickey-find KEY` (Paris) | %s ms | %s ms | %s |\n' "$(echo "$out" | sed -n 1p | awk '{print $1}')" \
  "$(echo "$out" | sed -n 2p | awk '{print $1}')" "$(echo "$out" | sed -n 1p | awk '{for (i = 1; i <= NF; i++) if ($i ~ /x$/) { print $i; exit }}')"
for t in smartgrep routegraph-visit routegraph-suggest magickey-suggest magickey-find; do pair "\`$t --version\`" "$t" --version; done
