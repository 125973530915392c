"""Every request example of the schema, sent to its operation, is accepted (2xx).

The schema is generated from the code, as ``manage.py spectacular`` makes it. Each example is
sent as documented by a real user with a real token, after the objects it needs are made:
the users it names, a game in the state where its move is legal, an endpoint to change. What
a fresh database cannot match is substituted and said where it is done: a game's id and
``version``, the board in the path, and the address a webhook's host resolves to.

Response examples outside the 2xx JSON bodies (problem details, other media types) are
checked against their schemas here; ``test_schema_examples`` checks the 2xx JSON ones.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from functools import cache
from typing import Any
from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from accounts.emails import code_digest
from accounts.models import EmailVerification
from accounts.passwords import reset_token_make
from accounts.services import token_issue
from engine import KeepTickets, load_board, new_game
from engine.actions import parse_action
from games.models import Game
from tests import stream_frames
from tests.api.accounts.provider_keys import KeyServer, SigningKey, claims_for, provider_settings
from tests.caches import fresh_caches
from tests.service.test_schema_examples import as_json_schema
from ttr_service.celery import app as celery_app

METHODS = ("get", "post", "put", "patch", "delete")
# The people the examples name: the caller, and the player they invite or play against.
CALLER, OTHER = "alice", "bob"
OTHER_PASSWORD = "a-long-password-1"
# A public address (TEST-NET would be refused as private): what a webhook's host resolves to
# here, where names are not looked up.
PUBLIC_ADDRESS = "93.184.215.14"


@cache
def schema() -> dict[str, Any]:
    generated: dict[str, Any] = SchemaGenerator(api_version="v1").get_schema(
        request=None, public=True
    )
    return generated


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, item in schema()["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


@dataclass
class Case:
    method: str
    path: str
    title: str
    body: Any = None
    query: dict[str, Any] = field(default_factory=dict)

    @property
    def operation(self) -> str:
        return f"{self.method.upper()} {self.path}"


def cases() -> list[Case]:
    """One case per request-body example, and one per parameter example."""
    found = []
    for method, path, operation in operations():
        media = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        for title, example in media.get("examples", {}).items():
            found.append(Case(method, path, title, body=example["value"]))
        for parameter in operation.get("parameters", []):
            named = dict(parameter.get("examples", {}))
            if "example" in parameter:
                named["example"] = {"value": parameter["example"]}
            for title, example in named.items():
                if parameter["in"] == "query":
                    query = {parameter["name"]: example["value"]}
                    found.append(Case(method, path, f"{parameter['name']}={title}", query=query))
    return found


CASES = cases()


# ----------------------------------------------------------------------------- fixtures
@pytest.fixture(autouse=True)
def _quick_and_isolated(settings: Any) -> Iterator[None]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with fresh_caches(settings, "examples-accepted"):
        celery_app.conf.task_always_eager = True
        yield
        celery_app.conf.task_always_eager = False


# A stand-in for Apple's and Google's signing key: the sign-in examples' ID tokens are
# signed with it.
PROVIDER_KEY = SigningKey()


@pytest.fixture(scope="module")
def provider_keys() -> Iterator[KeyServer]:
    server = KeyServer(PROVIDER_KEY)
    server.start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def _providers_configured(settings: Any, provider_keys: KeyServer) -> None:
    settings.SIGN_IN_PROVIDERS = provider_settings(provider_keys.url)


@pytest.fixture
def public_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every host resolves to one public address (the examples' hosts are not real)."""

    def resolve(host: str, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (PUBLIC_ADDRESS, port or 443))]

    monkeypatch.setattr("notifications.addresses.getaddrinfo", resolve)


def user(name: str, password: str = OTHER_PASSWORD) -> AbstractBaseUser:
    model = get_user_model()
    found = model.objects.filter(username=name).first()
    if found is not None:
        return found
    made: AbstractBaseUser = model.objects.create_user(username=name, password=password)
    return made


def client_of(someone: AbstractBaseUser) -> APIClient:
    _, key = token_issue(someone, name="examples")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def ok(response: Any) -> dict[str, Any]:
    assert 200 <= response.status_code < 300, response.content
    body: dict[str, Any] = response.json()
    return body


