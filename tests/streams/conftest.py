"""Real servers for the stream tests: web servers on the ASGI application (uvicorn
workers, as ``make run`` and the image serve it), a Celery worker, a private Redis."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.processes import WebServer

# Streams close quickly in tests: a heartbeat a second lets a reader notice its stop. Chat
# posts come in bursts.
STREAM_ENV = {
    "STREAM_HEARTBEAT_SECONDS": "1",
    "STREAM_POLL_MS": "200",
    "CHAT_POST_RATES": "1000/10s",
}


def asgi_web(env: dict[str, str], folder: Path) -> WebServer:
    folder.mkdir(parents=True, exist_ok=True)
    return WebServer({**env, **STREAM_ENV}, folder, worker_class="uvicorn")


def ticket(client: httpx.Client) -> str:
    response = client.post("/stream-tickets")
    assert response.status_code == 201, response.text
    return str(response.json()["ticket"])
