"""Every field of every request body refuses a value of another JSON type, by name.

The operations and their bodies are read from the schema: each operation with a JSON body
is sent its own examples (bodies it accepts) with one field at a time, at the top level and
one or two levels down (the items of an array of objects, the values of a map of objects),
replaced by a value of each JSON type the field does not take. Each answer must be 400
`VALIDATION_ERROR` with a `WRONG_TYPE` row naming that field, and no `UNKNOWN_FIELD` row
for it. A move's `version` is read before its body is checked, so it answers `BAD_VERSION`
(and a null one `VERSION_REQUIRED`), as docs/api.md says.

The calls go to a real game, webhook and token of the caller, so that each reaches the
check of its body; none of them changes anything.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from notifications.models import WebhookEndpoint
from tests.api.conftest import _fast_password_hashing, _fresh_cache  # noqa: F401
from tests.api.games.conftest import _tasks_run_inline  # noqa: F401
from tests.trust.conftest import Persona, persona, unthrottled  # noqa: F401

METHODS = {"post", "put", "patch"}
Path = tuple[str | int, ...]

# One value of each JSON type (an integer and a fraction both being numbers).
SAMPLES: dict[str, Any] = {
    "null": None,
    "boolean": True,
    "integer": 7,
    "fraction": 1.5,
    "string": "7",
    "array": [],
    "object": {},
}
# The sample kinds a field of each schema type takes.
TAKES = {
    "boolean": {"boolean"},
    "integer": {"integer"},
    "number": {"integer", "fraction"},
    "string": {"string"},
    "array": {"array"},
    "object": {"object"},
}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator(api_version="v1").get_schema(request=None, public=True)


def resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """``node`` with a ``$ref`` (or a lone ``allOf`` of one) followed."""
    while True:
        if "$ref" in node:
            node = {**schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]], **node}
            node.pop("$ref")
        elif len(node.get("allOf", [])) == 1:
            node = {
                **resolve(schema, node["allOf"][0]),
                **{k: v for k, v in node.items() if k != "allOf"},
            }
        else:
            return node


def kind_of(schema: dict[str, Any], node: dict[str, Any]) -> tuple[str | None, bool]:
    """The JSON type a property takes (None: several), and whether it may be null."""
    node = resolve(schema, node)
    nullable = bool(node.get("nullable"))
    if "oneOf" in node:
        others = []
        for option in node["oneOf"]:
            option = resolve(schema, option)
            if option.get("enum") == [None] or option.get("type") == "null":
                nullable = True
            else:
                others.append(option)
        types = {option.get("type") for option in others}
        if len(types) == 1:  # such as an email address or a blank string
            nullable = nullable or any(option.get("nullable") for option in others)
            return types.pop(), nullable
        return None, nullable
    return node.get("type"), nullable


def variant(schema: dict[str, Any], node: dict[str, Any], value: Any) -> dict[str, Any]:
    """The object schema ``value`` is an instance of (the branch of a ``oneOf`` with a
    discriminator that its ``type`` picks)."""
    node = resolve(schema, node)
    if "oneOf" in node and isinstance(value, dict):
        mapping = node.get("discriminator", {}).get("mapping", {})
        ref = mapping.get(value.get("type"))
        if ref is not None:
            return resolve(schema, {"$ref": ref})
    return node


def fields(
    schema: dict[str, Any], node: dict[str, Any], value: Any, path: Path = (), depth: int = 0
) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Each property of the object ``value`` and its schema, and those of the objects in
    it, to ``depth`` 2."""
    node = variant(schema, node, value)
    if not isinstance(value, dict):
        return
    for name, prop in node.get("properties", {}).items():
        if prop.get("readOnly") or resolve(schema, prop).get("readOnly"):
            continue
        yield (*path, name), prop
        if depth >= 2 or name not in value:
            continue
        inner, child = value[name], resolve(schema, prop)
        if isinstance(inner, list) and inner and "items" in child:
            yield from fields(schema, child["items"], inner[0], (*path, name, 0), depth + 1)
        elif isinstance(inner, dict) and "properties" in variant(schema, child, inner):
            yield from fields(schema, child, inner, (*path, name), depth + 1)
        elif isinstance(inner, dict) and isinstance(child.get("additionalProperties"), dict):
            for key in list(inner)[:1]:
                yield from fields(
                    schema, child["additionalProperties"], inner[key], (*path, name, key), depth + 1
                )