# ------------------------------------------------------------------------------ games
def seed_where(action: dict[str, Any], seat: int, first_seat: int) -> tuple[int, bool]:
    """A seed for a 2-player Europe game where ``seat`` may make ``action``: at the start
    (the initial ticket choice), or once both seats kept every ticket offered. The flag
    says which."""
    board = load_board("europe")
    wanted = parse_action(action, board)
    for seed in range(100_000):
        state = new_game(board, 2, seed, first_seat)
        if state.is_legal(seat, wanted):
            return seed, False
        for each in (0, 1):
            state = state.apply(
                each, KeepTickets(tuple(board.tickets[t].id for t in state.offers[each]))
            )
        if state.is_legal(seat, wanted):
            return seed, True
    raise AssertionError(f"no seed lets seat {seat} make {action}")


def two_player_game(
    seed: int | None, first_seat: int, **extra: Any
) -> tuple[int, APIClient, APIClient]:
    """A 2-player Europe game, started: the caller in seat 0 and the other player in seat 1.
    ``seed`` replaces the random one before the game starts, so its cards are known."""
    caller, other = client_of(user(CALLER)), client_of(user(OTHER))
    body = {"board": "europe", "seats": [{"type": "creator"}, {"type": "open"}]}
    game = ok(
        caller.post("/api/v1/games", {**body, "first_seat": first_seat, **extra}, format="json")
    )
    if seed is not None:
        Game.objects.filter(pk=game["id"]).update(seed=seed)
    ok(other.post(f"/api/v1/games/{game['id']}/join", {}, format="json"))
    return game["id"], caller, other


def keep_every_ticket(game_id: int, *clients: APIClient) -> None:
    for client in clients:
        view = ok(client.get(f"/api/v1/games/{game_id}"))
        offered = [t["id"] for t in view["state"]["you"]["offered_tickets"]]
        action = {"type": "keep_tickets", "tickets": offered}
        ok(
            client.post(
                f"/api/v1/games/{game_id}/actions",
                {"version": view["version"], "action": action},
                format="json",
            )
        )


def live_version(client: APIClient, game_id: int) -> int:
    version: int = ok(client.get(f"/api/v1/games/{game_id}"))["version"]
    return version


# ----------------------------------------------------------------------------- accounts
def email_verify(case: Case) -> Sent:
    """An address waiting for the caller, whose code is the example's."""
    caller = user(CALLER)
    client = client_of(caller)
    ok(client.put("/api/v1/auth/email", {"email": "alice@example.com"}, format="json"))
    verification = EmailVerification.objects.get(user=caller)
    verification.code_digest = code_digest(verification, case.body["code"])
    verification.expires_at = timezone.now() + timedelta(hours=1)
    verification.save()
    return client, case.path, case.body


def password_change(case: Case) -> Sent:
    return client_of(user(CALLER, case.body["current_password"])), case.path, case.body


def reset_confirm(case: Case) -> Sent:
    """The example's secret stands for a real one of the caller's."""
    body = {**case.body, "token": reset_token_make(user(CALLER))}
    return APIClient(), case.path, body


def id_token_signed(provider: str, case: Case) -> dict[str, Any]:
    """The example's ID token stands for one the stand-in provider signs, with its nonce."""
    token = PROVIDER_KEY.sign(
        claims_for(provider, nonce=case.body["nonce"], sub=f"{provider}-example")
    )
    return {**case.body, "id_token": token}


def provider_sign_in(case: Case) -> Sent:
    path = case.path.replace("{provider}", "apple")
    return APIClient(), path, id_token_signed("apple", case)


def identity_link(case: Case) -> Sent:
    client, path, _ = as_caller(case)
    return client, path, id_token_signed(case.body["provider"], case)


# ------------------------------------------------------------------- how each is sent
# Each takes the case and returns the client, the path to send it to and the body.
Sent = tuple[APIClient, str, Any]


def as_caller(case: Case) -> Sent:
    return client_of(user(CALLER)), case.path, case.body


def account_delete(case: Case) -> Sent:
    """An account with the example's password, or without one for the `confirm` example
    (it signs in with a provider only)."""
    someone = user(CALLER, case.body.get("password", OTHER_PASSWORD))
    if "confirm" in case.body:
        someone.set_unusable_password()
        someone.save()
    return client_of(someone), case.path, case.body


