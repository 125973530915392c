from __future__ import annotations

import pytest

from .conftest import create_game

pytestmark = pytest.mark.django_db


def test_joining_the_last_open_seat_starts_the_game(creator, opponent):
    game = create_game(creator)
    response = opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "active" and body["your_seat"] == 1
    assert body["state"]["pending"]["kind"] == "choose_initial_tickets"


def test_a_full_game_cannot_be_joined(two_player_game, outsider):
    response = outsider.post(f"/api/v1/games/{two_player_game['id']}/join", {}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "GAME_NOT_LOBBY"


def test_joining_twice_is_refused(creator):
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "open"}, {"type": "open"}])
    response = creator.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "ALREADY_SEATED"
