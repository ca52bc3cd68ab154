#!/usr/bin/env bash
# Times magickey-cgi against the same magickey-suggest / magickey-find command (target: a
# request costs at most 1.5x the command), then the requests a second lighttpd serves
# with it on this machine (ab, 4 clients).
# Usage: BIN=<release bin dir> bash bench/cgi.sh      (needs hyperfine, lighttpd, ab)
set -euo pipefail
BIN=${BIN:?set BIN to the release bin directory}
RUNS=${RUNS:-300}
REQUESTS=${REQUESTS:-3000}
HERE=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'kill "$(cat "$WORK/lighttpd.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$WORK"' EXIT
# Every tool as `make install` installs it: a link to the multi-call binary.
for tool in magickey-cgi magickey-suggest magickey-find; do ln -s "$BIN/wayfind" "$WORK/$tool"; done
CGI="$WORK/magickey-cgi"
cd /tmp
# Both sides through env(1), so that each pays the same exec; the command prints the same
# JSON the request answers.
hyperfine -N --warmup 20 --runs "$RUNS" --export-json "$WORK/times.json" \
  -n "magickey-suggest --json par" "env $WORK/magickey-suggest --json par" \
  -n "cgi suggest?text=par" "env REQUEST_METHOD=GET PATH_INFO=/suggest QUERY_STRING=text=par $CGI" \
  -n "magickey-find --json --text paris" "env $WORK/magickey-find --json --text paris" \
  -n "cgi findAddressCandidates?SingleLine=paris" "env REQUEST_METHOD=GET PATH_INFO=/findAddressCandidates QUERY_STRING=SingleLine=paris&maxLocations=1&outFields=* $CGI" \
  -n "magickey-find --json --reverse 48.85,2.35" "env $WORK/magickey-find --json --reverse 48.85,2.35" \
  -n "cgi reverseGeocode?location=2.35,48.85" "env REQUEST_METHOD=GET PATH_INFO=/reverseGeocode QUERY_STRING=location=2.35,48.85 $CGI" \
  >/dev/null
python3 - "$WORK/times.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
print("| command | median | request / command |")
print("| --- | ---: | ---: |")
for command, request in zip(results[::2], results[1::2]):
    ratio = request["median"] / command["median"]
    print(f"| {command['command']} | {command['median'] * 1000:.2f} ms | |")
    print(f"| {request['command']} | {request['median'] * 1000:.2f} ms | {ratio:.2f}x |")
PY
# lighttpd with the README's configuration on a free port, then ab.
PORT=${PORT:-$((20000 + RANDOM % 20000))}
cat > "$WORK/lighttpd.conf" <<CONF
server.document-root = "$HERE/examples/web"
server.bind = "127.0.0.1"
server.port = $PORT
server.errorlog = "$WORK/error.log"
server.pid-file = "$WORK/lighttpd.pid"
var.magickey_cgi = "$CGI"
include "$HERE/examples/web/lighttpd.conf"
CONF
LIGHTTPD=$(command -v lighttpd || echo /usr/sbin/lighttpd)
"$LIGHTTPD" -f "$WORK/lighttpd.conf"
URL="http://127.0.0.1:$PORT/arcgis/rest/services/World/GeocodeServer"
for path in "suggest?text=par" "findAddressCandidates?SingleLine=paris&maxLocations=1" "reverseGeocode?location=2.35,48.85"; do
  rate=$(ab -q -n "$REQUESTS" -c 4 "$URL/$path" | awk '/^Requests per second/ { print $4 }')
  failed=$(ab -q -n 200 -c 4 "$URL/$path" | awk '/^Failed requests/ { print $3 }')
  echo "lighttpd $path: $rate requests/s ($failed of 200 failed in a second run)"
done
