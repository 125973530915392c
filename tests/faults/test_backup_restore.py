"""A backup taken with ``pg_dump`` while games are played, restored into a fresh database
as docs/operations.md ("Backup and restore") says: every game goes on and finishes there,
and a client holding an ETag or a stream id from after the backup (a history the restore
lost) is never answered as if it were current.

The service (a web server and a worker with its beat) runs on the test database with a
private Redis; people's moves are made through the API by this test, the AI seats' by the
worker. The restored database is ``<test database>_restored``, dropped afterwards.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis
from django.db import connection

from tests.processes import BIN, ROOT, WebServer, Worker, production_env, running, wait_for
from tests.streams.sse_client import StreamReader

from .helpers import client_for, user
from .play import create_game, keep_offered_tickets

pytestmark = pytest.mark.postgres

AI = {"type": "ai", "level": "random"}


def _pg(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    db = connection.settings_dict
    where = ("-h", db["HOST"], "-p", str(db["PORT"]), "-U", db["USER"])
    done = subprocess.run([tool, *where, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "python"), "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def restored_name() -> Iterator[str]:
    name = f"{connection.settings_dict['NAME']}_restored"
    _pg("dropdb", "--if-exists", "--force", name)
    yield name
    _pg("dropdb", "--if-exists", "--force", name)


class Players:
    """People's moves, made through the API in a thread until stopped: on each game, every
    person with a decision pending plays a legal action (a blind draw when there is one)."""

    def __init__(self, tables: list[tuple[int, list[httpx.Client]]]) -> None:
        self.tables = tables
        self.stopping = threading.Event()
        self.made = 0
        self.errors: list[str] = []
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Players:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.thread.join(30)
        assert not self.errors, self.errors

    def _run(self) -> None:
        while not self.stopping.is_set():
            for game_id, clients in self.tables:
                for client in clients:
                    try:
                        self.made += play_one(client, game_id)
                    except httpx.HTTPError as exc:  # the service stopping under the test
                        if not self.stopping.is_set():
                            self.errors.append(repr(exc))
            time.sleep(0.05)


def play_one(client: httpx.Client, game_id: int) -> int:
    """One legal action of the client's seat, if it has a decision pending; 1 if played."""
    legal = client.get(f"/games/{game_id}/legal-actions").json()
    actions = legal.get("actions") or []
    if not actions:
        return 0
    blind = [a for a in actions if a.get("type") == "draw_blind"]
    action = blind[0] if blind else actions[0]
    answer = client.post(
        f"/games/{game_id}/actions", json={"version": legal["version"], "action": action}
    )
    assert answer.status_code in (200, 409, 412), answer.text  # 409/412: the game moved on
    return int(answer.status_code == 200)


def version_of(client: httpx.Client, game_id: int) -> int:
    return int(client.get(f"/games/{game_id}").json()["version"])


def moves_of(client: httpx.Client, game_id: int) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = client.get(f"/games/{game_id}/moves?limit=500").json()["moves"]
    return moves


