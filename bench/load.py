"""Load benchmark: the production-style server under many concurrent games, on the loopback.

    .venv/bin/python bench/load.py [--games 50] [--seconds 60] [--workers 8] [--threads 1]

Starts everything itself: a private ``redis-server`` on a free port (broker and cache),
a fresh PostgreSQL database (``--database``, by default ``ttr_bench`` on 127.0.0.1, dropped
and created again), gunicorn (gthread workers, DEBUG off) and one Celery worker. Users and
tokens are made beforehand through the services, like a management command would. Then,
with an asyncio client (aiohttp, which costs the shared cores far less CPU a request than
httpx's async client):

1. ``ceiling``: ``--games`` clients call ``GET /health/live`` (the liveness probe: a DRF
   view that asks nothing of the database, the cache or the broker) in a closed loop for
   ``--burst-seconds``: what the web server itself costs a request;
2. ``view``: the same number of clients fetch a whole game view (``GET /games/{id}``, 200);
3. ``moves``: one driver per game plays whichever seat must move, back to back
   (``GET /legal-actions``, then ``POST /actions`` with ``If-Match``);
4. ``play`` (``--seconds``): ``--games`` games of 4 clients each; every client polls its
   game view with ``If-None-Match`` every ``--poll`` seconds and, when it is its turn,
   asks for its legal actions and posts one (after ``--think`` seconds, 0 by default: bots
   that answer at once, so each game has one client moving back to back). Requests that
   start in its first ``--opening`` seconds (10) are reported apart as ``opening``: all
   50 games start in the same second, every client fetches its first whole view and every
   seat chooses its tickets at once, a burst a service does not see in steady play.

Prints a table (requests, requests/s, p50/p95/p99 ms, errors per endpoint and phase) and
one JSON object on its last line. An error is a transport failure, a 5xx, or a 4xx other
than a 412 on a version another seat moved past (counted as ``conflicts``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.processes import (  # noqa: E402
    BENCH_ENV,
    Process,
    RedisServer,
    WebServer,
    Worker,
    free_port,
)


# ---------------------------------------------------------------------------- processes
class Stack:
    """redis-server, gunicorn and a Celery worker, each in its own process group."""

    def __init__(self, args: argparse.Namespace, folder: Path) -> None:
        self.args = args
        self.folder = folder
        self.processes: list[Process] = []
        self.redis = RedisServer(folder)
        self.web_port = free_port()
        self.url = f"http://127.0.0.1:{self.web_port}/api/v1"
        self.env = {
            **os.environ,
            "DATABASE_URL": args.database,
            "REDIS_URL": self.redis.url,
            **BENCH_ENV,
        }

    def _start(self, process: Process) -> None:
        self.processes.append(process)
        process.start()

    def start_redis(self) -> None:
        self._start(self.redis)

    def start_services(self) -> None:
        self._start(Worker(self.env, self.folder / "worker.log", loglevel="warning"))
        web = WebServer(
            self.env,
            self.folder,
            workers=self.args.workers,
            threads=self.args.threads,
            worker_class=self.args.worker_class,
            # Longer than the client keeps an idle connection (aiohttp: 15 s), so the
            # server never closes one the client is about to reuse.
            options=("--backlog", "2048", "--keep-alive", "30"),
            port=self.web_port,
        )
        self._start(web)

    def web_pgid(self) -> int | None:
        # Each process is spawned in a new session, so its pid is its process group.
        for process in self.processes:
            if isinstance(process, WebServer) and process.process is not None:
                return process.process.pid
        return None

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.stop()


def _proc_stats() -> dict[int, list[str]]:
    """Each live process's /proc stat fields after its command name (state, ppid, pgrp…)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                found[int(entry.name)] = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
    return found


def _cpu(fields: list[str]) -> int:
    return int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks


def group_cpu_seconds(pgid: int) -> float:
    """CPU time (user + system) used so far by the live processes of one process group."""
    ticks = sum(_cpu(f) for f in _proc_stats().values() if int(f[2]) == pgid)
    return ticks / os.sysconf("SC_CLK_TCK")


def database_cpu_seconds(database: str) -> float:
    """CPU time of the PostgreSQL backends connected to the benchmark database."""
    import psycopg

    name = database.rsplit("/", 1)[1]
    admin = database.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        pids = {
            row[0]
            for row in conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [name])
        }
    stats = _proc_stats()
    return sum(_cpu(stats[pid]) for pid in pids if pid in stats) / os.sysconf("SC_CLK_TCK")


