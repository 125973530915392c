"""Event streams never carry what the rules hide: the game's stream is read for each
persona (the two players, an outsider, anonymous) as it would be sent, through the same
feed the stream's loop runs, and scanned for hands, tickets, the deck and the seed; two
games that differ only in hidden data give an opponent the same stream. The table talks
all along: a chat event carries what its sender typed and nothing else."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from chat.models import Message
from games.feeds import GameFeed
from games.models import Game
from tests.api.games.conftest import act, create_game, keep_all_initial
from tests.api.games.test_hidden_information import _normal, _secrets_for, _twin_games
from ttr_service.config.account_env import Rate

from .conftest import persona

pytestmark = pytest.mark.django_db

# What a chat event's data holds: the message as its sender typed it, and who and when.
CHAT_FIELDS = {"id", "game", "room", "sender", "seat", "text", "quick", "body", "at"}


@pytest.fixture(autouse=True)
def _chatty(settings):
    """The players talk at every step: no posting rate in the way."""
    settings.CHAT = replace(settings.CHAT, post_rates=(Rate(100000, 10),))


def say(client, game_id: int, room: str, text: str) -> None:
    response = client.post(
        f"/api/v1/games/{game_id}/chat", {"room": room, "text": text}, format="json"
    )
    assert response.status_code == 201, response.content


def chat_events_say_only_what_was_typed(events: list, typed: set[str]) -> int:
    chats = [data for name, _, data in events if name == "chat"]
    for data in chats:
        assert set(data) == CHAT_FIELDS
        assert data["text"] in typed and data["body"] == data["text"] and data["quick"] is None
    return len(chats)


def stream_text(game_id: int, user, after: int = 0) -> str:
    """Every event the game's stream sends ``user`` (None: anonymous) from ``after`` on, as
    bytes on the wire."""
    feed = GameFeed(game_id, user, after)
    sent = []
    while True:
        batch = feed.read_now()
        sent += [event.encode().decode() for event in batch.events]
        if not batch.again:
            return "".join(sent)


def stream_events(game_id: int, user) -> list:
    feed = GameFeed(game_id, user, 0)
    events = []
    while True:
        batch = feed.read_now()
        events += [(e.name, e.id, e.data) for e in batch.events]
        if not batch.again:
            return events


def _twin_normal(events: list, game_id: int) -> list:
    """The events with what differs between two games set aside: ids and times, and the
    message part of the events' ids (``<move>.<message>``)."""
    masked = [(name, ident and ident.split(".")[0], data) for name, ident, data in events]
    return _normal(masked, game_id)


def test_no_stream_shows_hands_tickets_deck_or_seed_of_a_running_game(unthrottled):
    creator, opponent, outsider = persona("creator"), persona("opponent"), persona("outsider")
    game_id = create_game(creator.client, first_seat=0)["id"]
    assert (
        opponent.client.post(f"/api/v1/games/{game_id}/join", {}, format="json").status_code == 200
    )
    clients = {0: creator.client, 1: opponent.client}
    viewers = [(creator.user, 0), (opponent.user, 1), (outsider.user, None), (None, None)]
    rnd = random.Random(5)
    checked = chats = 0
    typed: set[str] = set()
    for step in range(80):
        game = Game.objects.get(pk=game_id)
        if game.status != "active":
            break
        for client, room in ((clients[step % 2], "players"), (outsider.client, "spectators")):
            typed.add(f"{room} at step {step}")
            say(client, game_id, room, f"{room} at step {step}")
        if step % 5 == 0:
            for user, seat in viewers:
                text = stream_text(game_id, user)
                leaked = {
                    s for s in _secrets_for(game, seat) if f'"{s}"' in text or f":{s}" in text
                }
                assert not leaked, (seat, step, leaked)
                assert '"deck":' not in text and '"seed"' not in text
                assert "event: chat" in text
                chats += chat_events_say_only_what_was_typed(stream_events(game_id, user), typed)
                checked += 1
        seat = (
            game.state["waiting"][0]
            if game.state["phase"] == "initial_tickets"
            else game.state["current"]
        )
        legal = clients[seat].get(f"/api/v1/games/{game_id}/legal-actions").json()
        action = rnd.choice(legal["actions"])
        assert act(clients[seat], game_id, action, legal["version"]).status_code == 200
    assert checked >= 40 and chats >= 400


def test_an_opponent_streams_the_same_events_from_games_that_differ_only_in_hidden_data(
    unthrottled,
):
    creator, opponent, outsider = persona("creator"), persona("opponent"), persona("outsider")
    first, second = _twin_games(creator.client, opponent.client)
    rnd = random.Random(13)
    for step in range(30):
        for game in (first, second):
            say(creator.client, game, "players", f"step {step}")
        for user in (opponent.user, outsider.user, None):
            streams = [_twin_normal(stream_events(g, user), g) for g in (first, second)]
            assert streams[0] == streams[1], (step, user)
        state = Game.objects.get(pk=first).state
        if state["phase"] == "initial_tickets":
            for who, seat in ((creator.client, 0), (opponent.client, 1)):
                for game in (first, second):
                    view = who.get(f"/api/v1/games/{game}").json()
                    if seat in view["state"]["pending"]["seats"]:
                        offered = [t["id"] for t in view["state"]["you"]["offered_tickets"]]
                        kept = act(who, game, {"type": "keep_tickets", "tickets": offered})
                        assert kept.status_code == 200
            continue
        if state["current"] == 0:
            for game in (first, second):
                assert act(creator.client, game, {"type": "draw_blind"}).status_code == 200
            continue
        legal = opponent.client.get(f"/api/v1/games/{first}/legal-actions").json()["actions"]
        action = rnd.choice([a for a in legal if a["type"] != "draw_blind"] or legal)
        for game in (first, second):
            assert act(opponent.client, game, action).status_code == 200
    ends = [Game.objects.get(pk=g).state for g in (first, second)]
    assert ends[0]["tickets"][0] != ends[1]["tickets"][0]


def test_a_game_stream_leaves_out_hidden_blocked_and_muted_messages(unthrottled):
    creator, opponent, outsider = persona("creator"), persona("opponent"), persona("outsider")
    game_id = create_game(creator.client, first_seat=0)["id"]
    assert (
        opponent.client.post(f"/api/v1/games/{game_id}/join", {}, format="json").status_code == 200
    )
    say(creator.client, game_id, "players", "soon hidden")
    Message.objects.filter(text="soon hidden").update(hidden=True)
    say(creator.client, game_id, "players", "shown")
    blocked = outsider.client.post("/api/v1/blocks", {"username": "opponent"}, format="json")
    assert blocked.status_code == 201
    say(opponent.client, game_id, "players", "from the blocked one")

    def texts(user) -> list[str]:
        return [data["text"] for name, _, data in stream_events(game_id, user) if name == "chat"]

    assert texts(opponent.user) == ["shown", "from the blocked one"]
    assert texts(outsider.user) == []  # the players' room, while the game runs
    keep_all_initial(game_id, creator.client, opponent.client)
    assert act(opponent.client, game_id, {"type": "forfeit"}).status_code == 200
    assert texts(None) == ["shown", "from the blocked one"]
    assert texts(outsider.user) == ["shown"]
