#!/usr/bin/env python3
"""Generate the scale benchmark's payments, seeded: the same rows for the same --rows and --seed.

Writes payments.csv (`id,date,amount,from,to`), payments.jsonl (one object per line, the same members,
the amount as a JSON number), payments.json (the same objects as one JSON document, a top-level array:
`[`, one object per line separated by `,`, `]`, the common export shape) and payments.xml
(`<payments><payment id=".."><date>..</date>…</payment>…`) into --out-dir. Rows: 30 currencies the ECB published throughout 2024 (EUR included), from ≠ to, dates
uniform over calendar 2024 (weekends and TARGET holidays included), amounts with 2 decimals spread over
1.00 .. 999,999.99 (uniform within each decade), a fifth of them whole amounts and a tenth ending in
.05/.25/.50/.75 (amounts × 4- and 5-decimal ECB rates land on exact half cents far more often), 2 %
negative (refunds).

Rows are made in chunks of CHUNK_ROWS; each chunk has its own generator seeded from (seed, chunk index),
so chunks can be made by several processes and the file is still the same.
"""

import argparse
import datetime
import multiprocessing
import os
import random

CURRENCIES = (
    "USD JPY GBP CHF AUD CAD CNY SEK NOK DKK PLN CZK HUF RON BGN "
    "TRY INR KRW SGD HKD NZD MXN BRL ZAR ILS THB MYR PHP IDR EUR"
).split()
YEAR = 2024
CHUNK_ROWS = 250_000

_DAYS = [
    (datetime.date(YEAR, 1, 1) + datetime.timedelta(days=offset)).isoformat()
    for offset in range((datetime.date(YEAR + 1, 1, 1) - datetime.date(YEAR, 1, 1)).days)
]
_DECADE_CENTS = [100 * 10**magnitude for magnitude in range(6)]  # 1.00, 10.00, … 100000.00
_TIE_PRONE_CENTS = (5, 25, 50, 75)


_PAIRS = [(source, target) for source in CURRENCIES for target in CURRENCIES if source != target]


def _rows(seed, chunk, first_id, count):
    """Returns [(id, date, amount text, from, to)] for one chunk (three 32-bit draws a row)."""
    bits = random.Random(f"fxbatch-scale:{seed}:{chunk}").getrandbits
    pairs, days, decades, tie_prone = _PAIRS, _DAYS, _DECADE_CENTS, _TIE_PRONE_CENTS
    pair_count, day_count = len(pairs), len(days)
    rows = []
    for record_id in range(first_id, first_id + count):
        a, b, c = bits(32), bits(32), bits(32)
        source, target = pairs[a % pair_count]
        day = days[(a >> 16) % day_count]
        kind = b % 100
        magnitude = decades[(b >> 8) % 6]
        sign = "-" if (b >> 16) % 50 == 0 else ""
        if kind < 70:  # any cents within the decade
            cents = magnitude + c % (9 * magnitude)
        elif kind < 90:  # whole amounts: 1 .. 999 × 1, 10, 100 or 1000
            cents = (1 + c % 999) * 100 * 10 ** ((c >> 16) % 4)
        else:  # tie-prone cents
            cents = (magnitude + c % (9 * magnitude)) // 100 * 100 + tie_prone[(b >> 24) % 4]
        rows.append((record_id, day, f"{sign}{cents // 100}.{cents % 100:02d}", source, target))
    return rows


def _chunk(task):
    """Returns the chunk's text in each wanted format."""
    seed, chunk, first_id, count, formats = task
    rows = _rows(seed, chunk, first_id, count)
    texts = {}
    if "csv" in formats:
        texts["csv"] = "".join(f"{i},{d},{a},{f},{t}\n" for i, d, a, f, t in rows)
    if "jsonl" in formats or "json" in formats:
        objects = [f'{{"id":{i},"date":"{d}","amount":{a},"from":"{f}","to":"{t}"}}' for i, d, a, f, t in rows]
        if "jsonl" in formats:
            texts["jsonl"] = "".join(f"{text}\n" for text in objects)
        if "json" in formats:  # the separator before the chunk's first object is written between chunks
            texts["json"] = ",\n".join(objects)
    if "xml" in formats:
        texts["xml"] = "".join(
            f'<payment id="{i}"><date>{d}</date><amount>{a}</amount><from>{f}</from><to>{t}</to></payment>\n'
            for i, d, a, f, t in rows
        )
    return texts


HEADERS = {
    "csv": "id,date,amount,from,to\n",
    "jsonl": "",
    "json": "[\n",
    "xml": '<?xml version="1.0" encoding="UTF-8"?>\n<payments>\n',
}
SEPARATORS = {"json": ",\n"}  # between two chunks
FOOTERS = {"csv": "", "jsonl": "", "json": "\n]\n", "xml": "</payments>\n"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=20240101)
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--formats", default="csv,jsonl,json,xml", help="comma-separated: csv, jsonl, json, xml")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    arguments = parser.parse_args()
    formats = tuple(arguments.formats.split(","))
    tasks = [
        (arguments.seed, chunk, first + 1, min(CHUNK_ROWS, arguments.rows - first), formats)
        for chunk, first in enumerate(range(0, arguments.rows, CHUNK_ROWS))
    ]
    files = {name: open(os.path.join(arguments.out_dir, f"payments.{name}.part"), "w") for name in formats}
    for name, file in files.items():
        file.write(HEADERS[name])
    with multiprocessing.Pool(max(1, arguments.processes)) as pool:
        for index, texts in enumerate(pool.imap(_chunk, tasks)):
            for name, text in texts.items():
                if index:
                    files[name].write(SEPARATORS.get(name, ""))
                files[name].write(text)
    for name, file in files.items():
        file.write(FOOTERS[name])
        file.close()
        os.replace(file.name, os.path.join(arguments.out_dir, f"payments.{name}"))


if __name__ == "__main__":
    main()