class CpuMeter:
    """CPU seconds of the client (this process) and of the web server over one phase."""

    def __init__(self, web_pgid: int | None, database: str) -> None:
        self.web_pgid = web_pgid
        self.database = database
        self.used: dict[str, dict[str, float]] = {}

    def _now(self) -> tuple[float, float, float, float]:
        web = group_cpu_seconds(self.web_pgid) if self.web_pgid else 0.0
        # Backends live on between requests (CONN_MAX_AGE), so their counters span a phase.
        db = database_cpu_seconds(self.database)
        return time.monotonic(), time.process_time(), web, db

    @contextlib.contextmanager
    def phase(self, name: str) -> Any:
        wall0, client0, web0, db0 = self._now()
        yield
        wall1, client1, web1, db1 = self._now()
        wall = wall1 - wall0
        self.used[name] = {
            "client_cores": round((client1 - client0) / wall, 2),
            "web_cores": round((web1 - web0) / wall, 2),
            "db_cores": round(max(db1 - db0, 0.0) / wall, 2),
        }


def recreate_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    if not (name.startswith("ttr_bench") or name.endswith("_bench")):
        raise SystemExit(
            f"refusing to drop {name!r}: the benchmark database must be ttr_bench* or *_bench"
        )
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        # Never from under another run: one that started on this database would see its
        # tokens refused (401) or its database gone (503) for the rest of its phases.
        try:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        except psycopg.errors.ObjectInUse:
            raise SystemExit(
                f"{name} is in use (another run of a benchmark on it?): wait for it, or "
                "give this run a database of its own with --database"
            ) from None
        conn.execute(f'CREATE DATABASE "{name}"')


def prepare(stack: Stack, games: int) -> dict[str, list[dict[str, Any]]]:
    """Migrate, then make 4 users (with tokens) per game and start the games."""
    os.environ.update(stack.env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ttr_service.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command

    from accounts.services import token_issue
    from games.commands import lobby

    call_command("migrate", verbosity=0)
    model = get_user_model()
    password = make_password("a-long-bench-password")
    users = model.objects.bulk_create(
        [model(username=f"bench{i}", password=password) for i in range(8 * games)]
    )
    keys = {u.pk: token_issue(u, name="bench")[1] for u in users}
    made: dict[str, list[dict[str, Any]]] = {"moves": [], "play": []}
    for phase in made:
        for g in range(games):
            four = users[:4]
            users = users[4:]
            seats = [lobby.SeatSpec("creator")] + [lobby.SeatSpec("open")] * 3
            game = lobby.game_create(four[0], board="europe", seats=seats, first_seat=0)
            for guest in four[1:]:
                lobby.game_join(guest, game.pk)
            made[phase].append({"id": game.pk, "tokens": [keys[u.pk] for u in four], "n": g})
    return made


# ---------------------------------------------------------------------------- client
@dataclass
class Reply:
    status_code: int
    headers: Mapping[str, str]  # case-insensitive, as aiohttp gives them
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Client:
    """The few calls the phases make, over one aiohttp session with kept-alive connections."""

    def __init__(self, base_url: str, connections: int) -> None:
        self.base_url = base_url
        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=connections, keepalive_timeout=15),
            timeout=aiohttp.ClientTimeout(total=30),
        )

    async def _send(self, method: str, path: str, **kwargs: Any) -> Reply:
        async with self.session.request(method, self.base_url + path, **kwargs) as response:
            body = await response.read()
            return Reply(response.status, response.headers.copy(), body)

    def get(self, path: str, headers: dict[str, str]) -> Any:
        return self._send("GET", path, headers=headers)

    def post(self, path: str, json: dict[str, Any], headers: dict[str, str]) -> Any:
        return self._send("POST", path, json=json, headers=headers)

    async def close(self) -> None:
        await self.session.close()


def failure_of(exc: BaseException) -> str:
    """What a transport failure was: its class, and its errno when the system gave one
    (``ClientOSError [Errno 104]`` is a connection reset by the peer)."""
    errno = getattr(exc, "errno", None)
    return type(exc).__name__ + (f" [Errno {errno}]" if errno else "")


