#!/usr/bin/env python3
"""Loopback Frankfurter v2 server for Benchmarks/frankfurter_v2.sh: answers GET /v2/rates after a fixed latency
in the v2 shape (lib/public/v2/openapi.json): a JSON array of {"date","base","quote","rate"} rows, or one
object a line with `Accept: application/x-ndjson`.

  /v2/rates?base=B&quotes=Q1,Q2&from=D1&to=D2   a row per quote and weekday in [D1, D2] (`to` defaults to today)
  /v2/rates?base=B&quotes=Q&date=D               a row per quote, of the latest weekday on or before D
  /stats                                         {"requests": N, "peak": N, "rows": N, "refused": N}
                                                 (peak: most in flight; refused: ranges refused as too long)

Ranges are limited as the service limits those it computes live (lib/versions/v2/rate_query.rb,
validate_range_cost!; here every range, as while its materialised table is not ready): a range whose `to` (or
today, if earlier) is after `from` plus 60 months is a 422 "date range exceeds 5 years at daily granularity; …",
unless `providers=` names at most 5 providers and `quotes=` at most 5 currencies.

Each answer made is kept by its query, and a request asked again is answered with it after the same latency, as
the service answers from its stored table: frankfurter_v2.sh's lock run, which asks what the measured run asks,
runs first, so that the measured run waits for the latency, not for Python to write 5 million rows (seconds of
one core under its GIL, on the machine fxbatch runs on).

Rates are synthetic and exact: the rate of base B to quote Q on day D is rate(B, Q, D) below, written with
three decimals; frankfurter_v2_data.py check computes the same. Weekends have no rows.

Usage: frankfurter_v2_server.py LATENCY_MS PORT_FILE
Binds 127.0.0.1 on a port the kernel chooses, writes it to PORT_FILE once it listens, and serves until killed or
until the process that started it is gone. Loopback only.
"""

import bisect
import datetime
import http.server
import json
import loopback
import sys
import threading
import time
import urllib.parse


def pair_key(base, quote):
    """A number for a pair, from its letters."""
    return sum(ord(c) * 31**i for i, c in enumerate(base + quote)) * 7919


def rate(base, quote, day):
    """The synthetic rate text of base → quote on a day: 0.001 to 900.000, three decimals, never 0."""
    thousandths = 1 + (pair_key(base, quote) + day.toordinal()) % 900_000
    return f"{thousandths // 1000}.{thousandths % 1000:03d}"


# The weekdays from 2010 to 2030 as (day, ISO text, ordinal): rows are built from these (the server's CPU time,
# serialised by Python's GIL, would otherwise be what the benchmark measures).
WEEKDAYS = [
    (day, day.isoformat(), day.toordinal())
    for day in (datetime.date(2010, 1, 1) + datetime.timedelta(days=n) for n in range(366 * 21))
    if day.weekday() < 5
]
ORDINALS = [ordinal for _, _, ordinal in WEEKDAYS]


# The rate text of each thousandths value rate() can give (1 to 900,000), made once: a row's rate is then looked up,
# not formatted.
VALUES = [f"{thousandths // 1000}.{thousandths % 1000:03d}" for thousandths in range(1, 900_001)]


def rows_between(base, quotes, first, last, separator=","):
    """The rows of each quote on each weekday from first to last, in (date, quote) order: one text per day (its
    rows joined by separator), and how many rows. A day's text is one template filled with the day and its rates
    (Python's time per row, under its GIL, would otherwise be what the benchmark measures)."""
    low = bisect.bisect_left(ORDINALS, first.toordinal())
    high = bisect.bisect_right(ORDINALS, last.toordinal())
    parts = []
    keys = []
    for quote in sorted(quotes):
        if quote == base:
            parts.append('{"date":"@","base":"%s","quote":"%s","rate":1.0}' % (base, quote))
        else:
            parts.append('{"date":"@","base":"%s","quote":"%s","rate":%%s}' % (base, quote))
            keys.append(pair_key(base, quote))
    template = separator.join(parts)
    days = [
        template.replace("@", text) % tuple([VALUES[(key + ordinal) % 900_000] for key in keys])
        for _, text, ordinal in WEEKDAYS[low:high]
    ]
    return days, len(days) * len(parts)