def dotted(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def replaced(body: Any, path: Path, value: Any) -> Any:
    out = copy.deepcopy(body)
    at = out
    for part in path[:-1]:
        at = at[part]
    at[path[-1]] = value
    return out


@pytest.fixture
def world(db: None, unthrottled: None) -> dict[str, Any]:  # noqa: F811
    """The caller, with a running game it plays in and a webhook of its own."""
    alice, bob = persona("alice"), persona("bob")
    created = alice.client.post(
        "/api/v1/games",
        {"seats": [{"type": "creator"}, {"type": "open"}], "first_seat": 0},
        format="json",
    )
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    joined = bob.client.post(f"/api/v1/games/{game_id}/join", {}, format="json")
    assert joined.status_code == 200, joined.content
    hook = WebhookEndpoint.objects.create(
        user=alice.user, url="https://bot.example.org/hook", secret="whsec_dGVzdA=="
    )
    said = bob.client.post(
        f"/api/v1/games/{game_id}/chat", {"room": "players", "text": "hi"}, format="json"
    )
    assert said.status_code == 201, said.content
    return {
        "caller": alice,
        "game_id": str(game_id),
        "webhook_id": str(hook.pk),
        "message_id": str(said.json()["id"]),
        "provider": "apple",
    }


def url(path: str, world: dict[str, Any]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: world.get(m.group(1), "europe"), path)


def bodies(operation: dict[str, Any]) -> list[Any]:
    content = operation["requestBody"]["content"]["application/json"]
    found = [example["value"] for example in content.get("examples", {}).values()]
    return [body for body in found if isinstance(body, dict)] or [{}]


def expected(operation_id: str, path: Path, sample: str) -> str:
    if operation_id == "games_actions_create" and path == ("version",):
        return "VERSION_REQUIRED" if sample == "null" else "BAD_VERSION"
    return "WRONG_TYPE"


def test_every_body_field_refuses_every_other_json_type(
    schema: dict[str, Any], world: dict[str, Any]
) -> None:
    client = world["caller"].client
    wrong: list[str] = []
    tried: set[tuple[str, str, str]] = set()
    operations = [
        (path, method, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in METHODS
        and "application/json" in operation.get("requestBody", {}).get("content", {})
    ]
    assert len(operations) >= 10
    for path, method, operation in operations:
        operation_id = operation["operationId"]
        node = operation["requestBody"]["content"]["application/json"]["schema"]
        for body in bodies(operation):
            for where, prop in fields(schema, node, body):
                kind, nullable = kind_of(schema, prop)
                if kind not in TAKES:
                    continue  # a field of several types (the score calculator's tickets)
                for sample, value in SAMPLES.items():
                    if sample in TAKES[kind] or (sample == "null" and nullable):
                        continue
                    if (operation_id, dotted(where), sample) in tried:
                        continue
                    tried.add((operation_id, dotted(where), sample))
                    response = getattr(client, method)(
                        url(path, world), replaced(body, where, value), format="json"
                    )
                    problem = response.json() if response.content else {}
                    code = expected(operation_id, where, sample)
                    rows = [r for r in problem.get("errors", []) if r["field"] == dotted(where)]
                    if code != "WRONG_TYPE":
                        ok = problem.get("code") == code
                    else:
                        ok = (
                            response.status_code == 400
                            and problem.get("code") == "VALIDATION_ERROR"
                            and any(r["code"] == "WRONG_TYPE" for r in rows)
                            and not any(r["code"] == "UNKNOWN_FIELD" for r in rows)
                        )
                    if not ok:
                        wrong.append(
                            f"{operation_id} {dotted(where)}={value!r}: "
                            f"{response.status_code} {problem.get('code')} {rows}"
                        )
    names = {(operation_id, field) for operation_id, field, _ in tried}
    # The walk reaches the fields this rule was written for, and nested ones.
    for must in [
        ("webhooks_update", "active"),
        ("webhooks_create", "events"),
        ("auth_tokens_create", "name"),
        ("devices_register", "name"),
        ("notifications_preferences_update", "channels.invitation.push"),
        ("notifications_preferences_update", "quiet_hours.start"),
        ("games_create", "seats[0].type"),
        ("games_actions_create", "action.slot"),
        ("games_actions_create", "action.tickets"),
        ("games_join", "seat"),
        ("boards_score", "players[0].routes"),
        ("auth_register", "email"),
    ]:
        assert must in names, must
    assert not wrong, f"{len(wrong)} of {len(tried)}:\n" + "\n".join(wrong[:60])


# ----------------------------------------------------------------------------- queries
@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/games",
        "/api/v1/leaderboard",
        "/api/v1/notifications",
        "/api/v1/webhooks/{id}/deliveries",
    ],
)
@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("null", "WRONG_TYPE"),
        ("abc", "WRONG_TYPE"),
        ("1.5", "WRONG_TYPE"),
        ("", "WRONG_TYPE"),
        (" 2", "WRONG_TYPE"),
        ("0", "MIN_VALUE"),
        ("-" + "9" * 30, "MIN_VALUE"),
    ],
)
def test_a_page_size_that_is_not_a_whole_number_from_1_is_refused_by_name(
    world: dict[str, Any], path: str, raw: str, code: str
) -> None:
    response = world["caller"].client.get(
        path.replace("{id}", world["webhook_id"]), {"page_size": raw}
    )
    assert response.status_code == 400, response.content
    problem = response.json()
    assert problem["code"] == "VALIDATION_ERROR"
    assert [(r["field"], r["code"]) for r in problem["errors"]] == [("page_size", code)]


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/games",
        "/api/v1/leaderboard",
        "/api/v1/notifications",
        "/api/v1/webhooks/{id}/deliveries",
    ],
)
def test_a_whole_page_size_or_none_is_taken(world: dict[str, Any], path: str) -> None:
    client = world["caller"].client
    # A number of any length is a number: past 100 it is served as 100.
    for query in [{"page_size": "2"}, {}, {"page_size": "1" * 30}, {"page_size": "9" * 5000}]:
        response = client.get(path.replace("{id}", world["webhook_id"]), query)
        assert response.status_code == 200, (query, response.content)


