#!/usr/bin/env bash
# Scale benchmark (issues 7 and 12; not a test): a seeded ROWS-row payments CSV (id,date,amount,from,to: 30
# currencies, dates over 2024) converted by fxbatch in release mode, and the same job done by peers. Wall time,
# peak memory (/usr/bin/time -v) and every row's converted amount against an exact reference
# (Benchmarks/scale_reference.py); prints one markdown table, the 20-row start-up time, format throughput, the
# lock file's size, the machine, and issues 7's and 12's targets as PASS/FAIL lines (informative only).
#
# The runs (every fxbatch output is checked row by row against the exact reference):
#   fxbatch-csv     the CSV on the embedded ECB history (the road every other run is measured against)
#   fxbatch-jsonl   the same records as JSON Lines;  fxbatch-xml  the same records as XML (<payment> elements)
#   fxbatch-ecb     the CSV with `--source ecb --endpoint http://127.0.0.1:PORT/ --no-cache`: rates fetched from
#                   a loopback ECB server (Benchmarks/ecb_server.py, started here on a free port, stopped at
#                   exit) serving eurofxref-hist.xml, the whole history in the ECB's XML shape, built from the
#                   embedded history CSV; the server's request count is printed
#   fxbatch-lock    the CSV with `--lock rates.lock` (embedded rates; the lock is removed before each run, so
#                   each run writes it anew); its size is printed
#   fxbatch-frozen  the CSV with `--lock rates.lock --frozen`: rates only from the lock the lock run wrote
#   fxbatch-json    the same records as one JSON document, a top-level array with one object per line
#                   (payments.json), `--format json` → an annotated JSON document
#   floor           a C byte scan counting the CSV's commas (what reading the file costs)
# Peers (PEERS=0 skips them all): Miller (a join on a fixed rate table; rate by date with two joins), pandas
# and CurrencyConverter (rate by date), DuckDB (Benchmarks/scale_peers.py duckdb: the CSV job and the JSON
# array job: a calendar-day rate table made from the ECB's publication days by an ASOF join (the latest
# publication at most 5 days old), two joins on it by (date, currency), DECIMAL amounts and rates, rounded half
# away from zero to the target's minor units; CSV → CSV and JSON array → JSON array). Runs under
# 2 s (fxbatch's and DuckDB's) are repeated and report the median wall and the largest peak.
# Exits 1 when fxbatch's amounts differ from the exact reference (or fxbatch fails); peers' differences are
# findings, not failures.
#
# Usage: Benchmarks/scale.sh [ROWS=1000000] [SEED=20240101]     (or ROWS=… SEED=… in the environment)
#   PEERS=0      skip the peers (e.g. ROWS=10000000 PEERS=0 for the memory check at 10 million rows: every
#                fxbatch run, ecb, lock, frozen and JSON included)
#   SMALL_RUNS=N runs of the 20-row file (default 15; the median is reported)
#   FX_RUNS=N    runs of each big fxbatch or DuckDB job when one takes under 2 s (default 5; the median is
#                reported)
# Installs what is missing: Miller with apt-get, CurrencyConverter, pandas and DuckDB with pip into
# Benchmarks/.venv (gitignored); a peer that cannot be installed is skipped with a line saying so. Generated
# inputs and references are kept in Benchmarks/.work/ (gitignored; reused for the same ROWS and SEED; rm -rf it
# to reclaim the space, about 305 MB per million rows); outputs go to a temporary directory, removed at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
ROWS=${1:-${ROWS:-1000000}}; SEED=${2:-${SEED:-20240101}}; PEERS=${PEERS:-1}; SMALL_RUNS=${SMALL_RUNS:-15}
ECB=Sources/FXBatch/RateSources/Embedded/eurofxref-hist.csv
FIXED_DAY=2024-12-31 # the fixed rate table's day
VENV=Benchmarks/.venv
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
LOAD_AT_START=$(cut -d' ' -f1 /proc/loadavg)
OUT=$(mktemp -d "${TMPDIR:-/tmp}/fxbatch-scale.XXXXXX")
ECB_SERVER=""
cleanup() {
  if [ -n "$ECB_SERVER" ]; then kill "$ECB_SERVER" 2>/dev/null || true; wait "$ECB_SERVER" 2>/dev/null || true; fi
  rm -rf "$OUT"
}
trap cleanup EXIT
log() { echo "scale.sh: $*" >&2; }
source Benchmarks/common.sh # make_venv, make_payments, run_timed

