#!/usr/bin/env python3
"""Inputs and the exact check for Benchmarks/frankfurter_v2.sh.

  frankfurter_v2_data.py generate ROWS SEED QUOTES ENTRIES_SWIFT [YEARS]   prints the CSV (id,date,amount,from,to)
  frankfurter_v2_data.py check IN_CSV OUT_CSV                      compares every row with the exact reference

The currencies: the first 150 current ISO 4217 codes fxbatch knows (Sources/FXBatch/Money/ISO4217+Entries.swift,
neither withdrawn nor X-codes nor funds), EUR, USD and GBP first. A row converts an amount (0.01 to 100,000.00)
from one of the 150 to one of the first QUOTES of them, on a day of 2024 (weekends included), seeded; with YEARS
(default 1), on a day of the YEARS calendar years ending with 2024 (YEARS=10: 2015 to 2024).

The reference: the same currency is 1; otherwise the latest weekday on or before the date (the server publishes
weekdays only; fallback when earlier) and frankfurter_v2_server.rate(), amount × rate rounded once, half up, to 2
decimals (EUR, USD and GBP, and every quote used, have 2 minor units; the check refuses others).
"""

import csv
import datetime
import random
import re
import sys
from decimal import ROUND_HALF_UP, Decimal

from frankfurter_v2_server import rate

FUNDS = {"BOV", "CHE", "CHW", "CLF", "COU", "MXV", "USN", "UYI", "UYW"}


def currencies(entries_swift):
    codes = []
    for line in open(entries_swift, encoding="utf-8"):
        match = re.match(r'\s*Entry\("([A-Z]{3})", (\d)', line)
        if match and "withdrawn" not in line and not match.group(1).startswith("X") and match.group(1) not in FUNDS:
            codes.append((match.group(1), int(match.group(2))))
    first = ["EUR", "USD", "GBP"]
    ordered = first + sorted(code for code, _ in codes if code not in first)
    return ordered[:150], dict(codes)


def generate(rows, seed, quotes, entries_swift, years=1):
    codes, minor = currencies(entries_swift)
    targets = codes[:quotes]
    if any(minor[code] != 2 for code in targets):
        targets = [code for code in codes if minor[code] == 2][:quotes]
    generator = random.Random(seed)
    start = datetime.date(2025 - years, 1, 1)
    days = (datetime.date(2025, 1, 1) - start).days
    out = sys.stdout
    out.write("id,date,amount,from,to\n")
    for index in range(rows):
        day = start + datetime.timedelta(days=generator.randrange(days))
        cents = generator.randrange(1, 10_000_001)
        out.write(f"{index},{day},{cents // 100}.{cents % 100:02d},{generator.choice(codes)},{generator.choice(targets)}\n")


def check(in_csv, out_csv):
    rows = differences = fallbacks = 0
    with open(in_csv, newline="") as source, open(out_csv, newline="") as converted:
        for record, result in zip(csv.DictReader(source), csv.DictReader(converted)):
            rows += 1
            date = datetime.date.fromisoformat(record["date"])
            amount = Decimal(record["amount"])
            if record["from"] == record["to"]:
                expected = amount.quantize(Decimal("0.01"), ROUND_HALF_UP)
                rate_day = date
            else:
                rate_day = date
                while rate_day.weekday() >= 5:
                    rate_day -= datetime.timedelta(days=1)
                expected = (amount * Decimal(rate(record["from"], record["to"], rate_day))).quantize(Decimal("0.01"), ROUND_HALF_UP)
            fallbacks += rate_day != date
            status = "fallback" if rate_day != date else "ok"
            if (result["fx_converted"], result["fx_rate_date"], result["fx_status"]) != (str(expected), str(rate_day), status):
                differences += 1
                if differences <= 5:
                    print(f"row {record['id']}: expected {expected} {rate_day} {status}, got "
                          f"{result['fx_converted']} {result['fx_rate_date']} {result['fx_status']} {result['fx_error']}", file=sys.stderr)
    print(f"{rows} {differences} {fallbacks}")


if __name__ == "__main__":
    if sys.argv[1] == "generate":
        generate(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], int(sys.argv[6]) if len(sys.argv) > 6 else 1)
    else:
        check(sys.argv[2], sys.argv[3])