@dataclass
class Failures:
    """The errors of one kind (a status or a transport failure) on one endpoint."""

    count: int = 0
    first: float = 0.0  # time.monotonic() of the first and the last
    last: float = 0.0
    sample: str = ""  # the first one's message or problem code


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    conflicts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    # What went wrong, by endpoint and kind: ("move", "500"), ("view", "ServerDisconnectedError").
    failures: dict[tuple[str, str], Failures] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def failed(self, name: str, kind: str, sample: str) -> None:
        self.errors[name] += 1
        now = time.monotonic()
        found = self.failures.setdefault((name, kind), Failures(first=now, sample=sample[:200]))
        found.count += 1
        found.last = now

    async def call(
        self, name: str, request: Any, ok: tuple[int, ...] = (200,), by_status: bool = False
    ) -> Reply | None:
        """Time one request; ``by_status`` files it under ``name (status)``."""
        started = time.perf_counter()
        try:
            response = await request
        except (aiohttp.ClientError, TimeoutError) as exc:
            self.failed(name, failure_of(exc), str(exc) or repr(exc))
            return None
        if by_status:
            name = f"{name} ({response.status_code})"
        self.latencies[name].append((time.perf_counter() - started) * 1000)
        if response.status_code == 412:
            self.conflicts[name] += 1
        elif response.status_code not in ok:
            self.failed(name, str(response.status_code), _problem_code(response))
        return response


def _problem_code(response: Reply) -> str:
    try:
        return str(response.json().get("code", ""))
    except (ValueError, AttributeError):
        return response.body[:200].decode(errors="replace")


class Split:
    """Files a request under ``first`` when it starts before ``until``, else ``then``."""

    def __init__(self, first: Stats, then: Stats, until: float) -> None:
        self.first, self.then, self.until = first, then, until

    async def call(self, *args: Any, **kwargs: Any) -> Reply | None:
        stats = self.first if time.monotonic() < self.until else self.then
        return await stats.call(*args, **kwargs)


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Token {token}"}


async def closed_loop(
    client: Client, stats: Stats, name: str, path: str, token: str | None, end: float
) -> None:
    headers = _auth(token) if token else {}
    while time.monotonic() < end:
        await stats.call(name, client.get(path, headers=headers))


