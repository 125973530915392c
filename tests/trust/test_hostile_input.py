"""Hostile and broken input: each gets its documented status and code, and the game is unchanged.

"Unchanged" is checked on the stored row: the same version, the same state and the same
number of logged moves as before the request.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings

from games.models import Game, Move

from .conftest import Persona, create_game, finished_game, persona, running_game

pytestmark = pytest.mark.django_db

NUL, RTL, EMOJI = "\x00", "\u202e", "\U0001f682"
HUGE = 10**30


@pytest.fixture
def world(unthrottled: None) -> dict[str, Any]:
    player, opponent = persona("player"), persona("opponent")
    game_id = running_game(player, opponent)
    game = Game.objects.get(pk=game_id)
    mover = player if game.state["current"] == 0 else opponent
    return {"player": player, "opponent": opponent, "mover": mover, "game": game_id}


def snapshot(game_id: int) -> tuple[int, Any, int]:
    game = Game.objects.get(pk=game_id)
    return game.version, game.state, Move.objects.filter(game=game).count()


def post_raw(who: Persona, path: str, raw: str | bytes, **headers: str) -> Any:
    return who.client.generic("POST", path, raw, content_type="application/json", **headers)


def assert_problem(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert (body["status"], body["code"]) == (status, code)
    assert body["detail"]


@pytest.mark.parametrize(
    ("raw", "status", "code"),
    [
        ("{not json", 400, "MALFORMED_JSON"),
        ('{"version": NaN, "action": {"type": "draw_blind"}}', 400, "MALFORMED_JSON"),
        ("[1, 2]", 400, "BAD_BODY"),
        ('"draw_blind"', 400, "BAD_BODY"),
        ("null", 400, "BAD_BODY"),
        ('{"version": "7", "action": {"type": "draw_blind"}}', 400, "BAD_VERSION"),
        ('{"version": true, "action": {"type": "draw_blind"}}', 400, "BAD_VERSION"),
        ('{"version": 1.5, "action": {"type": "draw_blind"}}', 400, "BAD_VERSION"),
        ('{"version": 1e400, "action": {"type": "draw_blind"}}', 400, "BAD_VERSION"),
        ('{"action": {"type": "draw_blind"}}', 428, "VERSION_REQUIRED"),
        # The schema states versions start at 0: a negative one is refused as a field.
        ('{"version": -1, "action": {"type": "draw_blind"}}', 400, "VALIDATION_ERROR"),
        (f'{{"version": {HUGE}, "action": {{"type": "draw_blind"}}}}', 412, "VERSION_MISMATCH"),
    ],
)
def test_a_broken_body_gets_its_code_and_changes_nothing(
    world: dict[str, Any], raw: str, status: int, code: str
) -> None:
    before = snapshot(world["game"])
    response = post_raw(world["mover"], f"/api/v1/games/{world['game']}/actions", raw)
    assert_problem(response, status, code)
    assert snapshot(world["game"]) == before


def _actions(version: int) -> list[tuple[Any, int, str]]:
    claim = {"type": "claim_route", "color": "red", "locomotives": 0}
    return [
        ("draw_blind", 400, "VALIDATION_ERROR"),
        (None, 400, "VALIDATION_ERROR"),
        ({"type": 5}, 400, "VALIDATION_ERROR"),
        ({"type": "teleport"}, 400, "VALIDATION_ERROR"),
        # Outside the bounds the schema states: refused as a field.
        ({"type": "draw_face_up", "slot": -1}, 400, "VALIDATION_ERROR"),
        ({"type": "draw_face_up", "slot": HUGE}, 400, "VALIDATION_ERROR"),
        # Of another JSON type: refused as a field (a WRONG_TYPE row), not converted.
        ({"type": "draw_face_up", "slot": "1"}, 400, "VALIDATION_ERROR"),
        ({**claim, "route": "paris-atlantis"}, 400, "UNKNOWN_ROUTE"),
        ({**claim, "route": f"paris{NUL}wien"}, 400, "VALIDATION_ERROR"),
        ({**claim, "route": f"{RTL}{EMOJI}"}, 400, "UNKNOWN_ROUTE"),
        ({**claim, "route": "frankfurt-paris-1", "locomotives": -3}, 400, "VALIDATION_ERROR"),
        ({**claim, "route": "frankfurt-paris-1", "locomotives": HUGE}, 400, "VALIDATION_ERROR"),
        ({"type": "build_station", "city": "Gondor", "color": "red"}, 400, "UNKNOWN_CITY"),
        ({"type": "build_station", "city": EMOJI * 50, "color": "red"}, 400, "UNKNOWN_CITY"),
        ({"type": "keep_tickets", "tickets": [f"{RTL}x"]}, 400, "UNKNOWN_TICKET"),
    ]


@pytest.mark.parametrize("case", range(len(_actions(0))))
def test_a_malformed_action_gets_its_code_and_changes_nothing(
    world: dict[str, Any], case: int
) -> None:
    version, _, _ = before = snapshot(world["game"])
    action, status, code = _actions(version)[case]
    body = json.dumps({"version": version, "action": action})
    response = post_raw(world["mover"], f"/api/v1/games/{world['game']}/actions", body)
    assert_problem(response, status, code)
    assert snapshot(world["game"]) == before


def test_a_stale_or_garbled_if_match_changes_nothing(world: dict[str, Any]) -> None:
    url = f"/api/v1/games/{world['game']}/actions"
    before = snapshot(world["game"])
    body = json.dumps({"action": {"type": "draw_blind"}})
    stale = post_raw(world["mover"], url, body, HTTP_IF_MATCH=f'"g{world["game"]}-v0-s0"')
    assert_problem(stale, 412, "VERSION_MISMATCH")
    garbled = post_raw(world["mover"], url, body, HTTP_IF_MATCH=f"{RTL}{EMOJI}")
    assert_problem(garbled, 400, "BAD_IF_MATCH")
    assert snapshot(world["game"]) == before


def test_a_body_over_the_limit_gets_413_before_it_is_read(world: dict[str, Any]) -> None:
    url = f"/api/v1/games/{world['game']}/actions"
    before = snapshot(world["game"])
    padding = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    body = json.dumps({"version": before[0], "action": {"type": "draw_blind"}, "pad": padding})
    response = post_raw(world["mover"], url, body)
    assert_problem(response, 413, "REQUEST_TOO_LARGE")
    assert snapshot(world["game"]) == before
    register = post_raw(world["mover"], "/api/v1/auth/register", body)
    assert_problem(register, 413, "REQUEST_TOO_LARGE")


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/games/99999999999999999999999",
        "/api/v1/games/9223372036854775808/moves",
        "/api/v1/games/2147483648/legal-actions",
    ],
)
def test_enormous_game_ids_are_not_found(world: dict[str, Any], path: str) -> None:
    assert_problem(world["player"].client.get(path), 404, "GAME_NOT_FOUND")


def test_a_negative_game_id_matches_no_route(world: dict[str, Any]) -> None:
    assert_problem(world["player"].client.get("/api/v1/games/-1"), 404, "NOT_FOUND")


@pytest.mark.parametrize(
    ("query", "code"),
    [("after=-1", "BAD_CURSOR"), ("limit=0", "BAD_CURSOR"), ("limit=x", "BAD_CURSOR")],
)
def test_a_bad_move_cursor_is_bad_request(world: dict[str, Any], query: str, code: str) -> None:
    response = world["player"].client.get(f"/api/v1/games/{world['game']}/moves?{query}")
    assert_problem(response, 400, code)


@pytest.mark.parametrize(
    "username",
    [f"al{NUL}ice", EMOJI * 3, f"{RTL}abc", "a" * 5000, "ab", "bob smith", "\u0430lice"],
)
def test_a_username_outside_ascii_letters_and_digits_is_refused(
    world: dict[str, Any], username: str
) -> None:
    body = json.dumps({"username": username, "password": "a-long-password-1"})
    response = post_raw(world["player"], "/api/v1/auth/register", body)
    assert_problem(response, 400, "VALIDATION_ERROR")
    assert response.json()["errors"][0]["field"] == "username"


def test_unicode_in_a_token_name_is_kept_and_nul_is_refused(world: dict[str, Any]) -> None:
    client = world["player"].client
    kept = client.post("/api/v1/auth/tokens", {"name": f"{RTL}{EMOJI} phone"}, format="json")
    assert kept.status_code == 201
    assert kept.json()["name"] == f"{RTL}{EMOJI} phone"
    refused = post_raw(world["player"], "/api/v1/auth/tokens", json.dumps({"name": f"a{NUL}b"}))
    assert_problem(refused, 400, "VALIDATION_ERROR")


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"seats": [{"type": "creator"}, {"type": "invite", "username": f"o{NUL}p"}]}, None),
        ({"seats": [{"type": "creator"}, {"type": "invite", "username": EMOJI}]}, "UNKNOWN_USER"),
        ({"seats": [{"type": "creator"}, {"type": "open"}], "turn_time_limit": HUGE}, None),
        ({"seats": [{"type": "creator"}, {"type": "open"}], "turn_time_limit": -60}, None),
        ({"seats": [{"type": "creator"}, {"type": "open"}], "first_seat": -1}, None),
        ({"seats": [{"type": "creator"}] + [{"type": "open"}] * 10_000}, None),
        ({"seats": "creator"}, None),
        ({"board": f"europe{NUL}", "seats": [{"type": "creator"}, {"type": "open"}]}, None),
    ],
)
def test_a_bad_game_creation_is_refused_and_creates_nothing(
    world: dict[str, Any], extra: dict[str, Any], code: str | None
) -> None:
    games = Game.objects.count()
    body = json.dumps({"board": "europe", **extra})
    response = post_raw(world["player"], "/api/v1/games", body)
    assert_problem(response, 400, code or "VALIDATION_ERROR")
    assert Game.objects.count() == games


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/join", {"seat": HUGE}),
        ("/extra-time", {"seconds": HUGE}),
        ("/extra-time", {"seconds": -5}),
        ("/extra-time", {"seconds": "soon"}),
    ],
)
def test_enormous_and_negative_numbers_in_lobby_calls_change_nothing(
    world: dict[str, Any], path: str, body: dict[str, Any]
) -> None:
    before = snapshot(world["game"])
    url = f"/api/v1/games/{world['game']}{path}"
    response = post_raw(world["opponent"], url, json.dumps(body))
    assert_problem(response, 400, "VALIDATION_ERROR")
    assert snapshot(world["game"]) == before


def test_an_enormous_vacation_is_refused(world: dict[str, Any]) -> None:
    response = post_raw(world["player"], "/api/v1/vacations", json.dumps({"days": HUGE}))
    assert_problem(response, 400, "VALIDATION_ERROR")
    assert not world["player"].user.vacations.exists()


def _cancelled(player: Persona) -> int:
    game_id = create_game(player.client)
    assert player.client.post(f"/api/v1/games/{game_id}/cancel").status_code == 200
    return game_id


@pytest.mark.parametrize("kind", ["finished", "cancelled"])
def test_moves_and_lobby_calls_on_a_closed_game_change_nothing(
    world: dict[str, Any], kind: str
) -> None:
    player, opponent = world["player"], world["opponent"]
    game_id = finished_game(player, opponent) if kind == "finished" else _cancelled(player)
    before = snapshot(game_id)
    action = json.dumps({"version": before[0], "action": {"type": "draw_blind"}})
    moved = post_raw(player, f"/api/v1/games/{game_id}/actions", action)
    assert_problem(moved, 409, "GAME_NOT_ACTIVE")
    for call in ("join", "leave", "start", "cancel", "invitation/accept"):
        response = opponent.client.post(f"/api/v1/games/{game_id}/{call}", {}, format="json")
        assert response.status_code in (403, 409), (call, response.content)
        assert response.json()["code"] in (
            "GAME_NOT_LOBBY",
            "NOT_CREATOR",
            "NOT_A_PLAYER",
        ), call
    legal = player.client.get(f"/api/v1/games/{game_id}/legal-actions")
    if kind == "finished":
        assert legal.status_code == 200
        assert legal.json()["actions"] == []
    else:
        assert_problem(legal, 409, "GAME_NOT_ACTIVE")
    assert snapshot(game_id) == before
