#!/usr/bin/env bash
# Benchmark smartgrep against grep, ripgrep, fzf --filter and fzy -e on a >= 200 MiB corpus.
#
# Usage: bash bench/smartgrep.sh            (from anywhere; paths are resolved from this file)
#
# Environment:
#   SMARTGREP          smartgrep binary (default: <repo>/.build/release/smartgrep). If it is not
#                      an executable file, smartgrep is left out and shown as "pending".
#   BENCH_RUNS         hyperfine --runs for the corpus queries (default 5)
#   BENCH_WARMUP       hyperfine --warmup for the corpus queries (default 1)
#   STARTUP_RUNS       hyperfine --runs for the empty-input startup test (default 300)
#   RARE_WORD          the rare query word (default zebra: 1 line per corpus unit, 17 in all)
#   FZY_LIMIT          seconds; fzy is dropped from a query whose probe run takes longer (default 30)
#   MIN_BYTES, FORCE   passed on to make-corpus.sh
#
# Results: bench/results/*.json (hyperfine --export-json, plus meta.json and memory.json),
# summarised by bench/report.py, which prints the table and the PASS/FAIL verdicts.
set -euo pipefail

START_SECONDS=$SECONDS
LOAD_START=$(cut -d' ' -f1 /proc/loadavg)
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
RESULTS="$BENCH_DIR/results"
CORPUS="$BENCH_DIR/corpus/lines.txt"

BENCH_RUNS="${BENCH_RUNS:-5}"
BENCH_WARMUP="${BENCH_WARMUP:-1}"
STARTUP_RUNS="${STARTUP_RUNS:-300}"
RARE_WORD="${RARE_WORD:-zebra}"
ABSENT_WORD="qqqzzzx"
FZY_LIMIT="${FZY_LIMIT:-30}"

log() { printf '\n== %s\n' "$*"; }

