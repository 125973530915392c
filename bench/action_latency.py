"""A person's action latency at a table of hard AIs that decide at the same moment.

    .venv/bin/python bench/action_latency.py [--stack sqlite|postgres|both] [--games 4]
        [--actions 10] [--seconds 120]

For each stack it starts one gunicorn (gthread, as ``tests/processes.py`` starts it) and one
Celery worker (solo pool, with its embedded beat), AI_MOVE_DELAY_MS=0, DEBUG off:

- ``sqlite``: the embedded default, without DATABASE_URL or REDIS_URL: a fresh SQLite file
  (SQLITE_PATH) in a temporary folder and Celery on kombu's filesystem transport.
  ``ttr_service/settings.py`` fixes that transport's folders under the checkout's
  ``var/celery/``; the processes run ``bench.latency_settings``, which moves them into the
  temporary folder and changes nothing else.
- ``postgres``: DATABASE_URL on ``--database`` (a ``ttr_bench*`` database, dropped and
  created again, migrated, dropped at the end) and REDIS_URL on ``--redis`` (flushed before
  and after). Both servers must already run on the loopback.

Then ``--games`` people register through the API and each creates a Europe game at once:
seats [creator, ai hard, ai hard, ai hard]. The game starts on creation and every seat must
choose its initial tickets, the AI seats on the worker. Each person fetches their game and
posts ``keep_tickets`` (every ticket offered) with the version they saw: the first keep.
Then they play whenever it is their turn: a poll with If-None-Match every ``--poll`` s and,
on their turn, ``GET /legal-actions`` and a POST of the first draw or claim. Every POST of
a person is timed, send to response; a refused keep is fetched and sent again.

A game stops after ``--actions`` POSTs of its person, when it ends, or when its version has
not moved for ``--stall-seconds`` while its person waits (the AI stalled); everything stops
after ``--seconds``. Prints a table and, as the last line, one JSON object keyed by stack:
actions, p50/p95/max ms, status counts, the first keeps' latencies and how many got 412
(and per game how many AI moves committed between the first keep's view and the keep).
The targets: p95 under 100 ms, and no first keep refused with 412. Exits 0 when they are
missed (it reports, it does not assert); 1 when a stack could not be run.

The first keep races the worker: a keep that reaches the game before the worker locks it
for its AI seats passes at once, so which games meet a deciding AI changes from run to run
(with one solo worker, one game's AI seats decide at a time). Run more games for steadier
figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.processes import BENCH_ENV, Process, WebServer, Worker, wait_for  # noqa: E402

PASSWORD = "a-long-bench-Passphrase-7"
# The person's choice on a turn: the first of these in the legal list, else the first
# legal action that is not a forfeit (a tunnel payment, a ticket keep).
PLAY_TYPES = ("draw_face_up", "draw_blind", "claim_route")
TARGET_P95_MS = 100.0


# ---------------------------------------------------------------------------- stacks
def _base_env() -> dict[str, str]:
    drop = {"DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "DJANGO_SETTINGS_MODULE"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    path = env.get("PYTHONPATH")
    env.update(
        {
            # bench.latency_settings must be importable by gunicorn and the worker.
            "PYTHONPATH": str(ROOT) + (os.pathsep + path if path else ""),
            **BENCH_ENV,
        }
    )
    return env


class Stack:
    """The environment of one stack, and what must exist before and go after it."""

    name = ""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.env = _base_env()

    def describe(self) -> str:
        raise NotImplementedError

    def prepare(self) -> None:
        """Make the empty database and migrate it."""
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
            cwd=ROOT,
            env=self.env,
            check=True,
            timeout=300,
        )

    def clean(self) -> None:
        """Remove what ``prepare`` made outside the temporary folder."""


class Embedded(Stack):
    name = "sqlite"

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.env["SQLITE_PATH"] = str(folder / "db.sqlite3")
        self.env["BENCH_CELERY_DIR"] = str(folder / "celery")
        self.env["DJANGO_SETTINGS_MODULE"] = "bench.latency_settings"

    def describe(self) -> str:
        return (
            f"SQLite {self.env['SQLITE_PATH']}, filesystem broker in {self.env['BENCH_CELERY_DIR']}"
        )


class Servers(Stack):
    name = "postgres"

    def __init__(self, folder: Path, database: str, redis_url: str) -> None:
        super().__init__(folder)
        name = database.rsplit("/", 1)[1]
        if not name.startswith("ttr_bench"):
            raise ValueError(
                f"refusing to drop {name!r}: the benchmark database must be ttr_bench*"
            )
        self.database = database
        self.admin = database.rsplit("/", 1)[0] + "/postgres"
        self.db_name = name
        self.redis_url = redis_url
        self.env["DATABASE_URL"] = database
        self.env["REDIS_URL"] = redis_url
        self.made = False

    def describe(self) -> str:
        return f"PostgreSQL {self.database}, Redis {self.redis_url}"

    def _flush(self) -> None:
        import redis

        client = redis.Redis.from_url(self.redis_url, socket_timeout=5)
        try:
            client.flushdb()
        finally:
            client.close()

    def _drop(self) -> None:
        import psycopg

        with psycopg.connect(self.admin, autocommit=True, connect_timeout=10) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')

    def prepare(self) -> None:
        import psycopg

        self._drop()
        with psycopg.connect(self.admin, autocommit=True, connect_timeout=10) as conn:
            conn.execute(f'CREATE DATABASE "{self.db_name}"')
        self.made = True
        self._flush()
        super().prepare()

    def clean(self) -> None:
        if self.made:
            self._drop()
            self._flush()


def wait_until_ready(worker: Worker, timeout: float = 90) -> None:
    """The worker logs ``celery@host ready.`` once it consumes its queue."""

    def ready() -> bool:
        return worker.log.exists() and " ready." in worker.log.read_text(errors="replace")

    def check() -> bool:
        if worker.process is not None and worker.process.poll() is not None:
            raise RuntimeError(f"the worker exited:\n{worker.log_tail()}")
        return ready()

    wait_for(check, timeout, "the Celery worker")


# ---------------------------------------------------------------------------- client
@dataclass
class Reply:
    status: str  # "200", "412", ..., or "timeout" / "error" when no answer came
    ms: float
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None


async def send(
    session: aiohttp.ClientSession,
    method: str,
    url: str,
    headers: dict[str, str],
    body: dict[str, Any] | None = None,
) -> Reply:
    started = time.perf_counter()
    try:
        async with session.request(method, url, headers=headers, json=body) as response:
            raw = await response.read()
            ms = (time.perf_counter() - started) * 1000
            parsed = json.loads(raw) if raw and response.status != 304 else None
            return Reply(str(response.status), ms, dict(response.headers), parsed)
    except TimeoutError:
        return Reply("timeout", (time.perf_counter() - started) * 1000)
    except (aiohttp.ClientError, ValueError) as exc:
        return Reply(f"error {type(exc).__name__}", (time.perf_counter() - started) * 1000)


@dataclass
class Tally:
    """What the people of one stack saw."""

    latencies: list[float] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)
    by_type: dict[str, list[float]] = field(default_factory=dict)
    first_keep_ms: list[float] = field(default_factory=list)
    first_keep_status: list[str] = field(default_factory=list)
    # From the first keep's send to the answer of the keep that was taken (retries included).
    keep_settled_ms: list[float] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    poll_failures: Counter[str] = field(default_factory=Counter)
    create_ms: list[float] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)

    def action(self, kind: str, reply: Reply) -> None:
        self.latencies.append(reply.ms)
        self.statuses[reply.status] += 1
        self.by_type.setdefault(kind, []).append(reply.ms)


def pick(actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    for action in actions:
        if action["type"] in PLAY_TYPES:
            return action
    return next((a for a in actions if a["type"] != "forfeit"), None)


async def register(session: aiohttp.ClientSession, api: str, username: str) -> str:
    reply = await send(
        session,
        "POST",
        f"{api}/auth/register",
        {},
        {"username": username, "password": PASSWORD, "token_name": "bench"},
    )
    if reply.status != "201":
        raise RuntimeError(f"registering {username}: {reply.status} {reply.body}")
    return str(reply.body["token"])


async def person(
    session: aiohttp.ClientSession,
    api: str,
    token: str,
    tally: Tally,
    args: argparse.Namespace,
    deadline: float,
) -> None:
    """Create a game against three hard AIs, keep the first tickets, then play."""
    auth = {"Authorization": f"Token {token}"}
    seats = [{"type": "creator"}] + [{"type": "ai", "level": "hard"}] * 3
    created = await send(session, "POST", f"{api}/games", auth, {"board": "europe", "seats": seats})
    tally.create_ms.append(created.ms)
    record: dict[str, Any] = {"game": None, "actions": 0, "end": None, "version": None}
    tally.games.append(record)
    if created.status != "201":
        record["end"] = f"create failed: {created.status}"
        return
    game = f"{api}/games/{created.body['id']}"
    record["game"] = created.body["id"]

    etag: str | None = None
    detail: dict[str, Any] | None = None
    changed_at = time.monotonic()
    kept = False
    keep_started: float | None = None

    async def look() -> None:
        """Fetch the view (304 when the version is the one already held)."""
        nonlocal etag, detail, changed_at
        reply = await send(session, "GET", game, auth | ({"If-None-Match": etag} if etag else {}))
        tally.polls.append(reply.ms)
        if reply.status == "200":
            if detail is None or reply.body["version"] != detail["version"]:
                changed_at = time.monotonic()
            etag, detail = reply.headers.get("ETag"), reply.body
        elif reply.status != "304":
            tally.poll_failures[reply.status] += 1

    await look()
    while True:
        now = time.monotonic()
        if detail is not None:
            record["version"] = detail["version"]
            record["phase"] = detail["state"]["phase"] if detail["state"] else None
        if record["actions"] >= args.actions:
            record["end"] = "actions done"
            break
        if now >= deadline:
            record["end"] = "time limit"
            break
        if detail is None:
            await asyncio.sleep(args.poll)
            await look()
            continue
        if detail["status"] != "active":
            record["end"] = f"game {detail['status']}"
            break
        if not detail["your_turn"]:
            if now - changed_at > args.stall_seconds:
                pending = detail["state"]["pending"] if detail["state"] else None
                record["end"] = (
                    f"stalled: version {detail['version']} for {args.stall_seconds:g} s, "
                    f"pending {pending}"
                )
                break
            await asyncio.sleep(args.poll)
            await look()
            continue

        state = detail["state"]
        if state["pending"]["kind"] == "choose_initial_tickets":
            first = "first_keep" not in record
            kind = "keep_tickets (first)" if first else "keep_tickets (retry)"
            version = detail["version"]
            action = {
                "type": "keep_tickets",
                "tickets": [t["id"] for t in state["you"]["offered_tickets"]],
            }
        else:
            first = False
            legal = await send(session, "GET", f"{game}/legal-actions", auth)
            chosen = pick(legal.body["actions"]) if legal.status == "200" else None
            if chosen is None:
                tally.poll_failures[f"legal-actions {legal.status}"] += 1
                await asyncio.sleep(args.poll)
                await look()
                continue
            kind, version, action = chosen["type"], legal.body["version"], chosen

        sent = time.perf_counter()
        reply = await send(
            session, "POST", f"{game}/actions", auth, {"version": version, "action": action}
        )
        record["actions"] += 1
        if first:
            keep_started = sent
            record["first_keep"] = reply.status
            record["first_keep_version"] = version
            tally.first_keep_ms.append(reply.ms)
            tally.first_keep_status.append(reply.status)
        tally.action(kind, reply)
        if reply.status == "200":
            if action["type"] == "keep_tickets" and not kept:
                kept = True
                # Moves of the AI seats committed between the first keep's view and the keep.
                record["ai_moves_before_keep"] = (
                    reply.body["version"] - record["first_keep_version"] - 1
                )
                assert keep_started is not None
                tally.keep_settled_ms.append((time.perf_counter() - keep_started) * 1000)
            # The answer is the person's new view, with its ETag.
            changed_at = time.monotonic()
            etag, detail = reply.headers.get("ETag"), reply.body
        else:
            await look()


async def play(api: str, args: argparse.Namespace, tally: Tally) -> None:
    timeout = aiohttp.ClientTimeout(total=args.request_timeout)
    connector = aiohttp.TCPConnector(limit=2 * args.games + 4)
    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:
        tokens = await asyncio.gather(
            *[register(session, api, f"latency{i}") for i in range(args.games)]
        )
        deadline = time.monotonic() + args.seconds
        await asyncio.gather(*[person(session, api, t, tally, args, deadline) for t in tokens])


# ---------------------------------------------------------------------------- one stack
def run_stack(stack: Stack, args: argparse.Namespace) -> Tally:
    processes: list[Process] = []
    try:
        print(f"[{stack.name}] {stack.describe()}", flush=True)
        stack.prepare()
        worker = Worker(stack.env, stack.folder / "worker.log", loglevel="info")
        processes.append(worker)
        worker.start()
        web = WebServer(stack.env, stack.folder, workers=args.web_workers, threads=args.web_threads)
        processes.append(web)
        web.start()
        wait_until_ready(worker)
        print(
            f"[{stack.name}] gunicorn {args.web_workers} x {args.web_threads} threads at "
            f"{web.url}, one solo worker; {args.games} games",
            flush=True,
        )
        tally = Tally()
        started = time.monotonic()
        asyncio.run(play(f"{web.url}/api/v1", args, tally))
        print(f"[{stack.name}] played for {time.monotonic() - started:.1f} s", flush=True)
        return tally
    except Exception:
        for process in processes:
            print(f"--- end of the {process.name} log ---\n{process.log_tail()}", file=sys.stderr)
        raise
    finally:
        for process in reversed(processes):
            process.stop()
        stack.clean()


# ---------------------------------------------------------------------------- report
def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summarise(tally: Tally) -> dict[str, Any]:
    values = tally.latencies
    p95 = round(percentile(values, 0.95), 1)
    first_412 = tally.first_keep_status.count("412")
    return {
        "actions": len(values),
        "p50_ms": round(percentile(values, 0.50), 1),
        "p95_ms": p95,
        "max_ms": round(max(values), 1) if values else 0.0,
        "status_counts": dict(sorted(tally.statuses.items())),
        "first_keep_ms": [round(v, 1) for v in tally.first_keep_ms],
        "first_keep_412": first_412,
        "keep_settled_ms": [round(v, 1) for v in tally.keep_settled_ms],
        "by_type": {
            kind: {
                "n": len(v),
                "p50_ms": round(percentile(v, 0.5), 1),
                "max_ms": round(max(v), 1),
            }
            for kind, v in sorted(tally.by_type.items())
        },
        "polls": len(tally.polls),
        "poll_p95_ms": round(percentile(tally.polls, 0.95), 1),
        "poll_failures": dict(tally.poll_failures),
        "create_ms": [round(v, 1) for v in tally.create_ms],
        "games": tally.games,
        "targets": {
            "p95_under_100ms": bool(values) and p95 < TARGET_P95_MS,
            "first_keep_without_412": bool(tally.first_keep_status) and first_412 == 0,
        },
    }


def print_stack(name: str, s: dict[str, Any]) -> None:
    print(f"\n== {name}")
    print(f"{'action':24} {'n':>4} {'p50 ms':>9} {'max ms':>9}")
    for kind, row in s["by_type"].items():
        print(f"{kind:24} {row['n']:4d} {row['p50_ms']:9.1f} {row['max_ms']:9.1f}")
    print(
        f"{'all person actions':24} {s['actions']:4d} {s['p50_ms']:9.1f} {s['max_ms']:9.1f}"
        f"   p95 {s['p95_ms']:.1f} ms"
    )
    counts = ", ".join(f"{k}: {v}" for k, v in s["status_counts"].items()) or "none"
    print(f"statuses: {counts}")
    keeps = ", ".join(f"{v:.0f}" for v in s["first_keep_ms"]) or "none"
    print(f"first keeps (ms): {keeps}; 412 on {s['first_keep_412']} of {len(s['first_keep_ms'])}")
    settled = ", ".join(f"{v:.0f}" for v in s["keep_settled_ms"]) or "none"
    print(f"first keep to tickets kept, retries included (ms): {settled}")
    failures = ", ".join(f"{k}: {v}" for k, v in s["poll_failures"].items()) or "none"
    print(f"polls: {s['polls']}, p95 {s['poll_p95_ms']:.1f} ms, failures: {failures}")
    print(f"game creation (ms): {', '.join(f'{v:.0f}' for v in s['create_ms'])}")
    for g in s["games"]:
        print(
            f"  game {g['game']}: {g['actions']} actions, version {g['version']}, "
            f"phase {g.get('phase')}, first keep {g.get('first_keep')}, "
            f"AI moves before the keep {g.get('ai_moves_before_keep')}, ended: {g['end']}"
        )
    targets = s["targets"]
    print(
        f"target p95 < {TARGET_P95_MS:.0f} ms: "
        f"{'met' if targets['p95_under_100ms'] else 'MISSED'} ({s['p95_ms']:.1f} ms)"
    )
    print(
        "target first keep without 412: "
        f"{'met' if targets['first_keep_without_412'] else 'MISSED'} "
        f"({s['first_keep_412']} of {len(s['first_keep_ms'])} got 412)"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--stack", choices=("sqlite", "postgres", "both"), default="both")
    p.add_argument("--games", type=int, default=4, help="people, each with their own game")
    p.add_argument("--actions", type=int, default=10, help="POSTs per person at most")
    p.add_argument("--seconds", type=float, default=120, help="time limit of the play, per stack")
    p.add_argument("--poll", type=float, default=0.05, help="seconds between two polls")
    p.add_argument(
        "--stall-seconds",
        type=float,
        default=30,
        help="a game whose version stays put this long while its person waits has stalled",
    )
    p.add_argument("--request-timeout", type=float, default=60, help="seconds, per request")
    p.add_argument("--web-workers", type=int, default=2, help="gunicorn worker processes")
    p.add_argument(
        "--web-threads",
        type=int,
        help="threads per gunicorn worker; by default one per person (at least 4), so a "
        "request that waits for a lock holds up no other person's request queued behind it "
        "in the same process",
    )
    p.add_argument(
        "--database",
        default="postgres://postgres@127.0.0.1:5432/ttr_bench_latency",
        help="PostgreSQL URL of the benchmark database (dropped, created, dropped)",
    )
    p.add_argument("--redis", default="redis://127.0.0.1:6379/14", help="flushed before and after")
    p.add_argument("--keep", action="store_true", help="keep the temporary folder (logs)")
    args = p.parse_args()
    if args.web_threads is None:
        args.web_threads = max(4, args.games)

    # A plain kill runs the clean-up too.
    def terminated(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminated)

    names = ("sqlite", "postgres") if args.stack == "both" else (args.stack,)
    results: dict[str, Any] = {}
    failed = False
    for name in names:
        folder = Path(tempfile.mkdtemp(prefix=f"ttr-latency-{name}-"))
        try:
            stack: Stack = (
                Embedded(folder) if name == "sqlite" else Servers(folder, args.database, args.redis)
            )
            results[name] = summarise(run_stack(stack, args))
        except Exception as exc:
            failed = True
            results[name] = {"error": f"{type(exc).__name__}: {exc}"}
            print(f"[{name}] could not be run: {exc}", file=sys.stderr)
        finally:
            if args.keep:
                print(f"[{name}] logs kept in {folder}")
            else:
                with contextlib.suppress(OSError):
                    shutil.rmtree(folder)

    for name, summary in results.items():
        if "error" in summary:
            print(f"\n== {name}\ncould not be run: {summary['error']}")
        else:
            print_stack(name, summary)
    print(json.dumps(results))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
