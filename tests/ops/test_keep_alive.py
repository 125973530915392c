"""The web server keeps an idle connection open longer than its clients do
(``keepalive`` in ttr_service/gunicorn_conf.py, decisions/0311): a request sent on a
connection after it sat idle past gunicorn's default keep-alive (2 s) is answered on the
same connection, by the real gunicorn and uvicorn workers the image runs."""

from __future__ import annotations

import http.client
import subprocess
import time

from tests.processes import BIN, ROOT, UVICORN_WORKER, free_port

from .test_debug_loopback import serving


def test_a_connection_idle_past_gunicorns_default_still_carries_the_next_request() -> None:
    port = free_port()
    process = subprocess.Popen(
        [
            str(BIN / "gunicorn"),
            "ttr_service.asgi:application",
            *("--config", "python:ttr_service.gunicorn_conf"),
            *("--bind", f"127.0.0.1:{port}", "--workers", "1"),
            *("--worker-class", UVICORN_WORKER),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    with serving(process, port):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/api/v1/health/live")
        first = connection.getresponse()
        first.read()
        assert first.status == 200
        local = connection.sock.getsockname()
        time.sleep(4)  # twice gunicorn's default keep-alive
        # http.client does not reconnect: a closed connection fails here.
        connection.request("GET", "/api/v1/health/live")
        second = connection.getresponse()
        second.read()
        assert second.status == 200
        assert connection.sock.getsockname() == local  # the same connection
        connection.close()
