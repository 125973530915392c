"""Event streams on the embedded default (SQLite, no Redis), against real processes: two
web servers share the database file, and a stream on one sees the moves made through the
other, and the moves of a worker in a process of its own (each wakes the others' streams
with a datagram on their sockets, and each polls the database for what a datagram
missed)."""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import httpx
import pytest

from tests.processes import BIN, ROOT, WebServer, Worker, running

from . import chat_scenarios
from .conftest import asgi_web, ticket
from .sse_client import StreamReader

PASSWORD = "a-long-Passphrase-42"


@pytest.fixture
def embedded_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["SQLITE_PATH"] = str(tmp_path / "db.sqlite3")
    env["VAR_DIR"] = str(tmp_path / "var")  # the servers' shared files (stream presence)
    subprocess.run(
        [str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    return env


@pytest.fixture
def webs(embedded_env, tmp_path) -> Iterator[tuple[WebServer, WebServer]]:
    with (
        running(asgi_web(embedded_env, tmp_path / "a")) as a,
        running(asgi_web(embedded_env, tmp_path / "b")) as b,
    ):
        yield a, b


def register(web: WebServer, name: str) -> httpx.Client:
    answer = httpx.post(
        f"{web.url}/api/v1/auth/register", json={"username": name, "password": PASSWORD}
    )
    assert answer.status_code == 201, answer.text
    return httpx.Client(
        base_url=f"{web.url}/api/v1",
        headers={"Authorization": f"Token {answer.json()['token']}"},
        timeout=30,
    )


def act(client: httpx.Client, game_id: int, action: dict) -> None:
    version = client.get(f"/games/{game_id}").json()["version"]
    response = client.post(f"/games/{game_id}/actions", json={"version": version, "action": action})
    assert response.status_code == 200, response.text


def keep(client: httpx.Client, game_id: int) -> None:
    offered = client.get(f"/games/{game_id}").json()["state"]["you"]["offered_tickets"]
    act(client, game_id, {"type": "keep_tickets", "tickets": [t["id"] for t in offered]})


def test_moves_made_through_one_server_reach_streams_on_both(webs):
    a, b = webs
    host, guest = register(a, "host"), register(b, "guest")
    created = host.post(
        "/games",
        json={"board": "europe", "seats": [{"type": "creator"}, {"type": "open"}], "first_seat": 0},
    )
    game_id = created.json()["id"]
    on_a = StreamReader(f"{a.url}/api/v1/games/{game_id}/events").start()
    on_b = StreamReader(
        f"{b.url}/api/v1/games/{game_id}/events", params={"ticket": ticket(guest)}
    ).start()
    guest_inbox = StreamReader(f"{a.url}/api/v1/stream", params={"ticket": ticket(guest)}).start()
    try:
        assert guest.post(f"/games/{game_id}/join", json={}).status_code == 200
        keep(host, game_id)
        keep(guest, game_id)
        made = []
        for _ in range(2):
            act(host, game_id, {"type": "draw_blind"})
            made.append(time.time())
        for reader in (on_a, on_b):
            reader.wait_for(lambda r: len(r.ids()) == 4, 10, "four moves")
        guest_inbox.wait_for(lambda r: len(r.events) >= 1, 10, "the guest's notices")
    finally:
        for reader in (on_a, on_b, guest_inbox):
            reader.stop()
    assert on_a.ids() == on_b.ids() == [1, 2, 3, 4]
    # A stream on the server that took the move is woken at once; the other one polls.
    assert on_a.events[-1].at - made[-1] < 1.5
    assert on_b.events[-1].at - made[-1] < 1.5
    # The stream opened on the game in its lobby: a state event says so first.
    assert on_a.events[0].event == "game" and on_a.events[0].data["status"] == "lobby"
    notices = {e.event for e in guest_inbox.events}
    assert notices <= {"game_started", "your_turn"} and "game_started" in notices
    # Resuming after move 2 by ?after sends moves 3 and 4 only.
    resumed = StreamReader(f"{b.url}/api/v1/games/{game_id}/events", params={"after": 2}).start()
    try:
        resumed.wait_for(lambda r: len(r.ids()) == 2, 10, "two moves")
        time.sleep(0.5)
    finally:
        resumed.stop()
    assert resumed.ids() == [3, 4]


def test_the_workers_moves_reach_a_stream_long_before_the_poll(embedded_env, tmp_path):
    """The worker, another process, wakes the web process's streams over its socket: with
    the poll at 30 s, the bots' moves still arrive within seconds of their commit."""
    env = {**embedded_env, "STREAM_POLL_MS": "30000"}
    web = WebServer({**env, "STREAM_HEARTBEAT_SECONDS": "1"}, tmp_path, worker_class="uvicorn")
    with running(web), running(Worker(env, tmp_path / "worker.log")):
        host = register(web, "host")
        created = host.post(
            "/games", json={"board": "europe", "seats": [{"type": "ai", "level": "random"}] * 2}
        )
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        opened = time.time()

        def late(r: StreamReader) -> list[tuple[str | None, float]]:
            """The moves made after the stream opened, each with its delay (s)."""
            moves = [e for e in r.events if e.event == "move"]
            made = [(e, datetime.fromisoformat(e.data["at"]).timestamp()) for e in moves]
            return [(e.id, round(e.at - at, 2)) for e, at in made if at > opened]

        reader = StreamReader(f"{web.url}/api/v1/games/{game_id}/events").start()
        try:
            reader.wait_for(lambda r: len(late(r)) >= 5 or r.closed, 60, "five moves")
        finally:
            reader.stop()
    assert reader.error is None and reader.status == 200
    delays = late(reader)
    # Moves committed after the stream opened, each there within 5 s, not 30.
    assert len(delays) >= 3, delays
    assert all(seconds < 5 for _, seconds in delays), delays


def test_a_stream_ends_with_the_result_when_a_player_forfeits(webs):
    a, _ = webs
    host, guest = register(a, "host2"), register(a, "guest2")
    created = host.post(
        "/games",
        json={"board": "europe", "seats": [{"type": "creator"}, {"type": "open"}], "first_seat": 0},
    )
    game_id = created.json()["id"]
    assert guest.post(f"/games/{game_id}/join", json={}).status_code == 200
    keep(host, game_id)
    keep(guest, game_id)
    reader = StreamReader(f"{a.url}/api/v1/games/{game_id}/events").start()
    try:
        act(guest, game_id, {"type": "forfeit"})
        reader.wait_for(lambda r: r.closed, 10, "the end of the stream")
    finally:
        reader.stop()
    end = reader.events[-1]
    assert end.event == "end" and end.data["status"] == "finished"
    assert end.data["result"] == host.get(f"/games/{game_id}/result").json()
    # The last move, no chat message, and the restore epoch every id carries.
    last = [e for e in reader.events if e.event == "move"][-1]
    assert last.id is not None and re.fullmatch(rf"{reader.ids()[-1]}\.0\.[0-9a-f]{{8}}", last.id)
    assert end.id == f"{last.id}-end"
    again = httpx.get(f"{a.url}/api/v1/games/{game_id}/events", headers={"Last-Event-ID": end.id})
    assert again.status_code == 204


# ------------------------------------------------------------------------------ chat
def make_client(web: WebServer, name: str) -> httpx.Client:
    return register(web, name)


def test_chat_reaches_the_rooms_each_reader_may_read(webs):
    chat_scenarios.rooms_during_and_after_the_game(*webs, make_client)


def test_chat_leaves_out_blocked_and_muted_senders(webs):
    chat_scenarios.blocked_and_muted_senders(*webs, make_client)


def test_a_reconnect_in_a_burst_of_moves_and_chat_loses_and_repeats_nothing(webs):
    chat_scenarios.a_reconnect_in_a_burst_loses_and_repeats_nothing(*webs, make_client)


def test_the_user_stream_tells_of_chat_in_games_not_watched(webs):
    chat_scenarios.the_user_stream_tells_of_games_not_watched(*webs, make_client)
