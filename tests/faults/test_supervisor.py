"""The service as `make run` starts it (scripts/serve: scripts/supervise.py running gunicorn
and a Celery worker with its beat), and the health check against real workers.

Short limits throughout: a heartbeat every second, a worker counts as gone after 3 s
without one, the beat after 5 s without a deadline sweep (one a second). Every wait is
bounded by the limit it checks plus a stated margin for a busy two-core machine.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.conf import settings

from games.commands import lobby
from games.models import Game, Move
from games.queries.integrity import check_game
from ops.models import WorkerHeartbeat
from tests.processes import (
    ROOT,
    Process,
    RedisServer,
    WebServer,
    Worker,
    free_port,
    running,
    service_env,
    wait_for,
)
from tests.workers.conftest import database_url

from .helpers import user

HEARTBEAT_SECONDS = 1
WORKER_MAX_AGE = 3
BEAT_MAX_AGE = 5
SHORT_LIMITS = {
    # Whatever the harness's environment says: these tests are about the workers counting.
    "HEALTH_REQUIRE_WORKERS": "true",
    "WORKER_HEARTBEAT_SECONDS": str(HEARTBEAT_SECONDS),
    "HEALTH_WORKER_MAX_AGE_SECONDS": str(WORKER_MAX_AGE),
    "HEALTH_BEAT_MAX_AGE_SECONDS": str(BEAT_MAX_AGE),
    "DEADLINE_SWEEP_SECONDS": "1",
}
# Celery's start on a busy machine: the first heartbeat and the first sweep come after it.
WORKER_START = 45


class Serve(Process):
    """``bash scripts/serve`` on a free port, its beat schedule in ``folder``."""

    def __init__(self, env: dict[str, str], folder: Path) -> None:
        super().__init__("serve", folder / "serve.log")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **env,
            "PORT": str(self.port),
            "WEB_CONCURRENCY": "1",
            "CELERY_BEAT_SCHEDULE_FILE": str(folder / "beat-schedule"),
        }

    def start(self) -> None:
        self.spawn(["bash", str(ROOT / "scripts" / "serve")], self.env)
        wait_for(lambda: self.health()[0] == 200, 120, "make run's health check to answer 200")

    def health(self) -> tuple[int, dict[str, Any]]:
        return health(self.url)

    def started(self, name: str) -> list[int]:
        """The pids the supervisor started ``name`` with, in order."""
        return [int(p) for p in re.findall(rf"started {name} \(pid (\d+)\)", self.log_tail(10**7))]

    def exit_status(self, timeout: float) -> int:
        assert self.process is not None
        return self.process.wait(timeout=timeout)


def live_members(pgid: int) -> list[int]:
    """The processes of group ``pgid`` that still run (a zombie waiting for its new parent
    to collect it does not)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        state, group = fields[0], int(fields[2])
        if group == pgid and state != "Z":
            members.append(int(stat.parent.name))
    return members


def group_gone(pgid: int) -> bool:
    return not live_members(pgid)


def health(url: str) -> tuple[int, dict[str, Any]]:
    try:
        response = httpx.get(f"{url}/api/v1/health", timeout=2)
    except httpx.HTTPError:
        return 0, {}
    return response.status_code, response.json()


# ------------------------------------------------------------------ make run, on SQLite
@pytest.fixture
def make_run(tmp_path: Path) -> Iterator[Serve]:
    """`make run`'s embedded default (SQLite in a file of its own) with a private Redis as
    the broker, so no other run's worker or messages are involved."""
    with running(RedisServer(tmp_path)) as redis_server:
        env = {
            **os.environ,
            **SHORT_LIMITS,
            "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
            "REDIS_URL": redis_server.url,
        }
        env.pop("DATABASE_URL", None)
        with running(Serve(env, tmp_path)) as serve:
            yield serve


def test_make_run_serves_gunicorn_with_uvicorn_workers_a_fresh_worker_and_beat(
    make_run: Serve,
) -> None:
    status, body = make_run.health()

    assert status == 200
    assert (body["database"], body["broker"], body["workers"], body["beat"]) == ("ok",) * 4
    (worker_pid,) = make_run.started("worker")
    assert body["worker_heartbeats"][0]["pid"] == worker_pid
    assert body["beat_age_seconds"] < BEAT_MAX_AGE
    response = httpx.get(f"{make_run.url}/api/v1/boards", timeout=5)
    assert response.status_code == 200
    # gunicorn runs the ASGI application on uvicorn workers, which answer as uvicorn.
    assert response.headers["Server"] == "uvicorn"
    (web_pid,) = make_run.started("web")
    command = Path(f"/proc/{web_pid}/cmdline").read_bytes().split(b"\0")
    assert any(part.endswith(b"gunicorn") for part in command), command
    assert b"uvicorn_worker.UvicornWorker" in command, command
    # The web client's static files, served by WhiteNoise without collectstatic (DEBUG on).
    assert httpx.get(f"{make_run.url}/", timeout=5).status_code == 200


def test_when_the_web_server_exits_everything_stops_with_a_failure(make_run: Serve) -> None:
    (web_pid,) = make_run.started("web")
    (worker_pid,) = make_run.started("worker")

    os.kill(web_pid, signal.SIGKILL)

    # The supervisor notices within a poll and gives the worker its stop timeout (10 s).
    assert make_run.exit_status(timeout=20) == 128 + signal.SIGKILL
    assert "web exited (killed by SIGKILL); stopping everything" in make_run.log_tail()
    assert group_gone(worker_pid), "the worker or its beat outlived the supervisor"
    assert group_gone(web_pid), "a gunicorn worker outlived its master"


