#!/usr/bin/env bash
# Builds the libFuzzer binary of one fuzz target: Tests/Fuzz/TARGET/*.swift compiled with
# the WayfindCore and WayfindTestSupport sources into one module (so a harness may use internal API), with
# `swiftc -sanitize=fuzzer,address`, and linked with the C targets' objects.
# Usage: Tests/Fuzz/build.sh TARGET   -> prints the binary's path (.build-fuzz/TARGET/fuzz-TARGET);
# nothing is rebuilt when no source is newer than the binary.
# FUZZ_SANITIZERS (default fuzzer,address) and FUZZ_OPTIMIZATION (default -O) can be set.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
TARGET=${1:?usage: Tests/Fuzz/build.sh TARGET}
[ -d "Tests/Fuzz/$TARGET" ] || { echo "build.sh: no fuzz target Tests/Fuzz/$TARGET" >&2; exit 2; }
SWIFTC=${SWIFTC:-swiftc}
CLANG=${CLANG:-$(dirname "$(command -v "$SWIFTC")")/clang}
SANITIZERS=${FUZZ_SANITIZERS:-fuzzer,address}
OPTIMIZATION=${FUZZ_OPTIMIZATION:--O}
OUT="$ROOT/.build-fuzz/$TARGET"
mkdir -p "$OUT/modules" "$OUT/objects"

# The C targets as SwiftPM builds them: one module map for the two, then their objects
# (WayfindPlacesData's .incbin finds places.tsv and places.index through -I).
{
  for m in WayfindUnicodeData WayfindPlacesData; do
    printf 'module %s {\n  header "%s"\n  export *\n}\n' "$m" "$ROOT/Sources/$m/include/$m.h"
  done
} > "$OUT/modules/module.modulemap"
objects=()
for c in Sources/WayfindUnicodeData/*.c Sources/WayfindPlacesData/*.c; do
  module=$(basename "$(dirname "$c")")
  object="$OUT/objects/$module-$(basename "$c" .c).o"
  if [ ! -f "$object" ] || [ "$c" -nt "$object" ] || [ "Sources/WayfindPlacesData/places.tsv" -nt "$object" ] \
    || [ "Sources/WayfindPlacesData/places.index" -nt "$object" ]; then
    "$CLANG" -c -O2 -fPIC -I "Sources/$module" -I "Sources/$module/include" "$c" -o "$object"
  fi
  objects+=("$object")
done

mapfile -t sources < <(find Sources/WayfindCore Sources/WayfindCLI Tests/WayfindTestSupport "Tests/Fuzz/$TARGET" -name '*.swift' | sort)
binary="$OUT/fuzz-$TARGET"
if [ -x "$binary" ] && [ -z "$(find "${sources[@]}" "${objects[@]}" Tests/Fuzz/build.sh -newer "$binary" | head -1)" ]; then
  echo "$binary"
  exit 0
fi
# The library's modules become one: their imports of each other are left out.
compiled=()
for source in "${sources[@]}"; do
  copy="$OUT/sources/$source"
  mkdir -p "$(dirname "$copy")"
  sed -E '/^(@testable )?import Wayfind(Core|CLI)$/d' "$source" >"$copy"
  compiled+=("$copy")
done
# The compiler's output goes to build.log, shown only when the build fails.
if ! "$SWIFTC" -sanitize="$SANITIZERS" -parse-as-library "$OPTIMIZATION" -g \
  -module-name WayfindFuzz -package-name wayfind -use-ld=lld \
  -I "$OUT/modules" "${compiled[@]}" "${objects[@]}" -o "$binary" >"$OUT/build.log" 2>&1; then
  grep -E 'error:' -A4 "$OUT/build.log" >&2 || tail -n 40 "$OUT/build.log" >&2
  echo "build.sh: building fuzz target $TARGET failed (full output: $OUT/build.log)" >&2
  exit 2
fi
echo "$binary"
