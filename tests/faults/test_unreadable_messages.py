"""Unreadable files among the embedded broker's messages never stop the worker.

A real Celery worker (solo pool, embedded beat) runs on the embedded default: no
DATABASE_URL or REDIS_URL, a SQLite file and the filesystem transport of
ttr_service/tasks/broker_files.py. ``bench.latency_settings`` moves the transport's folders from the
checkout's var/celery/ into this test's folder (so no other worker of the checkout takes its
messages), and the test reads the shared SQLite file itself. While AI-only games play, empty,
garbage and truncated files are dropped among the messages: every game must finish, the
worker must live on, and every bad file must end in unreadable/ beside the messages.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

from tests.processes import ROOT, Worker, running, wait_for
from ttr_service.tasks import broker_files

GAMES = 4
# Every wait is bounded: the games must finish within this many seconds of their creation.
GAMES_SECONDS = 60
# And every bad file must be set aside within this many seconds of the games' end.
SET_ASIDE_SECONDS = 30

BAD = {
    "empty": b"",
    "garbage": b"\x00\xff not json at all \x81",
    "truncated": b'{"body": "W1syXSwge30sIHt9XQ==", "content-encoding": "utf-8", "headers": {"lan',
}

CREATE_GAMES = f"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from django.db import transaction
from games.commands import lobby
host = get_user_model().objects.create_user("host", password="a-long-Passphrase-42")
ids = []
for _ in range({GAMES}):
    # Committed, so the AI seats' task is queued through the embedded broker.
    with transaction.atomic():
        game = lobby.game_create(
            host, board="europe", seats=[lobby.SeatSpec("ai", level="random")] * 2
        )
    ids.append(game.pk)
print(json.dumps(ids))
"""


def embedded_env(folder: Path) -> dict[str, str]:
    drop = {"DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "DJANGO_SETTINGS_MODULE"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    path = env.get("PYTHONPATH")
    env.update(
        {
            "PYTHONPATH": str(ROOT) + (os.pathsep + path if path else ""),
            "DJANGO_SETTINGS_MODULE": "bench.latency_settings",
            "SQLITE_PATH": str(folder / "db.sqlite3"),
            "BENCH_CELERY_DIR": str(folder / "celery"),
            # A lost message would leave its game to the sweep's re-queue; none may need it.
            "AI_STUCK_SECONDS": "600",
            # One host holds every game of AI seats here.
            "MAX_BOT_ONLY_GAMES_PER_USER": str(GAMES),
        }
    )
    return env


def python(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def statuses(database: Path, ids: list[int]) -> dict[int, str]:
    with sqlite3.connect(database, timeout=10) as conn:
        rows = conn.execute(
            f"SELECT id, status FROM games_game WHERE id IN ({','.join('?' * len(ids))})", ids
        ).fetchall()
    conn.close()
    return dict(rows)


def drop_bad_files(messages: Path, first: bool) -> list[str]:
    """One file of each kind, under names the reader lists for the worker's queue.

    The first round's names sort before every message (the head of the queue), later ones
    among the messages being sent (kombu's names start with monotonic milliseconds).
    """
    names = []
    for content in BAD.values():
        order = 0 if first else round(time.monotonic() * 1000)
        name = f"{order}_{uuid.uuid4()}.celery.msg"
        (messages / name).write_bytes(content)
        names.append(name)
    return names


def test_unreadable_files_are_set_aside_while_the_worker_plays_on(tmp_path: Path) -> None:
    env = embedded_env(tmp_path)
    messages = tmp_path / "celery" / "messages"
    unreadable = tmp_path / "celery" / "unreadable"
    python(env, "manage.py", "migrate", "--verbosity", "0")
    assert messages.is_dir()

    with running(Worker(env, tmp_path / "worker.log")) as worker:
        assert worker.process is not None

        def ready() -> bool:
            assert worker.process is not None
            assert worker.process.poll() is None, "the worker exited while starting"
            return " ready." in worker.log_tail(100_000)

        wait_for(ready, 60, "the worker to start")
        assert f"transport:   {broker_files.__name__}:Transport" in worker.log_tail(100_000)

        dropped = drop_bad_files(messages, first=True)
        ids = json.loads(python(env, "-c", CREATE_GAMES).strip().splitlines()[-1])
        assert len(ids) == GAMES

        database = tmp_path / "db.sqlite3"
        deadline = time.monotonic() + GAMES_SECONDS
        rounds = 0
        while set(statuses(database, ids).values()) != {"finished"}:
            assert worker.process.poll() is None, "the worker exited"
            assert time.monotonic() < deadline, (
                f"games not finished after {GAMES_SECONDS}s: {statuses(database, ids)}"
            )
            if rounds < 10:
                dropped += drop_bad_files(messages, first=False)
                rounds += 1
            time.sleep(0.3)
        assert rounds >= 1, "the games finished before any file was dropped among them"

        def all_set_aside() -> bool:
            assert worker.process is not None
            assert worker.process.poll() is None, "the worker exited"
            return not set(dropped) & set(os.listdir(messages))

        wait_for(all_set_aside, SET_ASIDE_SECONDS, "the bad files to be set aside")
        assert worker.process.poll() is None
        log = worker.log_tail(1_000_000)

    assert sorted(os.listdir(unreadable)) == sorted(dropped)
    contents = sorted(BAD.values()) * (len(dropped) // len(BAD))
    assert sorted((unreadable / name).read_bytes() for name in dropped) == sorted(contents)
    for name in dropped:
        said = [
            line for line in log.splitlines() if f"Unreadable message file {name} set aside" in line
        ]
        assert len(said) == 1 and "WARNING" in said[0], said
    # Nothing the producers wrote was left behind half written.
    assert [n for n in os.listdir(messages) if n.endswith(broker_files.PARTIAL_SUFFIX)] == []
    integrity = json.loads(
        python(env, "manage.py", "check_integrity", "--json", *[f"--game={g}" for g in ids])
    )
    assert integrity["problems"] == []
