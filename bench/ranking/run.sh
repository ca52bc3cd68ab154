#!/usr/bin/env bash
# Runs the ranking benches (replay A, replay B, the metropolis check, the Pelias cases) against the
# built magickey-suggest and magickey-find in BIN, then prints one summary table.
# Builds nothing: run `make build` first. Extra arguments (such as --results) go to
# replay.py and pelias.py.
#
#   bash bench/ranking/run.sh                 # BIN=.build/release
#   BIN=/path/to/bin bash bench/ranking/run.sh --results
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export BIN="${BIN:-$root/.build/release}"
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
python3 "$here/check.py"
echo
python3 "$here/replay.py" --summary "$summary" "$@"
python3 "$here/metros.py" --summary "$summary"
python3 "$here/pelias.py" --summary "$summary" "$@"
echo "Summary ($(date -u +%Y-%m-%d), BIN=$BIN):"
echo
python3 "$here/summary.py" "$summary"
