#!/usr/bin/env bash
# Spark benchmark (issue 18; not a test): ROWS seeded payments (Benchmarks/scale_generate.py, CSV only) through
# Examples/spark/fxbatch_spark.py in Spark local mode on both cores (local[2], PARTS partitions), against one
# fxbatch process over the whole file with the same lock. States the overhead and checks the outputs equal
# (the concatenated part files against the single run's records, the merged report against its report but for
# `files`).
#
# The runs (release build; wall time from bash's clock):
#   lock     `fxbatch rates lock payments.csv -o rates.lock` (pass 1 only, embedded rates)
#   single   `fxbatch convert payments.csv -o single.csv --lock rates.lock --frozen --report single.json`
#   spark    the PySpark job: textFile, pipe each partition through `fxbatch convert - -o - --header …
#            --no-header-output --lock rates.lock --frozen --report …` (one pass, no copy), saveAsTextFile,
#            `fxbatch report merge`; JVM start and Spark's own work included
#
# Measured (2-core machine, load average about 5 from other work, 10,000,000 rows, 8 partitions): single
# 14.5 s, Spark 75.2 s (5.19x), rates lock 12.0 s; records and merged report equal.
#
# Usage: Benchmarks/spark.sh [ROWS=10000000] [PARTS=8]
#   BIN=path      the fxbatch binary (default: a release build of this checkout)
#   PYTHON=path   a Python with pyspark (default: Tests/.venv/bin/python3, which .ci/run makes)
# Inputs are generated into Benchmarks/.work/spark-ROWS/ (gitignored; reused); outputs go to a temporary
# directory, removed at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${1:-${ROWS:-10000000}}; PARTS=${2:-${PARTS:-8}}
PYTHON=${PYTHON:-Tests/.venv/bin/python3}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/fxbatch-spark.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$OUT"' EXIT
log() { echo "spark.sh: $*" >&2; }

"$PYTHON" -c 'import pyspark' 2>/dev/null || { log "$PYTHON cannot import pyspark (run .ci/run, or set PYTHON)"; exit 2; }
if [ -z "${BIN:-}" ]; then
  log "building fxbatch (release)"
  swift build -c release --product fxbatch >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log" >&2; exit 2; }
  BIN="$(swift build -c release --show-bin-path)/fxbatch"
fi
BIN=$(readlink -f "$BIN")
DATA=Benchmarks/.work/spark-$ROWS
if [ ! -f "$DATA/complete" ]; then
  log "generating $ROWS rows into $DATA"
  rm -rf "$DATA"; mkdir -p "$DATA"
  python3 Benchmarks/scale_generate.py --rows "$ROWS" --formats csv --out-dir "$DATA"
  touch "$DATA/complete"
fi
export FXBATCH_TODAY=2025-01-15
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

start=$EPOCHREALTIME
"$BIN" rates lock -q "$DATA/payments.csv" -o "$OUT/rates.lock"
lock=$(seconds "$start" "$EPOCHREALTIME")
start=$EPOCHREALTIME
status=0
# In the lock's directory, named as the Spark job names it: the reports' source texts then match.
(cd "$OUT" && "$BIN" convert -q "$OLDPWD/$DATA/payments.csv" -o single.csv --lock rates.lock --frozen \
  --report single.json) || status=$?
[ "$status" -le 1 ] || { log "the single run exited with status $status"; exit 2; }
single=$(seconds "$start" "$EPOCHREALTIME")
start=$EPOCHREALTIME
status=0
(cd "$OUT" && TMPDIR="$OUT" "$OLDPWD/$PYTHON" "$OLDPWD/Examples/spark/fxbatch_spark.py" --fxbatch "$BIN" \
  --lock rates.lock --input "$(readlink -f "$OLDPWD/$DATA/payments.csv")" --output out --reports reports \
  --report total.json --partitions "$PARTS" --master 'local[2]' >/dev/null 2>"$OUT/spark.log") || status=$?
# The job exits as one run would: 1 when records failed on their own data.
[ "$status" -le 1 ] || { tail -30 "$OUT/spark.log" >&2; exit 2; }
spark=$(seconds "$start" "$EPOCHREALTIME")

# Equal output: the part files in order against the single run's records; the reports but for `files`.
if tail -n +2 "$OUT/single.csv" | cmp -s - <(cat "$OUT"/out/part-*); then records=equal; else records=DIFFERENT; fi
reports=$(python3 - "$OUT/single.json" "$OUT/total.json" <<'PY'
import json, sys
single, merged = (json.load(open(path)) for path in sys.argv[1:])
single.pop("files"); merged.pop("files")
print("equal" if single == merged else "DIFFERENT")
PY
)
echo "| run | wall s | vs single |"
echo "|---|---|---|"
echo "| rates lock (pass 1) | $lock | |"
echo "| one fxbatch process | $single | 1.00 |"
echo "| Spark local[2], $PARTS partitions | $spark | $(awk -v a="$spark" -v b="$single" 'BEGIN { printf "%.2f", a / b }') |"
echo
echo "$ROWS rows; records $records; merged report $reports (but for files)"
[ "$records" = equal ] && [ "$reports" = equal ]