def test_sigterm_stops_make_run_with_status_0(make_run: Serve) -> None:
    (web_pid,) = make_run.started("web")
    (worker_pid,) = make_run.started("worker")
    assert make_run.process is not None

    make_run.process.send_signal(signal.SIGTERM)

    assert make_run.exit_status(timeout=20) == 0
    assert "SIGTERM received; stopping everything" in make_run.log_tail()
    assert group_gone(worker_pid)
    assert group_gone(web_pid)
    # The worker stopped cleanly, so it removed its heartbeat row instead of leaving it to age.
    with sqlite3.connect(make_run.env["SQLITE_PATH"]) as db:
        assert db.execute("SELECT count(*) FROM ops_workerheartbeat").fetchone() == (0,)


# ------------------------------------------------------- real workers on PostgreSQL
@pytest.mark.postgres
def test_health_turns_503_when_the_worker_stops_and_200_when_it_returns(
    fault_env, tmp_path
) -> None:
    env = {**fault_env, **SHORT_LIMITS}
    worker = Worker(env, tmp_path / "worker.log")
    worker.start()
    try:
        with running(WebServer(env, tmp_path)) as web:
            wait_for(lambda: health(web.url)[0] == 200, WORKER_START, "a fresh worker and beat")
            # A clean stop removes the worker's row at once.
            worker.stop()
            wait_for(lambda: health(web.url)[0] == 503, 5, "503 after a clean stop")
            assert health(web.url)[1]["workers"] == "missing"

            worker.start()
            wait_for(lambda: health(web.url)[0] == 200, WORKER_START, "200 with the worker back")

            # A killed worker leaves its row to age: 503 once it is older than the limit.
            assert worker.process is not None
            killed_pid = worker.process.pid
            worker.kill()
            killed_at = time.monotonic()
            # (The beat may go stale first: a worker just started may not have swept yet.)
            wait_for(
                lambda: health(web.url)[1].get("workers") == "stale",
                WORKER_MAX_AGE + HEARTBEAT_SECONDS + 2,
                "the killed worker's heartbeat to go stale",
            )
            took = time.monotonic() - killed_at
            status, body = health(web.url)
            assert (status, body["status"], body["workers"]) == (503, "error", "stale")
            assert body["worker_heartbeats"][0]["pid"] == killed_pid
            assert body["worker_heartbeats"][0]["age_seconds"] >= WORKER_MAX_AGE
            print(f"503 {took:.1f} s after the kill (limit {WORKER_MAX_AGE} s)")

            worker.start()
            wait_for(lambda: health(web.url)[0] == 200, WORKER_START, "200 with a new worker")
            assert health(web.url)[1]["worker_heartbeats"][0]["pid"] == worker.process.pid
    finally:
        worker.stop()
        print(worker.log_tail())


@pytest.fixture
def shared_broker_env(transactional_db) -> dict[str, str]:
    """The test database and this run's Redis, so a game this process creates queues its
    AI turns to the worker under test."""
    if not settings.REDIS_URL:
        pytest.fail("REDIS_URL must point at the Redis server for this test")
    import redis

    redis.Redis.from_url(settings.REDIS_URL).flushdb()
    return {
        **service_env(database_url(), settings.REDIS_URL),
        **SHORT_LIMITS,
        "AI_STUCK_SECONDS": "2",
        # Slow enough that the worker dies in the middle of the game.
        "AI_MOVE_DELAY_MS": "150",
    }


def _moves(game_id: int) -> int:
    return Move.objects.filter(game_id=game_id).count()


def _worker_pids() -> set[int]:
    return set(WorkerHeartbeat.objects.values_list("pid", flat=True))


@pytest.mark.postgres
def test_the_supervisor_restarts_a_killed_worker_and_the_ai_game_loses_no_move(
    shared_broker_env, tmp_path
) -> None:
    serve = Serve(shared_broker_env, tmp_path)
    with running(serve):
        (first_pid,) = serve.started("worker")
        game = lobby.game_create(
            user("host"), board="europe", seats=[lobby.SeatSpec("ai", level="random")] * 2
        )
        wait_for(lambda: _moves(game.pk) >= 10, 60, "AI moves on the first worker")
        assert _worker_pids() == {first_pid}

        os.kill(first_pid, signal.SIGKILL)  # the worker's main process, as an OOM kill would
        made = _moves(game.pk)

        wait_for(lambda: len(serve.started("worker")) == 2, 10, "the supervisor's restart")
        assert re.search(
            rf"worker \(pid {first_pid}\) exited \(killed by SIGKILL\) after [\d.]+ s; "
            r"restarting in 1 s",
            serve.log_tail(10**6),
        )
        second_pid = serve.started("worker")[1]
        assert group_gone(first_pid), "the killed worker's embedded beat lives on"
        wait_for(lambda: second_pid in _worker_pids(), WORKER_START, "the new worker's heartbeat")
        assert Game.objects.get(pk=game.pk).status == "active"

        wait_for(
            lambda: Game.objects.get(pk=game.pk).status == "finished",
            240,
            "the AI game to finish on the restarted worker",
        )
        stored = Game.objects.get(pk=game.pk)
        numbers = list(Move.objects.filter(game=stored).values_list("number", flat=True))
        assert len(numbers) > made
        assert numbers == list(range(1, len(numbers) + 1))
        assert len(numbers) == stored.state["action_count"]
        assert check_game(stored) == []
        # With the game over the worker is free to sweep again: healthy, on the new pid.
        wait_for(lambda: serve.health()[0] == 200, WORKER_START, "health 200 after the game")
        assert serve.health()[1]["worker_heartbeats"][0]["pid"] == second_pid

        assert serve.process is not None
        serve.process.send_signal(signal.SIGTERM)
        assert serve.exit_status(timeout=20) == 0
        assert group_gone(second_pid)
