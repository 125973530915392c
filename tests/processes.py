"""Server processes on the loopback: redis-server, gunicorn and a Celery worker.

Used by the worker and fault tests and by ``bench/load.py``. No Django and no pytest here,
so a benchmark can import it before it sets Django up. Each process runs in its own
process group, so a kill takes its children (gunicorn's workers, the worker's embedded
beat) down with it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import httpx

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_answers(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
        return True
    return False


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


class Process:
    """A server process in its own process group, killed whole."""

    def __init__(self, name: str, log: Path) -> None:
        self.name = name
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def spawn(self, args: list[str], env: dict[str, str] | None = None) -> None:
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
        if self.process is None:
            return
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=15)
        # Whatever is left of the group (a child after a shutdown that hung).
        self.kill()

    def start(self) -> None:
        raise NotImplementedError

    def log_tail(self, chars: int = 3000) -> str:
        return self.log.read_text()[-chars:] if self.log.exists() else ""


P = TypeVar("P", bound=Process)


@contextlib.contextmanager
def running(server: P) -> Iterator[P]:
    """Start ``server``, stop it afterwards and print the end of its log (also when it
    never became ready: a start that times out must not leave the process behind)."""
    try:
        server.start()
        yield server
    finally:
        server.stop()
        print(server.log_tail())


class RedisServer(Process):
    """A private redis-server without persistence, so killing it touches nobody else."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        super().__init__("redis", folder / "redis.log")
        self.port = port or free_port()
        self.dir = folder
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.spawn(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(self.dir)),
            ]
        )
        wait_for(lambda: port_answers(self.port), 20, "the private redis-server")


# gunicorn's worker class for the ASGI application (the container's web server).
UVICORN_WORKER = "uvicorn_worker.UvicornWorker"


class WebServer(Process):
    """gunicorn, gthread workers unless told otherwise (plain HTTP on the loopback).
    ``worker_class="uvicorn"`` runs uvicorn workers on the ASGI application instead, as
    the container image does."""

    def __init__(
        self,
        env: dict[str, str],
        folder: Path,
        workers: int = 1,
        threads: int = 4,
        options: tuple[str, ...] = ("--graceful-timeout", "5"),
        port: int | None = None,
        worker_class: str = "gthread",
    ) -> None:
        super().__init__("web", folder / "web.log")
        self.worker_class = worker_class
        self.env = env
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.threads = threads
        self.options = options

    def start(self) -> None:
        asgi = self.worker_class == "uvicorn"
        self.spawn(
            [
                str(BIN / "gunicorn"),
                "ttr_service.asgi:application" if asgi else "ttr_service.wsgi:application",
                *("--bind", f"127.0.0.1:{self.port}", "--workers", str(self.workers)),
                *("--worker-class", UVICORN_WORKER if asgi else self.worker_class),
                # Sync workers serve one request at a time and ignore threads.
                *(("--threads", str(self.threads)) if self.worker_class == "gthread" else ()),
                *self.options,
            ],
            self.env,
        )
        wait_for(self._healthy, 60, "the web server")

    def _healthy(self) -> bool:
        """The server answers and reaches its database. Whether workers run is not its
        business: a test may start them later (health then says 503, ``workers`` missing)."""
        try:
            answer = httpx.get(f"{self.url}/api/v1/health", timeout=2)
            return answer.status_code in (200, 503) and answer.json()["database"] == "ok"
        except (httpx.HTTPError, ValueError, KeyError):
            return False


class Worker(Process):
    """A Celery worker with its embedded beat (solo pool), logging to ``log``."""

    def __init__(self, env: dict[str, str], log: Path, loglevel: str = "info") -> None:
        super().__init__("worker", log)
        self.env = env
        self.loglevel = loglevel

    def start(self) -> None:
        # The embedded beat runs in a child process: the process group takes it down too,
        # or it would go on queueing sweeps after the test.
        self.spawn(
            [
                *(str(BIN / "celery"), "-A", "ttr_service", "worker", "--beat", "--pool", "solo"),
                *("--loglevel", self.loglevel, "--without-gossip", "--without-mingle"),
                *("--schedule", str(self.log.with_suffix(".schedule"))),
            ],
            self.env,
        )


def service_env(database_url: str, redis_url: str) -> dict[str, str]:
    """The environment of a web server or worker on these servers, with fast sweeps."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CELERY_VISIBILITY_TIMEOUT": "3",
        "DEADLINE_SWEEP_SECONDS": "1",
        # A restarted worker's beat takes over its killed predecessor's lease within 4 s.
        "BEAT_LEASE_SECONDS": "3",
        # The webhook receivers of the tests listen on 127.0.0.1.
        "WEBHOOK_ALLOW_PRIVATE": "true",
    }


def production_env(database_url: str, redis_url: str, label: str) -> dict[str, str]:
    """``service_env`` with a production server's settings: DEBUG off and a secret key of
    its own (named by ``label``), serving plain HTTP on the loopback."""
    return {
        **service_env(database_url, redis_url),
        "DEBUG": "false",
        "SECRET_KEY": f"{label}-tests-only-" + "x" * 40,
        "SECURE_SSL_REDIRECT": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
    }


# What a benchmark's service runs with: DEBUG off on the loopback, request limits and the
# AI's pause out of the way (the benchmarks measure the service, not its limits).
BENCH_ENV = {
    "DJANGO_SETTINGS_MODULE": "ttr_service.settings",
    "DEBUG": "false",
    "SECRET_KEY": "bench-only-" + "k" * 48,
    "SECURE_SSL_REDIRECT": "false",
    "ALLOWED_HOSTS": "127.0.0.1",
    "THROTTLE_USER_RATE": "1000000/min",
    "THROTTLE_ANON_RATE": "1000000/min",
    "THROTTLE_LOGIN_RATE": "1000000/min",
    "AI_MOVE_DELAY_MS": "0",
}
