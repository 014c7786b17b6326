#!/usr/bin/python3
"""A tile server for tests: real HTTP/1.1 with keep-alive on 127.0.0.1, serving the tiles of an
MBTiles file, and producing the faults a test scripts.

    tile_server.py --mbtiles FILE [--script JSON]

Prints the port it bound (port 0: the kernel picks a free one) on the first line of stdout,
serves until its stdin is closed (so it never outlives the test that started it), then prints
one line of JSON with what it saw and exits.

Paths: /{z}/{x}/{y}.{ext} (XYZ rows), /tms/{z}/{x}/{y}.{ext} (TMS rows); the query string is
ignored. A tile the file does not hold is 404.

The script is JSON: {"delay": seconds added to every tile response,
                     "rules": [{"match": regex searched in the path, "responses": [fault, ...]}]}
The n-th request for a path matched by a rule gets the rule's n-th fault; later requests are
served normally. Faults: "500" (any status code, keep-alive), "429:S" (Retry-After: S seconds),
"429-date:S" (Retry-After as an HTTP date S seconds ahead), "stall:S" (headers and half the
body, then nothing for S seconds, then the connection closes), "truncate" (half the body of the
announced Content-Length, then the connection closes), "ok" (served normally).
"""
import argparse
import email.utils
import json
import re
import sqlite3
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_STALL_SECONDS = 30


class State:
    def __init__(self, tiles, content_type, script):
        self.tiles = tiles
        self.content_type = content_type
        self.delay = float(script.get("delay", 0))
        self.rules = [(re.compile(r["match"]), list(r["responses"])) for r in script.get("rules", [])]
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.connections = 0
        self.max_connections = 0
        self.connections_opened = 0
        self.inflight = 0
        self.max_inflight = 0
        self.counts = {}
        self.log = []
        self.started = time.monotonic()

    def fault_for(self, path):
        with self.lock:
            n = self.counts.get(path, 0)
            self.counts[path] = n + 1
        for pattern, responses in self.rules:
            if pattern.search(path):
                return responses[n] if n < len(responses) else "ok"
        return "ok"

    def stats(self):
        with self.lock:
            return {
                "requests": sum(self.counts.values()),
                "max_connections": self.max_connections,
                "connections_opened": self.connections_opened,
                "max_inflight": self.max_inflight,
                "counts": self.counts,
                "log": self.log,
            }


def load_tiles(path):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        fmt = db.execute("SELECT value FROM metadata WHERE name = 'format'").fetchone()
        tiles = {(z, x, y): bytes(data) for z, x, y, data in
                 db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")}
    finally:
        db.close()
    fmt = fmt[0] if fmt else "png"
    content_type = {"png": "image/png", "jpg": "image/jpeg", "webp": "image/webp",
                    "pbf": "application/x-protobuf"}.get(fmt, "application/octet-stream")
    return tiles, content_type


TILE_PATH = re.compile(r"^/(tms/)?(\d+)/(\d+)/(\d+)(\.[A-Za-z0-9]+)?$")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None  # set in main

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        s = self.state
        with s.lock:
            s.connections += 1
            s.connections_opened += 1
            s.max_connections = max(s.max_connections, s.connections)

    def finish(self):
        try:
            super().finish()
        finally:
            s = self.state
            with s.lock:
                s.connections -= 1

    def do_GET(self):
        s = self.state
        with s.lock:
            s.inflight += 1
            s.max_inflight = max(s.max_inflight, s.inflight)
        try:
            self.serve()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up on this answer (a cancelled or abandoned transfer)
        finally:
            with s.lock:
                s.inflight -= 1

    def serve(self):
        s = self.state
        path = self.path.split("?", 1)[0]
        with s.lock:
            s.log.append({"path": self.path, "t": round(time.monotonic() - s.started, 4),
                          "headers": {k.lower(): v for k, v in self.headers.items()}})
        fault = s.fault_for(path)
        tile = None
        m = TILE_PATH.match(path)
        if m:
            z, x, y = int(m.group(2)), int(m.group(3)), int(m.group(4))
            row = y if m.group(1) else (1 << z) - 1 - y
            tile = s.tiles.get((z, x, row))
        if s.delay > 0:
            s.stopping.wait(s.delay)

        if fault == "ok":
            if tile is None:
                self.reply(404, b"no such tile\n", "text/plain")
            else:
                self.reply(200, tile, s.content_type)
        elif fault.isdigit():
            self.reply(int(fault), b"scripted status\n", "text/plain")
        elif fault.startswith("429:"):
            self.reply(429, b"slow down\n", "text/plain", {"Retry-After": fault[4:]})
        elif fault.startswith("429-date:"):
            when = email.utils.formatdate(time.time() + float(fault[9:]), usegmt=True)
            self.reply(429, b"slow down\n", "text/plain", {"Retry-After": when})
        elif fault.startswith("stall:"):
            body = tile or b"x" * 1000
            self.send_head(200, len(body), s.content_type)
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            s.stopping.wait(min(float(fault[6:]), MAX_STALL_SECONDS))
            self.close_connection = True
        elif fault == "truncate":
            body = tile or b"x" * 1000
            self.send_head(200, len(body), s.content_type)
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
        else:
            self.reply(500, ("unknown scripted fault %r\n" % fault).encode(), "text/plain")

    def send_head(self, status, length, content_type, extra=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(length))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()

    def reply(self, status, body, content_type, extra=None):
        if status in (204, 304):
            body = b""
        self.send_head(status, len(body), content_type, extra)
        self.wfile.write(body)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)  # a client hanging up is not an error here


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mbtiles", required=True)
    parser.add_argument("--script", default="{}")
    args = parser.parse_args()
    tiles, content_type = load_tiles(args.mbtiles)
    state = State(tiles, content_type, json.loads(args.script))
    Handler.state = state
    server = Server(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    print(server.server_address[1], flush=True)
    sys.stdin.read()  # until the test closes our stdin (or dies)
    state.stopping.set()
    server.shutdown()
    server.server_close()
    print(json.dumps(state.stats()), flush=True)


if __name__ == "__main__":
    main()
