#!/usr/bin/env bash
# ODS benchmark (issue 34; not a test): scale_generate.py's seeded ROWS-row payments CSV (id,date,amount,from,to)
# and the same records as a one-table .ods in the markup LibreOffice Calc saves (Benchmarks/ods_tools.py
# generate: id and amount float cells, date a date cell, currencies string cells, each with its paragraph and
# LibreOffice's calcext attributes), converted by fxbatch in release mode. Wall time and peak memory
# (/usr/bin/time -v), and user CPU seconds; prints one markdown table, the machine, and issue 34's targets as PASS/FAIL lines
# (informative only).
#
# The runs:
#   fxbatch-csv   `fxbatch convert -q payments.csv -o OUT.csv` (embedded ECB history)
#   fxbatch-ods   `fxbatch convert -q payments.ods -o OUT.ods`; every fx_* value of every row of the result is
#                 checked against the CSV run's (ods_tools.py compare: content.xml read with zipfile)
#   fxbatch-ods-general  the same with FXBATCH_GENERAL_PATH=1 (libxml2's road; GENERAL=0 skips it)
# fxbatch runs are repeated FX_RUNS times (default 3; median wall, largest peak).
# Exits 1 when an fxbatch run fails or the spreadsheet's fx values differ from the CSV run's.
#
# Usage: Benchmarks/ods.sh [ROWS=1000000] [SEED=20240101]     (or ROWS=… SEED=… in the environment)
# Inputs are kept in Benchmarks/.work/ (gitignored; shared with scale.sh for the same ROWS and SEED, about 20 MB
# more for the spreadsheet per million rows); outputs go to a temporary directory, removed at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
ROWS=${1:-${ROWS:-1000000}}; SEED=${2:-${SEED:-20240101}}; FX_RUNS=${FX_RUNS:-3}; GENERAL=${GENERAL:-1}
LOAD_AT_START=$(cut -d' ' -f1 /proc/loadavg)
OUT=$(mktemp -d "${TMPDIR:-/tmp}/fxbatch-ods.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
log() { echo "ods.sh: $*" >&2; }
source Benchmarks/common.sh # make_payments, run_timed

log "building fxbatch (release)"
swift build -c release --product fxbatch >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log" >&2; exit 2; }
BIN="$(swift build -c release --show-bin-path)/fxbatch"

# --- inputs, cached by rows, seed and the generating code (the CSV in scale.sh's directory) ---------------------
GENERATOR=$(sha256sum Benchmarks/scale_generate.py | cut -c1-10)
SPREADSHEET=$(sha256sum Benchmarks/ods_tools.py | cut -c1-10)
DATA=Benchmarks/.work/scale-$ROWS-$SEED-$GENERATOR
mkdir -p Benchmarks/.work
make_payments
CSV=$DATA/payments.csv
ODS=$DATA/payments-$SPREADSHEET.ods
for stale in "$DATA"/payments-*.ods; do # made by another version of the generator
  if [ -e "$stale" ] && [ "$stale" != "$ODS" ]; then rm -f "$stale"; fi
done
if [ ! -f "$ODS" ]; then
  log "writing the same records as a spreadsheet: $ODS"
  python3 Benchmarks/ods_tools.py generate "$CSV" "$ODS.part"
  mv "$ODS.part" "$ODS"
fi

# --- measuring ----------------------------------------------------------------------------------------------
declare -A WALL=() PEAK=() STATUS=() USER=()
median() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# run_fxbatch NAME OUTPUT INPUT [ENV…]: FX_RUNS runs of `fxbatch convert -q INPUT -o OUTPUT`, each to a new
# output, the median wall, the median user CPU seconds (/usr/bin/time -v: on a shared machine the CPU a run
# needs, which other work skews less than its wall) and the largest peak.
run_fxbatch() {
  local name=$1 output=$2 input=$3 walls="" peaks="" users="" status=0
  shift 3
  for _ in $(seq "$FX_RUNS"); do
    rm -f "$output"
    run_timed "$name" env "$@" "$BIN" convert -q "$input" -o "$output"
    walls="$walls ${WALL[$name]}"; peaks="$peaks ${PEAK[$name]}"
    users="$users $(awk -F': ' '/User time \(seconds\)/ { print $2 }' "$OUT/$name.time")"
    [ "${STATUS[$name]}" = 0 ] || status=${STATUS[$name]}
  done
  WALL[$name]=$(median "$walls")
  USER[$name]=$(median "$users")
  PEAK[$name]=$(tr ' ' '\n' <<<"$peaks" | sed '/^$/d' | sort -n | tail -n 1)
  STATUS[$name]=$status
}

cat "$CSV" "$ODS" >/dev/null # the page cache
log "fxbatch: $ROWS rows, CSV ($FX_RUNS runs)"
run_fxbatch fxbatch-csv "$OUT/fxbatch.csv" "$CSV"
log "fxbatch: $ROWS rows, ODS ($FX_RUNS runs)"
run_fxbatch fxbatch-ods "$OUT/fxbatch.ods" "$ODS"
log "checking the spreadsheet's fx_* values against the CSV run's"
DIFF=$(python3 Benchmarks/ods_tools.py compare "$OUT/fxbatch.ods" "$OUT/fxbatch.csv" 2>"$OUT/compare.txt") || DIFF=error
ODS_BYTES=$(stat -c %s "$ODS"); OUTPUT_BYTES=$(stat -c %s "$OUT/fxbatch.ods" 2>/dev/null || echo 0)
CONTENT_BYTES=$(python3 -c 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).getinfo("content.xml").file_size)' "$ODS")
if [ "$GENERAL" != 0 ]; then
  log "fxbatch: $ROWS rows, ODS on the general road (FXBATCH_GENERAL_PATH=1, 1 run)"
  FX_RUNS=1 run_fxbatch fxbatch-ods-general "$OUT/general.ods" "$ODS" FXBATCH_GENERAL_PATH=1
  SAME=$(python3 - "$OUT/fxbatch.ods" "$OUT/general.ods" <<'PY'
import sys, zipfile
a, b = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2])
names = [i.filename for i in a.infolist()]
same = names == [i.filename for i in b.infolist()] and all(a.read(n) == b.read(n) for n in names)
print("yes" if same else "no")
PY
)
fi

