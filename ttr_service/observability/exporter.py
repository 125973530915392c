"""A Celery worker's metrics on a port of its own (``METRICS_WORKER_PORT``): the sums of
its process group (its main process, its pool's processes, an embedded beat), on
``/metrics``, by a thread of the main process. The same rule as the web's ``/metrics``
decides who may read them (``access``). The metrics read at the scrape (the queue, the
outbox, the beat lease) are the web's alone.

docs/decisions/0204-worker-metrics-on-their-own-port.md says why a port and not the web's
folder.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from ttr_service.observability import access, metrics

logger = logging.getLogger(__name__)

StartResponse = Callable[[str, list[tuple[str, str]]], Any]


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass  # a scrape every few seconds would flood the worker's log


def application(token: str | None) -> Callable[[dict[str, Any], StartResponse], Iterable[bytes]]:
    def answer(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        headers = {
            name: environ.get(key, "")
            for name, key in (
                ("Forwarded", "HTTP_FORWARDED"),
                ("X-Forwarded-For", "HTTP_X_FORWARDED_FOR"),
                ("X-Real-IP", "HTTP_X_REAL_IP"),
            )
        }
        if environ.get("PATH_INFO") != "/metrics":
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"Not Found\n"]
        if not access.allowed(
            token,
            environ.get("HTTP_AUTHORIZATION"),
            environ.get("REMOTE_ADDR"),
            forwarded=access.forwarded(headers),
        ):
            start_response("403 Forbidden", [("Content-Type", "text/plain")])
            return [b"Forbidden\n"]
        body, content_type = metrics.exposition(with_scraped=False)
        start_response("200 OK", [("Content-Type", content_type), ("Cache-Control", "no-store")])
        return [body]

    return answer


def start(port: int, token: str | None, address: str = "0.0.0.0") -> _Server:
    """Serve the worker's metrics on ``address:port`` from a daemon thread."""
    server = make_server(
        address, port, application(token), server_class=_Server, handler_class=_QuietHandler
    )
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    logger.info("Metrics served on %s:%d/metrics", address, server.server_port)
    return server
