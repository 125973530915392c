"""Every response of the schema says what it answers, and the games' say it truly.

A problem response's description names the codes it can carry in backticks; each named
code must be declared in ``ttr_service.http.codes`` with that response's status. The
games operations' descriptions are then held to what the service does: requests that are
refused for each reason the code has get a status the operation declares, with a code
that status's description names.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from games import urls
from ttr_service.http.codes import every_code

from .conftest import act, create_game

ROOT = Path(__file__).resolve().parents[3]
CODE = re.compile(r"`([A-Z][A-Z0-9_]+)`")

# Error responses that are not problems (scripts/lint_schema.py says why).
NOT_PROBLEMS = {("health", "503")}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator(api_version="v1").get_schema(request=None, public=True)


def operations(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (path, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in {"get", "post", "put", "patch", "delete"}
    ]


def responses(operation: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {str(status): response for status, response in operation["responses"].items()}


def games_paths() -> set[str]:
    """The schema paths of the views in games/http/."""
    return {
        "/api/v1/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(pattern.pattern))
        for pattern in urls.urlpatterns
        if getattr(getattr(pattern.callback, "view_class", None), "__module__", "").startswith(
            "games.http."
        )
    }


def games_operations(schema: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    wanted = games_paths()
    found = {op["operationId"]: (path, op) for path, op in operations(schema) if path in wanted}
    assert len(found) >= 20, sorted(found)
    return found


def statuses_by_code() -> dict[str, set[str]]:
    """The status each declared code is answered with."""
    return {code: {str(d.status)} for code, d in every_code().items()}


def problem_responses(operation: dict[str, Any]) -> dict[str, str]:
    return {
        status: response.get("description", "")
        for status, response in responses(operation).items()
        if status[0] in "45" and (operation["operationId"], status) not in NOT_PROBLEMS
    }


def test_every_problem_response_names_a_code_of_its_status(schema: dict[str, Any]) -> None:
    """Anywhere in the schema. (A description may name more in backticks: the codes of
    ``errors`` rows, a setting.)"""
    table = statuses_by_code()
    wrong = []
    for _path, operation in operations(schema):
        for status, text in problem_responses(operation).items():
            codes = [c for c in CODE.findall(text) if status in table.get(c, set())]
            if not codes:
                wrong.append(f"{operation['operationId']} {status}: {text!r}")
    assert not wrong, "responses that name no code answered with their status:\n" + "\n".join(wrong)


def test_the_games_problem_responses_name_only_codes_of_their_status(
    schema: dict[str, Any],
) -> None:
    table = statuses_by_code()
    wrong = []
    for operation_id, (_path, operation) in games_operations(schema).items():
        if operation_id == "boards_score":
            continue  # its 400 also names the codes of ILLEGAL_POSITION's `errors` rows
        for status, text in problem_responses(operation).items():
            for code in CODE.findall(text):
                if code not in table:
                    wrong.append(f"{operation_id} {status}: {code} is not a registered code")
                elif status not in table[code]:
                    wrong.append(f"{operation_id} {status}: {code} is {sorted(table[code])}")
    assert not wrong, "\n".join(wrong)


def test_game_not_found_is_said_on_game_paths_only(schema: dict[str, Any]) -> None:
    for path, operation in operations(schema):
        texts = " ".join(r.get("description", "") for r in responses(operation).values())
        on_a_game = "{game_id}" in path
        where = f"{operation['operationId']} ({path})"
        assert on_a_game or "GAME_NOT_FOUND" not in texts, where
        assert on_a_game or "No such game" not in texts, where
        if on_a_game:
            assert "`GAME_NOT_FOUND`" in responses(operation)["404"]["description"], where


def test_every_games_response_has_a_description(schema: dict[str, Any]) -> None:
    for operation_id, (_path, operation) in games_operations(schema).items():
        for status, response in responses(operation).items():
            assert response.get("description", "").strip(), f"{operation_id} {status}"


def test_the_body_limits_are_declared_where_a_body_is_read(schema: dict[str, Any]) -> None:
    for operation_id, (_path, operation) in games_operations(schema).items():
        declared = responses(operation)
        reads_a_body = "requestBody" in operation
        assert ("413" in declared) == reads_a_body, operation_id
        assert ("415" in declared) == reads_a_body, operation_id


def test_open_operations_refuse_only_a_bad_token(schema: dict[str, Any]) -> None:
    """Without a token an open operation answers as to anyone, so its 401 is only ever
    AUTHENTICATION_FAILED (or, on a stream, a bad stream ticket); an operation that needs a
    token says NOT_AUTHENTICATED too."""
    tickets = {"STREAM_TICKET_EXPIRED", "STREAM_TICKET_INVALID", "TOKEN_IN_URL"}
    for operation_id, (_path, operation) in games_operations(schema).items():
        unauthenticated = set(CODE.findall(responses(operation)["401"]["description"]))
        if {} in operation.get("security", []):
            assert unauthenticated - tickets == {"AUTHENTICATION_FAILED"}, operation_id
        else:
            assert unauthenticated == {"NOT_AUTHENTICATED", "AUTHENTICATION_FAILED"}, operation_id


# ----------------------------------------------------------------------------- behaviour
class Contract:
    """Checks each refusal against the schema: its status is declared by the operation, and
    that status's description names its code."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.operations = {op_id: op for op_id, (_p, op) in games_operations(schema).items()}

    def __call__(self, operation_id: str, response: Any, code: str) -> None:
        status = str(response.status_code)
        body = response.json()
        assert body.get("code") == code, (operation_id, status, body)
        declared = responses(self.operations[operation_id])
        assert status in declared, f"{operation_id} answers {status}, which it does not declare"
        named = CODE.findall(declared[status]["description"])
        assert code in named, f"{operation_id} {status} does not name {code}: {named}"


