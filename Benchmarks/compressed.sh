#!/usr/bin/env bash
# Compressed input and output (issue 32; not a test): scale_generate.py's seeded ROWS-row payments CSV, compressed
# with `gzip` (level 6, its default) and `zstd` (level 3), converted by fxbatch in release mode straight from the
# compressed file to a compressed output (`fxbatch convert payments.csv.gz -o out.csv.gz`), against the pipeline
# people write without it (`zcat payments.csv.gz | fxbatch convert - -o - | gzip -1 > out.csv.gz`, three
# processes on the machine's cores) and against the plain run on the uncompressed file.
#
#   fxbatch-plain  fxbatch convert -q payments.csv -o OUT.csv                           (what reading costs)
#   fxbatch-gz     fxbatch convert -q payments.csv.gz -o OUT.csv.gz
#   pipeline-gz    zcat payments.csv.gz | fxbatch convert -q - -o - | gzip -1 > OUT.csv.gz
#   fxbatch-zst    fxbatch convert -q payments.csv.zst -o OUT.csv.zst
#   pipeline-zst   zstdcat payments.csv.zst | fxbatch convert -q - -o - | zstd -q > OUT.csv.zst
#
# Each compressed output, decompressed, must be the plain run's output byte for byte (else the script exits 1).
# Prints a markdown table (median wall of FX_RUNS runs, default 3; the largest peak RSS of fxbatch), the output
# sizes, and the target (fxbatch-gz within 1.5× of pipeline-gz) as a PASS/FAIL line (informative only).
#
# Usage: Benchmarks/compressed.sh [ROWS=1000000] [SEED=20240101]     (or ROWS=… SEED=… in the environment)
# Inputs are kept in Benchmarks/.work/ (gitignored, shared with scale.sh); outputs go to a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
ROWS=${1:-${ROWS:-1000000}}; SEED=${2:-${SEED:-20240101}}; FX_RUNS=${FX_RUNS:-3}
LOAD_AT_START=$(cut -d' ' -f1 /proc/loadavg)
OUT=$(mktemp -d "${TMPDIR:-/tmp}/fxbatch-compressed.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
log() { echo "compressed.sh: $*" >&2; }
declare -A WALL PEAK STATUS
source Benchmarks/common.sh # make_payments, run_timed
for tool in gzip zcat zstd zstdcat; do
  command -v "$tool" >/dev/null || { log "$tool is missing (apt-get install gzip zstd)"; exit 2; }
done

log "building fxbatch (release)"
swift build -c release --product fxbatch >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log" >&2; exit 2; }
BIN="$(swift build -c release --show-bin-path)/fxbatch"

GENERATOR=$(sha256sum Benchmarks/scale_generate.py | cut -c1-10)
DATA=Benchmarks/.work/scale-$ROWS-$SEED-$GENERATOR
mkdir -p Benchmarks/.work
make_payments
CSV=$DATA/payments.csv
[ -f "$CSV.gz" ] || { log "gzip -6 payments.csv"; gzip -6 -c "$CSV" >"$CSV.gz.part" && mv "$CSV.gz.part" "$CSV.gz"; }
[ -f "$CSV.zst" ] || { log "zstd -3 payments.csv"; zstd -q -3 -c "$CSV" >"$CSV.zst.part" && mv "$CSV.zst.part" "$CSV.zst"; }

# median_of NAME COMMAND…: runs it FX_RUNS times; WALL the median, PEAK the largest, STATUS the worst.
median_of() {
  local name=$1 walls=() peak=0 status=0
  shift
  for ((run = 0; run < FX_RUNS; run++)); do
    run_timed "$name" "$@"
    walls+=("${WALL[$name]}")
    [ "${PEAK[$name]}" -gt "$peak" ] && peak=${PEAK[$name]}
    [ "${STATUS[$name]}" -eq 0 ] || status=${STATUS[$name]}
  done
  WALL[$name]=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  PEAK[$name]=$peak
  STATUS[$name]=$status
}

log "running ($FX_RUNS runs each)"
median_of fxbatch-plain "$BIN" convert -q "$CSV" -o "$OUT/plain.csv"
median_of fxbatch-gz "$BIN" convert -q "$CSV.gz" -o "$OUT/fxbatch.csv.gz"
median_of pipeline-gz bash -c "zcat '$CSV.gz' | '$BIN' convert -q - -o - | gzip -1 > '$OUT/pipeline.csv.gz'"
median_of fxbatch-zst "$BIN" convert -q "$CSV.zst" -o "$OUT/fxbatch.csv.zst"
median_of pipeline-zst bash -c "zstdcat '$CSV.zst' | '$BIN' convert -q - -o - | zstd -q > '$OUT/pipeline.csv.zst'"

failed=0
for name in fxbatch-plain fxbatch-gz pipeline-gz fxbatch-zst pipeline-zst; do
  [ "${STATUS[$name]}" -eq 0 ] || { log "$name failed"; failed=1; }
done
for output in fxbatch.csv.gz pipeline.csv.gz; do
  zcat "$OUT/$output" | cmp -s - "$OUT/plain.csv" || { log "$output, decompressed, differs from the plain run"; failed=1; }
done
for output in fxbatch.csv.zst pipeline.csv.zst; do
  zstdcat "$OUT/$output" | cmp -s - "$OUT/plain.csv" || { log "$output, decompressed, differs from the plain run"; failed=1; }
done

size() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1048576 }'; }
echo
echo "$ROWS rows (seed $SEED): payments.csv $(size "$CSV") MB, .gz $(size "$CSV.gz") MB, .zst $(size "$CSV.zst") MB;" \
  "annotated copy $(size "$OUT/plain.csv") MB, as written by fxbatch: .gz $(size "$OUT/fxbatch.csv.gz") MB," \
  ".zst $(size "$OUT/fxbatch.csv.zst") MB (the pipelines' gzip -1: $(size "$OUT/pipeline.csv.gz") MB," \
  "zstd -3: $(size "$OUT/pipeline.csv.zst") MB)"
