"""One request of each hot kind, in process: time, queries, and (optionally) a profile.

    .venv/bin/python bench/request_profile.py [--repeat 200] [--profile view_304]

Uses Django's test client (no HTTP server, no network) against a fresh PostgreSQL
database (``--database``, by default ``ttr_bench_profile`` on 127.0.0.1, dropped and
created again) or, with ``--database sqlite:///PATH``, the embedded default on a fresh
SQLite file at PATH, with real tokens in ``Authorization`` headers, so authentication
counts. No worker runs: the tasks the moves queue go to the embedded broker's folder under
``var/bench/request_profile/`` (its ``VAR_DIR``, emptied at the start), and stay there.
The kinds: ``live`` (the liveness probe, which asks nothing of the database or the cache:
what the stack itself costs a request), ``health`` (the readiness check: the database, the
broker and the heartbeats), ``view_200`` (a whole game view, as the players
get it after a move: rendered when the move was made), ``view_render`` (the same view
rendered for the request: the cache emptied before each), ``view_304`` (a poll whose
``If-None-Match`` matches), ``legal_actions``, and ``move`` (the seat to move draws a
blind card or plays its first legal action, with ``If-Match``).

Prints, per kind, the queries of one request, the median / p95 time in process and the
median CPU time of this process (the web server's share of the request: not the
database's, nor the time waiting for it), then one JSON object on its last line.
``--profile KIND`` adds cProfile's most expensive functions for that kind (30, or
``PROFILE_LINES``; ``--sort``: cumulative or tottime), ``--queries KIND`` its SQL.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import shutil
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# bench.load, from the repository.
sys.path.insert(0, str(ROOT))

from bench.load import recreate_database  # noqa: E402

KINDS = ("live", "health", "view_200", "view_render", "view_304", "legal_actions", "move")
SQLITE = "sqlite:///"


def fresh_database(database: str) -> None:
    """Drop and create the PostgreSQL database, or delete the SQLite file."""
    if not database.startswith(SQLITE):
        recreate_database(database)
        return
    path = Path(database.removeprefix(SQLITE))
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)


def setup(database: str) -> None:
    # A folder of its own: no worker runs here, so the tasks its moves queue on the
    # embedded broker stay there instead of waiting for the checkout's next worker.
    folder = ROOT / "var" / "bench" / "request_profile"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    os.environ["VAR_DIR"] = str(folder)
    if database.startswith(SQLITE):
        os.environ.pop("DATABASE_URL", None)
        os.environ["SQLITE_PATH"] = database.removeprefix(SQLITE)
    else:
        os.environ["DATABASE_URL"] = database
    os.environ.update(
        {
            "DEBUG": "false",
            # No worker runs here: health answers for the web process and its database.
            "HEALTH_REQUIRE_WORKERS": "false",
            "SECRET_KEY": "bench-only-" + "k" * 48,
            "SECURE_SSL_REDIRECT": "false",
            "ALLOWED_HOSTS": "testserver",
            "THROTTLE_USER_RATE": "1000000/min",
            "THROTTLE_ANON_RATE": "1000000/min",
            "DJANGO_SETTINGS_MODULE": "ttr_service.settings",
        }
    )
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def make_game(number: int = 0) -> tuple[int, list[str]]:
    """A started 4-player Europe game past the initial ticket choice, and its tokens
    (``number`` tells the players of one game from those of the next)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from accounts.services import token_issue
    from games.commands import lobby

    model = get_user_model()
    users = [
        model.objects.create_user(f"player{number}-{i}", password="a-long-bench-password")
        for i in range(4)
    ]
    keys = [token_issue(u, name="bench")[1] for u in users]
    seats = [lobby.SeatSpec("creator")] + [lobby.SeatSpec("open")] * 3
    game = lobby.game_create(users[0], board="europe", seats=seats, first_seat=0)
    for guest in users[1:]:
        lobby.game_join(guest, game.pk)
    client, url = Client(), f"/api/v1/games/{game.pk}"
    for key in keys:
        auth = {"HTTP_AUTHORIZATION": f"Token {key}"}
        view = client.get(url, **auth).json()
        offered = [t["id"] for t in view["state"]["you"]["offered_tickets"]]
        body = {"version": view["version"], "action": {"type": "keep_tickets", "tickets": offered}}
        moved = client.post(
            f"{url}/actions", json.dumps(body), content_type="application/json", **auth
        )
        if moved.status_code != 200:
            raise SystemExit(f"initial tickets: {moved.status_code} {moved.content!r}")
    return game.pk, keys


