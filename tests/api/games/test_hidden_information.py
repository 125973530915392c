"""Through every endpoint that returns game data, nobody sees what the rules hide."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from rest_framework.throttling import SimpleRateThrottle

from engine import load_board
from games.models import Game
from notifications.messages import body, payload
from notifications.models import Notification
from ttr_service.config.account_env import Rate

from .conftest import act, create_game

pytestmark = pytest.mark.django_db

BOARD = load_board("europe")
ROUTE_IDS = {r.id for r in BOARD.routes}


def _secrets_for(game: Game, seat: int | None) -> set[str]:
    """Ticket ids and the seed that ``seat`` (None: outsider) must not see."""
    state = game.state
    hidden = set(state["ticket_deck"]) | set(state["removed_tickets"])
    for other in range(game.players):
        if other != seat:
            hidden |= set(state["tickets"][other]) | set(state["offers"][other])
    ids = {BOARD.tickets[t].id for t in hidden} - ROUTE_IDS
    # A seat knows every ticket it was offered, kept or not.
    for move in game.moves.filter(seat=seat):
        for event in move.events:
            if event["seat"] == seat and event["private"]:
                ids -= set(event["private"].get("tickets", []))
                ids -= set(event["private"].get("returned_tickets", []))
    return ids | {str(game.seed)}


CHAT_ROOMS = ("/chat?room=players", "/chat?room=spectators")


@pytest.fixture(autouse=True)
def _chatty(settings):
    """The table talks at every step: no posting rate in the way."""
    settings.CHAT = replace(settings.CHAT, post_rates=(Rate(100000, 10),))


def _say(client, game_id, room, text):
    response = client.post(
        f"/api/v1/games/{game_id}/chat", {"room": room, "text": text}, format="json"
    )
    assert response.status_code == 201, response.content


def _bodies(client, game_id):
    for path in ("", "/moves", "/legal-actions", "/result", "/record", *CHAT_ROOMS):
        yield path, client.get(f"/api/v1/games/{game_id}{path}").content.decode()
    yield "list", client.get("/api/v1/games").content.decode()


def test_no_endpoint_shows_hands_tickets_deck_or_seed_of_a_running_game(
    two_player_game, creator, opponent, outsider, anonymous
):
    game_id = two_player_game["id"]
    clients = {0: creator, 1: opponent}
    rnd = random.Random(3)
    personas = [(creator, 0), (opponent, 1), (outsider, None), (anonymous, None)]
    for step in range(60):
        game = Game.objects.get(pk=game_id)
        if game.status != "active":
            break
        _say(clients[step % 2], game_id, "players", f"step {step}")
        _say(outsider, game_id, "spectators", f"watching step {step}")
        if step % 6 == 0:
            for client, seat in personas:
                secrets = _secrets_for(game, seat)
                for path, text in _bodies(client, game_id):
                    leaked = {s for s in secrets if f'"{s}"' in text or f": {s}" in text}
                    assert not leaked, (seat, path, leaked)
                    assert '"deck":' not in text and '"seed"' not in text, (seat, path)
        seat = (
            game.state["waiting"][0]
            if game.state["phase"] == "initial_tickets"
            else game.state["current"]
        )
        legal = clients[seat].get(f"/api/v1/games/{game_id}/legal-actions").json()
        action = rnd.choice(legal["actions"])
        assert act(clients[seat], game_id, action, legal["version"]).status_code == 200


# ----------------------------------------------------------------------------- twin games
# Two games that differ only in what seat 1 may not know: seat 0's hand and tickets, the
# order of the deck below the cards that will be drawn, the tickets at the bottom of the
# ticket deck. Played with the same public moves, every payload seat 1 (and an outsider)
# can receive must be the same in both, once ids and clock times are set aside.

VOLATILE_KEYS = {
    "id",
    "game_id",
    "game",
    "notification_id",
    "instance",
    "created_at",
    "started_at",
    "finished_at",
    "updated_at",
    "deadline",
    "timestamp",
    "read_at",
    "at",
    "next",
    "previous",
}


def _normal(value, game_id):
    if isinstance(value, dict):
        return {k: "*" if k in VOLATILE_KEYS else _normal(v, game_id) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_normal(v, game_id) for v in value]
    if isinstance(value, str):
        return value.replace(f"/games/{game_id}/", "/games/G/").replace(f"g{game_id}-", "gG-")
    return value


def _hide_differently(state: dict, rnd: random.Random) -> dict:
    """The same public game with other hidden data for seat 0 and the decks."""
    state = json.loads(json.dumps(state))
    deck, hand = state["deck"], state["hands"][0]
    cards = [colour for colour, n in enumerate(hand) for _ in range(n)]
    # deck[0] is the bottom: swap seat 0's cards with the bottom ones, then shuffle the bottom.
    for i, card in enumerate(cards):
        cards[i], deck[i] = deck[i], card
    bottom = deck[:40]
    rnd.shuffle(bottom)
    deck[:40] = bottom
    state["hands"][0] = [cards.count(colour) for colour in range(len(hand))]
    offers, tickets = state["offers"][0], state["ticket_deck"]
    swapped = len(offers) - 1  # the long ticket offered first stays
    offers[1:], tickets[:swapped] = tickets[:swapped], offers[1:]
    return state


def _twin_games(creator, opponent):
    ids = []
    for _ in range(2):
        game = create_game(creator, first_seat=0)
        joined = opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
        assert joined.status_code == 200
        ids.append(game["id"])
    first, second = (Game.objects.get(pk=i) for i in ids)
    hidden = _hide_differently(first.state, random.Random(first.seed))
    assert hidden["hands"][0] != first.state["hands"][0] or hidden["deck"] != first.state["deck"]
    assert hidden["offers"][0] != first.state["offers"][0]
    Game.objects.filter(pk=second.pk).update(state=hidden, seed=first.seed, version=first.version)
    return ids


def _opponent_payloads(opponent, outsider, anonymous, game_id, opponent_user):
    out = {}
    for who, client in (("opponent", opponent), ("outsider", outsider), ("anonymous", anonymous)):
        for path in ("", "/moves", "/legal-actions", "/result", "/record", *CHAT_ROOMS):
            response = client.get(f"/api/v1/games/{game_id}{path}")
            out[f"{who} GET{path}"] = (response.status_code, response.json())
    # An error of seat 1's own making: a route it cannot pay for.
    attempt = act(
        opponent,
        game_id,
        {"type": "claim_route", "route": "petrograd-stockholm", "color": "red", "locomotives": 0},
    )
    out["opponent error"] = (attempt.status_code, attempt.json())
    mine = Notification.objects.filter(user=opponent_user, game_id=game_id).order_by("id")
    out["notifications"] = [payload(n) for n in mine]
    out["email bodies"] = [body(n).replace(f"game {game_id}", "game G") for n in mine]
    out["inbox"] = [
        n
        for n in opponent.get("/api/v1/notifications?page_size=100").json()["results"]
        if n["game_id"] == game_id
    ]
    return _normal(out, game_id)


def test_an_opponent_receives_the_same_payloads_from_games_that_differ_only_in_hidden_data(
    creator, opponent, outsider, anonymous, users, monkeypatch
):
    for scope in ("anon", "user"):
        monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, "100000/min")
    first, second = _twin_games(creator, opponent)
    rnd = random.Random(11)
    for step in range(40):
        games = [Game.objects.get(pk=first), Game.objects.get(pk=second)]
        for game in games:
            _say(creator, game.pk, "players", f"step {step}")
            _say(outsider, game.pk, "spectators", f"watching step {step}")
        views = [
            _opponent_payloads(opponent, outsider, anonymous, g.pk, users["opponent"])
            for g in games
        ]
        for key in views[0]:
            assert views[0][key] == views[1][key], (step, key, views[0][key], views[1][key])
        state = games[0].state
        if state["phase"] == "initial_tickets":
            for client, seat in ((creator, 0), (opponent, 1)):
                for game in games:
                    view = client.get(f"/api/v1/games/{game.pk}").json()
                    if seat in view["state"]["pending"]["seats"]:
                        offered = [t["id"] for t in view["state"]["you"]["offered_tickets"]]
                        kept = act(client, game.pk, {"type": "keep_tickets", "tickets": offered})
                        assert kept.status_code == 200
            continue
        if state["current"] == 0:
            # Seat 0 only draws blind: the same public move whatever its hand holds.
            for game in games:
                assert act(creator, game.pk, {"type": "draw_blind"}).status_code == 200
            continue
        legal = opponent.get(f"/api/v1/games/{first}/legal-actions").json()["actions"]
        action = rnd.choice([a for a in legal if a["type"] != "draw_blind"] or legal)
        for game in games:
            assert act(opponent, game.pk, action).status_code == 200
    ends = [Game.objects.get(pk=first).state, Game.objects.get(pk=second).state]
    assert ends[0]["action_count"] > 20
    # The hidden data still differs at the end, so the payloads had something to leak.
    assert ends[0]["tickets"][0] != ends[1]["tickets"][0]
    assert ends[0]["deck"] != ends[1]["deck"]
