#!/usr/bin/env bash
# XLSX benchmark (issue 14; not a test): scale_generate.py's seeded ROWS-row payments CSV (id,date,amount,from,to)
# and the same records as a one-sheet workbook (Benchmarks/xlsx_tools.py generate: numbers as number cells, the
# date as a serial with a date style, currencies as inline strings), converted by fxbatch in release mode, and the
# same job done by pandas + openpyxl. Wall time and peak memory (/usr/bin/time -v); prints one markdown table,
# the machine, and issue 14's targets as PASS/FAIL lines (informative only).
#
# The runs:
#   fxbatch-csv   `fxbatch convert -q payments.csv -o OUT.csv` (embedded ECB history)
#   fxbatch-xlsx  `fxbatch convert -q payments.xlsx -o OUT.xlsx`; every fx_* value of every row of the result
#                 is checked against the CSV run's (xlsx_tools.py compare: the sheet XML read with zipfile)
#   pandas+openpyxl  pandas.read_excel(engine="openpyxl"), the rate by date from a per-calendar-day table
#                 (scale_reference.py tables), float64, DataFrame.to_excel(engine="openpyxl") (xlsx_tools.py peer);
#                 on PEER_ROWS rows (default ROWS): with fewer, its time is scaled to ROWS by rows (openpyxl's time
#                 grows linearly with rows), and the table says so
# fxbatch runs are repeated FX_RUNS times (default 3; median wall, largest peak); the peer runs once.
# Exits 1 when an fxbatch run fails or the workbook's fx values differ from the CSV run's.
#
# Usage: Benchmarks/xlsx.sh [ROWS=1000000] [SEED=20240101]     (or ROWS=… SEED=… in the environment)
#   PEERS=0       skip pandas + openpyxl
#   PEER_ROWS=N   run the peer on the first N rows only (its time is scaled to ROWS)
#   FX_RUNS=N     runs of each fxbatch job (default 3)
# Installs pandas and openpyxl with pip into Benchmarks/.venv (gitignored) when missing; the peer is skipped with
# a line saying so when they cannot be installed. Inputs are kept in Benchmarks/.work/ (gitignored; shared with
# scale.sh for the same ROWS and SEED, about 30 MB more for the workbook per million rows); outputs go to a
# temporary directory, removed at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
ROWS=${1:-${ROWS:-1000000}}; SEED=${2:-${SEED:-20240101}}; PEERS=${PEERS:-1}; FX_RUNS=${FX_RUNS:-3}
PEER_ROWS=${PEER_ROWS:-$ROWS}
ECB=Sources/FXBatch/RateSources/Embedded/eurofxref-hist.csv
VENV=Benchmarks/.venv
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
LOAD_AT_START=$(cut -d' ' -f1 /proc/loadavg)
OUT=$(mktemp -d "${TMPDIR:-/tmp}/fxbatch-xlsx.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
log() { echo "xlsx.sh: $*" >&2; }
source Benchmarks/common.sh # make_venv, make_payments, run_timed

log "building fxbatch (release)"
swift build -c release --product fxbatch >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log" >&2; exit 2; }
BIN="$(swift build -c release --show-bin-path)/fxbatch"

# --- the peer's packages ------------------------------------------------------------------------------------
PEER_SKIPPED=""
if [ "$PEERS" != 0 ]; then
  make_venv
  for package in pandas openpyxl; do
    if [ ! -x "$VENV/bin/pip" ]; then
      PEER_SKIPPED="no virtualenv: python3 -m venv $VENV failed (python3-venv missing?)"
    elif ! "$VENV/bin/python" -c "import $package" 2>/dev/null; then
      log "installing $package into $VENV"
      timeout 600 "$VENV/bin/pip" install -q "$package" >"$OUT/pip-$package.log" 2>&1 ||
        PEER_SKIPPED="pip install $package failed (see pip's message: $(tail -n 1 "$OUT/pip-$package.log"))"
    fi
  done
else
  PEER_SKIPPED="PEERS=0"
fi

# --- inputs, cached by rows, seed and the generating code (the CSV in scale.sh's directory) ---------------------
GENERATOR=$(sha256sum Benchmarks/scale_generate.py | cut -c1-10)
WORKBOOK=$(sha256sum Benchmarks/xlsx_tools.py | cut -c1-10)
DATA=Benchmarks/.work/scale-$ROWS-$SEED-$GENERATOR
mkdir -p Benchmarks/.work
make_payments
CSV=$DATA/payments.csv
XLSX=$DATA/payments-$WORKBOOK.xlsx
for stale in "$DATA"/payments-*.xlsx; do # made by another version of the generator
  if [ -e "$stale" ] && [ "$stale" != "$XLSX" ]; then rm -f "$stale"; fi
done
if [ ! -f "$XLSX" ]; then
  log "writing the same records as a workbook: $XLSX"
  python3 Benchmarks/xlsx_tools.py generate "$CSV" "$XLSX.part"
  mv "$XLSX.part" "$XLSX"
fi
PEER_XLSX=$XLSX
if [ "$PEER_ROWS" != "$ROWS" ]; then
  PEER_XLSX=$OUT/peer-payments.xlsx
  head -n "$((PEER_ROWS + 1))" "$CSV" >"$OUT/peer-payments.csv"
  python3 Benchmarks/xlsx_tools.py generate "$OUT/peer-payments.csv" "$PEER_XLSX"
fi
python3 Benchmarks/scale_reference.py tables --ecb "$ECB" --out-dir "$OUT" --fixed-day 2024-12-31

# --- measuring ----------------------------------------------------------------------------------------------
declare -A WALL=() PEAK=() STATUS=()
# run_fxbatch NAME OUTPUT INPUT: FX_RUNS runs of `fxbatch convert -q INPUT -o OUTPUT`, each to a new output
# (see scale.sh: replacing a file times the disk), the median wall and the largest peak.
run_fxbatch() {
  local name=$1 output=$2 input=$3 walls="" peaks="" status=0
  for _ in $(seq "$FX_RUNS"); do
    rm -f "$output"
    run_timed "$name" "$BIN" convert -q "$input" -o "$output"
    walls="$walls ${WALL[$name]}"; peaks="$peaks ${PEAK[$name]}"
    [ "${STATUS[$name]}" = 0 ] || status=${STATUS[$name]}
  done
  WALL[$name]=$(tr ' ' '\n' <<<"$walls" | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  PEAK[$name]=$(tr ' ' '\n' <<<"$peaks" | sed '/^$/d' | sort -n | tail -n 1)
  STATUS[$name]=$status
}

cat "$CSV" "$XLSX" >/dev/null # the page cache
log "fxbatch: $ROWS rows, CSV ($FX_RUNS runs)"
run_fxbatch fxbatch-csv "$OUT/fxbatch.csv" "$CSV"
log "fxbatch: $ROWS rows, XLSX ($FX_RUNS runs)"
run_fxbatch fxbatch-xlsx "$OUT/fxbatch.xlsx" "$XLSX"
log "checking the workbook's fx_* values against the CSV run's"
DIFF=$(python3 Benchmarks/xlsx_tools.py compare "$OUT/fxbatch.xlsx" "$OUT/fxbatch.csv" 2>"$OUT/compare.txt") || DIFF=error
XLSX_BYTES=$(stat -c %s "$XLSX"); OUTPUT_BYTES=$(stat -c %s "$OUT/fxbatch.xlsx" 2>/dev/null || echo 0)

PEER_SCALE=1
if [ -z "$PEER_SKIPPED" ]; then
  log "pandas + openpyxl: $PEER_ROWS rows (this takes minutes)"
  run_timed peer env PYTHONPATH=Benchmarks "$VENV/bin/python" Benchmarks/xlsx_tools.py peer \
    "$PEER_XLSX" "$OUT/day-rates.csv" "$OUT/peer.xlsx"
  PEER_SCALE=$(awk -v r="$ROWS" -v p="$PEER_ROWS" 'BEGIN { printf "%.6f", r / p }')
  PEER_WALL=$(awk -v w="${WALL[peer]}" -v s="$PEER_SCALE" 'BEGIN { printf "%.3f", w * s }')
  PEER_VERSIONS=$("$VENV/bin/python" -c 'import pandas, openpyxl; print(f"pandas {pandas.__version__} + openpyxl {openpyxl.__version__}")')
fi

# --- report -------------------------------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-1}" 'BEGIN { if (b > 0) printf "%.*f", d, a / b; else print "-" }'; }
verdict() { if awk "BEGIN { exit !($1) }"; then echo PASS; else echo FAIL; fi; }
FX_OK=0; [ "${STATUS[fxbatch-csv]}" = 0 ] && [ "${STATUS[fxbatch-xlsx]}" = 0 ] && [ "$DIFF" = 0 ] && FX_OK=1
VERSION=$("$BIN" --version 2>/dev/null | head -n 1 || echo fxbatch)
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo "?")
echo
echo "| tool | job | rows | wall s | peak MB |"
echo "|---|---|---|---|---|"
echo "| $VERSION ($COMMIT) | CSV → annotated CSV (median of $FX_RUNS) | $ROWS | ${WALL[fxbatch-csv]} | ${PEAK[fxbatch-csv]} |"
echo "| $VERSION ($COMMIT) | XLSX → annotated XLSX (median of $FX_RUNS) | $ROWS | ${WALL[fxbatch-xlsx]} | ${PEAK[fxbatch-xlsx]} |"
if [ -z "$PEER_SKIPPED" ]; then
  scaled=""; [ "$PEER_ROWS" = "$ROWS" ] || scaled=" (× $PEER_SCALE to $ROWS rows: $PEER_WALL s)"
  echo "| $PEER_VERSIONS | read_excel, rate by date (two merges, float64), to_excel | $PEER_ROWS | ${WALL[peer]}$scaled | ${PEAK[peer]} |"
else
  echo "| pandas + openpyxl | skipped: $PEER_SKIPPED | | | |"
fi
echo
echo "workbook: $(ratio "$XLSX_BYTES" 1048576 1) MB in, $(ratio "$OUTPUT_BYTES" 1048576 1) MB out;" \
  "fx_* values of the workbook differing from the CSV run's: $DIFF rows"
sed 's/^/  /' "$OUT/compare.txt"
echo "machine: $(nproc) cores, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)," \
  "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, $(uname -sr);" \
  "load average $LOAD_AT_START at the start (other work on the machine skews the times)"
echo
# issue 14's targets (informative: they do not change the exit status)
if [ -z "$PEER_SKIPPED" ]; then
  echo "$(verdict "$FX_OK && $PEER_WALL / ${WALL[fxbatch-xlsx]} >= 10")  XLSX at least 10× faster than pandas + openpyxl:" \
    "$(ratio "$PEER_WALL" "${WALL[fxbatch-xlsx]}")×"
else
  echo "SKIP  XLSX at least 10× faster than pandas + openpyxl: $PEER_SKIPPED"
fi
echo "$(verdict "$FX_OK && ${WALL[fxbatch-xlsx]} / ${WALL[fxbatch-csv]} <= 5")  XLSX within 5× the CSV run's wall:" \
  "$(ratio "${WALL[fxbatch-xlsx]}" "${WALL[fxbatch-csv]}" 2)× (${WALL[fxbatch-xlsx]} s against ${WALL[fxbatch-csv]} s)"
# The workbook has no shared-strings part: the bound is 64 MB.
echo "$(verdict "$FX_OK && ${PEAK[fxbatch-xlsx]} <= 64")  XLSX peak memory at most 64 MB plus the shared strings (none" \
  "here): ${PEAK[fxbatch-xlsx]} MB"
echo "$(verdict "$FX_OK")  the workbook's fx_* values equal the CSV run's in every row ($DIFF rows differ)"
[ "$FX_OK" = 1 ] || exit 1
