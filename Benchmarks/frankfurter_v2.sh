#!/usr/bin/env bash
# Frankfurter v2 benchmark (issue 15; not a test): ROWS rows over 150 currencies and the days of 2024 (seeded,
# Benchmarks/frankfurter_v2_data.py), converted with `--source frankfurter --jobs JOBS` through a loopback v2
# server (Benchmarks/frankfurter_v2_server.py, started here on a free port, gone at exit) that answers each
# request after LATENCY ms. Prints the requests made (target: at most 2 per distinct base), the wall time against
# the fetch ideal ⌈requests / JOBS⌉ × LATENCY plus the conversion time of the same rows on local rates (the
# embedded source, and --frozen on the run's lock: the same answered rates without the network), and the peak
# memory of each run (/usr/bin/time -v; target: 64 MB plus the answered table, estimated as the frozen run's
# peak less the embedded run's; issue 34's for every pair possible: wall within 1.5x of the ideal plus the
# embedded conversion, peak <= 200 MB). The run with --lock goes first: the server keeps each answer it makes, so
# that the measured run waits for the latency alone. Every converted amount, rate date and status of the v2 run is
# checked against the exact reference; exits 1 when one differs or the run fails.
#
# Usage: Benchmarks/frankfurter_v2.sh [ROWS=1000000] [SEED=20240101]
#   QUOTES=N    the rows' to-currencies are the first N of the 150 (default 3: EUR, USD, GBP, as invoices are
#               reported; QUOTES=150 makes every pair possible: about a million distinct rate keys)
#   YEARS=N     the rows' days are of the N calendar years ending with 2024 (default 1: 2024); the server refuses a
#               range over 5 years as the service does for ranges it computes live (422), so a run over ten
#               years shows the plan's ranges (`ROWS=2006 YEARS=10`: 150 bases, at most 2 requests per base)
#   LATENCY=MS  the server's latency (default 50);  JOBS=N  --jobs (default 8)
#   BIN=PATH    measure this fxbatch binary instead of building this checkout's
# Inputs go to a temporary directory, removed at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${1:-${ROWS:-1000000}}; SEED=${2:-${SEED:-20240101}}; QUOTES=${QUOTES:-3}; YEARS=${YEARS:-1}; LATENCY=${LATENCY:-50}; JOBS=${JOBS:-8}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/fxbatch-v2.XXXXXX")
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  rm -rf "$OUT"
}
trap cleanup EXIT
log() { echo "frankfurter_v2.sh: $*" >&2; }

if [ -z "${BIN:-}" ]; then
  log "building fxbatch (release)"
  swift build -c release --product fxbatch >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log" >&2; exit 2; }
  BIN=$PWD/.build/release/fxbatch
fi
log "generating $ROWS rows (seed $SEED, $QUOTES quote currencies, $YEARS years)"
python3 Benchmarks/frankfurter_v2_data.py generate "$ROWS" "$SEED" "$QUOTES" Sources/FXBatch/Money/ISO4217+Entries.swift \
  "$YEARS" >"$OUT/in.csv"
BASES=$(tail -n +2 "$OUT/in.csv" | cut -d, -f4 | sort -u | wc -l)
KEYS=$(tail -n +2 "$OUT/in.csv" | awk -F, '$4 != $5 { print $2, $4, $5 }' | sort -u | wc -l)

python3 Benchmarks/frankfurter_v2_server.py "$LATENCY" "$OUT/port" & SERVER=$!
for _ in $(seq 100); do [ -s "$OUT/port" ] && break; sleep 0.05; done
PORT=$(cat "$OUT/port")
ENDPOINT="http://127.0.0.1:$PORT"
requests() { curl -s "$ENDPOINT/stats" | python3 -c 'import json, sys; print(json.load(sys.stdin)["requests"])'; }
refused() { curl -s "$ENDPOINT/stats" | python3 -c 'import json, sys; print(json.load(sys.stdin)["refused"])'; }

# measure NAME ARGS...: runs fxbatch convert -q ARGS under /usr/bin/time -v; sets WALL (s), PEAK (MB), STATUS.
measure() {
  local name=$1; shift
  local start end
  start=$(date +%s.%N)
  set +e
  /usr/bin/time -v -o "$OUT/$name.time" "$BIN" convert -q "$@" 2>"$OUT/$name.err"
  STATUS=$?
  set -e
  end=$(date +%s.%N)
  WALL=$(echo "$end - $start" | bc -l)
  PEAK=$(awk '/Maximum resident set size/ { printf "%.1f", $6 / 1024 }' "$OUT/$name.time")
}

# The lock run first: it asks the requests the measured run asks, and the server keeps each answer it makes, so
# that the measured run is answered after the latency alone (the fetch ideal), not after Python writes its rows.
log "a run with --lock (its lock for --frozen below; the server keeps the answers it makes)"
"$BIN" convert -q --source frankfurter --endpoint "$ENDPOINT" --no-cache --jobs "$JOBS" --lock "$OUT/v2.lock" \
  -o "$OUT/locked.csv" "$OUT/in.csv" 2>/dev/null || true
