"""Quick match benchmark: seekers arriving over a minute, paired by real Celery workers.

    .venv/bin/python bench/matchmaking.py [--seekers 1000] [--seconds 60] [--workers 2]
        [--database postgres://postgres@127.0.0.1:5432/ttr_bench_matchmaking]

On PostgreSQL (the database is dropped and made again; its name must start with
``ttr_bench``) and a private redis-server, with ``--workers`` Celery workers (each with its
embedded beat, of which one sends at a time). The seekers' seeks are made at an even rate
over ``--seconds`` by this process through the service's own command (``seek_create``, the
one ``POST /seeks`` calls, which queues the pairing on commit), on Europe at one minute a
move, half rated and half casual, each with one of the player ranges 2-2, 2-4, 2-5 and
3-5. This process polls the seeks every 20 ms and times each from its making to the moment
it reads it matched.

Prints a few lines, then one JSON object on its last line: the seek-to-game time in ms
(p50/p95/max) over every matched seek, and over the seeks that completed a table
("completing": the newest seek of each game, for which compatible seeks were waiting;
target p95 < 2000 ms), the seeks matched and still waiting, errors (a seek refused, a task
failed on a worker), and seeks paired twice (a player seated in two games, or a game whose
seats are not exactly its seekers; must be 0).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)  # the repository, not bench/: `import matchmaking` is the app

from tests.processes import Process, RedisServer, Worker  # noqa: E402

RANGES = [(2, 2), (2, 4), (2, 5), (3, 5)]
POLL_SECONDS = 0.02
TARGET_P95_MS = 2000


def recreate_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    if not name.startswith("ttr_bench"):
        raise SystemExit(f"refusing to drop {name!r}: the benchmark database must be ttr_bench*")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _times(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"count": 0, "p50_ms": None, "p95_ms": None, "max_ms": None}
    return {
        "count": len(values),
        "p50_ms": round(statistics.median(values)),
        "p95_ms": round(_percentile(values, 0.95)),
        "max_ms": round(max(values)),
    }


class Seeking:
    """Makes the seeks at an even rate on a thread of its own; remembers when each was
    made."""

    def __init__(self, users: list[Any], seconds: float) -> None:
        self.users = users
        self.seconds = seconds
        self.made: dict[int, float] = {}
        self.errors: list[str] = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        from django.db import connection

        from matchmaking.seeks import seek_create

        start = time.monotonic()
        gap = self.seconds / max(len(self.users), 1)
        for i, user in enumerate(self.users):
            delay = start + i * gap - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            low, high = RANGES[i % len(RANGES)]
            try:
                made = seek_create(
                    user,
                    board="europe",
                    players_min=low,
                    players_max=high,
                    turn_time_limit=60,
                    rated=(i // len(RANGES)) % 2 == 0,
                )
            except Exception as exc:  # a figure of the run
                self.errors.append(repr(exc))
                continue
            with self.lock:
                self.made[made.pk] = time.monotonic()
        connection.close()


def watch(seeking: Seeking, drain: float) -> dict[int, float]:
    """The moment each seek was first read matched, until every made seek is matched or
    ``drain`` seconds passed after the last one was made."""
    from matchmaking.models import Seek, SeekStatus

    seen: dict[int, float] = {}
    deadline: float | None = None
    while True:
        with seeking.lock:
            pending = [pk for pk in seeking.made if pk not in seen]
        if pending:
            matched = Seek.objects.filter(pk__in=pending, status=SeekStatus.MATCHED)
            now = time.monotonic()
            for pk in matched.values_list("pk", flat=True):
                seen[pk] = now
        if not seeking.thread.is_alive():
            deadline = deadline or time.monotonic() + drain
            if len(seen) == len(seeking.made) or time.monotonic() > deadline:
                return seen
        time.sleep(POLL_SECONDS)


def paired_twice() -> int:
    """Players seated in two games, plus games whose seats are not exactly their seekers."""
    from collections import Counter

    from games.models import Seat
    from matchmaking.models import Seek

    seated = Counter(Seat.objects.values_list("user_id", flat=True))
    twice = sum(1 for n in seated.values() if n > 1)
    by_game: dict[int, set[int]] = {}
    for game_id, user_id in Seek.objects.filter(game__isnull=False).values_list(
        "game_id", "user_id"
    ):
        by_game.setdefault(game_id, set()).add(user_id)
    seats: dict[int, set[int]] = {}
    for game_id, user_id in Seat.objects.values_list("game_id", "user_id"):
        seats.setdefault(game_id, set()).add(user_id)
    return twice + sum(1 for g, users in by_game.items() if seats.get(g) != users)


def worker_failures(logs: list[Path]) -> int:
    return sum(
        log.read_text(errors="replace").count("raised unexpected") for log in logs if log.exists()
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--seekers", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=60, help="the seeks are made over this time")
    p.add_argument("--workers", type=int, default=2, help="Celery worker processes")
    p.add_argument("--drain", type=float, default=15, help="seconds to wait after the last seek")
    p.add_argument(
        "--database",
        default="postgres://postgres@127.0.0.1:5432/ttr_bench_matchmaking",
        help="PostgreSQL URL of the benchmark database (dropped and created again)",
    )
    args = p.parse_args()
    folder = ROOT / "var" / "bench" / "matchmaking"
    folder.mkdir(parents=True, exist_ok=True)
    recreate_database(args.database)
    processes: list[Process] = []
    redis = RedisServer(folder)
    env = {
        **os.environ,
        "DATABASE_URL": args.database,
        "REDIS_URL": redis.url,
        "DEBUG": "false",
        "SECRET_KEY": "bench-only-" + "k" * 48,
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    logs = [folder / f"worker{i}.log" for i in range(args.workers)]
    for log in logs:
        log.unlink(missing_ok=True)
    try:
        redis.start()
        processes.append(redis)
        os.environ.update(env)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_service.settings")
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        model = get_user_model()
        users = model.objects.bulk_create(
            [model(username=f"seeker{i}") for i in range(args.seekers)]
        )
        for log in logs:
            worker = Worker(env, log, loglevel="info")
            worker.start()
            processes.append(worker)
        time.sleep(3)  # the workers connect to the broker
        seeking = Seeking(users, args.seconds)
        print(f"{args.seekers} seekers over {args.seconds:g} s, {args.workers} workers")
        seeking.thread.start()
        seen = watch(seeking, args.drain)
        figures = report(seeking, seen, logs)
    finally:
        for process in reversed(processes):
            process.stop()
    print(json.dumps(figures))


def report(seeking: Seeking, seen: dict[int, float], logs: list[Path]) -> dict[str, Any]:
    from matchmaking.models import Seek

    waits = {pk: (seen[pk] - made) * 1000 for pk, made in seeking.made.items() if pk in seen}
    newest: dict[int, int] = {}
    for pk, game_id in Seek.objects.filter(pk__in=list(waits)).values_list("pk", "game_id"):
        if game_id is not None and seeking.made[pk] > seeking.made.get(newest.get(game_id, 0), 0):
            newest[game_id] = pk
    completing = [waits[pk] for pk in newest.values()]
    every = _times(list(waits.values()))
    completing_times = _times(completing)
    print(f"every matched seek: {every}")
    print(f"completing seeks:   {completing_times}")
    return {
        "seekers": len(seeking.users),
        "seeks_made": len(seeking.made),
        "matched": len(waits),
        "still_waiting": len(seeking.made) - len(waits),
        "games": len(newest),
        "seek_to_game": every,
        "completing": completing_times,
        "errors": len(seeking.errors) + worker_failures(logs),
        "paired_twice": paired_twice(),
        "targets": {"completing_p95_ms": TARGET_P95_MS},
        "met": completing_times["p95_ms"] is not None
        and completing_times["p95_ms"] < TARGET_P95_MS,
    }


if __name__ == "__main__":
    main()