@pytest.fixture
def contract(schema: dict[str, Any]) -> Contract:
    return Contract(schema)


@pytest.fixture
def bad_token() -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    return client


def test_tokens_and_reads(contract, creator, anonymous, bad_token) -> None:
    contract("games_list", anonymous.get("/api/v1/games"), "NOT_AUTHENTICATED")
    contract("games_list", bad_token.get("/api/v1/games"), "AUTHENTICATION_FAILED")
    contract("boards_list", bad_token.get("/api/v1/boards"), "AUTHENTICATION_FAILED")
    contract("games_retrieve", bad_token.get("/api/v1/games/1"), "AUTHENTICATION_FAILED")
    contract("boards_retrieve", anonymous.get("/api/v1/boards/atlantis"), "BOARD_NOT_FOUND")
    contract("games_list", creator.get("/api/v1/games?scope=all"), "BAD_SCOPE")
    contract("games_list", creator.get("/api/v1/games?status=paused"), "BAD_STATUS")
    for page in ("9", "0", "first"):
        contract("games_list", creator.get(f"/api/v1/games?page={page}"), "NOT_FOUND")
    lobby = create_game(creator)["id"]
    for path, operation_id in [
        ("", "games_retrieve"),
        ("/moves", "games_moves_list"),
        ("/result", "games_result"),
        ("/record", "games_record"),
        ("/legal-actions", "games_legal_actions"),
    ]:
        contract(operation_id, creator.get(f"/api/v1/games/999999{path}"), "GAME_NOT_FOUND")
    for query in ("limit=0", "limit=501", "after=-1", "after=x"):
        contract(
            "games_moves_list", creator.get(f"/api/v1/games/{lobby}/moves?{query}"), "BAD_CURSOR"
        )
    for operation_id, path in [("games_result", "result"), ("games_record", "record")]:
        contract(operation_id, anonymous.get(f"/api/v1/games/{lobby}/{path}"), "GAME_NOT_FINISHED")
    legal = f"/api/v1/games/{lobby}/legal-actions"
    contract("games_legal_actions", creator.get(legal), "GAME_NOT_ACTIVE")