# ---------------------------------------------------------------- tools
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (wall times are only comparable on a quiet machine)"
log "tools"
missing_pkgs=()
command -v hyperfine >/dev/null 2>&1 || missing_pkgs+=(hyperfine)
command -v fzf       >/dev/null 2>&1 || missing_pkgs+=(fzf)
command -v rg        >/dev/null 2>&1 || missing_pkgs+=(ripgrep)
command -v fzy       >/dev/null 2>&1 || missing_pkgs+=(fzy)
command -v grep      >/dev/null 2>&1 || missing_pkgs+=(grep)
command -v python3   >/dev/null 2>&1 || missing_pkgs+=(python3)
[[ -x /usr/bin/time ]]               || missing_pkgs+=(time)
if (( ${#missing_pkgs[@]} )); then
    echo "missing: ${missing_pkgs[*]}"
    if [[ "$(id -u)" == 0 ]]; then
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing_pkgs[@]}"
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo apt-get update
        sudo DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing_pkgs[@]}"
    else
        echo "not root and no password-less sudo: install these first: ${missing_pkgs[*]}" >&2
        exit 1
    fi
fi
echo "hyperfine: $(hyperfine --version)"
echo "grep:      $(grep --version | head -n1)"
echo "rg:        $(rg --version | head -n1)"
echo "fzf:       $(fzf --version | head -n1)"
echo "fzy:       $(fzy --version 2>&1 | head -n1)"

SMARTGREP="${SMARTGREP:-$ROOT/.build/release/smartgrep}"
if [[ "$SMARTGREP" != /* ]] && [[ "$SMARTGREP" == */* ]]; then SMARTGREP="$ROOT/$SMARTGREP"; fi
if [[ -f "$SMARTGREP" && -x "$SMARTGREP" ]]; then
    HAVE_SG=1
    echo "smartgrep: $SMARTGREP"
else
    HAVE_SG=0
    echo "smartgrep: pending (no executable at $SMARTGREP; build it with 'make build'" \
         "or point SMARTGREP at a binary). Measuring the peers only."
fi

# ---------------------------------------------------------------- corpus
log "corpus"
bash "$BENCH_DIR/make-corpus.sh"
CORPUS_BYTES=$(stat -c %s "$CORPUS")
CORPUS_LINES=$(wc -l < "$CORPUS")

# Only this script's own outputs: bench/results/ also holds the dated records (*.md).
rm -f "$RESULTS"/query-*.json "$RESULTS"/startup.json "$RESULTS"/memory.json "$RESULTS"/meta.json
mkdir -p "$RESULTS"

q() { printf '%q' "$1"; }          # shell-quote for hyperfine command strings
SGQ=$(q "$SMARTGREP")
CQ=$(q "$CORPUS")

RARE_HITS=$(rg -i -c "\\b$RARE_WORD" "$CORPUS" || true)
RARE_HITS=${RARE_HITS:-0}
echo "rare word '$RARE_WORD': $RARE_HITS lines match rg -i '\\b$RARE_WORD'"

# ---------------------------------------------------------------- queries
# key|query
QUERIES=(
    "common|lib"
    "two|lib py"
    "rare|$RARE_WORD"
    "absent|$ABSENT_WORD"
)

fzy_excluded=()
hits_json=""
for entry in "${QUERIES[@]}"; do
    key=${entry%%|*}
    query=${entry#*|}
    read -r -a words <<< "$query"
    log "query '$query' ($key)"

    grep_cmd="grep -i -F $(q "${words[0]}") $CQ"
    rg_cmd="rg -i $(q "\\b${words[0]}") $CQ"
    for w in "${words[@]:1}"; do
        grep_cmd+=" | grep -i -F $(q "$w")"
        rg_cmd+=" | rg -i $(q "\\b$w")"
    done
    sg_cmd="$SGQ $(q "$query") $CQ"
    fzf_cmd="fzf --filter $(q "$query") < $CQ"
    fzy_cmd="fzy -e $(q "$query") < $CQ"

    # Matching line counts, for information (the tools do not mean the same thing by a match:
    # grep -F is a substring test, rg \b a word-start test per word, fzf/fzy are fuzzy and
    # fzy takes the space in a two-word query literally).
    rg_hits=$( (bash -c "$rg_cmd" || true) | wc -l)
    grep_hits=$( (bash -c "$grep_cmd" || true) | wc -l)
    line="hits: grep $grep_hits, rg $rg_hits"
    sg_hits=null
    if (( HAVE_SG )); then
        set +e
        sg_hits=$(bash -c "set -o pipefail; $sg_cmd | wc -l")
        sg_rc=$?
        set -e
        # like grep, exit 1 means "no line matched"; anything else is an error
        if (( sg_rc > 1 )); then
            echo "smartgrep failed (exit $sg_rc) on '$query': $sg_cmd" >&2
            exit 1
        fi
        line="hits: smartgrep $sg_hits, ${line#hits: }"
    fi
    echo "$line"

    # fzy reads all of stdin before matching; drop it when a single run is too slow.
    use_fzy=1
    fzy_start=$(date +%s.%N)
    set +e
    timeout "$FZY_LIMIT" bash -c "$fzy_cmd" > /dev/null
    fzy_rc=$?
    set -e
    fzy_secs=$(awk -v a="$fzy_start" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}')
    if (( fzy_rc == 124 )); then
        use_fzy=0
        fzy_excluded+=("$key")
        echo "fzy EXCLUDED for '$query': one run took more than ${FZY_LIMIT}s on the ${CORPUS_BYTES}-byte corpus"
    else
        echo "fzy probe: ${fzy_secs}s (limit ${FZY_LIMIT}s), kept"
    fi

    args=(--output=pipe --warmup "$BENCH_WARMUP" --runs "$BENCH_RUNS" --ignore-failure
          --style basic --export-json "$RESULTS/query-$key.json")
    (( HAVE_SG )) && args+=(-n smartgrep "$sg_cmd")
    args+=(-n grep "$grep_cmd" -n rg "$rg_cmd" -n fzf "$fzf_cmd")
    (( use_fzy )) && args+=(-n fzy "$fzy_cmd")
    hyperfine "${args[@]}"

    hits_json+="$(printf '"%s": {"query": "%s", "smartgrep": %s, "grep": %s, "rg": %s},' \
        "$key" "$query" "$sg_hits" "$grep_hits" "$rg_hits")"
done

# ---------------------------------------------------------------- startup
log "startup on empty input (stdin is /dev/null under hyperfine)"
args=(-N --warmup 20 --runs "$STARTUP_RUNS" --ignore-failure --style basic
      --export-json "$RESULTS/startup.json")
(( HAVE_SG )) && args+=(-n smartgrep "$SGQ x")
args+=(-n fzy "fzy -e x" -n grep "grep x")
hyperfine "${args[@]}"

# ---------------------------------------------------------------- peak memory
log "peak memory (max RSS, /usr/bin/time -f %M, KiB), query 'lib' over the corpus"
mem_json=""
measure_mem() {   # name, then a command line run by bash; output goes through a pipe
    local name=$1 cmd=$2 out kb
    out=$(mktemp)
    set +e
    bash -c "/usr/bin/time -f %M -o $(q "$out") $cmd | cat > /dev/null"
    set -e
    kb=$(tail -n1 "$out")
    rm -f "$out"
    printf '%-22s %8s KiB\n' "$name" "$kb"
    mem_json+="$(printf '"%s": %s,' "$name" "$kb")"
}
if (( HAVE_SG )); then
    measure_mem "smartgrep (stdin)" "$SGQ lib < $CQ"
    measure_mem "smartgrep (file)"  "$SGQ lib $CQ"
fi
measure_mem "fzf --filter" "fzf --filter lib < $CQ"
measure_mem "grep -i -F" "grep -i -F lib $CQ"
measure_mem "rg -i" "rg -i '\\blib' $CQ"
printf '{%s}\n' "${mem_json%,}" > "$RESULTS/memory.json"

# ---------------------------------------------------------------- meta + report
ELAPSED=$(( SECONDS - START_SECONDS ))
LOAD_END=$(cut -d' ' -f1 /proc/loadavg)
excl=""
for k in "${fzy_excluded[@]+"${fzy_excluded[@]}"}"; do excl+="\"$k\","; done
cat > "$RESULTS/meta.json" <<EOF
{
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "smartgrep": $( (( HAVE_SG )) && printf '"%s"' "$SMARTGREP" || echo null),
  "corpus_bytes": $CORPUS_BYTES,
  "corpus_lines": $CORPUS_LINES,
  "rare_word": "$RARE_WORD",
  "rare_hits": $RARE_HITS,
  "runs": $BENCH_RUNS,
  "warmup": $BENCH_WARMUP,
  "startup_runs": $STARTUP_RUNS,
  "fzy_limit_s": $FZY_LIMIT,
  "fzy_excluded": [${excl%,}],
  "hits": {${hits_json%,}},
  "elapsed_s": $ELAPSED,
  "cores": $(nproc),
  "load_start": $LOAD_START,
  "load_end": $LOAD_END,
  "tools": {
    "hyperfine": "$(hyperfine --version)",
    "grep": "$(grep --version | head -n1)",
    "rg": "$(rg --version | head -n1)",
    "fzf": "$(fzf --version | head -n1)",
    "fzy": "$(fzy --version 2>&1 | head -n1 | sed 's/"/\\"/g')"
  }
}
EOF

log "report"
python3 "$BENCH_DIR/report.py" "$RESULTS"
echo
echo "whole bench took ${ELAPSED}s"
