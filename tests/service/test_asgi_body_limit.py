"""The body limit in front of the ASGI application (the container's gunicorn + uvicorn).

Django's ASGI handler reads a whole body, to a temporary file past 2.5 MB, before any
middleware runs, so ``ttr_service.asgi.application`` refuses an oversize body before
Django sees it: by its Content-Length without reading it, or, sent without one, as soon
as it passes the limit. Each case drives the real application with a real body.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from django.conf import settings

from ttr_service.asgi import application
from ttr_service.http.limits import AsgiBodySizeLimit

LIMIT = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
CHUNK = 64 * 1024


class Client:
    """One HTTP request over ASGI; the body is handed over in chunks as asked."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.read = 0  # how many chunks the application took
        self.sent: list[dict[str, Any]] = []

    async def receive(self) -> dict[str, Any]:
        if self.read < len(self.chunks):
            self.read += 1
            more = self.read < len(self.chunks)
            return {"type": "http.request", "body": self.chunks[self.read - 1], "more_body": more}
        await asyncio.sleep(3600)  # a client that has nothing more to send
        return {"type": "http.disconnect"}

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def status(self) -> int:
        return int(self.sent[0]["status"])

    def json(self) -> Any:
        return json.loads(b"".join(m.get("body", b"") for m in self.sent[1:]))

    def header(self, name: bytes) -> bytes | None:
        return dict(self.sent[0]["headers"]).get(name)


def call(app: Any, path: str, chunks: list[bytes], headers: list[tuple[bytes, bytes]]) -> Client:
    client = Client(chunks)
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"localhost"), (b"content-type", b"application/json"), *headers],
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8000),
    }
    asyncio.run(asyncio.wait_for(app(scope, client.receive, client.send), timeout=30))
    return client


def oversize() -> list[bytes]:
    body = json.dumps({"players": [], "pad": "x" * (LIMIT + CHUNK)}).encode()
    return [body[i : i + CHUNK] for i in range(0, len(body), CHUNK)]


def test_the_application_is_wrapped_by_the_limit() -> None:
    assert isinstance(application, AsgiBodySizeLimit)


def test_a_declared_length_over_the_limit_is_refused_without_reading_the_body() -> None:
    chunks = oversize()
    length = str(sum(map(len, chunks))).encode()

    client = call(application, "/api/v1/boards/europe/score", chunks, [(b"content-length", length)])

    assert client.status() == 413
    assert client.header(b"content-type") == b"application/problem+json"
    assert client.json()["code"] == "REQUEST_TOO_LARGE"
    assert client.json()["instance"] == "/api/v1/boards/europe/score"
    assert client.read == 0


def test_a_body_without_a_length_is_refused_once_it_passes_the_limit() -> None:
    chunks = oversize() + [b" " * CHUNK] * 100  # 6 MB more that must never be read

    client = call(application, "/api/v1/boards/europe/score", chunks, [])

    assert client.status() == 413
    assert client.json()["code"] == "BODY_TOO_LARGE"
    assert client.json()["status"] == 413
    assert client.read == LIMIT // CHUNK + 1
    assert client.header(b"connection") == b"close"


def test_a_body_within_the_limit_reaches_the_service() -> None:
    body = json.dumps({"players": [{"routes": ["paris-zurich"]}, {}]}).encode()
    chunks = [body[:10], body[10:]]
    length = str(len(body)).encode()

    client = call(application, "/api/v1/boards/europe/score", chunks, [(b"content-length", length)])

    assert client.status() == 200, client.json()
    assert client.json()["players"][0]["route_points"] > 0


@pytest.mark.parametrize("declared", [False, True])
def test_what_the_guard_passes_on_is_the_body_as_sent(declared: bool) -> None:
    seen: list[bytes] = []

    async def downstream(scope: Any, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            seen.append(message["body"])
            if not message["more_body"]:
                break
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    chunks = [b"a" * CHUNK, b"b" * CHUNK, b"c"]
    headers = [(b"content-length", str(2 * CHUNK + 1).encode())] if declared else []

    client = call(AsgiBodySizeLimit(downstream), "/api/v1/anything", chunks, headers)

    assert client.status() == 204
    assert seen == chunks