before=$(requests); refused_before=$(refused)
log "converting through the v2 server (--jobs $JOBS, ${LATENCY} ms)"
measure v2 --source frankfurter --endpoint "$ENDPOINT" --no-cache --jobs "$JOBS" -o "$OUT/v2.csv" "$OUT/in.csv"
V2_WALL=$WALL; V2_PEAK=$PEAK; V2_STATUS=$STATUS
V2_REQUESTS=$(( $(requests) - before ))
V2_REFUSED=$(( $(refused) - refused_before ))
[ "$V2_STATUS" -eq 0 ] || { log "the v2 run exited $V2_STATUS:"; head -5 "$OUT/v2.err" >&2; }

log "checking every row against the exact reference"
read -r CHECKED DIFFERENT FALLBACKS < <(python3 Benchmarks/frankfurter_v2_data.py check "$OUT/in.csv" "$OUT/v2.csv")

log "the same rows on local rates: the embedded source, and --frozen on a lock of the v2 run"
measure embedded --source embedded -o "$OUT/embedded.csv" "$OUT/in.csv"
EMB_WALL=$WALL; EMB_PEAK=$PEAK
EMB_OK=$(awk -F, 'NR > 1 && ($(NF-1) == "ok" || $(NF-1) == "fallback")' "$OUT/embedded.csv" | wc -l)
measure frozen --lock "$OUT/v2.lock" --frozen -o "$OUT/frozen.csv" "$OUT/in.csv"
FROZEN_WALL=$WALL; FROZEN_PEAK=$PEAK
cmp -s "$OUT/frozen.csv" "$OUT/v2.csv" || log "warning: the frozen run's output differs from the v2 run's"

IDEAL=$(echo "scale=3; $(( (V2_REQUESTS + JOBS - 1) / JOBS * LATENCY )) / 1000" | bc -l)
TABLE=$(echo "$FROZEN_PEAK - $EMB_PEAK" | bc -l)
verdict() { if [ "$1" -eq 1 ]; then echo PASS; else echo FAIL; fi; }
printf '%-44s %s\n' "rows / bases / distinct rate keys" "$ROWS / $BASES / $KEYS (seed $SEED, $QUOTES quote currencies, $YEARS years)"
printf '%-44s %s\n' "latency / jobs" "$LATENCY ms / $JOBS"
printf '%-44s %s  (%s rows checked, %s differ; %s fallbacks)\n' "v2 run" "exit $V2_STATUS" "$CHECKED" "$DIFFERENT" "$FALLBACKS"
printf '%-44s %d  (%.2f per base; %s refused as too long)\n' "requests" "$V2_REQUESTS" "$(echo "$V2_REQUESTS / $BASES" | bc -l)" "$V2_REFUSED"
printf '%-44s %8.3f s\n' "fetch ideal ceil(requests / jobs) x latency" "$IDEAL"
printf '%-44s %8.3f s  peak %6.1f MB  (%s of %s rows have an ECB rate)\n' "embedded source, same rows" "$EMB_WALL" "$EMB_PEAK" "$EMB_OK" "$ROWS"
printf '%-44s %8.3f s  peak %6.1f MB\n' "--frozen on the v2 run's lock" "$FROZEN_WALL" "$FROZEN_PEAK"
printf '%-44s %8.3f s  peak %6.1f MB\n' "--source frankfurter (v2)" "$V2_WALL" "$V2_PEAK"
printf '%-44s %8.3f s (embedded) / %.3f s (frozen)\n' "ideal + conversion" \
  "$(echo "$IDEAL + $EMB_WALL" | bc -l)" "$(echo "$IDEAL + $FROZEN_WALL" | bc -l)"
printf '%-44s %6.1f MB (frozen peak - embedded peak)\n' "answered table (estimate)" "$TABLE"
echo "target requests <= 2 per base:               $(verdict "$(echo "$V2_REQUESTS <= 2 * $BASES" | bc -l)")"
echo "target wall <= ideal + frozen conversion:    $(verdict "$(echo "$V2_WALL <= $IDEAL + $FROZEN_WALL" | bc -l)")"
echo "target wall <= ideal + embedded conversion:  $(verdict "$(echo "$V2_WALL <= $IDEAL + $EMB_WALL" | bc -l)")"
echo "target peak <= 64 MB + answered table:       $(verdict "$(echo "$V2_PEAK <= 64 + $TABLE" | bc -l)")"
# Issue 34's targets for every pair possible (QUOTES=150): within 1.5x of the fetch ideal plus the embedded
# conversion, and at most 200 MB.
echo "target wall <= 1.5 x (ideal + embedded):      $(verdict "$(echo "$V2_WALL <= 1.5 * ($IDEAL + $EMB_WALL)" | bc -l)")"
echo "target peak <= 200 MB:                        $(verdict "$(echo "$V2_PEAK <= 200" | bc -l)")"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), fxbatch at $(git rev-parse --short HEAD)"
[ "$V2_STATUS" -eq 0 ] && [ "$DIFFERENT" -eq 0 ] || exit 1
