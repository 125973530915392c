"""Every game body the server writes matches the committed schema exactly.

Whole games are played through the API on every board, and each response — the game as
each seat and an outsider see it, the legal actions in every kind of decision (tunnels
included), the move log as each seat sees it and once the game is over, the result, the
record and the board — is validated against its operation's schema, made strict: an object
with declared properties may carry no other field, and a ``oneOf`` must match exactly one
shape. So a field the server adds without declaring it, a required field it leaves out, or
an event no shape describes fails here.
"""

from __future__ import annotations

import ast
import copy
import functools
import random
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import yaml

from engine import BOARD_IDS, load_board
from games.serializers.events import EVENTS

from .conftest import act, create_game

pytestmark = pytest.mark.django_db

SCHEMA = yaml.safe_load(
    (Path(__file__).resolve().parents[3] / "openapi" / "schema.yaml").read_text()
)


def strict(node: Any) -> Any:
    """OpenAPI 3.0 schema → JSON Schema: ``nullable`` as a null alternative, and objects
    with declared properties closed to other fields."""
    if isinstance(node, list):
        return [strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: strict(value) for key, value in node.items() if key != "discriminator"}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    if out.pop("nullable", False):
        return {"anyOf": [out, {"type": "null"}]}
    return out


COMPONENTS = strict(copy.deepcopy(SCHEMA["components"]))


def response_schema(path: str, method: str = "get") -> dict[str, Any]:
    content = SCHEMA["paths"][path][method]["responses"]["200"]["content"]
    return strict(content["application/json"]["schema"])


@functools.cache
def validator(path: str) -> Any:
    return jsonschema_rs.Draft202012Validator({**response_schema(path), "components": COMPONENTS})


def check(body: Any, path: str) -> None:
    errors = [
        f"{'/'.join(map(str, e.instance_path))}: {e.message}"
        for e in validator(path).iter_errors(body)
    ]
    assert errors == [], f"{path}: {errors[:5]}"


GAME = "/api/v1/games/{game_id}"
LEGAL = "/api/v1/games/{game_id}/legal-actions"
MOVES = "/api/v1/games/{game_id}/moves"
RESULT = "/api/v1/games/{game_id}/result"
RECORD = "/api/v1/games/{game_id}/record"
BOARD = "/api/v1/boards/{board}"


def _play(game: dict[str, Any], clients: list[Any], outsider: Any, seed: int) -> set[str]:
    """Play ``game`` to the end choosing at random, checking every body on the way; the
    kinds of decision met."""
    game_id = game["id"]
    tunnels = {r.id for r in load_board(game["board"]).routes if r.tunnel}
    rnd = random.Random(seed)
    kinds: set[str] = set()
    view = game
    for _ in range(3000):
        if view["status"] == "finished":
            break
        check(view, GAME)
        seat = view["state"]["pending"]["seats"][0]
        legal = clients[seat].get(f"/api/v1/games/{game_id}/legal-actions").json()
        check(legal, LEGAL)
        kinds.add(legal["pending"]["kind"])
        # Tunnels are rare when chosen at random: prefer them when offered.
        tunnel = [a for a in legal["actions"] if a.get("route") in tunnels]
        kind = rnd.choice(sorted({a["type"] for a in legal["actions"]}))
        choice = rnd.choice(tunnel or [a for a in legal["actions"] if a["type"] == kind])
        response = act(clients[seat], game_id, choice, legal["version"])
        assert response.status_code == 200, response.content
        view = response.json()
        if rnd.random() < 0.05:
            for client in (*clients, outsider):
                check(client.get(f"/api/v1/games/{game_id}").json(), GAME)
                check(client.get(f"/api/v1/games/{game_id}/moves?limit=500").json(), MOVES)
    assert view["status"] == "finished"
    for client in (*clients, outsider):
        check(client.get(f"/api/v1/games/{game_id}").json(), GAME)
        check(client.get(f"/api/v1/games/{game_id}/moves?limit=500").json(), MOVES)
    check(outsider.get(f"/api/v1/games/{game_id}/result").json(), RESULT)
    check(outsider.get(f"/api/v1/games/{game_id}/record").json(), RECORD)
    return kinds


def _whole_game(board: str, creator: Any, opponent: Any, outsider: Any) -> set[str]:
    game = create_game(creator, board=board, first_seat=0)
    joined = opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    assert joined.status_code == 200, joined.content
    return _play(joined.json(), [creator, opponent], outsider, seed=len(board))


def test_every_body_of_a_game_of_europe_matches_the_schema(creator, opponent, outsider):
    kinds = _whole_game("europe", creator, opponent, outsider)
    assert {"choose_initial_tickets", "turn_action", "second_card", "keep_tickets"} <= kinds


def test_every_body_of_a_game_of_switzerland_matches_the_schema(creator, opponent, outsider):
    """Tunnels and country tickets: the game's seed brings a tunnel payment, whose legal
    actions show what lies face up."""
    kinds = _whole_game("switzerland", creator, opponent, outsider)
    assert "tunnel_payment" in kinds


@pytest.mark.slow
@pytest.mark.parametrize("board", [b for b in BOARD_IDS if b not in ("europe", "switzerland")])
def test_every_body_of_a_game_on_the_other_boards_matches_the_schema(
    board, creator, opponent, outsider
):
    _whole_game(board, creator, opponent, outsider)


@pytest.mark.parametrize("board", BOARD_IDS)
def test_every_board_body_matches_the_schema(board, anonymous):
    check(anonymous.get(f"/api/v1/boards/{board}").json(), BOARD)


def test_the_board_bodies_name_every_rule_value():
    rules = SCHEMA["components"]["schemas"]["Rules"]
    for board in BOARD_IDS:
        assert set(rules["properties"]) == set(load_board(board).rules.to_json())
    assert set(rules["required"]) == set(rules["properties"])


def test_a_body_with_an_undeclared_field_fails_the_check():
    """The check itself: a field the schema does not declare is caught."""
    body = {"moves": [], "next_after": 0, "has_more": False, "surprise": 1}
    with pytest.raises(AssertionError, match="surprise"):
        check(body, MOVES)


def test_every_event_the_engine_writes_has_a_shape():
    """The engine's events, read from its source (``Event("type", ...)``), are exactly the
    shapes the schema declares."""
    engine_dir = Path(load_board.__code__.co_filename).resolve().parent
    written = set()
    for source in engine_dir.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Event"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                written.add(node.args[0].value)
    assert written == set(EVENTS)
