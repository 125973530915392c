"""Event streams under load: N open streams on one web process, moves committed elsewhere.

    .venv/bin/python bench/streams.py [--streams 1000] [--games 50] [--seconds 30]
                                      [--rate 5] [--database postgres://.../ttr_bench_streams]
                                      [--client-processes 4] [--embedded]

Starts everything itself: a private ``redis-server`` on a free port, a fresh PostgreSQL
database (dropped and created again; its name must start with ``ttr_`` and hold
``bench``) and one web process (gunicorn with one uvicorn worker on the ASGI application,
DEBUG off). ``--games`` games of two people are started beforehand; then:

1. ``--client-processes`` client processes share the ``--streams`` streams (every Nth
   each). Each takes a stream ticket per stream (16 at a time) and opens
   ``GET /games/{id}/events`` on one of the games (spread evenly: a game has
   ``streams / games`` watchers), resuming after the game's last move (``?after=``), on a
   bare connection that keeps each piece read off the socket with the time it was read;
   the events are parsed after the run, so a busy client does not add its parsing to the
   latency. Each client also records how late its loop wakes from a 5 ms sleep. The web
   worker's resident memory is read before and after the streams open: memory per stream.
2. A mover, another process (``--mover``), plays ``--rate`` moves a second for
   ``--seconds``, each through the games' own command (``play.move_play``) in its own
   transaction, round robin over the games, each a random legal move of the seat to move.
   It stamps each move's commit (an on-commit hook registered before the move's, so before
   its announcement goes out) and reports the stamps when done. This process subscribes
   to the announcements on Redis and stamps when each arrives.
3. Latency is arrival minus commit, over every (client, move) pair; an event expected by
   a client and never received is lost, one received twice is a duplicate; a stream that
   fails or closes early is an error. Per move: commit to announcement heard
   (``announced_ms``), commit to its first stream (``first_arrival_ms``: the wake-up and
   the read) and first stream to its 95th percentile one (``spread_to_p95_ms``: the
   fan-out).

``--embedded`` runs the embedded default instead (as ``make run`` does): no Redis, a fresh
SQLite file and ``var`` folder under ``var/bench/streams/embedded``, the web process and the
mover sharing them as the web server and the Celery worker do; the mover's commits reach
the web process by the cross-process wake-ups of the embedded default.

Prints a summary and one JSON object on its last line.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.processes import BENCH_ENV, RedisServer, WebServer  # noqa: E402

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/ttr_bench_streams"


def recreate_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    if not name.startswith("ttr_") or "bench" not in name:
        raise SystemExit(f"refusing to drop {name!r}: the benchmark database must be ttr_*bench*")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def service_env(database: str | None, redis_url: str | None, var: Path) -> dict[str, str]:
    """The service's environment: PostgreSQL and Redis, or (both None) the embedded
    default's SQLite file and files under ``var``."""
    stores = {"DATABASE_URL": database, "REDIS_URL": redis_url}
    if database is None:
        stores = {"SQLITE_PATH": str(var / "db.sqlite3"), "VAR_DIR": str(var)}
    return {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
        **{k: v for k, v in stores.items() if v is not None},
        **BENCH_ENV,
    }


def setup_django(env: dict[str, str]) -> None:
    for name in ("DATABASE_URL", "REDIS_URL"):
        if name not in env:
            os.environ.pop(name, None)
    os.environ.update(env)
    import django

    django.setup()


