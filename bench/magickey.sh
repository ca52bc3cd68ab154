#!/usr/bin/env bash
# Times magickey-suggest and magickey-find (static release binaries) with hyperfine, and
# the --places scan of a GeoNames dump against `grep -c` on the same file in the same run.
# Usage: BIN=<release bin dir> bash bench/magickey.sh   (make bench sets BIN)
set -euo pipefail
BIN=${BIN:?set BIN to the release bin directory}
DUMP=${DUMP:-/tmp/wayfind-geonames-dump.txt}
DUMP_MB=${DUMP_MB:-200}
RUNS=${RUNS:-300}
HERE=$(cd "$(dirname "$0")/.." && pwd)
PLACES="$HERE/Sources/WayfindPlacesData/places.tsv"

# A GeoNames-format dump (19 columns, no header) derived from places.tsv, repeated with
# fresh ids until it holds DUMP_MB megabytes.
if [ ! -s "$DUMP" ] || [ "$(stat -c %s "$DUMP")" -lt $((DUMP_MB * 1000000)) ]; then
  awk -F'\t' -v OFS='\t' -v target=$((DUMP_MB * 1000000)) '
    NR == 1 { next }
    { rows[++n] = $0 }
    END {
      size = 0; round = 0
      while (size < target) {
        for (i = 1; i <= n && size < target; i++) {
          split(rows[i], f, "\t")
          fc = f[7] == "" ? "PPL" : f[7]
          line = (f[1] + round * 20000000) OFS f[2] OFS f[3] OFS f[4] OFS f[5] OFS f[6] OFS "P" OFS fc OFS f[9] OFS "" OFS f[11] OFS "" OFS "" OFS "" OFS f[13] OFS "" OFS "0" OFS f[14] OFS "2024-01-01"
          print line
          size += length(line) + 1
        }
        round++
      }
    }' "$PLACES" > "$DUMP"
fi
SIZE=$(stat -c %s "$DUMP")
echo "dump: $DUMP ($SIZE bytes)"
KEY=$("$BIN/magickey-suggest" paris | head -1 | cut -f2)
cd /tmp
hyperfine -N -i --warmup 20 --runs "$RUNS" --export-json /tmp/magickey-startup.json \
  "$BIN/magickey-suggest paris" \
  "$BIN/magickey-suggest springfield --location 41.88,-87.63" \
  "$BIN/magickey-suggest sao paulo" \
  "$BIN/magickey-suggest s" \
  "$BIN/magickey-find $KEY" >/dev/null
hyperfine -N -i --output=pipe --warmup 1 --runs 10 --export-json /tmp/magickey-scan.json \
  "grep -c zzqx $DUMP" \
  "$BIN/magickey-suggest --places $DUMP springfield" \
  "$BIN/magickey-suggest --places $DUMP paris" \
  "$BIN/magickey-suggest --places $DUMP sao paulo" \
  "$BIN/magickey-suggest --places $DUMP paris tx" \
  "$BIN/magickey-suggest --places $DUMP s" \
  "$BIN/magickey-suggest --places $DUMP --location 42.1,-72.6 springfield" \
  "$BIN/magickey-find --places $DUMP $("$BIN/magickey-suggest" --places "$DUMP" zurich | head -1 | cut -f2)" >/dev/null || true
python3 - "$SIZE" "$BIN/" <<'PY'
import json, sys
size, prefix = int(sys.argv[1]), sys.argv[2]
for name, scan in [("/tmp/magickey-startup.json", False), ("/tmp/magickey-scan.json", True)]:
    for r in json.load(open(name))["results"]:
        med = r["median"]
        rate = f"{size / med / 1e6:7.0f} MB/s" if scan else ""
        command = r["command"].replace(prefix, "")
        command = command if len(command) < 64 else command[:61] + "..."
        print(f"| `{command}` | {med * 1000:.2f} ms | {rate} |")
PY
