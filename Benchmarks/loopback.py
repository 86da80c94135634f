"""What the benchmarks' loopback servers share: serve on the port the kernel chose, say which, and stop with the
process that started the server (so a killed benchmark leaves no server behind)."""

import os
import threading
import time


def serve(server, port_file):
    """Writes the server's port to port_file (atomically, once it listens) and serves until the parent is gone."""
    parent = os.getppid()

    def watch_parent():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    with open(port_file + ".part", "w") as file:
        file.write(f"{server.server_address[1]}\n")
    os.replace(port_file + ".part", port_file)
    server.serve_forever()
