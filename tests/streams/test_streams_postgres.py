"""Event streams on PostgreSQL and Redis, against real processes: two web servers and a
worker, moves committed by the worker (AI seats) and by requests to either server."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import httpx
import pytest

from games.models import Game, Move
from tests.faults.helpers import client_for, user
from tests.faults.play import act, create_game, keep_offered_tickets
from tests.processes import RedisServer, WebServer, Worker, production_env, running
from tests.workers.conftest import database_url

from . import chat_scenarios
from .conftest import asgi_web, ticket
from .sse_client import StreamReader

pytestmark = pytest.mark.postgres


@pytest.fixture
def env(transactional_db, redis_server) -> dict[str, str]:
    return {
        **production_env(database_url(), redis_server.url, "stream"),
        # Bots pause between moves, so a reader can drop out in the middle of a sequence.
        "AI_MOVE_DELAY_MS": "40",
        "MAX_BOT_ONLY_GAMES_PER_USER": "5",
    }


@pytest.fixture
def webs(env, tmp_path) -> Iterator[tuple[WebServer, WebServer]]:
    with (
        running(asgi_web(env, tmp_path / "a")) as a,
        running(asgi_web(env, tmp_path / "b")) as b,
    ):
        yield a, b


@pytest.fixture
def worker(env, tmp_path) -> Iterator[Worker]:
    with running(Worker(env, tmp_path / "worker.log")) as w:
        yield w


def events_url(web: WebServer, game_id: int) -> str:
    return f"{web.url}/api/v1/games/{game_id}/events"


def assert_whole_log(ids: list[int], game_id: int) -> None:
    numbers = list(Move.objects.filter(game_id=game_id).values_list("number", flat=True))
    assert ids == numbers == list(range(1, len(numbers) + 1))


def test_a_client_on_each_web_server_sees_every_move_the_worker_commits(webs, worker):
    a, b = webs
    host = client_for(a, user("host"))
    game_id = create_game(host, [{"type": "ai", "level": "random"}] * 2)
    on_a = StreamReader(events_url(a, game_id), params={"ticket": ticket(host)}).start()
    on_b = StreamReader(events_url(b, game_id)).start()  # a spectator, no credentials
    try:
        for reader in (on_a, on_b):
            reader.wait_for(lambda r: r.closed, 240, "the game's end on the stream")
            assert reader.error is None and reader.status == 200
    finally:
        on_a.stop()
        on_b.stop()
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    for reader in (on_a, on_b):
        assert_whole_log(reader.ids(), game_id)
        end = reader.events[-1]
        assert end.event == "end" and end.data["result"] == game.result
        assert end.data["version"] == game.version
        assert [e.data["version"] for e in reader.events if e.event == "move"] == list(
            Move.objects.filter(game_id=game_id)
            .order_by("number")
            .values_list("version", flat=True)
        )


def test_a_reconnect_with_last_event_id_in_an_ai_sequence_loses_and_repeats_nothing(webs, worker):
    a, b = webs
    host = client_for(a, user("host"))
    game_id = create_game(host, [{"type": "ai", "level": "random"}] * 2)
    received: list[int] = []
    servers = [a, b]
    for leg in range(6):
        headers = {"Last-Event-ID": str(received[-1])} if received else {}
        reader = StreamReader(events_url(servers[leg % 2], game_id), headers=headers).start()
        try:
            if leg < 5:
                reader.wait_for(lambda r: len(r.ids()) >= 15 or r.closed, 60, "15 moves")
            else:
                reader.wait_for(lambda r: r.closed, 240, "the game's end")
        finally:
            reader.stop()
        assert reader.error is None and reader.status == 200
        received += reader.ids()
        if reader.events and reader.events[-1].event == "end":
            break
        # The bots go on while nobody listens.
        time.sleep(0.3)
    assert Game.objects.get(pk=game_id).status == "finished"
    assert_whole_log(received, game_id)
    last = reader.events[-1]
    # The last move, no chat message, and the restore epoch every id carries.
    assert last.event == "end" and last.id is not None
    assert re.fullmatch(rf"{received[-1]}\.0\.[0-9a-f]{{8}}-end", last.id)
    # After the end event, a browser's reconnect is told there is nothing more.
    again = httpx.get(events_url(a, game_id), headers={"Last-Event-ID": last.id})
    assert again.status_code == 204


def test_an_opponents_stream_shows_what_the_move_log_shows_them(webs):
    a, b = webs
    host, guest = client_for(a, user("host")), client_for(b, user("guest"))
    game_id = create_game(host, [{"type": "creator"}, {"type": "open"}], first_seat=0)
    assert guest.post(f"/games/{game_id}/join", json={}).status_code == 200
    reader = StreamReader(events_url(b, game_id), params={"ticket": ticket(guest)}).start()
    try:
        keep_offered_tickets(host, game_id)
        keep_offered_tickets(guest, game_id)
        for seat in (host, guest, host):
            for _ in range(2):  # a turn's two blind draws
                assert act(seat, game_id, {"type": "draw_blind"}).status_code == 200
        reader.wait_for(lambda r: len(r.ids()) >= 8, 20, "8 moves")
    finally:
        reader.stop()
    streamed = [e.data for e in reader.events if e.event == "move"]
    logged = guest.get(f"/games/{game_id}/moves").json()["moves"]
    assert streamed == logged
    # The host's blind draws show no colour to the guest.
    host_draws = [m for m in streamed if m["seat"] == 0 and m["action"]["type"] == "draw_blind"]
    assert host_draws and all("color" not in e for m in host_draws for e in m["events"])


def test_a_dropped_redis_connection_recovers_and_nothing_is_lost(webs, redis_server, tmp_path):
    a, _ = webs
    host, guest = client_for(a, user("host")), client_for(a, user("guest"))
    game_id = create_game(host, [{"type": "creator"}, {"type": "open"}], first_seat=0)
    assert guest.post(f"/games/{game_id}/join", json={}).status_code == 200
    reader = StreamReader(events_url(a, game_id)).start()
    players = {0: host, 1: guest}

    def move(seat: int) -> float:
        response = act(players[seat], game_id, {"type": "draw_blind"})
        assert response.status_code == 200, response.text
        return time.time()

    try:
        keep_offered_tickets(host, game_id)
        keep_offered_tickets(guest, game_id)
        reader.wait_for(lambda r: len(r.ids()) == 2, 10, "the two keeps")
        # Redis goes away: announcements are lost, the stream finds the moves by polling.
        redis_server.stop()
        move(0)
        reader.wait_for(lambda r: len(r.ids()) == 3, 10, "a move while Redis is down")
        # Redis comes back on its port: the subscription is made again, and wake-ups
        # arrive at once again.
        back = RedisServer(tmp_path / "again", port=redis_server.port)
        (tmp_path / "again").mkdir()
        with running(back):
            time.sleep(3)  # the hub's reconnect backs off up to 2 s
            committed = move(0)
            reader.wait_for(lambda r: len(r.ids()) == 4, 10, "a move after Redis is back")
            assert reader.events[-1].at - committed < 1.0
    finally:
        reader.stop()
    assert reader.ids() == [1, 2, 3, 4]
    assert "lost Redis" in a.log_tail(20000)


def test_a_users_stream_on_another_server_gets_their_turn_and_resumes_from_the_inbox(webs):
    a, b = webs
    host, guest = client_for(a, user("host")), client_for(b, user("guest"))
    first = StreamReader(f"{b.url}/api/v1/stream", params={"ticket": ticket(guest)}).start()
    try:
        game_id = create_game(
            host,
            [{"type": "creator"}, {"type": "invite", "username": "guest"}],
            first_seat=1,
        )
        first.wait_for(lambda r: len(r.events) >= 1, 10, "the invitation")
    finally:
        first.stop()
    assert first.events[0].event == "invitation"
    assert first.events[0].data["game_id"] == game_id
    assert guest.post(f"/games/{game_id}/invitation/accept").status_code == 200
    # Resumed from the newest id the inbox showed before: game_started and your_turn.
    after = first.events[0].id
    resumed = StreamReader(
        f"{a.url}/api/v1/stream", headers={**guest.headers, "Last-Event-ID": str(after)}
    ).start()
    try:
        resumed.wait_for(lambda r: len(r.events) >= 2, 10, "the game's start and the turn")
    finally:
        resumed.stop()
    inbox = guest.get("/notifications").json()["results"]
    newer = sorted(n["id"] for n in inbox if n["id"] > int(after))
    assert [int(e.id) for e in resumed.events] == newer
    assert {e.event for e in resumed.events} >= {"game_started"}


# ------------------------------------------------------------------------------ chat
def make_client(web: WebServer, name: str) -> httpx.Client:
    return client_for(web, user(name))


def test_chat_reaches_the_rooms_each_reader_may_read(webs):
    chat_scenarios.rooms_during_and_after_the_game(*webs, make_client)


def test_chat_leaves_out_blocked_and_muted_senders(webs):
    chat_scenarios.blocked_and_muted_senders(*webs, make_client)


def test_a_reconnect_in_a_burst_of_moves_and_chat_loses_and_repeats_nothing(webs):
    chat_scenarios.a_reconnect_in_a_burst_loses_and_repeats_nothing(*webs, make_client)


def test_the_user_stream_tells_of_chat_in_games_not_watched(webs):
    chat_scenarios.the_user_stream_tells_of_games_not_watched(*webs, make_client)


def test_a_player_watching_the_games_stream_is_not_sent_chat_notices(webs):
    a, b = webs
    host, guest = make_client(a, "host"), make_client(b, "guest")
    watched = chat_scenarios.game_of_two(host, guest)
    elsewhere = chat_scenarios.game_of_two(host, guest)
    # The stream is on one server, the posts go through the other: the mark is in Redis.
    reader = chat_scenarios.watch(b, watched, guest)
    try:
        chat_scenarios.say(host, watched, "players", "here")
        chat_scenarios.say(host, elsewhere, "players", "there")
        reader.wait_for(lambda r: chat_scenarios.said(r) == ["here"], 10, "the message")
    finally:
        reader.stop()
    inbox = guest.get("/notifications").json()["results"]
    told = [n["game_id"] for n in inbox if n["type"] == "chat_message"]
    assert told == [elsewhere]
