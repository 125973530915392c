"""Event streams under load: N open streams on one web process, moves committed elsewhere.

    .venv/bin/python bench/streams.py [--streams 1000] [--games 50] [--seconds 30]
                                      [--rate 5] [--database postgres://.../ttr_bench_streams]
                                      [--embedded]

Starts everything itself: a private ``redis-server`` on a free port, a fresh PostgreSQL
database (dropped and created again; its name must start with ``ttr_`` and hold
``bench``) and one web process (gunicorn with one uvicorn worker on the ASGI application,
DEBUG off). ``--games`` games of two people are started beforehand; then:

1. ``--streams`` clients (one asyncio loop, aiohttp) each open ``GET /games/{id}/events``
   on one of the games (spread evenly: a game has ``streams / games`` watchers, a ticket
   each), resuming after the game's last move (``?after=``), and wait for the stream to
   open. The web worker's resident memory is read before and after: memory per open stream.
2. A mover, another process (``--mover``), plays ``--rate`` moves a second for
   ``--seconds``, each through the games' own command (``play.move_play``) in its own
   transaction, round robin over the games, each a random legal move of the seat to move.
   It stamps each move's commit (an on-commit hook registered before the move's, so before
   its announcement goes out) and reports the stamps when done.
3. Every client records when each move event arrives. Latency is arrival minus commit,
   over every (client, move) pair; an event expected by a client and never received is
   lost, one received twice is a duplicate; a stream that fails or closes early is an
   error.

``--embedded`` runs the embedded default instead (as ``make run`` does): no Redis, a fresh
SQLite file and ``var`` folder under ``var/bench/streams/embedded``, the web process and the
mover sharing them as the web server and the Celery worker do; the mover's commits reach
the web process by the cross-process wake-ups of the embedded default.

Prints a summary and one JSON object on its last line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.processes import RedisServer, WebServer  # noqa: E402

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
        "DEBUG": "false",
        "SECRET_KEY": "bench-only-" + "k" * 48,
        "SECURE_SSL_REDIRECT": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "THROTTLE_USER_RATE": "1000000/min",
        "THROTTLE_ANON_RATE": "1000000/min",
        "DJANGO_SETTINGS_MODULE": "ttr_service.settings",
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
class Watcher:
    def __init__(self, url: str, token: str, after: int, game_id: int) -> None:
        self.url = url
        self.token = token
        self.after = after
        self.game_id = game_id
        self.arrivals: dict[int, list[float]] = {}
        self.opened = asyncio.Event()
        self.error: str | None = None

    async def run(self, session: aiohttp.ClientSession, ticket: str, stop: asyncio.Event) -> None:
        try:
            async with session.get(
                self.url, params={"ticket": ticket, "after": str(self.after)}
            ) as response:
                if response.status != 200:
                    self.error = f"status {response.status}"
                    return
                ident: str | None = None
                name = ""
                async for raw in response.content:
                    line = raw.decode().rstrip("\n")
                    if line.startswith(": stream open"):
                        self.opened.set()
                    elif line.startswith("event: "):
                        name = line[7:]
                    elif line.startswith("id: "):
                        ident = line[4:]
                    elif line == "":
                        if name == "move" and ident is not None:
                            # ``<move>.<message>``: the move's number comes first.
                            number = int(ident.split(".")[0])
                            self.arrivals.setdefault(number, []).append(time.time())
                        name, ident = "", None
                    if stop.is_set():
                        return
                if not stop.is_set():
                    self.error = "closed early"
        except (TimeoutError, aiohttp.ClientError) as error:
            if not stop.is_set():
                self.error = repr(error)
        finally:
            self.opened.set()


async def open_streams(
    base: str, games: list[dict[str, Any]], last_moves: dict[int, int]
) -> tuple[list[Watcher], list[asyncio.Task[None]], asyncio.Event, aiohttp.ClientSession]:
    connector = aiohttp.TCPConnector(limit=0)
    session = aiohttp.ClientSession(
        connector=connector, timeout=aiohttp.ClientTimeout(total=None, sock_read=120)
    )
    stop = asyncio.Event()
    watchers: list[Watcher] = []
    tasks: list[asyncio.Task[None]] = []
    for game in games:
        for token in game["watchers"]:
            async with session.post(
                f"{base}/stream-tickets", headers={"Authorization": f"Token {token}"}
            ) as answer:
                ticket = (await answer.json())["ticket"]
            watcher = Watcher(
                f"{base}/games/{game['id']}/events", token, last_moves[game["id"]], game["id"]
            )
            watchers.append(watcher)
            tasks.append(asyncio.create_task(watcher.run(session, ticket, stop)))
    await asyncio.wait_for(asyncio.gather(*(w.opened.wait() for w in watchers)), 120)
    return watchers, tasks, stop, session


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
    watchers, tasks, stop, session = await open_streams(base, games, last_moves)
    open_seconds = time.monotonic() - opened_at
    await asyncio.sleep(2)
    rss_open = rss_kb(worker_pid)
    spec = json.dumps([{"id": g["id"], "players": g["players"]} for g in games])
    cpu_web, cpu_client, moving_since = (
        cpu_seconds(worker_pid),
        cpu_seconds(os.getpid()),
        time.monotonic(),
    )
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
    cpu_client = (cpu_seconds(os.getpid()) - cpu_client) / moving
    rss_after = rss_kb(worker_pid)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await session.close()
    committed: dict[int, dict[int, float]] = {}
    for game_id, number, at in stamps:
        committed.setdefault(game_id, {})[number] = at
    latencies: list[float] = []
    lost = duplicates = 0
    for w in watchers:
        for number, at in committed.get(w.game_id, {}).items():
            arrivals = w.arrivals.get(number, [])
            if not arrivals:
                lost += 1
                continue
            duplicates += len(arrivals) - 1
            latencies.append((arrivals[0] - at) * 1000)
        duplicates += sum(1 for n in w.arrivals if n not in committed.get(w.game_id, {}))
    errors = [w.error for w in watchers if w.error]
    return {
        "streams": len(watchers),
        "games": len(games),
        "moves": len(stamps),
        "deliveries": len(latencies),
        "latency_ms": {
            "p50": round(percentile(latencies, 0.50), 1),
            "p95": round(percentile(latencies, 0.95), 1),
            "p99": round(percentile(latencies, 0.99), 1),
            "max": round(max(latencies), 1) if latencies else None,
        },
        "lost": lost,
        "duplicates": duplicates,
        "errors": len(errors),
        "error_samples": errors[:3],
        "open_seconds": round(open_seconds, 2),
        "rss_kb": {"before": rss_before, "open": rss_open, "after": rss_after},
        "memory_per_stream_kb": round((rss_open - rss_before) / max(1, len(watchers)), 1),
        # Cores used while moves were made: the web process, and this client.
        "cpu_cores": {"web": round(cpu_web, 2), "client": round(cpu_client, 2)},
        "load_average": os.getloadavg()[0],
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--streams", type=int, default=1000)
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--seconds", type=float, default=30, help="how long moves are made")
    p.add_argument("--rate", type=float, default=5, help="moves committed a second, in all")
    p.add_argument("--database", default=DEFAULT_DATABASE)
    p.add_argument("--embedded", action="store_true", help="SQLite, no Redis (make run)")
    p.add_argument("--mover", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.mover:
        mover(dict(os.environ), json.loads(args.mover), args.rate, args.seconds)
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
        f"{summary['errors']}; {summary['memory_per_stream_kb']} KB per open stream"
    )
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
