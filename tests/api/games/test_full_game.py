"""A whole game through the API: two players choosing legal actions until the end."""

from __future__ import annotations

import random

import pytest

from ratings.models import PlayerStats, RatedGame

from .conftest import act

pytestmark = pytest.mark.django_db


def _play_to_the_end(game_id, clients, rnd):
    for _ in range(2000):
        view = clients[0].get(f"/api/v1/games/{game_id}").json()
        if view["status"] == "finished":
            return
        seat = view["state"]["pending"]["seats"][0]
        legal = clients[seat].get(f"/api/v1/games/{game_id}/legal-actions").json()
        kind = rnd.choice(sorted({a["type"] for a in legal["actions"]}))
        action = rnd.choice([a for a in legal["actions"] if a["type"] == kind])
        response = act(clients[seat], game_id, action, legal["version"])
        assert response.status_code == 200, response.content


def test_two_players_play_a_game_to_the_end_through_the_api(
    two_player_game, creator, opponent, django_capture_on_commit_callbacks
):
    game_id = two_player_game["id"]
    # Callbacks queued on commit (the recording of the result) run when the block ends.
    with django_capture_on_commit_callbacks(execute=True):
        _play_to_the_end(game_id, {0: creator, 1: opponent}, random.Random(5))
    final = creator.get(f"/api/v1/games/{game_id}").json()
    assert final["status"] == "finished"
    result = creator.get(f"/api/v1/games/{game_id}/result").json()
    assert len(result["ranking"]) == 2
    record = opponent.get(f"/api/v1/games/{game_id}/record").json()
    assert record["seed"] and len(record["actions"]) > 50
    assert RatedGame.objects.filter(game_id=game_id, rated=True).exists()
    assert PlayerStats.objects.filter(board="europe").count() == 2