def prepare(games: int, streams: int) -> list[dict[str, Any]]:
    """Migrate; ``games`` started games of two people past their first tickets; a token
    for each of ``streams`` watchers (users of their own)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command

    from accounts.services import token_issue
    from engine import KeepTickets
    from games.commands import lobby, play
    from games.domain.seats import state_of
    from games.models import Game

    call_command("migrate", verbosity=0)
    model = get_user_model()
    password = make_password("a-long-bench-password")
    players = model.objects.bulk_create(
        [model(username=f"player{i}", password=password) for i in range(2 * games)]
    )
    watchers = model.objects.bulk_create(
        [model(username=f"watcher{i}", password=password) for i in range(streams)]
    )
    made = []
    for g in range(games):
        host, guest = players[2 * g], players[2 * g + 1]
        seats = [lobby.SeatSpec("creator"), lobby.SeatSpec("open")]
        game = lobby.game_create(host, board="europe", seats=seats, first_seat=0)
        lobby.game_join(guest, game.pk)
        for seat, person in enumerate((host, guest)):
            stored = Game.objects.get(pk=game.pk)
            state = state_of(stored)
            offered = [state.board.tickets[i].id for i in state.offers[seat]]
            play.move_play(person, game.pk, KeepTickets(tuple(offered)), stored.version)
        made.append({"id": game.pk, "players": [host.pk, guest.pk], "watchers": []})
    for i, watcher in enumerate(watchers):
        made[i % games]["watchers"].append(token_issue(watcher, name="bench")[1])
    return made


# ------------------------------------------------------------------------------ mover
def mover(env: dict[str, str], games: list[dict[str, Any]], rate: float, seconds: float) -> None:
    """Commit moves at ``rate`` a second for ``seconds``; print the commit stamps."""
    setup_django(env)
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from engine import load_board, parse_action
    from games.commands import play
    from games.models import Game
    from games.serializers.games import legal_actions

    users = {u.pk: u for u in get_user_model().objects.filter(username__startswith="player")}
    rng = random.Random(7)
    stamps: list[tuple[int, int, float]] = []
    interval = 1 / rate
    start = time.monotonic()
    n = 0
    while time.monotonic() - start < seconds:
        due = start + n * interval
        if (wait := due - time.monotonic()) > 0:
            time.sleep(wait)
        spec = games[n % len(games)]
        n += 1
        game = Game.objects.get(pk=spec["id"])
        if game.status != "active":
            continue
        seat = game.state["current"]
        legal = legal_actions(game, seat)["actions"]
        draws = [a for a in legal if a["type"] in ("draw_blind", "draw_face_up")]
        action = rng.choice(draws or legal)
        stamp: list[float] = []
        with transaction.atomic():
            # Registered before the move's own hooks: runs first, right at the commit.
            transaction.on_commit(lambda stamp=stamp: stamp.append(time.time()))
            typed = parse_action(action, load_board(game.board))
            state = play.move_play(users[spec["players"][seat]], game.pk, typed, game.version)
        number = Game.objects.get(pk=game.pk).moves.order_by("-number").first()
        assert number is not None and state is not None
        stamps.append((game.pk, number.number, stamp[0]))
    print(json.dumps(stamps))


# ------------------------------------------------------------------------------ clients
# A move event's first line and its id (``<move>.<message>...``: the move's number first).
MOVE_EVENT = re.compile(rb"event: move\nid: (\d+)")
TICK = 0.005  # how often a client process's loop checks how late it runs


class StreamClient(asyncio.Protocol):
    """One stream, on a bare connection: each piece read off the socket is kept with the
    time it was read, and the events are parsed only once the run is over, so the time an
    event arrived is when its last byte was read, not when a busy client got to parse it."""

    def __init__(self, request: bytes, game_id: int) -> None:
        self.request = request
        self.game_id = game_id
        self.pieces: list[bytes] = []
        self.stamps: list[float] = []
        self.opened = asyncio.Event()
        self.error: str | None = None
        self.stopping = False
        self.transport: asyncio.Transport | None = None

    def itself(self) -> StreamClient:
        return self

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        self.stamps.append(time.time())
        self.pieces.append(data)
        if not self.opened.is_set():
            head = b"".join(self.pieces)
            if not head.startswith(b"HTTP/1.1 200"):
                if b"\r\n" in head:
                    self.error = head.split(b"\r\n", 1)[0].decode(errors="replace")
                    self.opened.set()
            elif b": stream open" in head:
                self.opened.set()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.stopping and self.error is None:
            self.error = repr(exc) if exc else "closed early"
        self.opened.set()

    def arrivals(self) -> dict[int, list[float]]:
        """When each move event's last byte was read, by move number."""
        data = b"".join(self.pieces)
        ends = list(itertools.accumulate(len(piece) for piece in self.pieces))
        found: dict[int, list[float]] = {}
        for match in MOVE_EVENT.finditer(data):
            end = data.find(b"\n\n", match.end())
            last = len(data) if end < 0 else end + 2
            piece = min(bisect.bisect_left(ends, last), len(self.stamps) - 1)
            found.setdefault(int(match[1]), []).append(self.stamps[piece])
        return found


