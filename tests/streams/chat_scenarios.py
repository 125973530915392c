"""Chat on the live streams, played against real web servers: the same scenarios run on
the embedded default (test_streams_sqlite.py) and on PostgreSQL and Redis
(test_streams_postgres.py), each stack giving its own way to make a signed-in client."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx

from tests.faults.play import act, keep_offered_tickets, view
from tests.processes import WebServer

from .conftest import ticket
from .sse_client import StreamReader

# Make a signed-in client of ``web`` for a new user called ``name``.
MakeClient = Callable[[WebServer, str], httpx.Client]


def events_url(web: WebServer, game_id: int) -> str:
    return f"{web.url}/api/v1/games/{game_id}/events"


def say(client: httpx.Client, game_id: int, room: str, text: str) -> dict[str, Any]:
    response = client.post(f"/games/{game_id}/chat", json={"room": room, "text": text})
    assert response.status_code == 201, response.text
    return dict(response.json())


def said(reader: StreamReader) -> list[str]:
    return [e.data["text"] for e in reader.events if e.event == "chat"]


def game_of_two(host: httpx.Client, guest: httpx.Client) -> int:
    created = host.post(
        "/games",
        json={"board": "europe", "seats": [{"type": "creator"}, {"type": "open"}], "first_seat": 0},
    )
    assert created.status_code == 201, created.text
    game_id = int(created.json()["id"])
    assert guest.post(f"/games/{game_id}/join", json={}).status_code == 200
    return game_id


def watch(
    web: WebServer, game_id: int, client: httpx.Client | None, **headers: str
) -> StreamReader:
    """A reader of the game's stream (None: signed out), once the stream has read."""
    params = {"ticket": ticket(client)} if client is not None else {}
    reader = StreamReader(events_url(web, game_id), headers=headers, params=params).start()
    reader.wait_for(lambda r: len(r.events) >= 1, 10, "the stream's first event")
    return reader


def stop_all(readers: list[StreamReader]) -> None:
    for reader in readers:
        reader.stop()


def rooms_during_and_after_the_game(a: WebServer, b: WebServer, make: MakeClient) -> None:
    host, guest, watcher = make(a, "host"), make(b, "guest"), make(a, "watcher")
    game_id = game_of_two(host, guest)
    readers = {
        "host": watch(a, game_id, host),
        "guest": watch(b, game_id, guest),
        "watcher": watch(b, game_id, watcher),
        "anonymous": watch(a, game_id, None),
        "anonymous too": watch(a, game_id, None),  # shares the first one's reads
    }
    try:
        say(host, game_id, "players", "to the table")
        say(watcher, game_id, "spectators", "to the gallery")
        say(guest, game_id, "players", "back to the table")
        say(watcher, game_id, "spectators", "the gallery again")
        players = ["to the table", "back to the table"]
        gallery = ["to the gallery", "the gallery again"]
        for name, reader in readers.items():
            wanted = players if name in ("host", "guest") else gallery
            reader.wait_for(lambda r, w=wanted: said(r) == w, 10, f"{name}'s room")
        time.sleep(0.6)  # a few polls more: nothing else arrives
        for name, reader in readers.items():
            assert said(reader) == (players if name in ("host", "guest") else gallery)
        # The frames' ids carry the moves and the messages sent so far.
        frames = [e for e in readers["guest"].events if e.event == "chat"]
        assert all(positions(e.id) == f"0.{e.data['id']}" for e in frames)
        assert frames[0].data["room"] == "players" and frames[0].data["sender"] == "host"
        keep_offered_tickets(host, game_id)
        keep_offered_tickets(guest, game_id)
        assert act(guest, game_id, {"type": "forfeit"}).status_code == 200
        for name, reader in readers.items():
            reader.wait_for(lambda r: r.closed, 10, f"the end on {name}'s stream")
            assert reader.events[-1].event == "end"
    finally:
        stop_all(list(readers.values()))
    # Once the game is over, both rooms are open to everyone.
    everything = ["to the table", "to the gallery", "back to the table", "the gallery again"]
    for client, web in ((host, b), (None, a)):
        after = StreamReader(
            events_url(web, game_id), params={"ticket": ticket(client)} if client else {}
        ).start()
        try:
            after.wait_for(lambda r: r.closed, 10, "the finished game's stream")
        finally:
            after.stop()
        assert said(after) == everything
        moves = after.ids_of("move")
        chats = [e for e in after.events if e.event == "chat"]
        assert [positions(e.id) for e in chats] == [f"{moves[-1]}.{e.data['id']}" for e in chats]
        assert positions(after.events[-1].id) == f"{moves[-1]}.{chats[-1].data['id']}-end"


def positions(event_id: str | None) -> str:
    """A game stream's event id without its restore epoch (``41.17.3f9a01c2-end``:
    ``41.17-end``), which every id must carry."""
    assert event_id is not None
    found = re.fullmatch(r"([0-9]+\.[0-9]+)\.[0-9a-f]{8}(-end)?", event_id)
    assert found is not None, event_id
    return found.group(1) + (found.group(2) or "")


