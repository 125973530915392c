"""Processes to break: a private Redis server, the web server (gunicorn) and a worker.

The fault tests start their own ``redis-server`` on a free port, so killing it never
touches the machine's shared Redis, and point a gunicorn web server and a Celery worker
(with its beat) at it and at the test PostgreSQL database.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from django.db import connection

from accounts.services import token_issue
from tests.workers.conftest import Worker, wait_for

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _answers(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
        return True
    return False


class Process:
    """A server process in its own process group, killed whole."""

    def __init__(self, name: str, log: Path) -> None:
        self.name = name
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def _spawn(self, args: list[str], env: dict[str, str] | None = None) -> None:
        out = self.log.open("ab")
        self.process = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )

    def kill(self) -> None:
        """SIGKILL, as a crash or an OOM kill would."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()


class RedisServer(Process):
    def __init__(self, tmp: Path) -> None:
        super().__init__("redis", tmp / "redis.log")
        self.port = free_port()
        self.dir = tmp
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self._spawn(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ]
        )
        wait_for(lambda: _answers(self.port), 20, "the private redis-server")


class WebServer(Process):
    """gunicorn with DEBUG off, as in production (plain HTTP on the loopback)."""

    def __init__(self, env: dict[str, str], tmp: Path, workers: int = 1, threads: int = 4) -> None:
        super().__init__("web", tmp / "web.log")
        self.env = env
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.threads = threads

    def start(self) -> None:
        self._spawn(
            [
                str(BIN / "gunicorn"),
                "ttr_service.wsgi:application",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(self.workers),
                "--worker-class",
                "gthread",
                "--threads",
                str(self.threads),
                "--graceful-timeout",
                "5",
            ],
            self.env,
        )
        wait_for(self._healthy, 60, "the web server")

    def _healthy(self) -> bool:
        try:
            return httpx.get(f"{self.url}/api/v1/health", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False


def database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@pytest.fixture
def redis_server(tmp_path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def fault_env(transactional_db, redis_server) -> dict[str, str]:
    """The environment of the web server and the worker: test database, private Redis."""
    return {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": redis_server.url,
        "DEBUG": "false",
        "SECRET_KEY": "fault-tests-only-" + "x" * 40,
        "SECURE_SSL_REDIRECT": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "CELERY_VISIBILITY_TIMEOUT": "3",
        "DEADLINE_SWEEP_SECONDS": "1",
        "NOTIFICATIONS_SWEEP_SECONDS": "1",
        "AI_STUCK_SECONDS": "2",
        # The webhook receivers of these tests listen on 127.0.0.1.
        "WEBHOOK_ALLOW_PRIVATE": "true",
    }


@pytest.fixture
def web(fault_env, tmp_path) -> Iterator[WebServer]:
    server = WebServer(fault_env, tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        print(server.log.read_text()[-3000:])


@pytest.fixture
def fault_worker(fault_env, tmp_path) -> Iterator[Worker]:
    w = Worker(fault_env, tmp_path / "worker.log")
    w.start()
    try:
        yield w
    finally:
        w.stop()
        print(w.log.read_text()[-3000:])


def client_for(web: WebServer, user) -> httpx.Client:
    _, key = token_issue(user, name="fault-test")
    return httpx.Client(
        base_url=f"{web.url}/api/v1", headers={"Authorization": f"Token {key}"}, timeout=30
    )