async def take_tickets(base: str, tokens: list[str]) -> list[str]:
    """A stream ticket for each token, a few asked for at a time."""
    gate = asyncio.Semaphore(16)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:

        async def one(token: str) -> str:
            async with (
                gate,
                session.post(
                    f"{base}/stream-tickets", headers={"Authorization": f"Token {token}"}
                ) as answer,
            ):
                ticket: str = (await answer.json())["ticket"]
                return ticket

        return await asyncio.gather(*(one(token) for token in tokens))


async def ticker(lags: list[float], stop: asyncio.Event) -> None:
    """How late the loop wakes from each ``TICK`` sleep, in ms: the client's own lag."""
    while not stop.is_set():
        due = time.monotonic() + TICK
        await asyncio.sleep(TICK)
        lags.append((time.monotonic() - due) * 1000)


async def client_process(spec: dict[str, Any]) -> dict[str, Any]:
    """Open this process's share of the streams, say so on stdout, record arrivals until
    told to stop on stdin, then report them."""
    loop = asyncio.get_running_loop()
    host, port = spec["host"], spec["port"]
    shares = spec["streams"]
    tickets = await take_tickets(spec["base"], [s["token"] for s in shares])
    clients: list[StreamClient] = []
    for share, ticket in zip(shares, tickets, strict=True):
        query = urlencode({"ticket": ticket, "after": share["after"]})
        path = f"{spec['path']}/games/{share['game']}/events?{query}"
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n"
        ).encode()
        client = StreamClient(request, share["game"])
        clients.append(client)
        await loop.create_connection(client.itself, host, port)
    await asyncio.wait_for(asyncio.gather(*(c.opened.wait() for c in clients)), 120)
    print(json.dumps({"opened": len(clients)}), flush=True)
    lags: list[float] = []
    stop = asyncio.Event()
    ticking = asyncio.create_task(ticker(lags, stop))
    await loop.run_in_executor(None, sys.stdin.readline)  # "stop"
    stop.set()
    await ticking
    for client in clients:
        client.stopping = True
        if client.transport is not None:
            client.transport.close()
    return {
        "streams": [
            {"game": c.game_id, "arrivals": c.arrivals(), "error": c.error} for c in clients
        ],
        "lag_ms": [round(lag, 2) for lag in lags],
    }


async def listen(redis_url: str, heard: dict[int, list[float]], stop: asyncio.Event) -> None:
    """When each game's announcements reach a Redis subscriber (this process): the part of
    an event's latency before any web process can wake a stream."""
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(redis_url)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    await pubsub.psubscribe("ttr:*:wake:game:*")
    try:
        while not stop.is_set():
            message = await pubsub.get_message(timeout=0.2)
            if message is not None:
                game = int(message["channel"].decode().rsplit(":", 1)[1])
                heard.setdefault(game, []).append(time.time())
    finally:
        await pubsub.aclose()
        await client.aclose()


def heard_after(heard: dict[int, list[float]], game: int, at: float) -> float | None:
    times = heard.get(game, [])
    i = bisect.bisect_left(times, at)
    return times[i] if i < len(times) else None


async def start_clients(
    base: str, games: list[dict[str, Any]], last_moves: dict[int, int], processes: int
) -> list[asyncio.subprocess.Process]:
    """``processes`` client processes, each with every ``processes``-th stream; returns
    once all of them have their streams open."""
    url = urlsplit(base)
    streams = [
        {"game": game["id"], "token": token, "after": last_moves[game["id"]]}
        for game in games
        for token in game["watchers"]
    ]
    started = []
    for i in range(processes):
        spec = {
            "base": base,
            "host": url.hostname,
            "port": url.port,
            "path": url.path,
            "streams": streams[i::processes],
        }
        client = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--client",
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            limit=2**30,
        )
        assert client.stdin is not None
        client.stdin.write(json.dumps(spec).encode() + b"\n")
        await client.stdin.drain()
        started.append(client)
    for client in started:
        assert client.stdout is not None
        line = await client.stdout.readline()
        if not line:
            raise SystemExit("a client process failed to open its streams")
    return started


