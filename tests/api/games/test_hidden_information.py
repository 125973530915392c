"""Through every endpoint that returns game data, nobody sees what the rules hide."""

from __future__ import annotations

import random

import pytest

from engine import load_board
from games.models import Game

from .conftest import act

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


def _bodies(client, game_id):
    for path in ("", "/moves", "/legal-actions", "/result", "/record"):
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