def test_a_backup_taken_during_play_restores_into_a_service_where_every_game_goes_on(
    transactional_db, redis_server, tmp_path, restored_name
):
    db = connection.settings_dict
    source = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    target = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{restored_name}"
    env = production_env_for(source, redis_server.url)
    host, guest = user("host"), user("guest")
    backup = tmp_path / "backup.dump"
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()

    with (
        running(WebServer(env, tmp_path / "a", worker_class="uvicorn")) as web,
        running(Worker(env, tmp_path / "worker-a.log")),
    ):
        h, g = client_for(web, host), client_for(web, guest)
        games = start_games(h, g)
        tables = [(games[0], [h, g]), (games[1], [h]), (games[2], [g])]
        with Players(tables) as players:
            wait_for(lambda: players.made >= 6, 60, "people's moves before the backup")
            _pg("pg_dump", "-Fc", "-f", str(backup), db["NAME"])
            at_backup = version_of(h, games[0])
            wait_for(lambda: version_of(h, games[0]) > at_backup + 2, 60, "play on")
            # A client's tokens from after the backup: the view's ETag, a stream id.
            lost_tag = h.get(f"/games/{games[0]}").headers["ETag"]
            lost_id = stream_id_after(web, h, games[0], at_backup)
            lost_moves = moves_of(h, games[0])

    # The restore: a fresh database, the backup in it, Redis emptied, then `restored`.
    _pg("createdb", restored_name)
    _pg("pg_restore", "--no-owner", "-d", restored_name, str(backup))
    redis.Redis.from_url(redis_server.url).flushdb()
    # The service was down for longer than the timed game's turn (60 s at least).
    passed = f"UPDATE games_game SET deadline = now() - interval '1 second' WHERE id = {games[3]}"
    _pg("psql", "-d", restored_name, "-c", passed)
    restored_log = {game: len(moves_of_db(restored_name, game)) for game in games}
    after_env = {**env, "DATABASE_URL": target}
    done = _manage(after_env, "restored", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert re.fullmatch(r"[0-9a-f]{8}", summary["epoch"])
    assert summary["settled"] == 1, summary  # the timed game's deadline

    with running(WebServer(after_env, tmp_path / "b", worker_class="uvicorn")) as web:
        h, g = client_for_restored(web, h), client_for_restored(web, g)
        check_the_lost_future_is_never_current(web, h, games[0], lost_tag, lost_id, lost_moves)
        with running(Worker(after_env, tmp_path / "worker-b.log")):
            tables = [(games[0], [h, g]), (games[1], [h]), (games[2], [g])]
            with Players(tables) as players:
                wait_for(lambda: players.made >= 6, 90, "people's moves after the restore")
                # The AI plays on in every game: the turns `restored` queued, the settled
                # deadline's (the timed game's person is seat 0), those the moves queue.
                wait_for(
                    lambda: all(ai_moved(h, game, restored_log[game]) for game in games),
                    90,
                    "an AI move in every game after the restore",
                )
                timed = moves_of(h, games[3])[restored_log[games[3]] :]
                assert any(m["seat"] == 0 and m["by_ai"] for m in timed), timed
                # The game passes the version of the tag from the lost future: still 200.
                old = int(re.search(r"-v([0-9]+)-", lost_tag).group(1))  # type: ignore[union-attr]
                wait_for(lambda: version_of(h, games[0]) >= old, 90, "the old tag's version")
                again = h.get(f"/games/{games[0]}", headers={"If-None-Match": lost_tag})
                assert again.status_code == 200 and again.headers["ETag"] != lost_tag
            for game_id, clients in [*tables, (games[3], [h])]:
                for client in clients:
                    forfeit(client, game_id)
            wait_for(lambda: all(finished(h, game) for game in games), 90, "every game's end")
        checked = _manage(after_env, "check_integrity", "--json")
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert json.loads(checked.stdout)["inconsistent"] == []


def production_env_for(database_url: str, redis_url: str) -> dict[str, str]:
    return {
        **production_env(database_url, redis_url, "restore"),
        "AI_STUCK_SECONDS": "600",  # after the restore, `restored` queues the AI turns
        "AI_MOVE_DELAY_MS": "100",
    }


def start_games(h: httpx.Client, g: httpx.Client) -> list[int]:
    """Two people and an AI; a person and an AI (twice), past their initial tickets; a
    person and an AI under a time limit, the person choosing nothing."""
    both = create_game(h, [{"type": "creator"}, {"type": "open"}, AI], first_seat=0)
    assert g.post(f"/games/{both}/join", json={}).status_code == 200
    alone = create_game(h, [{"type": "creator"}, AI], first_seat=1)
    other = create_game(g, [{"type": "creator"}, AI], first_seat=1)
    for game_id, clients in ((both, [h, g]), (alone, [h]), (other, [g])):
        for client in clients:
            keep_offered_tickets(client, game_id)
    # A person who does not play: the AI plays their turns once the deadline passes.
    timed = create_game(h, [{"type": "creator"}, AI], first_seat=0, turn_time_limit=60)
    return [both, alone, other, timed]


def stream_id_after(web: WebServer, client: httpx.Client, game_id: int, version: int) -> str:
    """The id of a move event of the game's stream that came after ``version``."""
    reader = StreamReader(
        f"{web.url}/api/v1/games/{game_id}/events",
        headers={"Authorization": client.headers["Authorization"]},
    ).start()
    try:
        reader.wait_for(
            lambda r: any(e.event == "move" and e.data["version"] > version for e in r.events),
            30,
            "a move after the backup on the stream",
        )
    finally:
        reader.stop()
    last = [e for e in reader.events if e.event == "move"][-1]
    assert last.id is not None
    return last.id


def client_for_restored(web: WebServer, client: httpx.Client) -> httpx.Client:
    """The same token (restored with its user) on the restored service."""
    return httpx.Client(
        base_url=f"{web.url}/api/v1",
        headers={"Authorization": client.headers["Authorization"]},
        timeout=30,
    )


def check_the_lost_future_is_never_current(
    web: WebServer,
    h: httpx.Client,
    game_id: int,
    lost_tag: str,
    lost_id: str,
    lost_moves: list[dict[str, Any]],
) -> None:
    """The client's tag gets the restored view (200), its If-Match move 412, its stream id
    the stream from the first move, as the restored log has it."""
    view = h.get(f"/games/{game_id}", headers={"If-None-Match": lost_tag})
    assert view.status_code == 200 and view.headers["ETag"] != lost_tag
    restored_version = view.json()["version"]
    assert restored_version < int(re.search(r"-v([0-9]+)-", lost_tag).group(1))  # type: ignore[union-attr]
    refused = h.post(
        f"/games/{game_id}/actions",
        json={"action": {"type": "draw_blind"}},
        headers={"If-Match": lost_tag},
    )
    assert refused.status_code == 412, refused.text
    assert refused.json()["current_version"] == restored_version
    log = moves_of(h, game_id)
    assert len(log) < len(lost_moves) and log == lost_moves[: len(log)]
    reader = StreamReader(
        f"{web.url}/api/v1/games/{game_id}/events",
        headers={"Authorization": h.headers["Authorization"], "Last-Event-ID": lost_id},
    ).start()
    try:
        reader.wait_for(lambda r: len(r.ids()) >= len(log), 30, "the restored log")
        time.sleep(0.5)  # nothing more arrives: no worker runs yet
    finally:
        reader.stop()
    assert reader.status == 200
    assert reader.ids() == [m["number"] for m in log]  # from move 1, no gap, nothing lost
    assert [e.data for e in reader.events if e.event == "move"] == log
    epoch = view.headers["ETag"].rstrip('"').rsplit("-e", 1)[1]
    assert all(e.id is not None and e.id.endswith(f".{epoch}") for e in reader.events if e.id)
    assert not lost_id.endswith(f".{epoch}")


def forfeit(client: httpx.Client, game_id: int) -> None:
    """The client's seat leaves the game (on the version it reads; again if it moved on)."""
    for _ in range(30):
        version = version_of(client, game_id)
        answer = client.post(
            f"/games/{game_id}/actions",
            json={"version": version, "action": {"type": "forfeit"}},
        )
        if answer.status_code in (200, 409):  # 409: the game is over already
            return
        assert answer.status_code == 412, answer.text
        time.sleep(0.2)
    raise AssertionError(f"game {game_id}: the forfeit kept getting 412")


def moves_of_db(database: str, game_id: int) -> list[str]:
    """The move numbers of a game in ``database``, read with psql."""
    query = f"SELECT number FROM games_move WHERE game_id = {game_id} ORDER BY number"
    return _pg("psql", "-d", database, "-Atc", query).stdout.split()


def ai_moved(client: httpx.Client, game_id: int, after: int) -> bool:
    return any(m["by_ai"] for m in moves_of(client, game_id)[after:])


def finished(client: httpx.Client, game_id: int) -> bool:
    return bool(client.get(f"/games/{game_id}").json()["status"] == "finished")