async def stop_clients(clients: list[asyncio.subprocess.Process]) -> list[dict[str, Any]]:
    reports = []
    for client in clients:
        assert client.stdin is not None
        client.stdin.write(b"stop\n")
        await client.stdin.drain()
    for client in clients:
        out, _ = await client.communicate()
        reports.append(json.loads(out.decode().strip().splitlines()[-1]))
    return reports


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def web_worker_pid(master: int) -> int:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == master:
                return int(entry.name)
    raise SystemExit("no gunicorn worker found")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def measure(
    args: argparse.Namespace,
    base: str,
    games: list[dict[str, Any]],
    env: dict[str, str],
    worker_pid: int,
    last_moves: dict[int, int],
) -> dict[str, Any]:
    rss_before = rss_kb(worker_pid)
    opened_at = time.monotonic()
    clients = await start_clients(base, games, last_moves, args.client_processes)
    open_seconds = time.monotonic() - opened_at
    await asyncio.sleep(2)
    rss_open = rss_kb(worker_pid)
    spec = json.dumps([{"id": g["id"], "players": g["players"]} for g in games])
    heard: dict[int, list[float]] = {}
    hearing = asyncio.Event()
    listener = None
    if env.get("REDIS_URL"):
        listener = asyncio.create_task(listen(env["REDIS_URL"], heard, hearing))
        await asyncio.sleep(0.5)
    cpu_web, moving_since = cpu_seconds(worker_pid), time.monotonic()
    cpu_client = sum(cpu_seconds(c.pid) for c in clients)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--mover",
        spec,
        "--rate",
        str(args.rate),
        "--seconds",
        str(args.seconds),
        env=env,
        stdout=subprocess.PIPE,
    )
    out, _ = await process.communicate()
    stamps = json.loads(out.decode().strip().splitlines()[-1])
    await asyncio.sleep(3)  # the last events on their way
    moving = time.monotonic() - moving_since
    cpu_web = (cpu_seconds(worker_pid) - cpu_web) / moving
    cpu_client = (sum(cpu_seconds(c.pid) for c in clients) - cpu_client) / moving
    rss_after = rss_kb(worker_pid)
    reports = await stop_clients(clients)
    hearing.set()
    if listener is not None:
        await listener
    streams = [stream for report in reports for stream in report["streams"]]
    lags = [lag for report in reports for lag in report["lag_ms"]]
    committed: dict[int, dict[int, float]] = {}
    for game_id, number, at in stamps:
        committed.setdefault(game_id, {})[number] = at
    latencies: list[float] = []
    by_move: dict[tuple[int, int], list[float]] = {}
    lost = duplicates = 0
    for stream in streams:
        expected = committed.get(stream["game"], {})
        arrived = {int(n): times for n, times in stream["arrivals"].items()}
        for number, at in expected.items():
            arrivals = arrived.get(number, [])
            if not arrivals:
                lost += 1
                continue
            duplicates += len(arrivals) - 1
            latencies.append((arrivals[0] - at) * 1000)
            by_move.setdefault((stream["game"], number), []).append(arrivals[0])
        duplicates += sum(1 for n in arrived if n not in expected)
    # Per move: its commit to its first arrival at any stream (the wake-up and the read),
    # and its first arrival to its 95th percentile one (the fan-out to its streams).
    first = [(min(times) - committed[g][n]) * 1000 for (g, n), times in by_move.items()]
    spread = [(percentile(t, 0.95) - min(t)) * 1000 for t in by_move.values()]
    announced = [
        (when - at) * 1000
        for game_id, number, at in stamps
        if (when := heard_after(heard, game_id, at)) is not None
    ]
    errors = [stream["error"] for stream in streams if stream["error"]]
    return {
        "streams": len(streams),
        "games": len(games),
        "client_processes": len(clients),
        "moves": len(stamps),
        "deliveries": len(latencies),
        "latency_ms": figures(latencies),
        "announced_ms": figures(announced),
        "first_arrival_ms": figures(first),
        "spread_to_p95_ms": figures(spread),
        "lost": lost,
        "duplicates": duplicates,
        "errors": len(errors),
        "error_samples": errors[:3],
        "open_seconds": round(open_seconds, 2),
        "rss_kb": {"before": rss_before, "open": rss_open, "after": rss_after},
        "memory_per_stream_kb": round((rss_open - rss_before) / max(1, len(streams)), 1),
        # Cores used while moves were made: the web process, and the client processes.
        "cpu_cores": {"web": round(cpu_web, 2), "client": round(cpu_client, 2)},
        # How late the client processes' loops woke from a 5 ms sleep: a client too busy
        # to read its sockets would add this to the latency.
        "client_lag_ms": figures(lags),
        "load_average": os.getloadavg()[0],
    }


