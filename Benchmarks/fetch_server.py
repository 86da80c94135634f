#!/usr/bin/env python3
"""Loopback rate server for Benchmarks/fetch.sh: answers Frankfurter v1 requests
(/v1/YYYY-MM-DD?base=A&symbols=B) after a fixed latency, and reports request counts
and peak concurrency at /stats. Usage: fetch_server.py PORT LATENCY_MS"""
import http.server, json, sys, threading, time, urllib.parse

port, latency = int(sys.argv[1]), int(sys.argv[2]) / 1000
lock = threading.Lock()
stats = {"requests": 0, "active": 0, "peak": 0}

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes: without TCP_NODELAY each answer stalls ~40 ms (Nagle + delayed ACK).
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        if url.path == "/stats":
            with lock:
                body = json.dumps(stats).encode()
        else:
            with lock:
                stats["requests"] += 1
                stats["active"] += 1
                stats["peak"] = max(stats["peak"], stats["active"])
            time.sleep(latency)
            query = urllib.parse.parse_qs(url.query)
            day = url.path.rsplit("/", 1)[-1]
            rates = ",".join(f'"{s}":1.2345' for s in query["symbols"][0].split(","))
            body = f'{{"amount":1.0,"base":"{query["base"][0]}","date":"{day}","rates":{{{rates}}}}}'.encode()
            with lock:
                stats["active"] -= 1
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

Server(("127.0.0.1", port), Handler).serve_forever()
