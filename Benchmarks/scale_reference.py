#!/usr/bin/env python3
"""The scale benchmark's exact reference, the peers' rate tables, and the comparison of outputs with it.

Independent of fxbatch: it reads the ECB history CSV that fxbatch embeds and applies the rules README
states. A record dated D uses the latest publication day P <= D, if D - P <= 5 days (`--max-staleness`
default); its rate is EUR/to ÷ EUR/from of day P (a EUR leg is 1); the converted amount is amount × rate,
computed with integers only, rounded once to the target's ISO 4217 minor units, half-up (ties away from
zero; a result that rounds to zero is written without a sign).

  tables     rate tables for the peers: a per-calendar-day table (weekends and holidays take the latest
             earlier publication) and a fixed pair table of one day's rates
  reference  one line per input row: the exact converted amount, `\tT` after it when the exact value lies
             exactly half-way between two minor units (a tie), empty when fxbatch must refuse the row
  compare    counts the rows of a tool's output whose converted amount differs from the reference
"""

import argparse
import bisect
import csv
import datetime
import os
import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

# ISO 4217 minor units of the generated currencies (List One).
MINOR_UNITS = {
    "USD": 2, "JPY": 0, "GBP": 2, "CHF": 2, "AUD": 2, "CAD": 2, "CNY": 2, "SEK": 2, "NOK": 2, "DKK": 2,
    "PLN": 2, "CZK": 2, "HUF": 2, "RON": 2, "BGN": 2, "TRY": 2, "INR": 2, "KRW": 0, "SGD": 2, "HKD": 2,
    "NZD": 2, "MXN": 2, "BRL": 2, "ZAR": 2, "ILS": 2, "THB": 2, "MYR": 2, "PHP": 2, "IDR": 2, "EUR": 2,
}
MAX_STALENESS_DAYS = 5


class ECBHistory:
    """The ECB history CSV (`Date,USD,JPY,…`, newest day first, `N/A` for no rate): exact rates by day."""

    def __init__(self, path):
        with open(path, newline="") as file:
            rows = csv.reader(file)
            header = [name.strip() for name in next(rows)]
            days = {}
            for row in rows:
                if not row or not row[0].strip():
                    continue
                day = datetime.date.fromisoformat(row[0].strip())
                days[day] = {
                    currency: text.strip()
                    for currency, text in zip(header[1:], row[1:])
                    if currency and text.strip() not in ("", "N/A")
                }
        self.texts = days  # day -> {currency: rate text as published}
        self.publication_days = sorted(days)

    def publication_day(self, day):
        """The latest publication day on or before `day`, or None when that is more than 5 days older."""
        index = bisect.bisect_right(self.publication_days, day) - 1
        if index < 0 or (day - self.publication_days[index]).days > MAX_STALENESS_DAYS:
            return None
        return self.publication_days[index]

    def rate_text(self, currency, publication_day):
        """Units of `currency` per EUR published that day, as the ECB wrote it; None when not published."""
        return "1" if currency == "EUR" else self.texts[publication_day].get(currency)


def scaled_integer(text):
    """'-12.50' -> (-1250, 2): the decimal's integer digits and its number of decimals."""
    whole, _, fraction = text.strip().partition(".")
    return int(whole + fraction), len(fraction)


def format_minor_units(value, digits):
    """An integer count of minor units as a decimal with `digits` decimals ('-0' never occurs: 0 has no sign)."""
    if digits == 0:
        return str(value)
    sign = "-" if value < 0 else ""
    value = abs(value)
    return f"{sign}{value // 10**digits}.{value % 10**digits:0{digits}d}"


def exact_ratio(history, source, target, publication_day):
    """EUR/target ÷ EUR/source of that day as an integer pair (numerator, denominator), or None."""
    source_text = history.rate_text(source, publication_day)
    target_text = history.rate_text(target, publication_day)
    if source_text is None or target_text is None:
        return None
    source_digits, source_scale = scaled_integer(source_text)
    target_digits, target_scale = scaled_integer(target_text)
    return target_digits * 10**source_scale, source_digits * 10**target_scale


