#!/usr/bin/env bash
# Memory and time at scale (not a test): a generated XML or JSON file of about SIZE_MB megabytes — records with
# date (2024), amount, from and to (the currencies the ECB publishes), like an accounting export — converted by
# the release fxbatch under /usr/bin/time -v; prints records, wall time and peak resident memory. Run it at two
# sizes: peak memory must not grow with the file (only with the distinct rate keys, at most 29 × 29 × 366 here).
# Usage: Benchmarks/memory.sh xml|json [SIZE_MB=100]   (builds fxbatch in release mode first; needs 3 × SIZE_MB
# of free space in $TMPDIR, removed on exit)
set -euo pipefail
cd "$(dirname "$0")/.."
FORMAT=${1:?xml or json}; SIZE=${2:-100}
swift build -c release --product fxbatch >/dev/null
BIN=$PWD/.build/release/fxbatch
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
python3 - "$FORMAT" "$SIZE" "$WORK/in.$FORMAT" > "$WORK/records" <<'PY'
import datetime, random, sys
form, target, path = sys.argv[1], int(sys.argv[2]) * 1_000_000, sys.argv[3]
currencies = ("EUR USD JPY CZK DKK GBP HUF PLN RON SEK CHF NOK TRY AUD BRL CAD CNY HKD IDR ILS INR KRW MXN MYR "
              "NZD PHP SGD THB ZAR").split()
days = [datetime.date(2024, 1, 1) + datetime.timedelta(d) for d in range(366)]
rng = random.Random(42)
size = n = 0
with open(path, "w", buffering=1 << 20) as out:
    def put(text):
        global size
        out.write(text); size += len(text)
    put('<?xml version="1.0" encoding="UTF-8"?>\n<payments>\n' if form == "xml" else "[\n")
    while size < target:
        n += 1
        day, amount = rng.choice(days).isoformat(), f"{rng.randrange(1, 10**7)}.{rng.randrange(100):02d}"
        base, quote = rng.choice(currencies), rng.choice(currencies)
        if form == "xml":
            put(f'  <payment id="P-{n}">\n    <date>{day}</date>\n    <amount>{amount}</amount>\n'
                f'    <from>{base}</from>\n    <to>{quote}</to>\n  </payment>\n')
        else:
            put(("" if n == 1 else ",\n") +
                f'  {{"id": "P-{n}", "date": "{day}", "amount": "{amount}", "from": "{base}", "to": "{quote}"}}')
    put("</payments>\n" if form == "xml" else "\n]\n")
print(n)
PY
/usr/bin/time -v "$BIN" convert -q "$WORK/in.$FORMAT" -o "$WORK/out.$FORMAT" 2> "$WORK/time" || true
printf '%s, %s MB, %s records\n' "$FORMAT" "$SIZE" "$(cat "$WORK/records")"
grep -E 'Elapsed|Maximum resident|Exit status' "$WORK/time" | sed 's/^\s*/  /'