def blocked_and_muted_senders(a: WebServer, b: WebServer, make: MakeClient) -> None:
    host, guest = make(a, "host"), make(b, "guest")
    near, far = make(a, "near"), make(b, "far")
    game_id = game_of_two(host, guest)
    assert guest.put("/chat/mutes/host").status_code == 201
    assert near.post("/blocks", json={"username": "far"}).status_code == 201
    readers = {
        "host": watch(a, game_id, host),
        "guest": watch(b, game_id, guest),
        "near": watch(a, game_id, near),
        "far": watch(b, game_id, far),
    }
    try:
        say(host, game_id, "players", "muted words")
        say(far, game_id, "spectators", "blocked words")
        say(near, game_id, "spectators", "near words")
        say(guest, game_id, "players", "guest words")
        say(far, game_id, "spectators", "far again")
        expected = {
            "host": ["muted words", "guest words"],  # a mute is one way
            "guest": ["guest words"],
            "near": ["near words"],
            "far": ["blocked words", "far again"],  # a block is both ways
        }
        for name, reader in readers.items():
            reader.wait_for(lambda r, w=expected[name]: said(r) == w, 10, f"{name}'s messages")
        time.sleep(0.6)
        for name, reader in readers.items():
            assert said(reader) == expected[name], name
    finally:
        stop_all(list(readers.values()))
    # The room's list agrees with the stream.
    listed = guest.get(f"/games/{game_id}/chat", params={"room": "players"}).json()["results"]
    assert [m["text"] for m in listed] == ["guest words"]


def _burst(host: httpx.Client, guest: httpx.Client, game_id: int, posted: list[int]) -> None:
    """Moves and messages, one after the other, each seat drawing blind in its turn."""
    seats = [host, guest]
    for step in range(14):
        mover = next(c for c in seats if view(c, game_id)["your_turn"])
        assert act(mover, game_id, {"type": "draw_blind"}).status_code == 200
        posted.append(say(seats[step % 2], game_id, "players", f"message {step}")["id"])
        time.sleep(0.05)


def a_reconnect_in_a_burst_loses_and_repeats_nothing(
    a: WebServer, b: WebServer, make: MakeClient
) -> None:
    host, guest = make(a, "host"), make(b, "guest")
    game_id = game_of_two(host, guest)
    keep_offered_tickets(host, game_id)
    keep_offered_tickets(guest, game_id)
    posted: list[int] = []
    burst = threading.Thread(target=_burst, args=(host, guest, game_id, posted), daemon=True)
    moves: list[int] = []
    chats: list[int] = []
    last: str | None = None
    burst.start()
    resumed_in_the_burst = 0
    for leg in range(12):
        headers = {"Last-Event-ID": last} if last else {}
        if last and burst.is_alive():
            resumed_in_the_burst += 1
        reader = StreamReader(
            events_url((a, b)[leg % 2], game_id), headers=headers, params={"ticket": ticket(guest)}
        ).start()
        try:
            if burst.is_alive():
                reader.wait_for(
                    lambda r: (
                        len(r.ids_of("move")) + len(r.ids_of("chat")) >= 3 or not burst.is_alive()
                    ),
                    20,
                    "3 events",
                )
            else:
                before = len(chats)
                reader.wait_for(lambda r, n=before: n + len(r.ids_of("chat")) >= 14, 20, "the rest")
        finally:
            reader.stop()
        assert reader.error is None and reader.status == 200
        moves += reader.ids_of("move")
        chats += reader.ids_of("chat")
        with_ids = [e.id for e in reader.events if e.id is not None]
        last = with_ids[-1] if with_ids else last
        if not burst.is_alive() and len(chats) >= 14:
            break
    burst.join(30)
    assert len(posted) == 14
    assert resumed_in_the_burst >= 2
    logged = [m["number"] for m in guest.get(f"/games/{game_id}/moves").json()["moves"]]
    assert moves == logged == list(range(1, 17))  # two keeps, then fourteen draws
    assert chats == posted


def the_user_stream_tells_of_games_not_watched(
    a: WebServer, b: WebServer, make: MakeClient
) -> None:
    host, guest = make(a, "host"), make(b, "guest")
    watched, elsewhere = game_of_two(host, guest), game_of_two(host, guest)
    inbox = StreamReader(f"{a.url}/api/v1/stream", params={"ticket": ticket(guest)}).start()
    game_stream = watch(b, watched, guest)
    try:
        time.sleep(0.3)
        say(host, watched, "players", "on the watched table")
        say(guest, elsewhere, "players", "my own words")
        say(host, elsewhere, "players", "on the other table")
        inbox.wait_for(lambda r: "on the other table" in said(r), 10, "the other table's message")
        game_stream.wait_for(lambda r: said(r) == ["on the watched table"], 10, "the message")
        time.sleep(0.6)
    finally:
        stop_all([inbox, game_stream])
    chats = [e for e in inbox.events if e.event == "chat"]
    assert [e.data["text"] for e in chats] == ["on the other table"]
    assert chats[0].id is None and chats[0].data["game"] == elsewhere
    # Once the game's stream is closed (its mark lapses), that game's messages come too.
    inbox = StreamReader(f"{b.url}/api/v1/stream", params={"ticket": ticket(guest)}).start()
    try:
        time.sleep(4.5)  # two heartbeats and two seconds, at a heartbeat a second
        say(host, watched, "players", "are you there?")
        inbox.wait_for(lambda r: said(r) == ["are you there?"], 10, "the message")
    finally:
        inbox.stop()
