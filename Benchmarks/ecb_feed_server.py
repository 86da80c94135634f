#!/usr/bin/env python3
"""Loopback ECB feed for timing `fxbatch convert --source ecb`: serves the embedded history
(Sources/FXBatch/RateSources/Embedded/eurofxref-hist.csv) as the ECB's eurofxref-hist.xml (also under the 90-day and
daily names), built once at start, with the cell texts exactly as in the CSV.
Usage: ecb_feed_server.py PORT   (prints "ready" when listening; GET /stats gives the request count)"""
import http.server, os, sys, threading

port = int(sys.argv[1])
history = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "FXBatch", "Rates", "Embedded",
                       "eurofxref-hist.csv")
with open(history) as file:
    rows = [line.rstrip("\n").rstrip(",").split(",") for line in file if line.strip()]
currencies = rows[0][1:]
cubes = []
for row in rows[1:]:
    cells = "".join(f'<Cube currency="{code}" rate="{rate}"/>' for code, rate in zip(currencies, row[1:]) if rate != "N/A")
    cubes.append(f'<Cube time="{row[0]}">{cells}</Cube>')
feed = ('<?xml version="1.0" encoding="UTF-8"?>\n<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" '
        'xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><gesmes:subject>Reference rates</gesmes:subject>'
        '<Cube>' + "\n".join(cubes) + '</Cube></gesmes:Envelope>\n').encode()
lock = threading.Lock()
requests = 0

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def do_GET(self):
        global requests
        if self.path.endswith("/stats"):
            with lock:
                body = f'{{"requests":{requests}}}'.encode()
        elif self.path.rsplit("/", 1)[-1] in ("eurofxref-hist.xml", "eurofxref-hist-90d.xml", "eurofxref-daily.xml"):
            with lock:
                requests += 1
            body = feed
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
print("ready", flush=True)
server.serve_forever()