class Runner:
    def __init__(self, game_id: int, keys: list[str]) -> None:
        from django.test import Client

        self.game_id = game_id
        self.keys = keys
        self.games = 1
        self.client = Client()
        self.url = f"/api/v1/games/{game_id}"

    def _auth(self, seat: int) -> dict[str, str]:
        return {"HTTP_AUTHORIZATION": f"Token {self.keys[seat]}"}

    def _to_move(self) -> int:
        """The seat to move; a new game when this one is over (a few hundred moves)."""
        from games.models import Seat

        waiting = Seat.objects.filter(game_id=self.game_id, pending=True).order_by("index")
        if not waiting:
            self.games += 1
            self.game_id, self.keys = make_game(self.games)
            self.url = f"/api/v1/games/{self.game_id}"
            return self._to_move()
        return waiting[0].index

    def prepare(self, kind: str) -> Any:
        """What one request of ``kind`` needs, made outside the timed part."""
        if kind == "view_304":
            tag = self.client.get(self.url, **self._auth(0))["ETag"]
            return tag
        if kind == "view_render":
            from django.core.cache import cache

            from games import rendering

            cache.clear()
            rendering.recent.clear()
            return None
        if kind == "move":
            seat = self._to_move()
            legal = self.client.get(f"{self.url}/legal-actions", **self._auth(seat)).json()
            actions = legal["actions"]
            action = next((a for a in actions if a["type"] == "draw_blind"), actions[0])
            return seat, legal["version"], action
        return None

    def request(self, kind: str, prepared: Any) -> int:
        c = self.client
        if kind == "live":
            return c.get("/api/v1/health/live").status_code
        if kind == "health":
            return c.get("/api/v1/health").status_code
        if kind in ("view_200", "view_render"):
            return c.get(self.url, **self._auth(0)).status_code
        if kind == "view_304":
            return c.get(self.url, HTTP_IF_NONE_MATCH=prepared, **self._auth(0)).status_code
        if kind == "legal_actions":
            return c.get(f"{self.url}/legal-actions", **self._auth(0)).status_code
        seat, version, action = prepared
        return c.post(
            f"{self.url}/actions",
            json.dumps({"action": action}),
            content_type="application/json",
            HTTP_IF_MATCH=str(version),
            **self._auth(seat),
        ).status_code


def measure(runner: Runner, kind: str, repeat: int) -> dict[str, Any]:
    from django.db import connection

    expected = {"view_304": 304}.get(kind, 200)
    prepared = runner.prepare(kind)
    queries: list[str] = []

    def count(execute: Any, sql: str, *args: Any) -> Any:
        queries.append(sql)
        return execute(sql, *args)

    with connection.execute_wrapper(count):
        status = runner.request(kind, prepared)
    if status != expected:
        raise SystemExit(f"{kind}: status {status}, expected {expected}")
    times, cpu = [], []
    for _ in range(repeat):
        prepared = runner.prepare(kind)
        start, start_cpu = time.perf_counter(), time.process_time()
        status = runner.request(kind, prepared)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        if status != expected:
            raise SystemExit(f"{kind}: status {status}, expected {expected}")
    times.sort()
    cpu.sort()
    return {
        "queries": len(queries),
        "p50_ms": round(times[len(times) // 2], 3),
        "p95_ms": round(times[int(len(times) * 0.95)], 3),
        "cpu_p50_ms": round(cpu[len(cpu) // 2], 3),
    }


def profile(runner: Runner, kind: str, repeat: int, order: str) -> str:
    profiler = cProfile.Profile()
    for _ in range(repeat):
        prepared = runner.prepare(kind)
        profiler.enable()
        runner.request(kind, prepared)
        profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(
        int(os.environ.get("PROFILE_LINES", "30"))
    )
    return out.getvalue()


def show_queries(runner: Runner, kind: str) -> list[str]:
    from django.db import connection

    queries: list[str] = []

    def count(execute: Any, sql: str, *args: Any) -> Any:
        queries.append(sql[:150])
        return execute(sql, *args)

    prepared = runner.prepare(kind)
    with connection.execute_wrapper(count):
        runner.request(kind, prepared)
    return queries


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--repeat", type=int, default=200, help="requests timed per kind")
    p.add_argument("--profile", choices=KINDS, action="append", default=[])
    p.add_argument("--sort", default="cumulative", help="profile order: cumulative, tottime…")
    p.add_argument("--queries", choices=KINDS, action="append", default=[], help="list the SQL")
    p.add_argument(
        "--database",
        default="postgres://postgres@127.0.0.1:5432/ttr_bench_profile",
        help="PostgreSQL URL of the benchmark database (dropped and created again), or "
        "sqlite:///PATH for a fresh SQLite file",
    )
    args = p.parse_args()
    fresh_database(args.database)
    setup(args.database)
    runner = Runner(*make_game())
    results = {kind: measure(runner, kind, args.repeat) for kind in KINDS}
    print(f"{'request':<15}{'queries':>8}{'p50 ms':>10}{'p95 ms':>10}{'cpu p50 ms':>12}")
    for kind, r in results.items():
        print(
            f"{kind:<15}{r['queries']:>8}{r['p50_ms']:>10.3f}{r['p95_ms']:>10.3f}"
            f"{r['cpu_p50_ms']:>12.3f}"
        )
    for kind in args.queries:
        print(f"\n--- queries: {kind}")
        for sql in show_queries(runner, kind):
            print("  " + sql)
    for kind in args.profile:
        print(f"\n--- profile: {kind} ({args.repeat} requests)")
        print(profile(runner, kind, args.repeat, args.sort))
    print(json.dumps({"repeat": args.repeat, "requests": results}))


if __name__ == "__main__":
    main()
