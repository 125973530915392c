"""The service on several processes, as compose.yaml runs it, under many games at once.

``make test-scale`` runs it against PostgreSQL (``SCALE_DATABASE_URL``, by default
``postgres://postgres@127.0.0.1:5432/ttr_scale``; pytest-django creates ``test_ttr_scale``)
and Redis (``SCALE_REDIS_URL``, ``redis://127.0.0.1:6379/12``, flushed first), so it can run
beside the other passes. It starts, each with the command of the Dockerfile or compose.yaml
and the image's environment:

- two web servers (gunicorn with uvicorn workers on the ASGI application, 2 each);
- two Celery workers (2 pool processes each; a node name each, as their containers'
  host names would give them) and one beat.

Then 20 games of one person and three medium AI seats, and 2 rated games of two people,
are played at once. Each person is a client that polls its game view (``If-None-Match``)
and, on its turn, picks a move from ``GET /games/{id}/legal-actions`` and posts it with an
``Idempotency-Key``, retrying a request that got no answer. Clients are spread over the two
web servers. Once a third of the expected moves are made one worker is killed with SIGKILL
and started again; at two thirds one web server is killed and started again on its port.

Then every game must be finished, ``check_integrity`` must pass on each, and nothing that
must happen once happened twice: one result and one ``RatedGame`` per game; statistics
counted once per person; rating changes for the rated games only, one per player;
``game_started`` and ``game_over`` once per person, ``your_turn`` exactly once per turn the
person was given; one outbox row per notification and webhook, each delivered and received
once.

Limits, on a busy two-core machine: 90 s for the processes to start, 300 s from the first
move for every game to finish, 60 s for the results and deliveries to be recorded after
that. Clients poll every 0.4 s. Measured on 2026-12-03 (pytest's time, then ``make
test-scale``'s with the database set up): 153 s (2 min 37 s) on a machine quiet at the start,
184 s (3 min 10 s) and 225 s (3 min 51 s) with other test runs on both cores (load average
about 12); about 5,300 moves, the two-person rated games finishing last.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from accounts.services import token_issue
from games.models import Game, Move
from notifications.models import Delivery, Notification
from notifications.webhooks import endpoint_create
from ops.models import BeatLease
from ratings.models import PlayerStats, RatedGame, RatingChange
from tests import remote_play
from tests.containers import (
    command_of,
    dockerfile_env,
    image_command,
    local_command,
    with_option,
)
from tests.faults.helpers import PASSWORD, integrity
from tests.notifications.receiver import Receiver, running_receiver
from tests.processes import Process, free_port, service_env, wait_for
from tests.remote_play import choose, turns_given
from tests.workers.conftest import database_url

pytestmark = [pytest.mark.scale, pytest.mark.postgres]

AI_GAMES = 20
RATED_GAMES = 2
RATED_PLAYERS = 2
START_LIMIT = 90
PLAY_LIMIT = 300
SETTLE_LIMIT = 60
POLL_SECONDS = 0.4
# The moves (of all games together) after which a worker is killed, then a web server
# restarted: about a third and two thirds of a run.
KILL_WORKER_AT = 1500
RESTART_WEB_AT = 3000


# ---------------------------------------------------------------------------- processes
class ContainerProcess(Process):
    """One process started with a container's command, from this checkout's venv."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], folder: Path):
        super().__init__(name, folder / f"{name}.log")
        self.command = command
        self.env = env

    def start(self) -> None:
        self.spawn(self.command, self.env)


