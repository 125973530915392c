from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_record_with_the_seed_waits_for_the_end(two_player_game, outsider, creator):
    for client in (outsider, creator):
        response = client.get(f"/api/v1/games/{two_player_game['id']}/record")
        assert response.status_code == 409
        assert response.json()["code"] == "GAME_NOT_FINISHED"
