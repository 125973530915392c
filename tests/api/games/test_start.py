from __future__ import annotations

import pytest

from .conftest import create_game

pytestmark = pytest.mark.django_db


def test_only_the_creator_may_start(creator, opponent):
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "open"}, {"type": "open"}])
    opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    response = opponent.post(f"/api/v1/games/{game['id']}/start", {}, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "NOT_CREATOR"


def test_starting_early_drops_the_untaken_seats(creator, opponent):
    game = create_game(
        creator,
        seats=[{"type": "open"}, {"type": "creator"}, {"type": "open"}, {"type": "open"}],
        first_seat=1,
    )
    opponent.post(f"/api/v1/games/{game['id']}/join", {"seat": 3}, format="json")
    response = creator.post(f"/api/v1/games/{game['id']}/start", {}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "active" and body["players"] == 2
    assert [(s["index"], s["username"]) for s in body["seats"]] == [(0, "creator"), (1, "opponent")]
    assert body["your_seat"] == 0
    assert body["state"]["first_seat"] == 0  # the creator's seat, renumbered
    assert len(body["state"]["seats"]) == 2


def test_a_game_cannot_start_below_the_minimum_number_of_players(creator):
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "open"}, {"type": "open"}])
    response = creator.post(f"/api/v1/games/{game['id']}/start", {}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "NOT_ENOUGH_PLAYERS"


def test_a_started_game_cannot_start_again(two_player_game, creator):
    response = creator.post(f"/api/v1/games/{two_player_game['id']}/start", {}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "GAME_NOT_LOBBY"