# --- report -------------------------------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-1}" 'BEGIN { if (b > 0) printf "%.*f", d, a / b; else print "-" }'; }
verdict() { if awk "BEGIN { exit !($1) }"; then echo PASS; else echo FAIL; fi; }
FX_OK=0; [ "${STATUS[fxbatch-csv]}" = 0 ] && [ "${STATUS[fxbatch-ods]}" = 0 ] && [ "$DIFF" = 0 ] && FX_OK=1
VERSION=$("$BIN" --version 2>/dev/null | head -n 1 || echo fxbatch)
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo "?")
echo
echo "| tool | job | rows | wall s | user s | peak MB |"
echo "|---|---|---|---|---|---|"
echo "| $VERSION ($COMMIT) | CSV → annotated CSV (median of $FX_RUNS) | $ROWS | ${WALL[fxbatch-csv]} | ${USER[fxbatch-csv]} | ${PEAK[fxbatch-csv]} |"
echo "| $VERSION ($COMMIT) | ODS → annotated ODS (median of $FX_RUNS) | $ROWS | ${WALL[fxbatch-ods]} | ${USER[fxbatch-ods]} | ${PEAK[fxbatch-ods]} |"
if [ "$GENERAL" != 0 ]; then
  echo "| $VERSION ($COMMIT) | ODS → annotated ODS, general road (libxml2; 1 run) | $ROWS | ${WALL[fxbatch-ods-general]} | ${USER[fxbatch-ods-general]} | ${PEAK[fxbatch-ods-general]} |"
fi
echo
echo "spreadsheet: $(ratio "$ODS_BYTES" 1048576 1) MB in ($(ratio "$CONTENT_BYTES" 1048576 1) MB of content.xml)," \
  "$(ratio "$OUTPUT_BYTES" 1048576 1) MB out; fx_* values of the spreadsheet differing from the CSV run's: $DIFF rows"
[ "$GENERAL" = 0 ] || echo "every entry of the general road's package equal to the fast road's: $SAME"
sed 's/^/  /' "$OUT/compare.txt"
echo "machine: $(nproc) cores, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)," \
  "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, $(uname -sr);" \
  "load average $LOAD_AT_START at the start, $(cut -d' ' -f1 /proc/loadavg) at the end (other work on the machine skews the times)"
echo
# issue 34's targets (informative: they do not change the exit status)
echo "$(verdict "$FX_OK && ${WALL[fxbatch-ods]} / ${WALL[fxbatch-csv]} <= 5")  ODS within 5× the CSV run's wall:" \
  "$(ratio "${WALL[fxbatch-ods]}" "${WALL[fxbatch-csv]}" 2)× (${WALL[fxbatch-ods]} s against ${WALL[fxbatch-csv]} s)"
echo "      (user CPU: $(ratio "${USER[fxbatch-ods]}" "${USER[fxbatch-csv]}" 2)×, ${USER[fxbatch-ods]} s against ${USER[fxbatch-csv]} s)"
echo "$(verdict "$FX_OK && ${PEAK[fxbatch-ods]} <= 64")  ODS peak memory at most 64 MB: ${PEAK[fxbatch-ods]} MB"
echo "$(verdict "$FX_OK")  the spreadsheet's fx_* values equal the CSV run's in every row ($DIFF rows differ)"
[ "$GENERAL" = 0 ] || echo "$(verdict "$FX_OK && \"$SAME\" == \"yes\"")  the general road writes the same package entries"
[ "$FX_OK" = 1 ] || exit 1
