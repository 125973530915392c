"""Requests that come in on one connection before the answer to the one ahead of them is
complete: the server starts each of them once that answer is sent."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def read_answer(stream: socket.SocketIO, buffered: bytearray) -> tuple[int, bytes]:
    """The status and body of the next answer on the connection (``Content-Length``
    bodies only, as every answer here has)."""
    while b"\r\n\r\n" not in buffered:
        chunk = stream.read(65536)
        assert chunk, f"the connection closed mid-answer: {bytes(buffered)[:200]!r}"
        buffered += chunk
    head, _, _ = bytes(buffered).partition(b"\r\n\r\n")
    del buffered[: len(head) + 4]
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    length = int(headers["content-length"])
    while len(buffered) < length:
        chunk = stream.read(65536)
        assert chunk, "the connection closed mid-body"
        buffered += chunk
    body = bytes(buffered[:length])
    del buffered[:length]
    return int(lines[0].split()[1]), body


def test_requests_sent_ahead_on_one_connection_are_each_answered(web_server):
    # The page, then its script and style sheet, sent at once: the server queues the two
    # and starts each from within the sending of the answer before it. Each must start
    # afresh, not in what is left of that answer's request (a 500 before).
    url = urlsplit(web_server.url)
    paths = ["/", "/static/web/app.js", "/static/web/style.css"]
    requests = b"".join(
        f"GET {path} HTTP/1.1\r\nHost: {url.netloc}\r\n\r\n".encode() for path in paths
    )
    with socket.create_connection((url.hostname, url.port), timeout=10) as connection:
        connection.sendall(requests)
        stream = socket.SocketIO(connection, "rb")
        buffered = bytearray()
        answers = [read_answer(stream, buffered) for _ in paths]
    assert [status for status, _ in answers] == [200, 200, 200], [
        (status, body[:300]) for status, body in answers
    ]
    assert b"/static/web/app.js" in answers[0][1]
