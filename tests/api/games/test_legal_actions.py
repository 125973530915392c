from __future__ import annotations

import pytest

from .conftest import keep_all_initial

pytestmark = pytest.mark.django_db


def test_the_caller_gets_its_legal_actions_with_payments(two_player_game, creator, opponent):
    game_id = two_player_game["id"]
    initial = creator.get(f"/api/v1/games/{game_id}/legal-actions").json()
    assert initial["pending"]["kind"] == "choose_initial_tickets"
    assert len(initial["actions"]) == 11  # every choice of at least 2 of 4 tickets
    keep_all_initial(game_id, creator, opponent)
    mine = creator.get(f"/api/v1/games/{game_id}/legal-actions").json()
    types = {a["type"] for a in mine["actions"]}
    assert {"draw_blind", "draw_face_up", "draw_tickets"} <= types
    assert opponent.get(f"/api/v1/games/{game_id}/legal-actions").json()["actions"] == []


def test_outsiders_get_no_legal_actions(two_player_game, outsider):
    response = outsider.get(f"/api/v1/games/{two_player_game['id']}/legal-actions")
    assert response.status_code == 403
