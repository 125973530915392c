from __future__ import annotations

import pytest

from engine import replay

from .conftest import create_game

# AI turns are queued when the move's transaction commits: these tests need real commits.
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_game_of_ai_seats_plays_itself_to_the_end(creator):
    game = create_game(creator, seats=[{"type": "ai", "level": "random"}] * 3)
    final = creator.get(f"/api/v1/games/{game['id']}").json()
    assert final["status"] == "finished"
    assert final["state"]["result"]["ranking"]
    record = creator.get(f"/api/v1/games/{game['id']}/record").json()
    rebuilt = replay(record)
    assert rebuilt.result == final["state"]["result"]