class Web(ContainerProcess):
    def __init__(self, name: str, env: dict[str, str], folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # The image binds 0.0.0.0:$PORT; here the loopback only.
        command = [*local_command(image_command()), "--bind", f"127.0.0.1:{self.port}"]
        super().__init__(name, command, {**env, "WEB_CONCURRENCY": "2"}, folder)

    def start(self) -> None:
        super().start()
        wait_for(self.answers, START_LIMIT, f"{self.name} to answer")

    def answers(self) -> bool:
        try:
            return httpx.get(f"{self.url}/api/v1/boards", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False


def worker(name: str, env: dict[str, str], folder: Path) -> ContainerProcess:
    # Containers have host names of their own; on one host each worker needs a node name.
    command = with_option(local_command(command_of("worker")), "--hostname", f"{name}@%h")
    return ContainerProcess(name, command, env, folder)


def beat(env: dict[str, str], folder: Path) -> ContainerProcess:
    command = local_command(command_of("beat"))
    return ContainerProcess(
        "beat", with_option(command, "--schedule", str(folder / "beat.schedule")), env, folder
    )


@dataclass
class Stack:
    webs: list[Web]
    workers: list[ContainerProcess]
    beat: ContainerProcess

    def all(self) -> list[Process]:
        return [*self.webs, *self.workers, self.beat]


@pytest.fixture
def stack(transactional_db, tmp_path: Path) -> Iterator[Stack]:
    if not settings.REDIS_URL:
        pytest.fail("REDIS_URL must point at the Redis server for the scale test")
    redis.Redis.from_url(settings.REDIS_URL).flushdb()
    env = {
        **service_env(database_url(), settings.REDIS_URL),
        # The image's own environment (DEBUG off, its database settings), then the test's.
        **dockerfile_env(),
        "SECRET_KEY": "scale-test-only-" + "s" * 40,
        "SECURE_SSL_REDIRECT": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "THROTTLE_USER_RATE": "100000/min",
        "THROTTLE_ANON_RATE": "100000/min",
        "CELERY_VISIBILITY_TIMEOUT": "10",
        "AI_STUCK_SECONDS": "5",
        "BEAT_LEASE_SECONDS": "3",
        "NOTIFICATIONS_SWEEP_SECONDS": "1",
        "NOTIFICATIONS_LEASE_SECONDS": "10",
        "HEALTH_REQUIRE_WORKERS": "false",
    }
    env.pop("PORT", None)
    stack = Stack(
        webs=[Web(f"web{i}", env, tmp_path) for i in (1, 2)],
        workers=[worker(f"worker{i}", env, tmp_path) for i in (1, 2)],
        beat=beat(env, tmp_path),
    )
    started = time.monotonic()
    try:
        for process in [*stack.workers, stack.beat, *stack.webs]:
            process.start()
        print(f"processes up in {time.monotonic() - started:.1f} s")
        yield stack
    finally:
        for process in stack.all():
            process.stop()
        for process in stack.all():
            print(f"--- {process.name}\n{process.log_tail(1500)}")


# ------------------------------------------------------------------------------ players
@dataclass
class Person:
    user: Any
    client: httpx.Client
    seat: int | None = None
    turns_given: int = 0
    moves: int = 0
    retries: int = 0
    errors: list[str] = field(default_factory=list)


def make_person(name: str, web: Web, receiver: Receiver) -> Person:
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    _, key = token_issue(user, name="scale-test")
    endpoint_create(user, url=receiver.url, name="scale", events=["game_started", "game_over"])
    client = httpx.Client(
        base_url=f"{web.url}/api/v1", headers={"Authorization": f"Token {key}"}, timeout=30
    )
    return Person(user, client)


def answered(person: Person, method: str, url: str, **kwargs: Any) -> httpx.Response:
    """The request's answer, retried as a client would for up to ``PLAY_LIMIT``."""
    return remote_play.answered(person, method, url, give_up=PLAY_LIMIT, pause=0.2, **kwargs)


def play(person: Person, game_id: int, stop: threading.Event, rng: random.Random) -> None:
    """Poll the game; on this person's turn, post one move picked from the legal actions.
    Anything unexpected ends the client with an error the test reports."""
    try:
        play_until_over(person, game_id, stop, rng)
    except Exception as exc:
        person.errors.append(f"{type(exc).__name__}: {exc}")


def play_until_over(
    person: Person, game_id: int, stop: threading.Event, rng: random.Random
) -> None:
    game = f"/games/{game_id}"
    watch = remote_play.Watch(lambda headers: answered(person, "GET", game, headers=headers))
    while True:
        seen = watch.until_my_turn(stop, POLL_SECONDS)
        if seen != "turn":
            if seen not in ("finished", "stopped"):
                person.errors.append(seen)
            return
        response = answered(person, "GET", f"/games/{game_id}/legal-actions")
        if response.status_code != 200:
            person.errors.append(f"legal-actions {response.status_code} {response.text[:200]}")
            return
        legal = response.json()
        if not legal["actions"]:
            time.sleep(POLL_SECONDS)
            continue
        action = choose(legal["actions"], rng)
        key = f"scale-{game_id}-{person.user.pk}-{legal['version']}"
        response = answered(
            person,
            "POST",
            f"/games/{game_id}/actions",
            json={"version": legal["version"], "action": action},
            headers={"Idempotency-Key": key},
        )
        if response.status_code == 200:
            person.moves += 1
            watch.etag, watch.view = response.headers.get("ETag"), response.json()
        elif response.status_code not in (409, 412):
            person.errors.append(f"POST {response.status_code} {response.text[:200]}")
            return


def create(person: Person, seats: list[dict[str, Any]]) -> int:
    response = answered(person, "POST", "/games", json={"board": "europe", "seats": seats})
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


# -------------------------------------------------------------------------------- counts
def moves_made(game_ids: list[int]) -> int:
    return Move.objects.filter(game_id__in=game_ids).count()


def finished(game_ids: list[int]) -> int:
    return Game.objects.filter(pk__in=game_ids, status="finished").count()


def your_turns_given(game: Game, seat: int) -> int:
    """The turns ``seat`` was given (``remote_play.turns_given``), from the game's log."""
    moves = list(Move.objects.filter(game=game).order_by("number").values_list("seat", "action"))
    return turns_given(moves, seat)


# ---------------------------------------------------------------------------------- test
def test_twenty_games_on_two_webs_and_two_workers_survive_a_kill_of_each(
    stack: Stack, tmp_path: Path
) -> None:
    started = time.monotonic()
    webs = stack.webs
    with running_receiver() as receiver:
        people: list[Person] = []
        games: dict[int, list[Person]] = {}
        for i in range(AI_GAMES):
            person = make_person(f"player{i}", webs[i % 2], receiver)
            ai = {"type": "ai", "level": "medium"}
            game_id = create(person, [{"type": "creator"}, ai, ai, ai])
            person.seat = 0
            people.append(person)
            games[game_id] = [person]
        for g in range(RATED_GAMES):
            table = [
                make_person(f"rated{g}-{s}", webs[(g + s) % 2], receiver)
                for s in range(RATED_PLAYERS)
            ]
            game_id = create(
                table[0], [{"type": "creator"}] + [{"type": "open"}] * (RATED_PLAYERS - 1)
            )
            for seat, person in enumerate(table):
                person.seat = seat
                if seat:
                    joined = answered(person, "POST", f"/games/{game_id}/join", json={})
                    assert joined.status_code == 200, joined.text
            people.extend(table)
            games[game_id] = table
        game_ids = sorted(games)
        connection.close()

        stop = threading.Event()
        threads = [
            threading.Thread(
                target=play, args=(person, game_id, stop, random.Random(person.user.pk))
            )
            for game_id, table in games.items()
            for person in table
        ]
        for thread in threads:
            thread.start()
        try:
            # A worker killed mid-run, and started again as its supervisor would.
            wait_for(
                lambda: moves_made(game_ids) >= KILL_WORKER_AT or finished(game_ids) > 0,
                PLAY_LIMIT,
                f"{KILL_WORKER_AT} moves",
            )
            killed = stack.workers[0]
            killed.kill()
            killed_at, finished_then = moves_made(game_ids), finished(game_ids)
            killed.start()
            # A web server killed mid-run and started again on its port.
            wait_for(
                lambda: moves_made(game_ids) >= RESTART_WEB_AT or finished(game_ids) > 0,
                PLAY_LIMIT,
                f"{RESTART_WEB_AT} moves",
            )
            webs[1].kill()
            restarted_at, finished_before_restart = moves_made(game_ids), finished(game_ids)
            webs[1].start()

            def all_finished() -> bool:
                failed = [f"{p.user.username}: {p.errors}" for p in people if p.errors]
                assert not failed, failed  # a client that gave up: its game cannot end
                return finished(game_ids) == len(game_ids)

            wait_for(all_finished, PLAY_LIMIT - (time.monotonic() - started), "every game")
        finally:
            stop.set()
            for thread in threads:
                thread.join(30)
        played = time.monotonic() - started
        print(
            f"{len(game_ids)} games, {moves_made(game_ids)} moves in {played:.0f} s; worker "
            f"killed at move {killed_at}, web restarted at move {restarted_at}; client "
            f"retries: {sum(p.retries for p in people)}"
        )
        lengths = sorted(
            (
                (game.finished_at - game.started_at).total_seconds(),
                game.players,
                game.moves.count(),
            )
            for game in Game.objects.filter(pk__in=game_ids)
        )
        print("games (seconds, players, moves), slowest last:", lengths[:2], lengths[-3:])
        assert all(not thread.is_alive() for thread in threads)
        # Both kills came in the middle of the run, with every game still going.
        assert finished_then == finished_before_restart == 0
        assert killed_at < restarted_at
        assert [p.errors for p in people if p.errors] == []

        # Every game consistent with its seed and log.
        code, report = integrity(*game_ids)
        assert code == 0 and report["checked"] == len(game_ids), report["problems"]

        # Ratings: each game recorded once (the task runs on the game's end; the beat
        # sweep records any it missed).
        wait_for(
            lambda: RatedGame.objects.filter(game_id__in=game_ids).count() == len(game_ids),
            SETTLE_LIMIT,
            "every game's result to be recorded",
        )
        # Notifications: every webhook delivered (a claim cut by the kill runs out its
        # 10 s lease and is sent again by the sweep).
        wait_for(
            lambda: not Delivery.objects.exclude(status="delivered").exists(),
            SETTLE_LIMIT,
            "every webhook delivery",
        )
        time.sleep(3)  # more sweeps of every kind: none may add anything

        check_results(games)
        check_notifications(games, people, receiver)
        check_health(stack, game_ids)
    print(f"whole scale test: {time.monotonic() - started:.0f} s")


def check_health(stack: Stack, game_ids: list[int]) -> None:
    """Both web servers healthy; both workers seen, by their node names; the beat's sweeps
    fresh, and its lease held by the one beat since before the first game."""
    for web in stack.webs:
        body = httpx.get(f"{web.url}/api/v1/health", timeout=10).json()
        assert (body["database"], body["broker"], body["workers"], body["beat"]) == ("ok",) * 4
        nodes = {w["hostname"].split("@")[0] for w in body["worker_heartbeats"]}
        assert nodes == {"worker1", "worker2"}, body["worker_heartbeats"]
    lease = BeatLease.objects.get()
    assert stack.beat.process is not None
    assert f":{stack.beat.process.pid}:" in lease.holder
    first = Game.objects.filter(pk__in=game_ids).order_by("created_at").first()
    assert first is not None and lease.acquired_at < first.created_at


def check_results(games: dict[int, list[Person]]) -> None:
    rated_ids = {g for g, table in games.items() if len(table) == RATED_PLAYERS}
    for game_id, table in games.items():
        game = Game.objects.get(pk=game_id)
        assert game.status == "finished" and game.result and game.finished_at
        assert RatedGame.objects.filter(game=game).count() == 1
        assert RatedGame.objects.get(game=game).rated == (game_id in rated_ids)
        changes = RatingChange.objects.filter(game=game)
        assert changes.count() == (RATED_PLAYERS if game_id in rated_ids else 0)
        lines = {line["seat"]: line for line in game.result["players"]}
        for person in table:
            # Each person played this one game: counted once, with its final score.
            stats = PlayerStats.objects.get(user=person.user, board="europe")
            assert (stats.games, stats.total_score) == (1, lines[person.seat]["total"])
            if game_id in rated_ids:
                assert changes.filter(user=person.user).count() == 1
                assert person.user.ratings.get(board="europe").rated_games == 1
            else:
                assert not person.user.ratings.exists()


def check_notifications(
    games: dict[int, list[Person]], people: list[Person], receiver: Receiver
) -> None:
    for game_id, table in games.items():
        game = Game.objects.get(pk=game_id)
        for person in table:
            kinds = Counter(
                Notification.objects.filter(user=person.user, game_id=game_id).values_list(
                    "kind", flat=True
                )
            )
            assert kinds["game_started"] == 1, (person.user.username, kinds)
            assert kinds["game_over"] == 1, (person.user.username, kinds)
            assert person.seat is not None
            given = your_turns_given(game, person.seat)
            assert kinds["your_turn"] == given, (person.user.username, kinds, given)
            assert set(kinds) <= {"game_started", "game_over", "your_turn"}, kinds
    deliveries = Delivery.objects.filter(notification__user__in=[p.user for p in people])
    assert deliveries.count() == 2 * len(people)  # game_started and game_over, one each
    per_notification = Counter(deliveries.values_list("notification_id", flat=True))
    assert set(per_notification.values()) == {1}
    received = Counter(r.headers["webhook-id"] for r in receiver.requests)
    sent = set(deliveries.values_list("message_id", flat=True))
    assert set(received) == sent
    assert [m for m, n in received.items() if n > 1] == [], "a webhook was sent twice"