MAX_DAILY_RANGE_YEARS = 5
RANGE_REFUSAL = (
    f"date range exceeds {MAX_DAILY_RANGE_YEARS} years at daily granularity; filter with quotes= (5 currencies or fewer), "
    "aggregate with group=week or group=month, or split the range into shorter requests"
)


def months_later(day, months):
    """Ruby's Date#>>: the day some months later, clamped to the month's last day."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    for candidate in range(day.day, 0, -1):
        try:
            return datetime.date(year, month + 1, candidate)
        except ValueError:
            continue


def range_too_long(query, first, last):
    """validate_range_cost! of a range computed live."""
    providers = query.get("providers")
    quotes = query.get("quotes")
    if providers and quotes and len(set(providers.split(","))) <= 5 and len(set(quotes.split(","))) <= 5:
        return False
    return min(last, datetime.date.today()) > months_later(first, 12 * MAX_DAILY_RANGE_YEARS)


def main():
    latency = int(sys.argv[1]) / 1000
    lock = threading.Lock()
    stats = {"requests": 0, "active": 0, "peak": 0, "rows": 0, "refused": 0}
    # Each answer made, by its query: asked again (frankfurter_v2.sh's lock run, before the measured run, asks what
    # the measured run asks), it is sent after the latency as made, as a service answers from its stored table.
    answers = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body in two writes: no Nagle + delayed-ACK stall

        def log_message(self, *args):
            pass

        def answer(self, status, body, content_type="application/json"):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            url = urllib.parse.urlparse(self.path)
            if url.path == "/stats":
                with lock:
                    return self.answer(200, json.dumps(stats).encode())
            if url.path != "/v2/rates":
                return self.answer(404, b'{"status":404,"message":"not found"}')
            with lock:
                stats["requests"] += 1
                stats["active"] += 1
                stats["peak"] = max(stats["peak"], stats["active"])
            try:
                time.sleep(latency)
                ndjson = "application/x-ndjson" in self.headers.get("Accept", "")
                key = (url.query, ndjson)
                if key in answers:
                    body, count = answers[key]
                    with lock:
                        stats["rows"] += count
                    return self.answer(200, body, "application/x-ndjson" if ndjson else "application/json")
                query = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
                base = query.get("base", "EUR")
                quotes = query["quotes"].split(",")
                separator = "\n" if ndjson else ","
                if "date" in query:
                    day = datetime.date.fromisoformat(query["date"])
                    while day.weekday() >= 5:
                        day -= datetime.timedelta(days=1)
                    days, count = rows_between(base, quotes, day, day, separator)
                else:
                    last = datetime.date.fromisoformat(query["to"]) if "to" in query else datetime.date.today()
                    first = datetime.date.fromisoformat(query["from"])
                    if range_too_long(query, first, last):
                        with lock:
                            stats["refused"] += 1
                        return self.answer(422, json.dumps({"status": 422, "message": RANGE_REFUSAL}).encode())
                    days, count = rows_between(base, quotes, first, last, separator)
                with lock:
                    stats["rows"] += count
                if ndjson:
                    body = "".join(day + "\n" for day in days).encode()
                else:
                    body = ("[" + ",".join(days) + "]").encode()
                answers[key] = (body, count)
                self.answer(200, body, "application/x-ndjson" if ndjson else "application/json")
            except (KeyError, ValueError) as error:
                self.answer(422, json.dumps({"status": 422, "message": f"invalid request: {error}"}).encode())
            finally:
                with lock:
                    stats["active"] -= 1

    class Server(http.server.ThreadingHTTPServer):
        daemon_threads = True
        request_queue_size = 128

    loopback.serve(Server(("127.0.0.1", 0), Handler), sys.argv[2])


if __name__ == "__main__":
    main()