def write_reference(arguments):
    history = ECBHistory(arguments.ecb)
    fixed_day = datetime.date.fromisoformat(arguments.fixed_day) if arguments.fixed_day else None
    days = {}  # date text -> {currency: (rate digits, decimals)} of the publication day that decides
    powers = [10**n for n in range(60)]
    minor_units = MINOR_UNITS
    ties = 0
    with open(arguments.input) as source, open(arguments.out, "w") as out:
        next(source)  # header: id,date,amount,from,to
        write = out.write
        for line in source:
            _, date_text, amount_text, from_code, to_code = line.rstrip("\r\n").split(",")
            rates = days.get(date_text)
            if rates is None:
                day = fixed_day or history.publication_day(datetime.date.fromisoformat(date_text))
                rates = days[date_text] = {
                    code: scaled_integer(text)
                    for code in minor_units
                    if day and (text := history.rate_text(code, day)) is not None
                }
            source_rate, target_rate = rates.get(from_code), rates.get(to_code)
            if source_rate is None or target_rate is None:
                write("\n")  # no rate: fxbatch refuses the row
                continue
            # amount × (T / 10^t) ÷ (F / 10^f) in minor units: A × T × 10^(f + digits) ÷ (F × 10^(t + a))
            digits = minor_units[to_code]
            whole, _, fraction = amount_text.partition(".")
            amount = int(whole + fraction)
            numerator = abs(amount) * target_rate[0] * powers[source_rate[1] + digits]
            denominator = source_rate[0] * powers[target_rate[1] + len(fraction)]
            quotient, remainder = divmod(numerator, denominator)
            twice = remainder + remainder
            if twice >= denominator:  # half-up: ties away from zero
                quotient += 1
            if digits:
                text = f"{quotient // powers[digits]}.{quotient % powers[digits]:0{digits}d}"
            else:
                text = str(quotient)
            if amount < 0 and quotient:
                text = "-" + text
            if twice == denominator:
                ties += 1
                write(text + "\tT\n")
            else:
                write(text + "\n")
    print(ties)  # rows whose exact value is a tie


def write_tables(arguments):
    """Writes the peers' tables into --out-dir.

    day-from.csv  date,from,from_rate        every calendar day first..last × currency (Miller's first join)
    day-to.csv    date,to,to_rate,to_format  the same for the target leg, with its printf format
    day-rates.csv date,currency,rate         the same, one table (pandas)
    pairs-fixed.csv from,to,rate,to_format   every pair at --fixed-day's rates, the rate as the nearest double
    ecb-rates.csv  date,currency,rate        the ECB's publication days from 10 days before --first to --last,
                                             each currency as published (EUR 1) (DuckDB's ASOF joins)
    """
    history = ECBHistory(arguments.ecb)
    first = datetime.date.fromisoformat(arguments.first)
    last = datetime.date.fromisoformat(arguments.last)
    currencies = sorted(MINOR_UNITS)
    formats = {code: f"%.{digits}f" for code, digits in MINOR_UNITS.items()}
    with open(f"{arguments.out_dir}/day-from.csv", "w") as day_from, open(
        f"{arguments.out_dir}/day-to.csv", "w"
    ) as day_to, open(f"{arguments.out_dir}/day-rates.csv", "w") as day_rates:
        day_from.write("date,from,from_rate\n")
        day_to.write("date,to,to_rate,to_format\n")
        day_rates.write("date,currency,rate\n")
        day = first
        while day <= last:
            publication = history.publication_day(day)
            for code in currencies:
                text = publication and history.rate_text(code, publication)
                if text:
                    day_from.write(f"{day},{code},{text}\n")
                    day_to.write(f"{day},{code},{text},{formats[code]}\n")
                    day_rates.write(f"{day},{code},{text}\n")
            day += datetime.timedelta(days=1)
    with open(f"{arguments.out_dir}/ecb-rates.csv", "w") as ecb_rates:
        ecb_rates.write("date,currency,rate\n")
        for publication in history.publication_days:
            if first - datetime.timedelta(days=10) <= publication <= last:
                for code in currencies:
                    text = history.rate_text(code, publication)
                    if text:
                        ecb_rates.write(f"{publication},{code},{text}\n")
    fixed_day = datetime.date.fromisoformat(arguments.fixed_day)
    with open(f"{arguments.out_dir}/pairs-fixed.csv", "w") as pairs:
        pairs.write("from,to,rate,to_format\n")
        for source in currencies:
            for target in currencies:
                ratio = source != target and exact_ratio(history, source, target, fixed_day)
                if ratio:
                    pairs.write(f"{source},{target},{float(Fraction(*ratio))!r},{formats[target]}\n")


def _csv_values(path, id_field, field):
    with open(path, newline="") as file:
        rows = csv.reader(file)
        header = next(rows)
        id_index, value_index = header.index(id_field), header.index(field)
        for row in rows:
            yield int(row[id_index]), row[value_index]


def _regex_values(path, id_pattern, value_pattern):
    id_regex, value_regex = re.compile(id_pattern), re.compile(value_pattern)
    with open(path) as file:
        for line in file:
            record_id = id_regex.search(line)
            if record_id:
                value = value_regex.search(line)
                yield int(record_id.group(1)), value.group(1) if value else "<none>"