def register(case: Case) -> Sent:
    return APIClient(), case.path, case.body


def log_in(case: Case) -> Sent:
    user(case.body["username"], case.body["password"])
    return APIClient(), case.path, case.body


def score(case: Case) -> Sent:
    # The path names the board; the examples for another board than Europe name theirs.
    board = case.body.get("board", "europe")
    return APIClient(), case.path.replace("{board}", board), case.body


def create_game(case: Case) -> Sent:
    for seat in case.body.get("seats", []):
        if seat.get("username"):
            user(seat["username"])
    return as_caller(case)


def act(case: Case) -> Sent:
    """A game where the example's move is legal for seat 0; the example's version stands
    for whatever the game's version is then, and its game id for this game's."""
    seed, after_tickets = seed_where(case.body["action"], seat=0, first_seat=0)
    game_id, caller, other = two_player_game(seed, first_seat=0)
    if after_tickets:
        keep_every_ticket(game_id, caller, other)
    body = {**case.body, "version": live_version(caller, game_id)}
    return caller, case.path.replace("{game_id}", str(game_id)), body


def extra_time(case: Case) -> Sent:
    """A game with a time limit where the other player is to move: the caller gives them
    time (the example's game id stands for this game's)."""
    game_id, caller, other = two_player_game(None, first_seat=1, turn_time_limit=86400)
    keep_every_ticket(game_id, caller, other)
    return caller, case.path.replace("{game_id}", str(game_id)), case.body


def join(case: Case) -> Sent:
    """A lobby with the seat the example takes open, which the other player joins."""
    seats = [{"type": "creator"}] + [{"type": "open"}] * case.body["seat"]
    caller, other = client_of(user(CALLER)), client_of(user(OTHER))
    game = ok(caller.post("/api/v1/games", {"board": "europe", "seats": seats}, format="json"))
    return other, case.path.replace("{game_id}", str(game["id"])), case.body


def webhook(case: Case) -> Sent:
    """An endpoint of the caller's to change (the example's id stands for its id)."""
    caller = client_of(user(CALLER))
    made = ok(
        caller.post("/api/v1/webhooks", {"url": "https://hooks.example.org/ttr"}, format="json")
    )
    return caller, case.path.replace("{webhook_id}", str(made["id"])), case.body


def to_player(case: Case) -> Sent:
    """The player the example names exists (a friend request to them, a block of them)."""
    user(case.body["username"])
    return as_caller(case)


def chat_post(case: Case) -> Sent:
    """A game in its lobby where the caller holds a seat, to say something in."""
    caller = client_of(user(CALLER))
    seats = [{"type": "creator"}, {"type": "open"}]
    game = ok(caller.post("/api/v1/games", {"board": "europe", "seats": seats}, format="json"))
    return caller, case.path.replace("{game_id}", str(game["id"])), case.body


def chat_report(case: Case) -> Sent:
    """A message of the other player's, at a table both sit at, for the caller to report."""
    caller, other = client_of(user(CALLER)), client_of(user(OTHER))
    seats = [{"type": "creator"}, {"type": "open"}]
    game = ok(caller.post("/api/v1/games", {"board": "europe", "seats": seats}, format="json"))
    ok(other.post(f"/api/v1/games/{game['id']}/join", {}, format="json"))
    said = {"room": "players", "text": "hello"}
    message = ok(other.post(f"/api/v1/games/{game['id']}/chat", said, format="json"))
    return caller, case.path.replace("{message_id}", str(message["id"])), case.body


