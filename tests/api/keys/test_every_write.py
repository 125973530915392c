"""Every write endpoint answers once per Idempotency-Key (idempotency/answers.py).

A retry with the key and the same request gets the first answer again, byte for byte, and
changes nothing; another request under the key gets 422; the key is stored as a hash and
the answer encrypted, so a token an answer carries is not in the database in the clear.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import AuthToken
from games.models import Game, Seat
from idempotency.answers import is_idempotent, keyed_answers_forget
from idempotency.models import KeyedAnswer
from notifications.models import WebhookEndpoint

pytestmark = pytest.mark.django_db

# Writes that take no Idempotency-Key of this kind, and why.
NOT_KEYED = {
    # A move keeps its outcome with the move, under its own key (games.commands.play).
    "games.http.play.ActionView.post",
    # The score calculator computes and stores nothing: repeating it is harmless.
    "games.http.score.ScoreView.post",
}
WRITES = ("post", "put", "patch", "delete")
PASSWORD = "a-long-password-1"


def _views(resolver: URLResolver) -> list[type]:
    found = []
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            found += _views(pattern)
        elif isinstance(pattern, URLPattern) and hasattr(pattern.callback, "cls"):
            found.append(pattern.callback.cls)
    return found


def test_every_write_method_of_the_api_takes_a_key() -> None:
    writes = {
        f"{view.__module__}.{view.__name__}.{method}": getattr(view, method)
        for view in _views(get_resolver())
        for method in WRITES
        if hasattr(view, method)
    }
    assert len(writes) > 25
    unkeyed = {name for name, handler in writes.items() if not is_idempotent(handler)}
    assert unkeyed == NOT_KEYED


def test_every_keyed_operation_documents_the_header_and_its_refusals() -> None:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    keyed = 0
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            names = {p["name"] for p in operation.get("parameters", [])}
            if method not in WRITES or "Idempotency-Key" not in names:
                continue
            keyed += 1
            text = " ".join(r.get("description", "") for r in operation["responses"].values())
            for code in (
                "BAD_IDEMPOTENCY_KEY",
                "IDEMPOTENCY_KEY_IN_FLIGHT",
                "IDEMPOTENCY_KEY_REUSED",
            ):
                assert f"`{code}`" in text, (path, method, code)
    assert keyed >= 27


def _client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("alice", password=PASSWORD)


def _create_game(client: APIClient, key: str, **body):
    body = {"seats": [{"type": "creator"}, {"type": "open"}], **body}
    return client.post("/api/v1/games", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_a_retried_game_creation_makes_one_game_and_gets_the_first_answer(alice) -> None:
    client = _client(alice)
    first = _create_game(client, "create-1")
    again = _create_game(client, "create-1")
    assert first.status_code == again.status_code == 201
    assert again.content == first.content
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert again.get("ETag") == first.get("ETag")
    assert Game.objects.count() == 1
    # Another key is another request.
    assert _create_game(client, "create-2").status_code == 201
    assert Game.objects.count() == 2


def test_the_same_key_with_another_body_is_refused_and_changes_nothing(alice) -> None:
    client = _client(alice)
    _create_game(client, "k")
    other = _create_game(client, "k", turn_time_limit=3600)
    assert other.status_code == 422
    assert other.json()["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert Game.objects.count() == 1


def test_keys_are_the_callers_own(alice) -> None:
    bob = get_user_model().objects.create_user("bob", password=PASSWORD)
    _create_game(_client(alice), "shared")
    theirs = _create_game(_client(bob), "shared")
    assert theirs.status_code == 201 and "Idempotent-Replayed" not in theirs
    assert Game.objects.count() == 2


def test_a_refusal_is_the_keys_answer_even_after_the_game_changes(alice) -> None:
    bob = get_user_model().objects.create_user("bob", password=PASSWORD)
    game_id = _create_game(_client(alice), "g").json()["id"]
    refused = _client(bob).post(f"/api/v1/games/{game_id}/start", HTTP_IDEMPOTENCY_KEY="s")
    assert refused.status_code == 403
    # The same request under the same key gets the refusal again, not a new try.
    again = _client(bob).post(f"/api/v1/games/{game_id}/start", HTTP_IDEMPOTENCY_KEY="s")
    assert (again.status_code, again.content) == (refused.status_code, refused.content)
    assert again["Content-Type"] == "application/problem+json"


def test_a_bad_key_is_refused_before_anything_is_stored(alice) -> None:
    response = _create_game(_client(alice), "has a space")
    assert response.status_code == 400
    assert response.json()["code"] == "BAD_IDEMPOTENCY_KEY"
    assert not Game.objects.exists() and not KeyedAnswer.objects.exists()


def test_a_retried_registration_makes_one_account_and_gives_its_token_again() -> None:
    body = {"username": "carol", "password": PASSWORD}
    first = APIClient().post("/api/v1/auth/register", body, format="json", HTTP_IDEMPOTENCY_KEY="r")
    again = APIClient().post("/api/v1/auth/register", body, format="json", HTTP_IDEMPOTENCY_KEY="r")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert get_user_model().objects.filter(username="carol").count() == 1
    token = first.json()["token"]
    me = APIClient().get("/api/v1/auth/me", HTTP_AUTHORIZATION=f"Token {token}")
    assert me.status_code == 200
    # Neither the key nor the token nor the password is stored in the clear.
    row = KeyedAnswer.objects.get()
    assert row.user_id is None
    assert row.key_digest == hashlib.sha256(b"r").hexdigest()
    stored = bytes(row.content) + row.fingerprint.encode() + str(row.headers).encode()
    assert token.encode() not in stored and PASSWORD.encode() not in stored
    assert AuthToken.objects.count() == 1


def test_a_webhooks_secret_is_given_again_only_under_its_key(alice) -> None:
    client = _client(alice)
    body = {"url": "https://93.184.215.14/ttr", "events": ["game_over"]}
    first = client.post("/api/v1/webhooks", body, format="json", HTTP_IDEMPOTENCY_KEY="w")
    assert first.status_code == 201, first.json()
    again = client.post("/api/v1/webhooks", body, format="json", HTTP_IDEMPOTENCY_KEY="w")
    assert again.json()["secret"] == first.json()["secret"]
    assert WebhookEndpoint.objects.count() == 1
    assert first.json()["secret"].encode() not in bytes(KeyedAnswer.objects.get().content)


def test_an_answer_kept_before_the_secret_key_changed_is_still_given(alice, settings) -> None:
    client = _client(alice)
    first = _create_game(client, "rotated")
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "another-secret-key-" + "x" * 40
    again = _create_game(client, "rotated")
    assert again.content == first.content and again["Idempotent-Replayed"] == "true"
    assert Game.objects.count() == 1


def test_a_key_past_its_time_is_a_new_request_and_the_sweep_forgets_it(alice, settings) -> None:
    client = _client(alice)
    _create_game(client, "old")
    later = timezone.now() + timedelta(hours=settings.IDEMPOTENCY_KEY_HOURS, minutes=1)
    with time_machine.travel(later, tick=False):
        again = _create_game(client, "old", turn_time_limit=3600)
        assert again.status_code == 201 and "Idempotent-Replayed" not in again
        assert Game.objects.count() == 2
    with time_machine.travel(later + timedelta(hours=settings.IDEMPOTENCY_KEY_HOURS), tick=False):
        assert keyed_answers_forget() == 1
    assert not KeyedAnswer.objects.exists()


def test_a_delete_is_answered_once(alice) -> None:
    client = _client(alice)
    created = client.post(
        "/api/v1/devices",
        {"platform": "fcm", "token": "fcm-registration-token"},
        format="json",
    )
    assert created.status_code in (200, 201), created.json()
    path = f"/api/v1/devices/{created.json()['id']}"
    gone = client.delete(path, HTTP_IDEMPOTENCY_KEY="d")
    again = client.delete(path, HTTP_IDEMPOTENCY_KEY="d")
    assert gone.status_code == again.status_code == 204
    assert again["Idempotent-Replayed"] == "true"
    # Without the key, the device is simply not found any more.
    assert client.delete(path).status_code == 404


def test_a_seat_taken_by_a_retried_join_is_taken_once(alice) -> None:
    bob = get_user_model().objects.create_user("bob", password=PASSWORD)
    game_id = _create_game(_client(alice), "g").json()["id"]
    joined = _client(bob).post(
        f"/api/v1/games/{game_id}/join", {}, format="json", HTTP_IDEMPOTENCY_KEY="j"
    )
    again = _client(bob).post(
        f"/api/v1/games/{game_id}/join", {}, format="json", HTTP_IDEMPOTENCY_KEY="j"
    )
    assert joined.status_code == again.status_code == 200
    assert again.content == joined.content
    assert Seat.objects.filter(game_id=game_id, user=bob).count() == 1
