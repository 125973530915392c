from __future__ import annotations

import pytest

from .conftest import act, keep_all_initial

pytestmark = pytest.mark.django_db


def test_a_blind_draw_shows_its_colour_to_the_drawer_only(
    two_player_game, creator, opponent, outsider
):
    game_id = two_player_game["id"]
    keep_all_initial(game_id, creator, opponent)
    act(creator, game_id, {"type": "draw_blind"})
    url = f"/api/v1/games/{game_id}/moves?after=2"
    mine = creator.get(url).json()["moves"][0]
    theirs = opponent.get(url).json()["moves"][0]
    public = outsider.get(url).json()["moves"][0]
    drawn = next(e for e in mine["events"] if e["type"] == "card_drawn")
    assert "color" in drawn
    for other in (theirs, public):
        event = next(e for e in other["events"] if e["type"] == "card_drawn")
        assert "color" not in event


def test_kept_initial_tickets_are_private(two_player_game, creator, opponent):
    game_id = two_player_game["id"]
    keep_all_initial(game_id, creator, opponent)
    moves = opponent.get(f"/api/v1/games/{game_id}/moves").json()["moves"]
    creators = next(m for m in moves if m["seat"] == 0)
    assert creators["action"] == {"type": "keep_tickets", "count": 4}
    assert "tickets" not in creators["events"][0]
    own = creator.get(f"/api/v1/games/{game_id}/moves").json()["moves"]
    assert len(next(m for m in own if m["seat"] == 0)["action"]["tickets"]) == 4


def test_the_cursor_pages_through_the_log(two_player_game, creator, opponent):
    game_id = two_player_game["id"]
    keep_all_initial(game_id, creator, opponent)
    first = creator.get(f"/api/v1/games/{game_id}/moves?limit=1").json()
    assert len(first["moves"]) == 1 and first["has_more"] is True
    rest = creator.get(f"/api/v1/games/{game_id}/moves?after={first['next_after']}").json()
    assert [m["number"] for m in rest["moves"]] == [2]
    assert creator.get(f"/api/v1/games/{game_id}/moves?after=-1").json()["code"] == "BAD_CURSOR"