def _pick(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    # Claim a route half the time it can, so games move on instead of only drawing.
    claims = [a for a in actions if a["type"] == "claim_route"]
    if claims and rng.random() < 0.5:
        return rng.choice(claims)
    return rng.choice(actions)


async def drive_game(client: Client, stats: Stats, game: dict[str, Any], end: float) -> None:
    """Play whichever seat must move, back to back (the ``moves`` phase)."""
    rng = random.Random(game["id"])
    path = f"/games/{game['id']}"
    while time.monotonic() < end:
        seen = await stats.call("view (200)", client.get(path, headers=_auth(game["tokens"][0])))
        if seen is None or seen.json()["status"] != "active":
            return
        waiting = [s["index"] for s in seen.json()["seats"] if s["pending"]]
        token = game["tokens"][waiting[0]]
        legal = await stats.call(
            "legal-actions", client.get(f"{path}/legal-actions", headers=_auth(token))
        )
        if legal is None or not legal.json()["actions"]:
            return
        body = legal.json()
        action = _pick(body["actions"], rng)
        await stats.call(
            "move",
            client.post(
                f"{path}/actions",
                json={"version": body["version"], "action": action},
                headers=_auth(token),
            ),
        )


async def player(
    client: Client,
    stats: Stats | Split,
    game: dict[str, Any],
    seat: int,
    end: float,
    poll: float,
    think: float,
) -> None:
    """One of the 4 people of a game (the ``play`` phase); ``think`` s before each decision."""
    rng = random.Random(game["id"] * 4 + seat)
    token = game["tokens"][seat]
    path = f"/games/{game['id']}"
    etag: str | None = None
    detail: dict[str, Any] | None = None
    await asyncio.sleep(rng.random() * poll)  # spread the clients over the interval
    while time.monotonic() < end:
        headers = _auth(token) | ({"If-None-Match": etag} if etag else {})
        response = await stats.call("view", client.get(path, headers=headers), (200, 304), True)
        if response is None:
            await asyncio.sleep(poll)
            continue
        if response.status_code == 200:
            etag, detail = response.headers.get("ETag"), response.json()
        if detail is None or detail["status"] != "active":
            return
        if detail["your_turn"]:
            if think:
                await asyncio.sleep(think)
            legal = await stats.call(
                "legal-actions",
                client.get(f"{path}/legal-actions", headers=_auth(token)),
                (200, 409),
            )
            if legal is not None and legal.status_code == 200 and legal.json()["actions"]:
                action = _pick(legal.json()["actions"], rng)
                moved = await stats.call(
                    "move",
                    client.post(
                        f"{path}/actions",
                        json={"action": action},
                        headers=_auth(token) | {"If-Match": etag or ""},
                    ),
                )
                if moved is not None and moved.status_code == 200:
                    # The answer is the player's new view, with its ETag: no fetch needed.
                    etag, detail = moved.headers.get("ETag"), moved.json()
                # Look again at once: the move may leave another decision (a second card),
                # or was refused because another seat moved first.
                continue
        await asyncio.sleep(poll)


async def run_phases(
    url: str, games: dict[str, list[dict[str, Any]]], args: argparse.Namespace, cpu: CpuMeter
) -> dict[str, Stats]:
    results: dict[str, Stats] = {}
    client = Client(url, connections=4 * args.games + 16)
    try:
        first = games["play"][0]
        for name, path, token in (
            ("ceiling", "/health/live", None),
            ("view", f"/games/{first['id']}", first["tokens"][0]),
        ):
            stats = Stats()
            start = time.monotonic()
            end = start + args.burst_seconds
            with cpu.phase(name):
                await asyncio.gather(
                    *[closed_loop(client, stats, name, path, token, end) for _ in range(args.games)]
                )
            stats.seconds[name] = time.monotonic() - start
            results[name] = stats

        stats = Stats()
        start = time.monotonic()
        end = start + args.burst_seconds
        with cpu.phase("moves"):
            await asyncio.gather(*[drive_game(client, stats, g, end) for g in games["moves"]])
        stats.seconds["moves"] = time.monotonic() - start
        results["moves"] = stats

        opening, stats = Stats(), Stats()
        start = time.monotonic()
        end = start + args.seconds
        split = Split(opening, stats, start + args.opening)
        with cpu.phase("play"):
            await asyncio.gather(
                *[
                    player(client, split, g, seat, end, args.poll, args.think)
                    for g in games["play"]
                    for seat in range(4)
                ]
            )
        if args.opening:
            opening.seconds["opening"] = min(args.opening, args.seconds)
            results["opening"] = opening
        stats.seconds["play"] = max(1e-9, time.monotonic() - start - args.opening)
        results["play"] = stats
    finally:
        await client.close()
    return results


# ---------------------------------------------------------------------------- report
def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def error_table(results: dict[str, Stats], started: float) -> list[dict[str, Any]]:
    """Every error by phase, endpoint and kind (an HTTP status, or a transport failure's
    class), with when its first and last came (seconds since the phases began)."""
    return [
        {
            "phase": phase,
            "endpoint": endpoint,
            "kind": kind,
            "count": found.count,
            "first_s": round(found.first - started, 1),
            "last_s": round(found.last - started, 1),
            "sample": found.sample,
        }
        for phase, stats in results.items()
        for (endpoint, kind), found in sorted(stats.failures.items())
    ]


def print_errors(table: list[dict[str, Any]]) -> None:
    if not table:
        print("errors: none")
        return
    print(
        f"errors: {'phase':8} {'endpoint':14} {'kind':32} {'count':>6} {'first s':>8} {'last s':>8}"
    )
    for r in table:
        print(
            f"        {r['phase']:8} {r['endpoint']:14} {r['kind']:32} {r['count']:6d} "
            f"{r['first_s']:8.1f} {r['last_s']:8.1f}  {r['sample']}"
        )


def report(
    results: dict[str, Stats], args: argparse.Namespace, cpu: CpuMeter, started: float
) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for phase, stats in results.items():
        seconds = stats.seconds[phase]
        names = sorted(set(stats.latencies) | set(stats.errors))
        for name in names:
            values = stats.latencies.get(name, [])
            rows.append(
                {
                    "phase": phase,
                    "endpoint": name,
                    "requests": len(values),
                    "rps": round(len(values) / seconds, 1),
                    "p50_ms": round(_percentile(values, 0.50), 1),
                    "p95_ms": round(_percentile(values, 0.95), 1),
                    "p99_ms": round(_percentile(values, 0.99), 1),
                    "errors": stats.errors.get(name, 0),
                    "conflicts": stats.conflicts.get(name, 0),
                }
            )
    print(
        f"{'phase':8} {'endpoint':14} {'requests':>8} {'req/s':>8} {'p50 ms':>8} "
        f"{'p95 ms':>8} {'p99 ms':>8} {'errors':>7} {'412s':>6}"
    )
    for r in rows:
        print(
            f"{r['phase']:8} {r['endpoint']:14} {r['requests']:8d} {r['rps']:8.1f} "
            f"{r['p50_ms']:8.1f} {r['p95_ms']:8.1f} {r['p99_ms']:8.1f} {r['errors']:7d} "
            f"{r['conflicts']:6d}"
        )

    table = error_table(results, started)
    print_errors(table)
    print(
        "CPU (cores busy on average; the machine has 2): "
        + ", ".join(
            f"{phase} client {u['client_cores']:.2f} web {u['web_cores']:.2f} "
            f"db {u['db_cores']:.2f}"
            for phase, u in cpu.used.items()
        )
    )

    def rps(phase: str, endpoint: str) -> float:
        return next((r["rps"] for r in rows if (r["phase"], r["endpoint"]) == (phase, endpoint)), 0)

    def capacity(phase: str, endpoint: str) -> float:
        # Requests a second the server can give this endpoint alone at this concurrency:
        # clients / mean latency (Little's law), so the driver's other calls do not count.
        values = results[phase].latencies.get(endpoint, [])
        return args.games / (sum(values) / len(values) / 1000) if values else 0.0

    ceiling = capacity("ceiling", "ceiling")
    move_p99 = next(
        (r["p99_ms"] for r in rows if (r["phase"], r["endpoint"]) == ("play", "move")), 0.0
    )
    summary = {
        "games": args.games,
        "seconds": args.seconds,
        "web_workers": args.workers,
        "web_threads": args.threads,
        "web_worker_class": args.worker_class,
        "poll_seconds": args.poll,
        "think_seconds": args.think,
        "cpu": cpu.used,
        "ceiling_rps": rps("ceiling", "ceiling"),
        "view_rps": rps("view", "view"),
        "view_vs_ceiling": round(capacity("view", "view") / ceiling, 3) if ceiling else 0,
        "move_capacity_rps": round(capacity("moves", "move"), 1),
        "move_vs_ceiling": round(capacity("moves", "move") / ceiling, 3) if ceiling else 0,
        "play_rps": round(sum(r["rps"] for r in rows if r["phase"] == "play"), 1),
        "play_moves": next(
            (r["requests"] for r in rows if (r["phase"], r["endpoint"]) == ("play", "move")), 0
        ),
        "play_move_p99_ms": move_p99,
        "errors": sum(r["errors"] for r in rows),
        "error_table": table,
        "conflicts": sum(r["conflicts"] for r in rows),
        "rows": rows,
    }
    return summary


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=50, help="concurrent games (4 clients each)")
    p.add_argument("--seconds", type=float, default=60, help="length of the play phase")
    p.add_argument("--burst-seconds", type=float, default=10, help="length of the other phases")
    p.add_argument("--poll", type=float, default=0.5, help="seconds between two polls")
    p.add_argument(
        "--opening",
        type=float,
        default=10,
        help="first seconds of the play phase, reported apart as 'opening' (every game "
        "starts at once: all seats fetch their first view and choose tickets together)",
    )
    p.add_argument(
        "--think",
        type=float,
        default=0,
        help="seconds a player waits before each decision in the play phase (0: at once)",
    )
    # One thread a process: a thread back from the database waits for the GIL behind the
    # others' Python, and a move makes about ten round trips (measured: 3 x 4 threads
    # gave a move 0.22 of the ceiling, 6 x 2 0.25, 8 x 1 0.25 and the view 0.60).
    p.add_argument("--workers", type=int, default=8, help="gunicorn worker processes")
    p.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker")
    p.add_argument(
        "--worker-class",
        choices=("gthread", "sync", "uvicorn"),
        default="gthread",
        help="gunicorn worker class (sync: no keep-alive, one request per worker at a time; "
        "uvicorn: uvicorn workers on the ASGI application, as the container runs it)",
    )
    p.add_argument(
        "--database",
        default="postgres://postgres@127.0.0.1:5432/ttr_bench",
        help="PostgreSQL URL of the benchmark database, or its name on 127.0.0.1 (dropped "
        "and created again; named ttr_bench* or *_bench)",
    )
    args = p.parse_args()
    if "://" not in args.database:  # a bare name: a database on the local server
        args.database = f"postgres://postgres@127.0.0.1:5432/{args.database}"
    folder = ROOT / "var" / "bench" / "load"
    folder.mkdir(parents=True, exist_ok=True)
    recreate_database(args.database)
    stack = Stack(args, folder)
    try:
        stack.start_redis()
        games = prepare(stack, args.games)
        stack.start_services()
        cpu = CpuMeter(stack.web_pgid(), args.database)
        started = time.monotonic()
        results = asyncio.run(run_phases(stack.url, games, args, cpu))
    finally:
        stack.stop()
    summary = report(results, args, cpu, started)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
