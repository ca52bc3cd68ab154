#!/usr/bin/env bash
# Builds and runs fuzz targets (every folder of Tests/Fuzz with a corpus/, or those named),
# each for FUZZ_SECONDS seconds (default 20), or for FUZZ_RUNS executions when that is
# set. New inputs go to .build-fuzz/TARGET/corpus, crashes to .build-fuzz/TARGET/crash-*;
# the seed corpus in the repository is only read. Exits 1 if a target found a crash.
# Usage: Tests/Fuzz/run.sh [TARGET...]      (make fuzz runs them all)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
SECONDS_EACH=${FUZZ_SECONDS:-20}
if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for d in Tests/Fuzz/*/corpus; do targets+=("$(basename "$(dirname "$d")")"); done
fi
# Crashes must reach libFuzzer's handler (which writes the input) rather than Swift's
# backtracer.
export SWIFT_BACKTRACE=enable=no
status=0
for target in "${targets[@]}"; do
  binary=$(bash Tests/Fuzz/build.sh "$target" | tail -1)
  out="$ROOT/.build-fuzz/$target"
  mkdir -p "$out/corpus"
  limit=(-max_total_time="$SECONDS_EACH")
  what="$SECONDS_EACH s"
  if [ -n "${FUZZ_RUNS:-}" ]; then limit=(-runs="$FUZZ_RUNS"); what="$FUZZ_RUNS runs"; fi
  dict=()
  if [ -f "Tests/Fuzz/$target/$target.dict" ]; then dict=(-dict="Tests/Fuzz/$target/$target.dict"); fi
  echo "fuzz $target: $what (log: $out/fuzz.log)"
  if "$binary" "${limit[@]}" "${dict[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$out/" "$out/corpus" "Tests/Fuzz/$target/corpus" >"$out/fuzz.log" 2>&1; then
    grep -E '^Done [0-9]+ runs' "$out/fuzz.log" | sed "s/^/fuzz $target: /"
  else
    status=1
    tail -n 40 "$out/fuzz.log"
    echo "fuzz $target: FAILED; the input is in $(ls -t "$out"/crash-* "$out"/timeout-* "$out"/oom-* 2>/dev/null | head -1)"
  fi
done
exit $status
