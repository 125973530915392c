"""A whole game through the API: two players choosing legal actions until the end."""

from __future__ import annotations

import random

import pytest

from .conftest import act

pytestmark = pytest.mark.django_db


def test_two_players_play_a_game_to_the_end_through_the_api(two_player_game, creator, opponent):
    game_id = two_player_game["id"]
    clients = {0: creator, 1: opponent}
    rnd = random.Random(5)
    for _ in range(2000):
        view = creator.get(f"/api/v1/games/{game_id}").json()
        if view["status"] == "finished":
            break
        seat = view["state"]["pending"]["seats"][0]
        legal = clients[seat].get(f"/api/v1/games/{game_id}/legal-actions").json()
        kinds = sorted({a["type"] for a in legal["actions"]})
        kind = rnd.choice(kinds)
        action = rnd.choice([a for a in legal["actions"] if a["type"] == kind])
        response = act(clients[seat], game_id, action, legal["version"])
        assert response.status_code == 200, response.content
    final = creator.get(f"/api/v1/games/{game_id}").json()
    assert final["status"] == "finished"
    result = creator.get(f"/api/v1/games/{game_id}/result").json()
    assert len(result["ranking"]) == 2
    record = opponent.get(f"/api/v1/games/{game_id}/record").json()
    assert record["seed"] and len(record["actions"]) > 50
