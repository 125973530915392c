"""An action request is one of nine shapes told apart by `type`: each shape's own fields,
no others, and the required ones present. Refusals name the field, and leave the game as
it was."""

from __future__ import annotations

import pytest

from games.models import Game

from .conftest import act, keep_all_initial

pytestmark = pytest.mark.django_db


def _refused(client, game_id, action, version=None):
    before = Game.objects.get(pk=game_id)
    response = act(client, game_id, action, version)
    after = Game.objects.get(pk=game_id)
    assert response.status_code == 400, response.content
    assert (after.version, after.state) == (before.version, before.state)
    body = response.json()
    return body["code"], {(e["field"], e["code"]) for e in body["errors"]}


@pytest.mark.parametrize(
    ("action", "field", "code"),
    [
        # A field of another shape.
        ({"type": "draw_blind", "slot": 1}, "action.slot", "UNKNOWN_FIELD"),
        ({"type": "draw_face_up", "slot": 1, "route": "x"}, "action.route", "UNKNOWN_FIELD"),
        ({"type": "forfeit", "reason": "bored"}, "action.reason", "UNKNOWN_FIELD"),
        # A required field left out.
        ({"type": "draw_face_up"}, "action.slot", "REQUIRED"),
        ({"type": "claim_route", "color": "red"}, "action.route", "REQUIRED"),
        ({"type": "pay_tunnel"}, "action.locomotives", "REQUIRED"),
        ({"type": "keep_tickets"}, "action.tickets", "REQUIRED"),
        # A stated bound.
        ({"type": "draw_face_up", "slot": 5}, "action.slot", "MAX_VALUE"),
        ({"type": "draw_face_up", "slot": -1}, "action.slot", "MIN_VALUE"),
        ({"type": "pay_tunnel", "locomotives": 100}, "action.locomotives", "MAX_VALUE"),
        ({"type": "keep_tickets", "tickets": ["a"] * 6}, "action.tickets", "MAX_LENGTH"),
        # No such shape.
        ({"type": "teleport"}, "action.type", "INVALID"),
        ({"slot": 1}, "action.type", "INVALID"),
    ],
)
def test_a_shape_takes_its_own_fields_only(two_player_game, creator, action, field, code):
    top, rows = _refused(creator, two_player_game["id"], action)
    assert top == "VALIDATION_ERROR"
    assert (field, code) in rows


def test_a_field_beside_version_and_action_is_refused(two_player_game, creator):
    game_id = two_player_game["id"]
    version = Game.objects.get(pk=game_id).version
    response = creator.post(
        f"/api/v1/games/{game_id}/actions",
        {"version": version, "action": {"type": "draw_blind"}, "seat": 0},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert ("seat", "UNKNOWN_FIELD") in {(e["field"], e["code"]) for e in response.json()["errors"]}


def test_each_shape_as_the_legal_actions_write_it_is_accepted(two_player_game, creator, opponent):
    """What the legal actions list is sent back unchanged and applied."""
    game_id = two_player_game["id"]
    keep_all_initial(game_id, creator, opponent)
    legal = creator.get(f"/api/v1/games/{game_id}/legal-actions").json()
    kinds = {a["type"] for a in legal["actions"]}
    assert {"draw_blind", "draw_face_up", "draw_tickets"} <= kinds
    face_up = next(a for a in legal["actions"] if a["type"] == "draw_face_up")
    response = act(creator, game_id, face_up, legal["version"])
    assert response.status_code == 200, response.content


def test_the_legal_actions_say_forfeit_is_open_and_it_is(two_player_game, creator, opponent):
    game_id = two_player_game["id"]
    legal = opponent.get(f"/api/v1/games/{game_id}/legal-actions").json()
    assert legal["can_forfeit"] is True
    assert "forfeit" not in {a["type"] for a in legal["actions"]}
    response = act(opponent, game_id, {"type": "forfeit"}, legal["version"])
    assert response.status_code == 200, response.content
    # The game is over for a two-player table; nobody may forfeit any more.
    after = creator.get(f"/api/v1/games/{game_id}/legal-actions").json()
    assert after["can_forfeit"] is False
