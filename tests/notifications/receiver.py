"""A webhook receiver for tests: a real HTTP server in a thread, on 127.0.0.1 unless
told another address of this machine."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float = field(default_factory=time.monotonic)


@dataclass
class Receiver:
    url: str
    requests: list[Received] = field(default_factory=list)
    # Status codes to answer with, in order; the last one repeats.
    statuses: list[int] = field(default_factory=lambda: [200])

    def next_status(self) -> int:
        return self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]


@contextmanager
def running_receiver(host: str = "127.0.0.1") -> Iterator[Receiver]:
    receiver = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            body = self.rfile.read(length)
            receiver.requests.append(
                Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            code = receiver.next_status()
            self.send_response(code)
            if 300 <= code < 400:
                self.send_header("location", "http://127.0.0.1:9/elsewhere")
            self.send_header("content-length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer((host, 0), Handler)
    receiver.url = f"http://{host}:{server.server_address[1]}/hooks/ttr"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
