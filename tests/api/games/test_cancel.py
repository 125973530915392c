from __future__ import annotations

import pytest

from .conftest import create_game

pytestmark = pytest.mark.django_db


def test_the_creator_cancels_a_lobby_game(creator, opponent):
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "open"}, {"type": "open"}])
    assert opponent.post(f"/api/v1/games/{game['id']}/cancel", {}, format="json").status_code == 403
    response = creator.post(f"/api/v1/games/{game['id']}/cancel", {}, format="json")
    assert response.json()["status"] == "cancelled"
    late = opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    assert late.status_code == 409