def _json_values(path, field):
    """(id, value) of each object of a JSON document or JSON Lines file, whatever its layout: the `"id"`
    members and the `field` members in file order (a string or a number), an id without the field before the
    next id giving '<none>'. Reads the file through mmap, so memory does not grow with it."""
    import mmap

    pattern = re.compile(
        rb'"id"\s*:\s*(\d+)|"' + re.escape(field.encode()) + rb'"\s*:\s*(?:"([^"]*)"|(-?[0-9][0-9.eE+-]*))'
    )
    with open(path, "rb") as file:
        if os.fstat(file.fileno()).st_size == 0:
            return
        with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as view:
            record_id = None
            for match in pattern.finditer(view):
                if match.group(1) is not None:
                    if record_id is not None:
                        yield record_id, "<none>"
                    record_id = int(match.group(1))
                elif record_id is not None:
                    yield record_id, (match.group(2) if match.group(2) is not None else match.group(3)).decode()
                    record_id = None
            if record_id is not None:
                yield record_id, "<none>"


def _same_number(got, expected):
    try:
        return Decimal(got) == Decimal(expected)
    except InvalidOperation:
        return False


def compare(arguments):
    """Prints the number of rows whose value differs from the reference (missing rows count as differing; a
    missing or empty output file is all rows missing).

    Without --strict, a value that is the same number written otherwise ('-0.00') is not a difference.

    With --details FILE, appends a one-line breakdown and the first differing rows to FILE: --examples
    at exact ties and as many not at ties.
    """
    if not os.path.exists(arguments.output) or os.path.getsize(arguments.output) == 0:
        values = iter(())  # the tool wrote nothing: every row is missing
    elif arguments.format == "csv":
        values = _csv_values(arguments.output, "id", arguments.field)
    elif arguments.format == "jsonl":
        values = _regex_values(arguments.output, r'^\{"id":(\d+)', rf'"{arguments.field}":"([^"]*)"')
    elif arguments.format == "json":
        values = _json_values(arguments.output, arguments.field)
    else:
        values = _regex_values(arguments.output, r'<payment id="(\d+)"', rf' {arguments.field}="([^"]*)"')
    differing, at_ties, one_unit, missing = 0, 0, 0, 0
    examples = []
    with open(arguments.reference) as reference:
        expected_id = 0
        for record_id, got in values:
            expected_id += 1
            while expected_id < record_id:  # rows the tool dropped
                reference.readline()
                missing += 1
                expected_id += 1
            expected, _, tie = reference.readline().rstrip("\n").partition("\t")
            if got != expected:
                if not arguments.strict and _same_number(got, expected):
                    continue  # '-0.00' for 0.00, '108.4' for 108.40: the same amount
                differing += 1
                at_ties += tie == "T"
                try:
                    minor_unit = Decimal(1).scaleb(-len(expected.partition(".")[2]))
                    one_unit += abs(Decimal(got) - Decimal(expected)) == minor_unit
                except InvalidOperation:
                    pass
                if sum(1 for example in examples if example[3] == tie) < arguments.examples:
                    examples.append((record_id, expected, got, tie))  # the first few at ties and not at ties
        missing += sum(1 for _ in reference)
    print(differing + missing)
    if arguments.details:
        inputs = {}
        if examples and arguments.input:
            wanted = {example[0] for example in examples}
            with open(arguments.input) as source:
                for number, line in enumerate(source):
                    if number in wanted:
                        inputs[number] = line.strip()
                    if number >= max(wanted):
                        break
        with open(arguments.details, "a") as details:
            details.write(
                f"{arguments.label}: {differing + missing} row{'' if differing + missing == 1 else 's'} differ"
                " from the exact reference"
                f" ({missing} missing, {at_ties} at exact half-unit ties, {one_unit} off by one minor unit)\n"
            )
            for record_id, expected, got, tie in examples:
                kind = "an exact tie" if tie else "not a tie"
                details.write(f"    row {inputs.get(record_id, record_id)}: exact {expected} ({kind}), got {got}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    tables = commands.add_parser("tables")
    tables.add_argument("--ecb", required=True)
    tables.add_argument("--out-dir", required=True)
    tables.add_argument("--first", default="2024-01-01")
    tables.add_argument("--last", default="2024-12-31")
    tables.add_argument("--fixed-day", default="2024-12-31")
    reference = commands.add_parser("reference")
    reference.add_argument("--ecb", required=True)
    reference.add_argument("--input", required=True)
    reference.add_argument("--out", required=True)
    reference.add_argument("--fixed-day", help="every row at this publication day's rates")
    comparison = commands.add_parser("compare")
    comparison.add_argument("--reference", required=True)
    comparison.add_argument("--output", required=True)
    comparison.add_argument("--format", choices=("csv", "jsonl", "json", "xml"), default="csv")
    comparison.add_argument("--field", required=True, help="the converted amount's column, member or attribute")
    comparison.add_argument("--label", default="")
    comparison.add_argument("--details", help="append a breakdown and examples to this file")
    comparison.add_argument("--input", help="the input CSV, to quote the examples' rows")
    comparison.add_argument("--examples", type=int, default=2, help="examples at ties, and as many not at ties")
    comparison.add_argument("--strict", action="store_true", help="the text must match, not only the number")
    arguments = parser.parse_args()
    {"tables": write_tables, "reference": write_reference, "compare": compare}[arguments.command](arguments)


if __name__ == "__main__":
    main()
