#!/bin/sh
# Regenerates Sources/WayfindUnicodeData/unicode_tables.c and
# Sources/WayfindCore/Text/UnicodeTables.generated.swift from the toolchain's Unicode data
# and Foundation (see Tests/Generators/generate-unicode-tables.swift).
# Usage: Tests/Generators/run-generate-unicode-tables.sh   (from any directory)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/wayfind-tables.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
swiftc -O "$root/Tests/Generators/generate-unicode-tables.swift" -o "$work/generate-unicode-tables"
"$work/generate-unicode-tables" "$root/Sources/WayfindCore/Text/UnicodeTables.generated.swift" \
    "$root/Sources/WayfindUnicodeData/unicode_tables.c"
