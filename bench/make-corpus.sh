#!/usr/bin/env bash
# Build the smartgrep benchmark corpus: bench/corpus/lines.txt, >= 200 MiB of real lines.
#
# One "unit" is:
#   - every path under /usr and /opt (find -xdev), sorted with LC_ALL=C so the order is stable
#   - the name lists in ../shared/data/: debian-package-names.txt, python-stdlib-names.txt,
#     city-names-diacritics.txt, sf-symbols-ios14.txt, and the `name` column of unicode-names.tsv
# The unit is repeated until the file reaches MIN_BYTES (default 200 MiB).
#
# Idempotent: if the corpus already exists and is big enough, nothing is rebuilt.
# Set FORCE=1 to rebuild. The corpus directory is gitignored.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
DATA="${SHARED_DATA:-$ROOT/../shared/data}"
OUT_DIR="$BENCH_DIR/corpus"
OUT="$OUT_DIR/lines.txt"
MIN_BYTES="${MIN_BYTES:-209715200}"   # 200 MiB (> 200 MB)

size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }

report() {
    local bytes lines
    bytes=$(size_of "$OUT")
    lines=$(wc -l < "$OUT")
    printf 'corpus: %s\n' "$OUT"
    printf 'corpus size: %s bytes (%.1f MiB), %s lines\n' "$bytes" "$(awk -v b="$bytes" 'BEGIN{print b/1048576}')" "$lines"
}

if [[ "${FORCE:-0}" != 1 && -f "$OUT" && $(size_of "$OUT") -ge $MIN_BYTES ]]; then
    echo "corpus already built (>= $MIN_BYTES bytes), skipping"
    report
    exit 0
fi

for f in debian-package-names.txt python-stdlib-names.txt city-names-diacritics.txt \
         sf-symbols-ios14.txt unicode-names.tsv; do
    if [[ ! -f "$DATA/$f" ]]; then
        echo "make-corpus: missing $DATA/$f (set SHARED_DATA to the shared/data directory)" >&2
        exit 1
    fi
done

mkdir -p "$OUT_DIR"
TMP="$(mktemp -d "$OUT_DIR/.build.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

unit="$TMP/unit.txt"
{
    # find exits non-zero on unreadable entries; the paths it did print are what we want.
    find /usr /opt -xdev 2>/dev/null | LC_ALL=C sort || true
    cat "$DATA/debian-package-names.txt"
    cat "$DATA/python-stdlib-names.txt"
    cat "$DATA/city-names-diacritics.txt"
    cat "$DATA/sf-symbols-ios14.txt"
    # unicode-names.tsv: header line, then codepoint<TAB>char<TAB>name<TAB>category
    tail -n +2 "$DATA/unicode-names.tsv" | cut -f3
} > "$unit"

unit_bytes=$(size_of "$unit")
if [[ $unit_bytes -le 0 ]]; then
    echo "make-corpus: empty unit, nothing to build" >&2
    exit 1
fi
reps=$(( (MIN_BYTES + unit_bytes - 1) / unit_bytes ))
echo "unit: $unit_bytes bytes, $(wc -l < "$unit") lines; repeating $reps times"

: > "$TMP/lines.txt"
for ((i = 0; i < reps; i++)); do
    cat "$unit" >> "$TMP/lines.txt"
done
mv "$TMP/lines.txt" "$OUT"
report
