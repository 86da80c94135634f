#!/usr/bin/env bash
# Answered-quotes benchmark (issue 12; not a test): sources that answer (pair, day) keys — Frankfurter, a lock
# file of its quotes — on the scale benchmark's seeded ROWS-row payments (Benchmarks/scale_generate.py: 30
# currencies over 2024, about 300,000 distinct keys per million rows), against the embedded CSV run.
#
# The runs (release build; wall time from bash's clock, user CPU time and peak memory from /usr/bin/time -v):
#   embedded-csv      the CSV on the embedded ECB history (the road the others are measured against)
#   frankfurter-csv   the CSV with `--source frankfurter-v1 --endpoint http://127.0.0.1:PORT --no-cache --lock L`:
#                     every (day, base) asked of a loopback Frankfurter server (Benchmarks/fetch_server.py, no
#                     latency, every rate 1.2345: the rates are synthetic, so amounts are not checked here; the
#                     differential tests check them against the general path)
#   frozen-csv        the CSV with `--lock L --frozen`: the same quotes from the lock, nothing fetched
#   frozen-jsonl, frozen-json, frozen-xml
#                     the same records as JSON Lines, a JSON array and XML, `--lock L --frozen`
# Prints a markdown table (wall, ratio to embedded-csv, user CPU, peak MB), the requests served and the lock's size.
#
# Usage: Benchmarks/answered.sh [ROWS=1000000] [SEED=20240101]
#   BIN=path   the fxbatch binary to measure (default: a release build of this checkout), e.g. an older build
#   KEEP=dir   keep each run's output (dir/NAME.EXT) and the lock (dir/rates.lock) there, to compare two builds'
#              bytes (`cmp`)
# Inputs are generated into Benchmarks/.work/answered-ROWS-SEED/ (gitignored; reused); outputs go to a temporary
# directory, removed at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${1:-${ROWS:-1000000}}; SEED=${2:-${SEED:-20240101}}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/fxbatch-answered.XXXXXX")
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  rm -rf "$OUT"
}
trap cleanup EXIT
log() { echo "answered.sh: $*" >&2; }

if [ -z "${BIN:-}" ]; then
  log "building fxbatch (release)"
  swift build -c release --product fxbatch >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log" >&2; exit 2; }
  BIN="$(swift build -c release --show-bin-path)/fxbatch"
fi

DATA=Benchmarks/.work/answered-$ROWS-$SEED
if [ ! -f "$DATA/complete" ]; then
  log "generating $ROWS rows (seed $SEED) into $DATA"
  rm -rf "$DATA"; mkdir -p "$DATA"
  python3 Benchmarks/scale_generate.py --rows "$ROWS" --seed "$SEED" --out-dir "$DATA"
  touch "$DATA/complete"
fi

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 Benchmarks/fetch_server.py "$PORT" 0 >"$OUT/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 100); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/stats', timeout=1)" 2>/dev/null && break
  sleep 0.1
done
requests() {
  python3 -c "import json, urllib.request; print(json.load(urllib.request.urlopen('http://127.0.0.1:$PORT/stats'))['requests'])"
}

declare -A WALL=() PEAK=() USER=()
NAMES=()
# run NAME ARGUMENTS…: `fxbatch convert -q ARGUMENTS…` into a new output file.
run() {
  local name=$1 start end status=0
  shift
  start=$EPOCHREALTIME
  /usr/bin/time -v -o "$OUT/$name.time" "$BIN" convert -q "$@" || status=$?
  end=$EPOCHREALTIME
  [ "$status" -le 1 ] || { log "$name exited with status $status"; exit 2; } # 1: some records are errors
  WALL[$name]=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
  PEAK[$name]=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$OUT/$name.time")
  USER[$name]=$(awk -F': ' '/User time/ { printf "%.2f", $2 }' "$OUT/$name.time")
  NAMES+=("$name")
  if [ -n "${KEEP:-}" ]; then
    mkdir -p "$KEEP"
    for file in "$OUT"/out.*; do [ -e "$file" ] && mv "$file" "$KEEP/$name.${file##*.}"; done
  fi
  rm -f "$OUT"/out.*
}
export FXBATCH_TODAY=2025-01-15
LOCK=$OUT/rates.lock
run embedded-csv -o "$OUT/out.csv" "$DATA/payments.csv"
run frankfurter-csv --source frankfurter-v1 --endpoint "http://127.0.0.1:$PORT" --no-cache --lock "$LOCK" \
  -o "$OUT/out.csv" "$DATA/payments.csv"
SERVED=$(requests)
run frozen-csv --lock "$LOCK" --frozen -o "$OUT/out.csv" "$DATA/payments.csv"
run frozen-jsonl --lock "$LOCK" --frozen -o "$OUT/out.jsonl" "$DATA/payments.jsonl"
run frozen-json --lock "$LOCK" --frozen --format json -o "$OUT/out.json" "$DATA/payments.json"
run frozen-xml --lock "$LOCK" --frozen -o "$OUT/out.xml" "$DATA/payments.xml"
[ "$(requests)" = "$SERVED" ] || log "the frozen runs asked the server $(($(requests) - SERVED)) times"

echo "| run ($ROWS rows) | wall | × embedded CSV | user CPU | peak MB |"
echo "|---|---|---|---|---|"
for name in "${NAMES[@]}"; do
  ratio=$(awk -v a="${WALL[$name]}" -v b="${WALL[embedded-csv]}" 'BEGIN { printf "%.2f", a / b }')
  echo "| $name | ${WALL[$name]} s | $ratio | ${USER[$name]} s | ${PEAK[$name]} |"
done
echo
[ -z "${KEEP:-}" ] || cp "$LOCK" "$KEEP/rates.lock"
echo "requests to the loopback Frankfurter server: $SERVED; lock file: $(stat -c %s "$LOCK") bytes"
echo "binary: $BIN; machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo); load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