# --- fxbatch, release build -------------------------------------------------------------------------------
log "building fxbatch (release)"
swift build -c release --product fxbatch >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log" >&2; exit 2; }
BIN="$(swift build -c release --show-bin-path)/fxbatch"

# --- peers: installed when missing, skipped when they cannot be ---------------------------------------------
declare -A SKIPPED=()
if [ "$PEERS" != 0 ]; then
  if ! command -v mlr >/dev/null; then
    log "installing Miller: apt-get install -y miller"
    { DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y miller ||
      { $SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y miller; }; } \
      >"$OUT/apt-miller.log" 2>&1 || true
  fi
  command -v mlr >/dev/null || SKIPPED[Miller]="Miller (mlr) is not installed and apt-get install -y miller failed"
  make_venv
  for package in CurrencyConverter:currency_converter pandas:pandas duckdb:duckdb; do
    name=${package%%:*}; module=${package##*:}
    if [ ! -x "$VENV/bin/pip" ]; then
      SKIPPED[$name]="no virtualenv: python3 -m venv $VENV failed (python3-venv missing?)"
    elif ! "$VENV/bin/python" -c "import $module" 2>/dev/null; then
      log "installing $name into $VENV"
      timeout 600 "$VENV/bin/pip" install -q "$name" >"$OUT/pip-$name.log" 2>&1 ||
        SKIPPED[$name]="pip install $name failed (see pip's message: $(tail -n 1 "$OUT/pip-$name.log"))"
    fi
  done
else
  SKIPPED[Miller]="PEERS=0"; SKIPPED[CurrencyConverter]="PEERS=0"; SKIPPED[pandas]="PEERS=0"; SKIPPED[duckdb]="PEERS=0"
fi

# --- the loopback ECB server: 127.0.0.1, a port the kernel picks, stopped at exit -------------------------------
log "starting the loopback ECB server (Benchmarks/ecb_server.py)"
python3 Benchmarks/ecb_server.py "$ECB" "$OUT/ecb.port" >"$OUT/ecb-server.log" 2>&1 &
ECB_SERVER=$!
# ecb_stat requests|bytes|files: the server's count of rate files served, of their bytes, or the names served
ecb_stat() {
  python3 -c 'import json, sys, urllib.request
value = json.load(urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/stats", timeout=10))[sys.argv[2]]
print(", ".join(sorted(value)) if isinstance(value, dict) else value)' "$ECB_PORT" "$1" 2>/dev/null ||
    { [ "$1" = files ] || echo 0; }
}

# --- inputs and exact references, cached by rows, seed and the generating code ------------------------------
GENERATOR=$(sha256sum Benchmarks/scale_generate.py | cut -c1-10)
REFERENCE=$(cat Benchmarks/scale_reference.py "$ECB" | sha256sum | cut -c1-10)
DATA=Benchmarks/.work/scale-$ROWS-$SEED-$GENERATOR
mkdir -p Benchmarks/.work
for stale in Benchmarks/.work/scale-*; do # made by another version of the generator
  if [ -e "$stale" ] && [[ $stale != *-"$GENERATOR" ]]; then rm -rf "$stale"; fi
done
make_payments
CSV=$DATA/payments.csv
for kind in dated fixed; do
  if [ ! -f "$DATA/reference-$kind-$REFERENCE.ties" ]; then
    log "computing the exact reference ($kind rates)"
    fixed=(); [ "$kind" = fixed ] && fixed=(--fixed-day "$FIXED_DAY")
    python3 Benchmarks/scale_reference.py reference --ecb "$ECB" --input "$CSV" \
      --out "$DATA/reference-$kind-$REFERENCE.txt" "${fixed[@]}" >"$DATA/reference-$kind-$REFERENCE.ties.part"
    mv "$DATA/reference-$kind-$REFERENCE.ties.part" "$DATA/reference-$kind-$REFERENCE.ties"
  fi
done
for stale in "$DATA"/reference-*; do # made by another version of the reference or of the ECB data
  if [[ $stale != *-"$REFERENCE".* ]]; then rm -f "$stale"; fi
done
python3 Benchmarks/scale_reference.py tables --ecb "$ECB" --out-dir "$OUT" --fixed-day "$FIXED_DAY"
for _ in $(seq 600); do # the server builds its documents (a few seconds) before it listens
  [ ! -s "$OUT/ecb.port" ] && kill -0 "$ECB_SERVER" 2>/dev/null && sleep 0.1
done
[ -s "$OUT/ecb.port" ] || { log "the ECB server did not start:"; cat "$OUT/ecb-server.log" >&2; exit 2; }
ECB_PORT=$(cat "$OUT/ecb.port")
ECB_ENDPOINT="http://127.0.0.1:$ECB_PORT/"

# --- measuring ----------------------------------------------------------------------------------------------
declare -A WALL=() PEAK=() DIFF=() STATUS=()
# run_repeated NAME COMMAND…: run_timed, and when a run takes under 2 s, FX_RUNS runs in all (default 5) with
# the median wall time and the largest peak. Before each run, `before_run` (set by the caller) is called with
# the command's arguments.
declare -A RUNS=()
before_run() { :; }
run_repeated() {
  local name=$1 walls peaks
  shift
  before_run "$@"
  run_timed "$name" "$@"
  walls=${WALL[$name]}; peaks=${PEAK[$name]}; RUNS[$name]=1
  if awk -v w="${WALL[$name]}" 'BEGIN { exit !(w < 2) }'; then
    for _ in $(seq 2 "${FX_RUNS:-5}"); do
      before_run "$@"
      run_timed "$name" "$@"
      walls="$walls ${WALL[$name]}"; peaks="$peaks ${PEAK[$name]}"; RUNS[$name]=$((RUNS[$name] + 1))
    done
    WALL[$name]=$(tr ' ' '\n' <<<"$walls" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    PEAK[$name]=$(tr ' ' '\n' <<<"$peaks" | sort -n | tail -n 1)
  fi
}
# Each run writes a new output file, as the peers' runs do (their output is removed after each check): replacing
# an existing file on ext4 makes the kernel write the new one out at the rename (auto_da_alloc), 0.2–0.5 s for
# the 80 MB output here, which would time the disk rather than the tool.
# A `--lock FILE` run without --frozen starts without the lock, so that each run writes it anew.
fresh_output() {
  local previous="" frozen=0 lock=""
  for argument in "$@"; do
    if [ "$previous" = "-o" ] && [ "$argument" != "-" ]; then rm -f "$argument"; fi
    [ "$previous" != "--lock" ] || lock=$argument
    [ "$argument" != "--frozen" ] || frozen=1
    previous=$argument
  done
  if [ -n "$lock" ] && [ "$frozen" = 0 ]; then rm -f "$lock"; fi
}
# run_fxbatch NAME ARGUMENTS…: `fxbatch convert -q ARGUMENTS…`, repeated when under 2 s (run_repeated), each run
# writing a new output.
run_fxbatch() {
  local name=$1
  shift
  before_run() { shift 3; fresh_output "$@"; } # after "$BIN" convert -q
  run_repeated "$name" "$BIN" convert -q "$@"
  before_run() { :; }
}
# check NAME OUTPUT FORMAT FIELD dated|fixed [--strict]: rows whose amount differs from the reference.
check() {
  local name=$1 output=$2 format=$3 field=$4 kind=$5
  shift 5
  DIFF[$name]=$(python3 Benchmarks/scale_reference.py compare --reference "$DATA/reference-$kind-$REFERENCE.txt" \
    --output "$output" --format "$format" --field "$field" --label "$name" --details "$OUT/details.txt" \
    --input "$CSV" "$@")
  rm -f "$output"
}

log "warming the page cache and the floor: a C byte scan counting commas"
if command -v cc >/dev/null; then
  cat >"$OUT/floor.c" <<'C'
#include <stdio.h>
int main(int argc, char **argv) {
  static char buffer[1 << 20];
  FILE *file = fopen(argv[1], "rb");
  size_t count, commas = 0;
  if (!file) return 1;
  while ((count = fread(buffer, 1, sizeof buffer, file)) > 0)
    for (size_t i = 0; i < count; i++) commas += buffer[i] == ',';
  printf("%zu\n", commas);
  return 0;
}
C
  cc -O2 -o "$OUT/floor" "$OUT/floor.c"
  "$OUT/floor" "$CSV" >/dev/null
  run_timed floor "$OUT/floor" "$CSV" >"$OUT/floor.txt"
else
  SKIPPED[floor]="no C compiler (cc)"
fi

log "fxbatch: a 20-row file, $SMALL_RUNS runs"
head -n 21 "$CSV" >"$OUT/small.csv"
"$BIN" convert -q "$OUT/small.csv" -o "$OUT/small.out.csv"
: >"$OUT/small.times"
for _ in $(seq "$SMALL_RUNS"); do
  rm -f "$OUT/small.out.csv"
  start=$EPOCHREALTIME
  "$BIN" convert -q "$OUT/small.csv" -o "$OUT/small.out.csv"
  end=$EPOCHREALTIME
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f\n", (b - a) * 1000 }' >>"$OUT/small.times"
done
SMALL_MEDIAN=$(sort -n "$OUT/small.times" |
  awk '{ v[NR] = $1 } END { printf "%.1f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
SMALL_MIN=$(sort -n "$OUT/small.times" | head -n 1)

log "fxbatch: $ROWS rows, CSV"
run_fxbatch fxbatch-csv "$CSV" -o "$OUT/fxbatch.csv"
check fxbatch-csv "$OUT/fxbatch.csv" csv fx_converted dated --strict
log "fxbatch: $ROWS rows, JSON Lines"
run_fxbatch fxbatch-jsonl --format jsonl "$DATA/payments.jsonl" -o "$OUT/fxbatch.jsonl"
check fxbatch-jsonl "$OUT/fxbatch.jsonl" jsonl fx_converted dated --strict
log "fxbatch: $ROWS rows, XML"
run_fxbatch fxbatch-xml --format xml --record-element payment "$DATA/payments.xml" -o "$OUT/fxbatch.xml"
check fxbatch-xml "$OUT/fxbatch.xml" xml converted dated --strict
log "fxbatch: $ROWS rows, CSV, --source ecb from the loopback server ($ECB_ENDPOINT)"
ECB_REQUESTS_BEFORE=$(ecb_stat requests)
run_fxbatch fxbatch-ecb --source ecb --endpoint "$ECB_ENDPOINT" --no-cache "$CSV" -o "$OUT/fxbatch-ecb.csv"
ECB_REQUESTS=$(($(ecb_stat requests) - ECB_REQUESTS_BEFORE)); ECB_FILES=$(ecb_stat files)
check fxbatch-ecb "$OUT/fxbatch-ecb.csv" csv fx_converted dated --strict
log "fxbatch: $ROWS rows, CSV, --lock (writing the lock)"
LOCK=$OUT/rates.lock
run_fxbatch fxbatch-lock --lock "$LOCK" "$CSV" -o "$OUT/fxbatch-lock.csv"
check fxbatch-lock "$OUT/fxbatch-lock.csv" csv fx_converted dated --strict
LOCK_BYTES=$(stat -c %s "$LOCK" 2>/dev/null || echo 0)
LOCK_SHA=$(sha256sum "$LOCK" 2>/dev/null | cut -c1-16 || true)
log "fxbatch: $ROWS rows, CSV, --lock --frozen (rates only from the lock)"
run_fxbatch fxbatch-frozen --lock "$LOCK" --frozen "$CSV" -o "$OUT/fxbatch-frozen.csv"
check fxbatch-frozen "$OUT/fxbatch-frozen.csv" csv fx_converted dated --strict
[ "$(sha256sum "$LOCK" 2>/dev/null | cut -c1-16)" = "$LOCK_SHA" ] || log "the --frozen runs changed the lock file"
log "fxbatch: $ROWS rows, a JSON document (top-level array)"
run_fxbatch fxbatch-json --format json "$DATA/payments.json" -o "$OUT/fxbatch.json"
check fxbatch-json "$OUT/fxbatch.json" json fx_converted dated --strict

if [ -z "${SKIPPED[Miller]:-}" ]; then
  # Miller's DSL: $name is a field, not a shell variable.
  # shellcheck disable=SC2016
  fixed_job='$converted = fmtnum($amount * $rate, $to_format)'
  # shellcheck disable=SC2016
  dated_job='$converted = fmtnum($amount * $to_rate / $from_rate, $to_format)'
  log "Miller: join on a fixed rate table"
  run_timed miller-fixed mlr --icsv --ocsv join -j from,to -f "$OUT/pairs-fixed.csv" \
    "then" put "$fixed_job" "then" cut -x -f to_format "$CSV" >"$OUT/miller-fixed.csv"
  check miller-fixed "$OUT/miller-fixed.csv" csv converted fixed
  log "Miller: rate by date (two joins)"
  run_timed miller-dated mlr --icsv --ocsv join -j date,from -f "$OUT/day-from.csv" \
    "then" join -j date,to -f "$OUT/day-to.csv" "then" put "$dated_job" "then" cut -x -f to_format \
    "$CSV" >"$OUT/miller-dated.csv"
  check miller-dated "$OUT/miller-dated.csv" csv converted dated
fi
if [ -z "${SKIPPED[pandas]:-}" ]; then
  log "pandas: rate by date"
  run_timed pandas "$VENV/bin/python" Benchmarks/scale_peers.py pandas "$CSV" "$OUT/day-rates.csv" "$OUT/pandas.csv"
  check pandas "$OUT/pandas.csv" csv converted dated
fi
if [ -z "${SKIPPED[duckdb]:-}" ]; then
  before_run() { rm -f "${@: -1}"; } # each run writes a new output, as fxbatch's do
  log "DuckDB: CSV, rate by date (two joins, DECIMAL)"
  run_repeated duckdb-csv "$VENV/bin/python" Benchmarks/scale_peers.py duckdb csv "$CSV" "$OUT/ecb-rates.csv" \
    "$OUT/duckdb.csv"
  check duckdb-csv "$OUT/duckdb.csv" csv converted dated
  log "DuckDB: JSON array document, rate by date (two joins, DECIMAL)"
  run_repeated duckdb-json "$VENV/bin/python" Benchmarks/scale_peers.py duckdb json "$DATA/payments.json" \
    "$OUT/ecb-rates.csv" "$OUT/duckdb.json"
  check duckdb-json "$OUT/duckdb.json" json converted dated
  before_run() { :; }
fi
if [ -z "${SKIPPED[CurrencyConverter]:-}" ]; then
  log "CurrencyConverter: rate by date"
  run_timed currencyconverter "$VENV/bin/python" Benchmarks/scale_peers.py currencyconverter "$CSV" "$OUT/cc.csv"
  check currencyconverter "$OUT/cc.csv" csv converted dated
fi

# --- report -------------------------------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" -v digits="${3:-1}" 'BEGIN { printf "%.*f", digits, a / b }'; }
version_of() { "$VENV/bin/python" -c "import importlib.metadata as m; print(m.version('$1'))" 2>/dev/null || echo "?"; }
FX=${WALL[fxbatch-csv]}
speed_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { r = a / b; printf(r < 1 ? "%.2f×" : "%.1f×", r) }'; }
row() { # row NAME TOOL JOB SPEEDUP(yes: against fxbatch's CSV run | no | the fxbatch run to compare with)
  local name=$1 speedup="—" differing=${DIFF[$1]:-—}
  [ "$4" = yes ] && speedup=$(speed_ratio "${WALL[$name]}" "$FX")
  [ "$4" = yes ] || [ "$4" = no ] || speedup=$(speed_ratio "${WALL[$name]}" "${WALL[$4]}")
  [ "${STATUS[$name]}" -eq 0 ] || differing="$differing (exit status ${STATUS[$name]})"
  printf '| %s | %s | %.2f | %s | %s | %s |\n' "$2" "$3" "${WALL[$name]}" "${PEAK[$name]}" "$speedup" "$differing"
}
echo
echo "Scale benchmark: $ROWS rows (seed $SEED), CSV $(du -m "$CSV" | cut -f1) MB; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "| tool | job | wall s | peak MB | fxbatch speed-up | rows differing from exact reference |"
echo "|---|---|---|---|---|---|"
FXNAME="fxbatch $("$BIN" --version | awk '{ print $NF }') ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo "+changes"))"
runs() { [ "${RUNS[$1]}" -eq 1 ] || echo " (median of ${RUNS[$1]} runs)"; }
row fxbatch-csv "$FXNAME" "CSV → annotated CSV, rate by date$(runs fxbatch-csv)" no
row fxbatch-jsonl "$FXNAME" "JSON Lines → annotated JSON Lines$(runs fxbatch-jsonl)" no
row fxbatch-xml "$FXNAME" "XML → annotated XML$(runs fxbatch-xml)" no
of_csv() { echo "$(ratio "${WALL[$1]}" "$FX")× the CSV run's wall"; }
plural() { if [ "$1" = 1 ]; then echo "$1 $2"; else echo "$1 ${2}s"; fi; }
row fxbatch-ecb "$FXNAME" "CSV, \`--source ecb\` from a loopback server ($(plural "$ECB_REQUESTS" request) of ${ECB_FILES:-no file} in $(plural "${RUNS[fxbatch-ecb]}" run)); $(of_csv fxbatch-ecb)$(runs fxbatch-ecb)" no
row fxbatch-lock "$FXNAME" "CSV, \`--lock rates.lock\` (writes a $(ratio "$LOCK_BYTES" 1048576 2) MB lock); $(of_csv fxbatch-lock)$(runs fxbatch-lock)" no
row fxbatch-frozen "$FXNAME" "CSV, \`--lock rates.lock --frozen\`; $(of_csv fxbatch-frozen)$(runs fxbatch-frozen)" no
row fxbatch-json "$FXNAME" "JSON document (top-level array) → annotated JSON; $(of_csv fxbatch-json)$(runs fxbatch-json)" no
if [ -z "${SKIPPED[Miller]:-}" ]; then
  MILLER="Miller $(mlr --version | awk '{ print $NF }')"
  row miller-fixed "$MILLER" "join on a fixed rate table ($FIXED_DAY)" yes
  row miller-dated "$MILLER" "rate by date (two joins)" yes
fi
[ -n "${SKIPPED[pandas]:-}" ] || row pandas "pandas $(version_of pandas)" "rate by date (two merges)" yes
if [ -z "${SKIPPED[duckdb]:-}" ]; then
  DUCKDB="DuckDB $(version_of duckdb)"
  row duckdb-csv "$DUCKDB" "CSV → CSV, rate by date (two joins, DECIMAL)$(runs duckdb-csv)" yes
  row duckdb-json "$DUCKDB" "JSON array → JSON array, rate by date (two joins, DECIMAL; speed-up against fxbatch's JSON run)$(runs duckdb-json)" fxbatch-json
fi
[ -n "${SKIPPED[CurrencyConverter]:-}" ] ||
  row currencyconverter "CurrencyConverter $(version_of CurrencyConverter)" "rate by date (float, last known rate)" yes
[ -n "${SKIPPED[floor]:-}" ] || row floor "C byte scan (a floor)" "count commas" no
echo
for peer in Miller pandas duckdb CurrencyConverter floor; do
  [ -z "${SKIPPED[$peer]:-}" ] || echo "skipped $peer: ${SKIPPED[$peer]}"
done
throughput() { awk -v r="$ROWS" -v w="$1" 'BEGIN { printf "%.0f", r / w }'; }
echo "fxbatch 20-row file end to end: median $SMALL_MEDIAN ms of $SMALL_RUNS runs (fastest $SMALL_MIN ms)"
echo "fxbatch throughput: CSV $(throughput "$FX") rows/s;" \
  "JSON Lines $(throughput "${WALL[fxbatch-jsonl]}") rows/s ($(ratio "$FX" "${WALL[fxbatch-jsonl]}" 2)× CSV);" \
  "XML $(throughput "${WALL[fxbatch-xml]}") rows/s ($(ratio "$FX" "${WALL[fxbatch-xml]}" 2)× CSV);" \
  "JSON array $(throughput "${WALL[fxbatch-json]}") rows/s ($(ratio "$FX" "${WALL[fxbatch-json]}" 2)× CSV)"
echo "lock file written by --lock: $LOCK_BYTES bytes ($(ratio "$LOCK_BYTES" 1048576 2) MB);" \
  "ECB server: $(plural "$ECB_REQUESTS" request) in $(plural "${RUNS[fxbatch-ecb]}" "--source ecb run"), $(ratio "$(ecb_stat bytes)" 1048576 1) MB served in all"
echo "exact half-minor-unit ties in the data: $(cat "$DATA/reference-dated-$REFERENCE.ties") rows at the dated rates," \
  "$(cat "$DATA/reference-fixed-$REFERENCE.ties") at the fixed rates (rounding mode decides them; float code gets about half wrong)"
sed 's/^/  /' "$OUT/details.txt"
echo "machine: $(nproc) cores, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)," \
  "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, $(uname -sr);" \
  "load average $LOAD_AT_START at the start (other work on the machine skews the times)"
echo
# issue 7's targets (informative: they do not change the exit status)
verdict() { if awk "BEGIN { exit !($1) }"; then echo PASS; else echo FAIL; fi; }
# run_ok NAME: 1 when the fxbatch run exited 0 and matched the reference (a failed run passes no target)
run_ok() { if [ "${STATUS[$1]}" = 0 ] && [ "${DIFF[$1]}" = 0 ]; then echo 1; else echo 0; fi; }
failed_note() { [ "$(run_ok "$1")" = 1 ] || echo " (the run failed or differs from the reference)"; }
target_speedup() { # name factor label
  if [ -n "${WALL[$1]:-}" ]; then
    echo "$(verdict "$(run_ok fxbatch-csv) && ${WALL[$1]} / $FX >= $2")  fxbatch at least $2× faster than $3:" \
      "$(ratio "${WALL[$1]}" "$FX")×$(failed_note fxbatch-csv)"
  else
    echo "SKIP  fxbatch at least $2× faster than $3: not run"
  fi
}
target_speedup miller-dated 15 "Miller's rate-by-date job"
target_speedup miller-dated 12 "Miller's rate-by-date job (issue 12's bound)"
target_speedup currencyconverter 20 "CurrencyConverter"
for format in csv jsonl xml; do
  echo "$(verdict "$(run_ok "fxbatch-$format") && ${PEAK[fxbatch-$format]} <= 64")  fxbatch peak memory at most 64 MB" \
    "at $ROWS rows ($format): ${PEAK[fxbatch-$format]} MB$(failed_note "fxbatch-$format")"
done
echo "$(verdict "$SMALL_MEDIAN < 30")  20-row file under 30 ms: $SMALL_MEDIAN ms"
for format in jsonl xml; do
  echo "$(verdict "$FX / ${WALL[fxbatch-$format]} >= 0.5")  $format at least half the CSV throughput:" \
    "$(ratio "$FX" "${WALL[fxbatch-$format]}" 2)×"
done
# issue 12's targets
within_csv() { # name factor label
  echo "$(verdict "$(run_ok "$1") && ${WALL[$1]} / $FX <= $2")  $3 within $2× the embedded CSV run's wall:" \
    "$(ratio "${WALL[$1]}" "$FX" 2)× (${WALL[$1]} s against $FX s)$(failed_note "$1")"
  echo "$(verdict "$(run_ok "$1") && ${PEAK[$1]} <= 64")  $3 peak memory at most 64 MB at $ROWS rows: ${PEAK[$1]} MB$(failed_note "$1")"
}
within_csv fxbatch-ecb 2 "--source ecb (loopback)"
within_csv fxbatch-lock 2 "--lock"
within_csv fxbatch-frozen 2 "--lock --frozen"
within_csv fxbatch-json 3 "JSON array document"
echo "$(verdict "$LOCK_BYTES > 0 && $LOCK_BYTES <= 2 * 1048576")  lock file at most 2 MB: $(ratio "$LOCK_BYTES" 1048576 2) MB"
target_against() { # peer fxbatch-run factor label
  if [ -n "${WALL[$1]:-}" ]; then
    echo "$(verdict "$(run_ok "$2") && ${WALL[$1]} / ${WALL[$2]} >= $3")  fxbatch at least $3× faster than $4:" \
      "$(ratio "${WALL[$1]}" "${WALL[$2]}" 2)× (${WALL[$2]} s against ${WALL[$1]} s)$(failed_note "$2")"
  else
    echo "SKIP  fxbatch at least $3× faster than $4: not run"
  fi
}
target_against duckdb-json fxbatch-json 2 "DuckDB's JSON array job"
target_against duckdb-csv fxbatch-csv 2 "DuckDB's CSV job"

failed=0
if [ "$ECB_REQUESTS" -lt 1 ]; then
  echo "ERROR: the --source ecb runs made no request to the loopback ECB server: they measured something else" >&2
  failed=1
fi
for format in csv jsonl xml ecb lock frozen json; do
  if [ "${DIFF[fxbatch-$format]}" != 0 ] || [ "${STATUS[fxbatch-$format]}" != 0 ]; then
    echo "ERROR: fxbatch ($format) differs from the exact reference in ${DIFF[fxbatch-$format]} rows" \
      "(exit status ${STATUS[fxbatch-$format]})" >&2
    failed=1
  fi
done
exit "$failed"
