from __future__ import annotations

import pytest

from .conftest import create_game

pytestmark = pytest.mark.django_db


def test_leaving_frees_the_seat(creator, opponent):
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "open"}, {"type": "open"}])
    opponent.post(f"/api/v1/games/{game['id']}/join", {"seat": 2}, format="json")
    response = opponent.post(f"/api/v1/games/{game['id']}/leave", {}, format="json")
    assert response.status_code == 200
    assert [s["kind"] for s in response.json()["seats"]] == ["human", "open", "open"]
