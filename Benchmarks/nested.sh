#!/usr/bin/env bash
# Nested JSON documents on the fast path (issue 31, section 6; not a test): ROWS Stripe-shaped balance
# transactions (nested `source` object, `fee_details` array) as JSON Lines and as a `{"data": [...]}` list
# document, against the same records without their nested members (flat JSON Lines, a flat list document);
# and Shopify-shaped orders
# read through a path (total_price_set.shop_money.amount); and the Stripe list with its three amounts
# (`--amount-field amount,fee,net --amount-unit minor --date-field created --date-format unix`) against flat JSON
# Lines of one amount read the same way, with a PASS/FAIL line for issue 31's targets (≤ 3× its wall, ≤ 64 MB).
# Each run: `fxbatch convert -q --to EUR --date
# 2024-03-01 …`, FX_RUNS times (default 3), median wall and largest peak resident memory (/usr/bin/time -v).
# Every nested run's fx_* members must equal the flat run's, record for record (the flat path is checked against
# exact arithmetic by scale.sh); the script exits 1 when they differ or a run fails.
# Usage: Benchmarks/nested.sh [ROWS=1000000] [SEED=20240201]   (inputs kept in the gitignored Benchmarks/.work/)
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${1:-${ROWS:-1000000}}
SEED=${2:-${SEED:-20240201}}
RUNS=${FX_RUNS:-3}
swift build -c release --product fxbatch >/dev/null
BIN=$PWD/.build/release/fxbatch
DATA=Benchmarks/.work/nested-$ROWS-$SEED
if [ ! -f "$DATA/complete" ] || [ ! -f "$DATA/flat-list.json" ]; then
  rm -rf "$DATA" && mkdir -p "$DATA"
  python3 Benchmarks/nested_generate.py --rows "$ROWS" --seed "$SEED" --out-dir "$DATA"
  touch "$DATA/complete"
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
FAILED=0

# run NAME INPUT OPTIONS…: RUNS runs; prints the median wall and the largest peak.
run() {
  local name=$1 input=$2 walls=() peak=0
  shift 2
  for _ in $(seq "$RUNS"); do
    local start end status=0
    start=$EPOCHREALTIME
    /usr/bin/time -v -o "$OUT/$name.time" "$BIN" convert -q --to EUR --date 2024-03-01 "$@" "$input" \
      -o "$OUT/$name.out" || status=$?
    end=$EPOCHREALTIME
    [ "$status" -eq 0 ] || { echo "$name: exit status $status"; FAILED=1; }
    walls+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')")
    local mb
    mb=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$OUT/$name.time")
    [ "$mb" -gt "$peak" ] && peak=$mb
  done
  PEAK[$name]=$peak
  local median
  median=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  WALL[$name]=$median
  printf '| %s | %s | %s | %s |\n' "$name" "$median" "$peak" "$(printf '%s ' "${walls[@]}")"
}
declare -A WALL PEAK
echo "fxbatch $(git rev-parse --short HEAD), $ROWS records, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| run | median wall s | peak MB | walls |"
echo "|---|---|---|---|"
STRIPE=(--amount-field amount --from-field currency)
run flat-jsonl "$DATA/flat.jsonl" "${STRIPE[@]}"
run stripe-jsonl "$DATA/stripe.jsonl" "${STRIPE[@]}"
run stripe-list "$DATA/stripe-list.json" --records-path data "${STRIPE[@]}"
run flat-list "$DATA/flat-list.json" --records-path data "${STRIPE[@]}"
run shopify-path "$DATA/shopify.jsonl" --amount-field total_price_set.shop_money.amount \
  --from-field total_price_set.shop_money.currency_code
run shopify-money "$DATA/shopify.jsonl" --amount-field total_price_set.shop_money
UNIX=(--from-field currency --amount-unit minor --date-field created --date-format unix)
run flat-jsonl-unix "$DATA/flat.jsonl" --amount-field amount "${UNIX[@]}"
run stripe-list-3 "$DATA/stripe-list.json" --records-path data --amount-field amount,fee,net "${UNIX[@]}"
awk -v a="${WALL[stripe-jsonl]}" -v b="${WALL[flat-jsonl]}" 'BEGIN { printf "stripe-jsonl: %.2f× flat-jsonl\n", a / b }'
awk -v a="${WALL[stripe-list]}" -v b="${WALL[flat-list]}" 'BEGIN { printf "stripe-list: %.2f× flat-list\n", a / b }'
awk -v a="${WALL[stripe-list]}" -v b="${WALL[flat-jsonl]}" 'BEGIN { printf "stripe-list: %.2f× flat-jsonl\n", a / b }'

# Issue 31, part 6: three amounts within 3× of one amount's flat JSON Lines, in at most 64 MB.
if awk -v a="${WALL[stripe-list-3]}" -v b="${WALL[flat-jsonl-unix]}" -v m="${PEAK[stripe-list-3]}" \
  'BEGIN { printf "stripe-list-3: %.2f× flat-jsonl-unix, peak %d MB: ", a / b, m; exit !(a <= 3 * b && m <= 64) }'; then
  echo "PASS (≤ 3×, ≤ 64 MB)"
else
  echo "FAIL (target ≤ 3×, ≤ 64 MB)"
  FAILED=1
fi

python3 - "$OUT" <<'PY' || FAILED=1
import json, sys
out = sys.argv[1]
def records(path):
    with open(path) as handle:
        for line in handle:
            line = line.strip().rstrip(",")
            if line.startswith(","):
                line = line[1:]
            if line.startswith("{\"id\""):
                yield json.loads(line)
def annotation(record):
    return {key: value for key, value in record.items() if key.startswith("fx_")}
bad = 0
for name in ("stripe-jsonl", "stripe-list", "flat-list"):
    count = differ = 0
    for flat, nested in zip(records(f"{out}/flat-jsonl.out"), records(f"{out}/{name}.out"), strict=True):
        count += 1
        if annotation(flat) != annotation(nested) or flat["fx_status"] not in ("ok", "fallback"):
            differ += 1
    bad += differ
    print(f"{name}: {count} records, fx_* members as flat-jsonl's: {'yes' if differ == 0 else f'{differ} differ'}")
# Three amounts: `amount` converted as the one amount of flat-jsonl-unix, every record converted (ok, or fallback
# on a day without rates), fee and net converted.
count = differ = 0
for flat, three in zip(records(f"{out}/flat-jsonl-unix.out"), records(f"{out}/stripe-list-3.out"), strict=True):
    count += 1
    same = (flat["fx_status"] == three["fx_status"] and flat["fx_status"] in ("ok", "fallback") and flat["fx_converted"] == three["fx_converted_amount"]
            and flat["fx_rate"] == three["fx_rate"] and three["fx_converted_fee"] != "" and three["fx_converted_net"] != "")
    differ += not same
bad += differ
print(f"stripe-list-3: {count} records, amount as flat-jsonl-unix's, fee and net converted: {'yes' if differ == 0 else f'{differ} differ'}")
for name in ("shopify-path", "shopify-money"):
    statuses = {}
    for record in records(f"{out}/{name}.out"):
        statuses[record["fx_status"]] = statuses.get(record["fx_status"], 0) + 1
    print(f"{name}: fx_status {statuses}")
    bad += sum(count for status, count in statuses.items() if status != "ok")
sys.exit(1 if bad else 0)
PY
exit $FAILED
