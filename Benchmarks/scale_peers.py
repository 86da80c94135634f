#!/usr/bin/env python3
"""The scale benchmark's Python peers: the rate-by-date job written the way a user of each library would.

  pandas INPUT DAY_RATES OUTPUT        two merges on (date, currency) against a per-calendar-day table
                                       (scale_reference.py tables), amount × to ÷ from in float64
  currencyconverter INPUT OUTPUT       CurrencyConverter's own bundled ECB history, default float mode,
                                       a missing day (weekend, holiday) taking the last known rate
  duckdb csv|json INPUT ECB_RATES OUTPUT
                                       DuckDB SQL: a per-calendar-day rate table made from the ECB's
                                       publication-day rates (scale_reference.py tables: ecb-rates.csv) by
                                       an ASOF join (each day takes the latest publication on or before it,
                                       kept when at most 5 days old), then the payments (CSV, or a JSON
                                       document that is one array of objects) joined on it twice by
                                       (date, currency); amounts and rates as DECIMAL, amount × to ÷ from
                                       rounded half away from zero to the target's minor units by a cast to
                                       DECIMAL(18, N); written in input order (ORDER BY id) as CSV, or as a
                                       JSON array of objects. DuckDB divides DECIMALs in DOUBLE (its
                                       documented rule), so the rounding sees the binary quotient. (ASOF
                                       joining the million payments themselves is 4× slower on CSV and 50×
                                       on the JSON document; no user would keep that.)

The pandas and CurrencyConverter jobs write the input's columns plus `converted`, formatted to the target's
minor units with printf-style `%.Nf` (round-half-even on the binary value, as such code does); the DuckDB
jobs write the same columns, `converted` as text.
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


def duckdb_job(kind, input_path, rates_path, output_path):
    import duckdb

    columns = "{'id': 'BIGINT', 'date': 'DATE', 'amount': 'DECIMAL(18,2)', 'from': 'VARCHAR', 'to': 'VARCHAR'}"
    if kind == "csv":
        payments = f"read_csv('{input_path}', header = true, columns = {columns})"
        target = f"'{output_path}' (FORMAT csv, HEADER true)"
    elif kind == "json":
        payments = f"read_json('{input_path}', format = 'array', columns = {columns})"
        target = f"'{output_path}' (FORMAT json, ARRAY true)"
    else:
        sys.exit(f"duckdb: {kind} is neither csv nor json")
    units = ", ".join(f"('{code}', {digits})" for code, digits in sorted(MINOR_UNITS.items()))
    rounded = " ".join(
        f"WHEN {digits} THEN CAST(exact AS DECIMAL(18, {digits}))::VARCHAR" for digits in sorted(set(MINOR_UNITS.values()))
    )
    connection = duckdb.connect()
    connection.execute(
        "CREATE TABLE rates AS SELECT * FROM read_csv(?, header = true,"
        " columns = {'date': 'DATE', 'currency': 'VARCHAR', 'rate': 'DECIMAL(18,6)'})",
        [rates_path],
    )
    connection.execute(
        """
        CREATE TABLE day_rates AS
        SELECT calendar.day AS date, rates.currency, rates.rate
        FROM (SELECT DISTINCT currency FROM rates) AS currencies
        CROSS JOIN (SELECT unnest(generate_series(min(date), max(date) + 5, INTERVAL 1 DAY))::DATE AS day FROM rates)
          AS calendar
        ASOF JOIN rates ON rates.currency = currencies.currency AND calendar.day >= rates.date
        WHERE calendar.day - rates.date <= 5
        """
    )
    connection.execute(f"CREATE TABLE units AS SELECT * FROM (VALUES {units}) AS units(currency, digits)")
    connection.execute(
        f"""
        COPY (
          SELECT id, date, amount, "from", "to", CASE digits {rounded} END AS converted
          FROM (
            SELECT p.id, p.date, p.amount, p."from", p."to", u.digits,
                   CAST(p.amount AS DECIMAL(38, 2)) * t.rate / f.rate AS exact
            FROM {payments} AS p
            LEFT JOIN day_rates AS f ON p."from" = f.currency AND p.date = f.date
            LEFT JOIN day_rates AS t ON p."to" = t.currency AND p.date = t.date
            LEFT JOIN units AS u ON p."to" = u.currency
          )
          ORDER BY id
        ) TO {target}
        """
    )

if __name__ == "__main__":
    jobs = {"pandas": pandas_job, "currencyconverter": currencyconverter_job, "duckdb": duckdb_job}
    if len(sys.argv) < 2 or sys.argv[1] not in jobs:
        sys.exit(
            f"usage: {sys.argv[0]} pandas INPUT DAY_RATES OUTPUT | currencyconverter INPUT OUTPUT"
            " | duckdb csv|json INPUT ECB_RATES OUTPUT"
        )
    jobs[sys.argv[1]](*sys.argv[2:])