echo
echo "| run | command | wall s (median of $FX_RUNS) | peak MB (fxbatch) | × the pipeline |"
echo "|---|---|---|---|---|"
ratio() { awk -v a="${WALL[$1]}" -v b="${WALL[$2]}" 'BEGIN { printf "%.2f", a / b }'; }
echo "| fxbatch-plain | \`fxbatch convert payments.csv -o out.csv\` | ${WALL[fxbatch-plain]} | ${PEAK[fxbatch-plain]} | — |"
echo "| fxbatch-gz | \`fxbatch convert payments.csv.gz -o out.csv.gz\` | ${WALL[fxbatch-gz]} | ${PEAK[fxbatch-gz]} | $(ratio fxbatch-gz pipeline-gz) |"
echo "| pipeline-gz | \`zcat payments.csv.gz \\| fxbatch convert - -o - \\| gzip -1\` | ${WALL[pipeline-gz]} | — | 1.00 |"
echo "| fxbatch-zst | \`fxbatch convert payments.csv.zst -o out.csv.zst\` | ${WALL[fxbatch-zst]} | ${PEAK[fxbatch-zst]} | $(ratio fxbatch-zst pipeline-zst) |"
echo "| pipeline-zst | \`zstdcat payments.csv.zst \\| fxbatch convert - -o - \\| zstd\` | ${WALL[pipeline-zst]} | — | 1.00 |"
echo
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo);" \
  "load average $LOAD_AT_START at the start, $(cut -d' ' -f1 /proc/loadavg) at the end"
target=$(awk -v a="${WALL[fxbatch-gz]}" -v b="${WALL[pipeline-gz]}" 'BEGIN { print (a <= 1.5 * b) ? "PASS" : "FAIL" }')
echo "$target: fxbatch-gz within 1.5× of pipeline-gz ($(ratio fxbatch-gz pipeline-gz)×)"
exit "$failed"
