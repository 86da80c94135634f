#!/usr/bin/env python3
"""Loopback ECB server for Benchmarks/scale.sh: the ECB's reference-rate files built from the history CSV
fxbatch embeds (`Date,USD,JPY,…`, newest day first, `N/A` for no rate), in the ECB's own XML shape:

  <?xml version="1.0" encoding="UTF-8"?>
  <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  	<gesmes:subject>Reference rates</gesmes:subject>
  	<gesmes:Sender>
  		<gesmes:name>European Central Bank</gesmes:name>
  	</gesmes:Sender>
  	<Cube>
  		<Cube time="2026-10-30"><Cube currency="USD" rate="1.1172"/><Cube currency="JPY" rate="175.68"/>…</Cube>
  		…
  	</Cube>
  </gesmes:Envelope>

GET /eurofxref-hist.xml serves every day (newest first), /eurofxref-hist-90d.xml the latest 64 publication
days, /eurofxref-daily.xml the latest one (the daily file's `<Cube time='…'>` lines, as the ECB writes them);
anything else is 404. GET /stats answers {"requests": N, "bytes": N, "files": {NAME: N, …}} (the rate files
served so far, and how often each).
The documents are built once at start; each answer carries Content-Length.

Usage: ecb_server.py ECB_CSV PORT_FILE
Binds 127.0.0.1 on a port the kernel chooses (free), writes that port to PORT_FILE once it listens, and
serves until killed, or until the process that started it is gone (so a killed benchmark leaves no server
behind). Loopback only.
"""

import csv
import http.server
import json
import loopback
import sys
import threading

HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"'
    ' xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">\n'
    "\t<gesmes:subject>Reference rates</gesmes:subject>\n"
    "\t<gesmes:Sender>\n\t\t<gesmes:name>European Central Bank</gesmes:name>\n\t</gesmes:Sender>\n"
    "\t<Cube>\n"
)
TAIL = "\t</Cube>\n</gesmes:Envelope>\n"


def read_history(path):
    """[(day text, [(currency, rate text)])], newest day first, as the CSV has them."""
    with open(path, newline="") as file:
        rows = csv.reader(file)
        header = [name.strip() for name in next(rows)]
        days = []
        for row in rows:
            if not row or not row[0].strip():
                continue
            rates = [
                (currency, text.strip())
                for currency, text in zip(header[1:], row[1:])
                if currency and text.strip() not in ("", "N/A")
            ]
            days.append((row[0].strip(), rates))
    days.sort(key=lambda day: day[0], reverse=True)
    return days


def history_document(days):
    """The shape of eurofxref-hist.xml and eurofxref-hist-90d.xml: one line per day, double quotes."""
    lines = [HEAD]
    for day, rates in days:
        cubes = "".join(f'<Cube currency="{currency}" rate="{rate}"/>' for currency, rate in rates)
        lines.append(f'\t\t<Cube time="{day}">{cubes}</Cube>\n')
    lines.append(TAIL)
    return "".join(lines).encode()


def daily_document(day, rates):
    """The shape of eurofxref-daily.xml: one element per line, single quotes."""
    lines = [HEAD, f"\t\t<Cube time='{day}'>\n"]
    lines.extend(f"\t\t\t<Cube currency='{currency}' rate='{rate}'/>\n" for currency, rate in rates)
    lines.append("\t\t</Cube>\n")
    lines.append(TAIL)
    return "".join(lines).encode()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[-2])
    days = read_history(sys.argv[1])
    documents = {
        "/eurofxref-hist.xml": history_document(days),
        "/eurofxref-hist-90d.xml": history_document(days[:64]),
        "/eurofxref-daily.xml": daily_document(*days[0]),
    }
    lock = threading.Lock()
    stats = {"requests": 0, "bytes": 0, "files": {}}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out in two writes

        def log_message(self, *args):
            pass

        def do_GET(self):
            path = self.path.split("?", 1)[0]
            path = "/" + path.lstrip("/")  # an endpoint with or without its trailing slash
            status, kind = 200, "text/xml"
            if path == "/stats":
                with lock:
                    body = json.dumps(stats).encode()
                kind = "application/json"
            elif path in documents:
                body = documents[path]
                with lock:
                    stats["requests"] += 1
                    stats["bytes"] += len(body)
                    stats["files"][path[1:]] = stats["files"].get(path[1:], 0) + 1
            else:
                status, body, kind = 404, b"not found\n", "text/plain"
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    class Server(http.server.ThreadingHTTPServer):
        daemon_threads = True

    loopback.serve(Server(("127.0.0.1", 0), Handler), sys.argv[2])


if __name__ == "__main__":
    main()
