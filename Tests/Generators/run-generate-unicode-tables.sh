#!/bin/sh
# Regenerates Sources/WayfindUnicodeData/unicode_tables.c and
# Sources/WayfindCore/Text/UnicodeTables.generated.swift from the toolchain's Unicode data
# and Foundation (see Tests/Generators/generate-unicode-tables.swift).
# Usage: Tests/Generators/run-generate-unicode-tables.sh [ROOT]   (from any directory)
# The files go under ROOT, the repository by default (GeneratedFilesTests gives a scratch
# folder, to compare them with the committed ones).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root}
work=$(mktemp -d "${TMPDIR:-/tmp}/wayfind-tables.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$out/Sources/WayfindCore/Text" "$out/Sources/WayfindUnicodeData"
swiftc -O "$root/Tests/Generators/generate-unicode-tables.swift" -o "$work/generate-unicode-tables"
"$work/generate-unicode-tables" "$out/Sources/WayfindCore/Text/UnicodeTables.generated.swift" \
    "$out/Sources/WayfindUnicodeData/unicode_tables.c"