HOW: dict[str, Callable[[Case], Sent]] = {
    "POST /api/v1/account/deletion": account_delete,
    "POST /api/v1/auth/register": register,
    "POST /api/v1/auth/login": log_in,
    "POST /api/v1/auth/tokens": as_caller,
    "PATCH /api/v1/auth/me": as_caller,
    "PUT /api/v1/auth/email": as_caller,
    "POST /api/v1/auth/email/verify": email_verify,
    "POST /api/v1/auth/password": password_change,
    "POST /api/v1/auth/password/reset": register,
    "POST /api/v1/auth/password/reset/confirm": reset_confirm,
    "POST /api/v1/auth/providers/{provider}": provider_sign_in,
    "POST /api/v1/auth/identities": identity_link,
    "POST /api/v1/boards/{board}/score": score,
    "POST /api/v1/chat/messages/{message_id}/report": chat_report,
    "POST /api/v1/blocks": to_player,
    "POST /api/v1/devices": as_caller,
    "POST /api/v1/friend-requests": to_player,
    "POST /api/v1/games": create_game,
    "POST /api/v1/games/{game_id}/actions": act,
    "POST /api/v1/games/{game_id}/chat": chat_post,
    "POST /api/v1/games/{game_id}/extra-time": extra_time,
    "POST /api/v1/games/{game_id}/join": join,
    "PUT /api/v1/notifications/preferences": as_caller,
    "PATCH /api/v1/social-settings": as_caller,
    "POST /api/v1/seeks": as_caller,
    "POST /api/v1/vacations": as_caller,
    "POST /api/v1/webhooks": as_caller,
    "PATCH /api/v1/webhooks/{webhook_id}": webhook,
}


def test_every_operation_with_a_request_example_is_sent_here() -> None:
    assert {case.operation for case in CASES} - set(HOW) == set()


@pytest.mark.usefixtures("public_dns")
@pytest.mark.parametrize("case", CASES, ids=[f"{c.operation} {c.title}" for c in CASES])
def test_the_request_example_is_accepted(db: None, case: Case) -> None:
    client, path, body = HOW[case.operation](case)
    if case.query:
        path = f"{path}?{urlencode(case.query)}"

    send = getattr(client, case.method)
    response = send(path, body, format="json") if body is not None else send(path)

    assert 200 <= response.status_code < 300, response.content


# ---------------------------------------------------------------- response examples
def other_response_examples() -> list[tuple[str, dict[str, Any], Any]]:
    found = []
    for method, path, operation in operations():
        for code, response in operation["responses"].items():
            for media_type, media in response.get("content", {}).items():
                if str(code).startswith("2") and media_type == "application/json":
                    continue  # test_schema_examples checks these
                for title, example in media.get("examples", {}).items():
                    name = f"{method.upper()} {path} {code} {media_type} {title}"
                    found.append((name, media["schema"], example["value"]))
    return found


OTHER_EXAMPLES = other_response_examples()


@pytest.mark.parametrize(
    ("name", "response_schema", "value"), OTHER_EXAMPLES, ids=[e[0] for e in OTHER_EXAMPLES]
)
def test_the_response_example_fits_its_schema(name: str, response_schema: Any, value: Any) -> None:
    components = as_json_schema(schema()["components"])
    # An event stream's schema is that of each event on it, as its fields; its `data` is
    # the string sent, its JSON checked against the frame's `contentSchema`.
    validator = stream_frames.FrameValidator(
        {**as_json_schema(response_schema), "components": components}
    )
    values = stream_frames.events(value) if " text/event-stream " in name else [value]
    assert values, name

    problems = [
        f"{'/'.join(map(str, e.path))}: {e.message}"
        for one in values
        for e in validator.iter_errors(one)
    ]

    assert problems == []


def test_each_discriminator_maps_its_values_to_the_shapes_that_carry_them() -> None:
    """A client picks a oneOf's shape by the discriminator's mapping: each key must be the
    one value the shape's own property takes."""
    components = schema()["components"]["schemas"]
    checked = 0
    for name, component in components.items():
        discriminator = component.get("discriminator")
        if not discriminator or "mapping" not in discriminator:
            continue
        prop = discriminator["propertyName"]
        for value, ref in discriminator["mapping"].items():
            target = components[ref.rsplit("/", 1)[1]]
            stated = target["properties"][prop]
            enum = stated.get("enum") or next(
                (part.get("enum") for part in stated.get("allOf", []) if "enum" in part), None
            )
            if enum is None and "$ref" in json.dumps(stated):
                ref_name = json.dumps(stated).split("#/components/schemas/")[1].split('"')[0]
                enum = components[ref_name].get("enum")
            assert enum == [value], (name, value, ref, stated)
            checked += 1
    assert checked >= 10
