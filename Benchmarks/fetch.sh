#!/usr/bin/env bash
# Fetch-engine benchmark (not a test): N distinct keys served with latency L ms from a loopback server,
# fxbatch run with --jobs C, against the ideal ceil(N / C) × L and against a one-at-a-time run (--jobs 1).
# Usage: Benchmarks/fetch.sh [N=200] [L=50] [C=8]     (builds fxbatch in release mode first)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200}; L=${2:-50}; C=${3:-8}; PORT=${PORT:-18765}
swift build -c release --product fxbatch >/dev/null
BIN=.build/release/fxbatch
WORK=$(mktemp -d); trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
python3 Benchmarks/fetch_server.py "$PORT" "$L" & SERVER=$!
for _ in $(seq 50); do curl -s "http://127.0.0.1:$PORT/stats" >/dev/null 2>&1 && break; sleep 0.1; done
# N distinct (base, day) keys: EUR→USD on N consecutive days from 2020-01-01, 10 records each.
python3 - "$N" > "$WORK/in.csv" <<'PY'
import datetime, sys
n = int(sys.argv[1]); start = datetime.date(2020, 1, 1)
print("date,amount,from,to")
for i in range(n):
    for _ in range(10):
        print(f"{start + datetime.timedelta(days=i)},100,EUR,USD")
PY
run() { # jobs -> wall seconds
  local start end
  start=$(date +%s.%N)
  "$BIN" convert -q --source frankfurter-v1 --endpoint "http://127.0.0.1:$PORT" --no-cache --max-staleness 0 \
    --jobs "$1" -o /dev/null "$WORK/in.csv"
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
"$BIN" convert -q --source frankfurter-v1 --endpoint "http://127.0.0.1:$PORT" --no-cache --jobs "$C" -o /dev/null "$WORK/in.csv" # warm-up
parallel=$(run "$C"); serial=$(run 1)
ideal=$(echo "scale=3; $(( (N + C - 1) / C * L )) / 1000" | bc -l)
stats=$(curl -s "http://127.0.0.1:$PORT/stats")
printf '%-28s %10s\n' "N keys / latency / jobs" "$N / ${L} ms / $C"
printf '%-28s %10.3f s\n' "ideal ceil(N/C) x L" "$ideal"
printf '%-28s %10.3f s  (%.1f%% over ideal)\n' "fxbatch --jobs $C" "$parallel" "$(echo "($parallel / $ideal - 1) * 100" | bc -l)"
printf '%-28s %10.3f s  (%.1fx slower)\n' "fxbatch --jobs 1" "$serial" "$(echo "$serial / $parallel" | bc -l)"
echo "server: $stats  (requests over 3 runs; peak = most requests in flight)"
