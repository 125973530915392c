"""A real Celery worker process against the real Redis and the test PostgreSQL database.

These tests are marked ``postgres``: the worker is another process, so it needs a database
server it can share with the test (SQLite in-memory test databases cannot be shared), and
they need ``REDIS_URL`` (``make test`` sets it for the PostgreSQL pass).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).with_name("celery")


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


class Worker:
    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        out = self.log.open("ab")
        self.process = subprocess.Popen(
            [
                str(CELERY),
                "-A",
                "ttr_service",
                "worker",
                "--beat",
                "--pool",
                "solo",
                "--loglevel",
                "info",
                "--without-gossip",
                "--without-mingle",
                "--schedule",
                str(self.log.with_suffix(".schedule")),
            ],
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            # Its own process group: the embedded beat runs in a child process, and a kill
            # must take it down too, or it would go on queueing sweeps after the test.
            start_new_session=True,
        )

    def kill(self) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=15)
        # Whatever is left of the group (a beat child after a warm shutdown that hung).
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)


@pytest.fixture
def worker_env(transactional_db, tmp_path) -> dict[str, str]:
    if not settings.REDIS_URL:
        pytest.fail("REDIS_URL must point at the Redis server for the worker tests")
    import redis

    redis.Redis.from_url(settings.REDIS_URL).flushdb()
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    return {
        **os.environ,
        "DATABASE_URL": url,
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_VISIBILITY_TIMEOUT": "3",
        "DEADLINE_SWEEP_SECONDS": "1",
        # The webhook receivers of these tests listen on 127.0.0.1.
        "WEBHOOK_ALLOW_PRIVATE": "true",
    }


@pytest.fixture
def worker(worker_env, tmp_path) -> Iterator[Worker]:
    w = Worker(worker_env, tmp_path / "worker.log")
    w.start()
    try:
        yield w
    finally:
        w.stop()
        print(w.log.read_text()[-3000:])