def test_creating(contract, creator, settings) -> None:
    settings.MAX_BOT_ONLY_GAMES_PER_USER = 0

    def create(body: Any, **extra: Any) -> Any:
        return creator.post("/api/v1/games", body, format="json", **extra)

    seats = [{"type": "creator"}, {"type": "open"}]
    contract("games_create", create({"seats": seats, "turns": 3}), "VALIDATION_ERROR")
    contract("games_create", create({"board": "atlantis", "seats": seats}), "VALIDATION_ERROR")
    contract(
        "games_create",
        create({"seats": [{"type": "creator"}, {"type": "ai", "level": "godlike"}]}),
        "VALIDATION_ERROR",
    )
    contract("games_create", create({"seats": seats, "options": {"x": "y"}}), "BAD_OPTION")
    contract(
        "games_create",
        create({"board": "switzerland", "seats": [*seats, {"type": "open"}, {"type": "open"}]}),
        "BAD_SEAT_COUNT",
    )
    contract("games_create", create({"seats": [{"type": "creator"}] * 2}), "BAD_SEATS")
    contract("games_create", create({"seats": seats, "first_seat": 3}), "BAD_FIRST_SEAT")
    contract(
        "games_create",
        create({"seats": [{"type": "creator"}, {"type": "invite", "username": "nobody"}]}),
        "UNKNOWN_USER",
    )
    contract(
        "games_create",
        creator.post("/api/v1/games", "{", content_type="application/json"),
        "MALFORMED_JSON",
    )
    contract(
        "games_create",
        creator.post("/api/v1/games", "seats", content_type="text/plain"),
        "UNSUPPORTED_MEDIA_TYPE",
    )
    too_long = str(django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    contract("games_create", create({"seats": seats}, CONTENT_LENGTH=too_long), "REQUEST_TOO_LARGE")
    bots = [{"type": "ai"}, {"type": "ai"}]
    contract("games_create", create({"seats": bots}), "TOO_MANY_BOT_GAMES")
    # Started with only its AI seats taken, a lobby becomes a game of AI seats only.
    lobby = create_game(creator, seats=[*bots, {"type": "open"}])["id"]
    contract("games_start", creator.post(f"/api/v1/games/{lobby}/start"), "TOO_MANY_BOT_GAMES")


def test_the_lobby(contract, creator, opponent, outsider, invitee) -> None:
    seats = [{"type": "creator"}, {"type": "invite", "username": "invitee"}, {"type": "open"}]
    game = create_game(creator, seats=seats)["id"]

    def post(client: APIClient, what: str, body: Any = None) -> Any:
        return client.post(f"/api/v1/games/{game}/{what}", body, format="json")

    contract("games_join", post(outsider, "join", {"seat": 9}), "VALIDATION_ERROR")
    contract("games_join", post(outsider, "join", {"sit": 2}), "VALIDATION_ERROR")
    contract("games_join", post(outsider, "join", {"seat": 1}), "NO_OPEN_SEAT")
    contract("games_join", post(invitee, "join"), "ALREADY_SEATED")
    contract("games_join", post(outsider, "join", "[]"), "VALIDATION_ERROR")
    contract("games_leave", post(outsider, "leave"), "NOT_A_PLAYER")
    contract("games_leave", post(invitee, "leave"), "NOT_A_PLAYER")
    contract("games_invitation_accept", post(outsider, "invitation/accept"), "NO_INVITATION")
    contract("games_invitation_decline", post(outsider, "invitation/decline"), "NO_INVITATION")
    contract("games_start", post(outsider, "start"), "NOT_CREATOR")
    contract("games_start", post(creator, "start"), "NOT_ENOUGH_PLAYERS")
    contract("games_cancel", post(outsider, "cancel"), "NOT_CREATOR")
    contract("games_extra_time", post(creator, "extra-time", {"seconds": 60}), "GAME_NOT_ACTIVE")
    contract("games_extra_time", post(outsider, "extra-time", {"seconds": 60}), "NOT_A_PLAYER")
    contract("games_seat_reclaim", post(outsider, "reclaim"), "NOT_A_PLAYER")
    contract("games_seat_reclaim", post(creator, "reclaim"), "SEAT_NOT_TAKEN_OVER")
    for what in ("leave", "invitation/accept", "cancel", "start", "reclaim"):
        # A body-less command reads no body: whatever is sent is not refused for itself.
        response = creator.post(f"/api/v1/games/{game}/{what}", "{", content_type="text/plain")
        assert response.status_code != 400 and response.status_code != 415, what
    game = create_game(creator, seats=seats)["id"]
    assert post(invitee, "invitation/accept").status_code == 200
    assert post(opponent, "join").status_code == 200  # the last seat: it starts
    contract("games_join", post(outsider, "join"), "GAME_NOT_LOBBY")
    contract("games_leave", post(opponent, "leave"), "GAME_NOT_LOBBY")
    contract("games_invitation_decline", post(invitee, "invitation/decline"), "GAME_NOT_LOBBY")
    contract("games_start", post(creator, "start"), "GAME_NOT_LOBBY")
    contract("games_cancel", post(creator, "cancel"), "GAME_NOT_LOBBY")
    contract("games_extra_time", post(opponent, "extra-time", {"seconds": 60}), "NO_DEADLINE")
    contract("games_extra_time", post(opponent, "extra-time", {"seconds": 59}), "VALIDATION_ERROR")
    for operation_id, what in [("games_cancel", "cancel"), ("games_start", "start")]:
        contract(operation_id, creator.post("/api/v1/games/999999/" + what), "GAME_NOT_FOUND")


def test_extra_time_is_the_opponents(contract, creator, opponent) -> None:
    game = create_game(creator, first_seat=0, turn_time_limit=3600)["id"]
    assert opponent.post(f"/api/v1/games/{game}/join", {}, format="json").status_code == 200
    response = creator.post(f"/api/v1/games/{game}/extra-time", {"seconds": 60}, format="json")
    contract("games_extra_time", response, "OWN_CLOCK")


def test_acting(contract, creator, outsider, two_player_game) -> None:
    game = two_player_game["id"]
    url = f"/api/v1/games/{game}/actions"
    version = creator.get(f"/api/v1/games/{game}").json()["version"]
    offered = creator.get(f"/api/v1/games/{game}").json()["state"]["you"]["offered_tickets"]

    def post(body: Any, **headers: str) -> Any:
        return creator.post(url, body, format="json", **headers)

    def action(**fields: Any) -> Any:
        return post({"version": version, "action": fields})

    contract("games_actions_create", post([1]), "BAD_BODY")
    contract(
        "games_actions_create",
        creator.post(url, "{", content_type="application/json"),
        "MALFORMED_JSON",
    )
    contract(
        "games_actions_create",
        creator.post(url, "x", content_type="text/plain"),
        "UNSUPPORTED_MEDIA_TYPE",
    )
    blind = {"type": "draw_blind"}
    contract("games_actions_create", post({"action": blind}, HTTP_IF_MATCH="v"), "BAD_IF_MATCH")
    contract("games_actions_create", post({"version": "1", "action": blind}), "BAD_VERSION")
    contract(
        "games_actions_create",
        post({"version": version, "action": blind}, HTTP_IDEMPOTENCY_KEY="a key"),
        "BAD_IDEMPOTENCY_KEY",
    )
    contract("games_actions_create", action(type="fly"), "VALIDATION_ERROR")
    contract("games_actions_create", action(type="claim_route", route="x"), "UNKNOWN_ROUTE")
    contract("games_actions_create", action(type="build_station", city="x"), "UNKNOWN_CITY")
    contract("games_actions_create", action(type="keep_tickets", tickets=["x"]), "UNKNOWN_TICKET")
    twice = [offered[0]["id"], offered[0]["id"].upper()]
    contract("games_actions_create", action(type="keep_tickets", tickets=twice), "BAD_ACTION")
    route = creator.get("/api/v1/boards/europe").json()["routes"][0]["id"]
    contract(
        "games_actions_create",
        action(type="claim_route", route=route, color="plaid"),
        "UNKNOWN_COLOR",
    )
    contract("games_actions_create", action(**blind), "WRONG_PHASE")
    contract("games_actions_create", post({"action": blind}), "VERSION_REQUIRED")
    contract("games_actions_create", post({"version": 0, "action": blind}), "VERSION_MISMATCH")
    once = {"HTTP_IDEMPOTENCY_KEY": "k-1"}
    assert post({"version": version, "action": blind}, **once).status_code == 409
    contract(
        "games_actions_create",
        post({"version": version, "action": {"type": "forfeit"}}, **once),
        "IDEMPOTENCY_KEY_REUSED",
    )
    response = outsider.post(url, {"version": version, "action": blind}, format="json")
    contract("games_actions_create", response, "NOT_A_PLAYER")
    contract(
        "games_legal_actions", outsider.get(f"/api/v1/games/{game}/legal-actions"), "NOT_A_PLAYER"
    )
    response = creator.post(
        "/api/v1/games/999999/actions", {"version": 1, "action": blind}, format="json"
    )
    contract("games_actions_create", response, "GAME_NOT_FOUND")
    assert act(creator, game, {"type": "forfeit"}).status_code == 200  # two seats: it ends
    contract("games_actions_create", act(creator, game, blind), "GAME_NOT_ACTIVE")


def test_vacations(contract, creator, opponent) -> None:
    def start(client: APIClient, body: Any) -> Any:
        return client.post("/api/v1/vacations", body, format="json")

    contract("vacations_start", start(creator, {"days": 0}), "VALIDATION_ERROR")
    contract("vacations_start", start(creator, {"days": 2, "why": "sea"}), "VALIDATION_ERROR")
    contract("vacations_start", start(creator, {"days": 300}), "VACATION_ALLOWANCE_USED")
    first = start(creator, {"days": 2}).json()["vacations"][0]["id"]
    contract("vacations_start", start(creator, {"days": 2}), "ALREADY_ON_VACATION")
    contract("vacations_end", creator.post("/api/v1/vacations/999999/end"), "VACATION_NOT_FOUND")
    contract("vacations_end", opponent.post(f"/api/v1/vacations/{first}/end"), "VACATION_NOT_FOUND")
    assert creator.post(f"/api/v1/vacations/{first}/end").status_code == 200
    contract("vacations_end", creator.post(f"/api/v1/vacations/{first}/end"), "VACATION_OVER")