def figures(values: list[float]) -> dict[str, float | None]:
    if not values:  # none heard: the embedded default has no Redis
        return dict.fromkeys(("p50", "p95", "p99", "max"))
    return {
        "p50": round(percentile(values, 0.50), 1),
        "p95": round(percentile(values, 0.95), 1),
        "p99": round(percentile(values, 0.99), 1),
        "max": round(max(values), 1) if values else None,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--streams", type=int, default=1000)
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--seconds", type=float, default=30, help="how long moves are made")
    p.add_argument("--rate", type=float, default=5, help="moves committed a second, in all")
    p.add_argument("--database", default=DEFAULT_DATABASE)
    p.add_argument("--embedded", action="store_true", help="SQLite, no Redis (make run)")
    p.add_argument(
        "--client-processes", type=int, default=4, help="processes the streams are shared by"
    )
    p.add_argument("--mover", help=argparse.SUPPRESS)
    p.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.mover:
        mover(dict(os.environ), json.loads(args.mover), args.rate, args.seconds)
        return
    if args.client:
        print(json.dumps(asyncio.run(client_process(json.loads(sys.stdin.readline())))))
        return
    folder = ROOT / "var" / "bench" / "streams"
    folder.mkdir(parents=True, exist_ok=True)
    var = folder / "embedded"
    redis_server: RedisServer | None = None
    if args.embedded:
        shutil.rmtree(var, ignore_errors=True)
        var.mkdir(parents=True)
        env = service_env(None, None, var)
    else:
        recreate_database(args.database)
        redis_server = RedisServer(folder)
    web: WebServer | None = None
    try:
        if redis_server is not None:
            redis_server.start()
            env = service_env(args.database, redis_server.url, var)
        setup_django(env)
        games = prepare(args.games, args.streams)
        web = WebServer(
            env, folder, workers=1, worker_class="uvicorn", options=("--backlog", "4096")
        )
        web.start()
        assert web.process is not None
        pid = web_worker_pid(web.process.pid)
        from games.models import Move

        last_moves = {g["id"]: Move.objects.filter(game_id=g["id"]).count() for g in games}
        summary = asyncio.run(measure(args, f"{web.url}/api/v1", games, env, pid, last_moves))
    finally:
        if web is not None:
            web.stop()
        if redis_server is not None:
            redis_server.stop()
    latency = summary["latency_ms"]
    print(
        f"{summary['streams']} streams on {summary['games']} games, {summary['moves']} moves, "
        f"{summary['deliveries']} deliveries: commit to event p50 {latency['p50']} ms, "
        f"p95 {latency['p95']} ms, p99 {latency['p99']} ms, max {latency['max']} ms; "
        f"lost {summary['lost']}, duplicates {summary['duplicates']}, errors "
        f"{summary['errors']}; {summary['memory_per_stream_kb']} KB per open stream; "
        f"client loops late by p95 {summary['client_lag_ms']['p95']} ms"
    )
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
