"""Posting actions: versions, idempotency, engine errors, and the game left as it was."""

from __future__ import annotations

import pytest

from games.models import Game, Move

from .conftest import act, keep_all_initial

pytestmark = pytest.mark.django_db


def _snapshot(game_id):
    game = Game.objects.get(pk=game_id)
    return game.version, game.state, Move.objects.filter(game=game).count()


def test_a_legal_action_applies_and_returns_the_new_view(two_player_game, creator, opponent):
    game_id = two_player_game["id"]
    keep_all_initial(game_id, creator, opponent)
    version = creator.get(f"/api/v1/games/{game_id}").json()["version"]
    response = act(creator, game_id, {"type": "draw_blind"}, version)
    assert response.status_code == 200
    body = response.json()
    assert body["version"] == version + 1
    assert body["state"]["pending"] == {"kind": "second_card", "seats": [0]}
    assert sum(body["state"]["you"]["hand"].values()) == 5


def test_a_stale_version_gets_412_and_changes_nothing(two_player_game, creator, opponent):
    game_id = two_player_game["id"]
    keep_all_initial(game_id, creator, opponent)
    before = _snapshot(game_id)
    response = act(creator, game_id, {"type": "draw_blind"}, before[0] - 1)
    assert response.status_code == 412
    assert response.json()["code"] == "VERSION_MISMATCH"
    assert response.json()["current_version"] == before[0]
    assert _snapshot(game_id) == before


def test_a_missing_version_gets_428(two_player_game, creator):
    response = creator.post(
        f"/api/v1/games/{two_player_game['id']}/actions",
        {"action": {"type": "draw_blind"}},
        format="json",
    )
    assert response.status_code == 428
    assert response.json()["code"] == "VERSION_REQUIRED"


def test_the_version_may_come_in_if_match_as_the_etag(two_player_game, creator, opponent):
    game_id = two_player_game["id"]
    keep_all_initial(game_id, creator, opponent)
    tag = creator.get(f"/api/v1/games/{game_id}")["ETag"]
    response = creator.post(
        f"/api/v1/games/{game_id}/actions",
        {"action": {"type": "draw_blind"}},
        format="json",
        HTTP_IF_MATCH=tag,
    )
    assert response.status_code == 200


def test_an_illegal_move_gets_the_engine_code_and_changes_nothing(
    two_player_game, creator, opponent
):
    game_id = two_player_game["id"]
    keep_all_initial(game_id, creator, opponent)
    before = _snapshot(game_id)
    response = act(opponent, game_id, {"type": "draw_blind"}, before[0])
    assert response.status_code == 409
    assert response.json()["code"] == "NOT_YOUR_TURN"
    response = act(
        creator,
        game_id,
        {"type": "claim_route", "route": "petrograd-stockholm", "color": "red", "locomotives": 0},
        before[0],
    )
    assert response.status_code == 409
    assert response.json()["code"] == "INSUFFICIENT_CARDS"
    assert _snapshot(game_id) == before


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "claim_route", "route": "paris-atlantis", "color": "red"}, "UNKNOWN_ROUTE"),
        ({"type": "teleport"}, "VALIDATION_ERROR"),
        # The schema states the slots (0-4): a slot outside them is refused as a field.
        ({"type": "draw_face_up", "slot": 99}, "VALIDATION_ERROR"),
        ({"type": "build_station", "city": "Gondor", "color": "red"}, "UNKNOWN_CITY"),
    ],
)
def test_malformed_actions_get_400_with_a_code(two_player_game, creator, opponent, action, code):
    game_id = two_player_game["id"]
    keep_all_initial(game_id, creator, opponent)
    before = _snapshot(game_id)
    response = act(creator, game_id, action, before[0])
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert _snapshot(game_id) == before


def test_malformed_json_gets_a_problem(two_player_game, creator):
    response = creator.post(
        f"/api/v1/games/{two_player_game['id']}/actions",
        "{not json",
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "MALFORMED_JSON"


def test_outsiders_cannot_act(two_player_game, outsider):
    response = act(outsider, two_player_game["id"], {"type": "draw_blind"}, 1)
    assert response.status_code == 403
    assert response.json()["code"] == "NOT_A_PLAYER"


def test_a_retry_with_the_same_idempotency_key_replays_the_first_response(
    two_player_game, creator, opponent
):
    game_id = two_player_game["id"]
    keep_all_initial(game_id, creator, opponent)
    version = creator.get(f"/api/v1/games/{game_id}").json()["version"]
    body = {"version": version, "action": {"type": "draw_blind"}}
    url = f"/api/v1/games/{game_id}/actions"
    first = creator.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    second = creator.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    assert second["Idempotent-Replayed"] == "true"
    assert Game.objects.get(pk=game_id).version == version + 1
    other = creator.post(
        url,
        {"version": version + 1, "action": {"type": "draw_blind"}},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k-1",
    )
    assert other.status_code == 422
    assert other.json()["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert Game.objects.get(pk=game_id).version == version + 1


def test_the_same_key_and_body_with_another_if_match_is_another_request(
    two_player_game, creator, opponent
):
    """A retry is the same request only with the same precondition: a malformed or
    different If-Match gets its own answer, not the first one replayed."""
    game_id = two_player_game["id"]
    keep_all_initial(game_id, creator, opponent)
    version = creator.get(f"/api/v1/games/{game_id}").json()["version"]
    body = {"version": version + 5, "action": {"type": "draw_blind"}}
    url = f"/api/v1/games/{game_id}/actions"
    stale = creator.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    assert stale.status_code == 412
    for if_match in ["\u00d7\u00f8", str(version)]:
        again = creator.post(
            url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-2", HTTP_IF_MATCH=if_match
        )
        assert again.status_code == 422, again.content
        assert again.json()["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert Game.objects.get(pk=game_id).version == version