@pytest.mark.parametrize(
    "query",
    [{"after": "null"}, {"limit": "abc"}, {"after": "1.5"}, {"after": ""}, {"limit": "+5"}],
)
def test_a_move_log_cursor_that_is_not_a_whole_number_is_bad(
    world: dict[str, Any], query: dict[str, str]
) -> None:
    response = world["caller"].client.get(f"/api/v1/games/{world['game_id']}/moves", query)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "BAD_CURSOR"


@pytest.mark.parametrize(
    ("path", "query", "code"),
    [
        ("/api/v1/games", {"status": ""}, "BAD_STATUS"),
        ("/api/v1/games", {"scope": ""}, "BAD_SCOPE"),
        ("/api/v1/leaderboard", {"board": ""}, "UNKNOWN_BOARD"),
        ("/api/v1/notifications", {"unread": ""}, "VALIDATION_ERROR"),
    ],
)
def test_an_empty_query_value_is_a_value_and_is_refused(
    world: dict[str, Any], path: str, query: dict[str, str], code: str
) -> None:
    """An empty value is not taken as "not sent" (DRF's form reading would drop it)."""
    response = world["caller"].client.get(path, query)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code


def test_a_move_log_cursor_of_any_length_is_a_number(world: dict[str, Any]) -> None:
    """Past every move: no moves, not a refusal; a limit past 500 is still out of range."""
    client = world["caller"].client
    url = f"/api/v1/games/{world['game_id']}/moves"
    far = client.get(url, {"after": "9" * 30})
    assert far.status_code == 200, far.content
    assert far.json()["moves"] == []
    assert client.get(url, {"after": "0" * 30}).status_code == 200
    too_many = client.get(url, {"limit": "9" * 30})
    assert too_many.status_code == 400
    assert too_many.json()["code"] == "BAD_CURSOR"


@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/leaderboard"])
def test_an_empty_page_is_not_a_page(world: dict[str, Any], path: str) -> None:
    response = world["caller"].client.get(path, {"page": ""})
    assert response.status_code == 404, response.content
    assert response.json()["code"] == "NOT_FOUND"
