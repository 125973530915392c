"""Event streams never carry what the rules hide: the game's stream is read for each
persona (the two players, an outsider, anonymous) as it would be sent, through the same
feed the stream's loop runs, and scanned for hands, tickets, the deck and the seed; two
games that differ only in hidden data give an opponent the same stream."""

from __future__ import annotations

import random

import pytest

from games.feeds import GameFeed
from games.models import Game
from tests.api.games.conftest import act, create_game
from tests.api.games.test_hidden_information import _normal, _secrets_for, _twin_games

from .conftest import persona

pytestmark = pytest.mark.django_db


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


def test_no_stream_shows_hands_tickets_deck_or_seed_of_a_running_game(unthrottled):
    creator, opponent, outsider = persona("creator"), persona("opponent"), persona("outsider")
    game_id = create_game(creator.client, first_seat=0)["id"]
    assert (
        opponent.client.post(f"/api/v1/games/{game_id}/join", {}, format="json").status_code == 200
    )
    clients = {0: creator.client, 1: opponent.client}
    viewers = [(creator.user, 0), (opponent.user, 1), (outsider.user, None), (None, None)]
    rnd = random.Random(5)
    checked = 0
    for step in range(80):
        game = Game.objects.get(pk=game_id)
        if game.status != "active":
            break
        if step % 5 == 0:
            for user, seat in viewers:
                text = stream_text(game_id, user)
                leaked = {
                    s for s in _secrets_for(game, seat) if f'"{s}"' in text or f":{s}" in text
                }
                assert not leaked, (seat, step, leaked)
                assert '"deck":' not in text and '"seed"' not in text
                checked += 1
        seat = (
            game.state["waiting"][0]
            if game.state["phase"] == "initial_tickets"
            else game.state["current"]
        )
        legal = clients[seat].get(f"/api/v1/games/{game_id}/legal-actions").json()
        action = rnd.choice(legal["actions"])
        assert act(clients[seat], game_id, action, legal["version"]).status_code == 200
    assert checked >= 40


def test_an_opponent_streams_the_same_events_from_games_that_differ_only_in_hidden_data(
    unthrottled,
):
    creator, opponent, outsider = persona("creator"), persona("opponent"), persona("outsider")
    first, second = _twin_games(creator.client, opponent.client)
    rnd = random.Random(13)
    for step in range(30):
        for user in (opponent.user, outsider.user, None):
            streams = [_normal(stream_events(g, user), g) for g in (first, second)]
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
