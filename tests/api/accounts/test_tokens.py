"""GET/POST /auth/tokens and DELETE /auth/tokens/{id}: Alice's tokens, and Bob's."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import AuthToken
from accounts.services import token_issue

pytestmark = pytest.mark.django_db

URL = "/api/v1/auth/tokens"
ME = "/api/v1/auth/me"


def token_of(client: APIClient) -> AuthToken:
    key: str = client.token_key  # type: ignore[attr-defined]
    return AuthToken.objects.get(token_key=key[:15])


@pytest.fixture
def alice(make_user: Any) -> Any:
    return make_user("alice")


@pytest.fixture
def bob(make_user: Any) -> Any:
    return make_user("bob")


# Listing


def test_it_lists_the_callers_tokens_and_marks_the_current_one(
    alice: Any, auth_client: Any
) -> None:
    phone = auth_client(alice)
    other, _ = token_issue(alice, name="my-bot")

    response = phone.get(URL)

    assert response.status_code == 200
    listed = response.json()
    assert [t["id"] for t in listed] == [other.pk, token_of(phone).pk]
    assert [t["current"] for t in listed] == [False, True]
    assert set(listed[0]) == {"id", "prefix", "name", "created", "last_used", "expires", "current"}
    assert listed[0]["name"] == "my-bot"
    assert listed[0]["prefix"] == other.token_key


def test_it_never_shows_a_key_in_the_listing(alice: Any, auth_client: Any) -> None:
    phone = auth_client(alice)
    _, bot_key = token_issue(alice, name="my-bot")

    text = phone.get(URL).content.decode()

    assert phone.token_key not in text
    assert bot_key not in text
    assert AuthToken.objects.get(name="my-bot").digest not in text


def test_it_does_not_list_another_users_tokens(alice: Any, bob: Any, auth_client: Any) -> None:
    token_issue(bob, name="bob's bot")

    listed = auth_client(alice).get(URL).json()

    assert [t["name"] for t in listed] == ["test"]


def test_it_leaves_out_expired_tokens(alice: Any, auth_client: Any) -> None:
    stale, _ = token_issue(alice, name="old phone")
    AuthToken.objects.filter(pk=stale.pk).update(expiry=timezone.now() - timedelta(seconds=1))

    listed = auth_client(alice).get(URL).json()

    assert "old phone" not in [t["name"] for t in listed]


def test_issuing_a_token_deletes_the_users_expired_tokens(alice: Any) -> None:
    stale, _ = token_issue(alice, name="old phone")
    live, _ = token_issue(alice, name="laptop")
    AuthToken.objects.filter(pk=stale.pk).update(expiry=timezone.now() - timedelta(seconds=1))

    fresh, _ = token_issue(alice, name="new phone")

    assert set(AuthToken.objects.filter(user=alice).values_list("pk", flat=True)) == {
        live.pk,
        fresh.pk,
    }


def test_a_key_with_the_right_prefix_and_a_wrong_rest_is_refused(
    alice: Any, api_client: Any
) -> None:
    _, key = token_issue(alice, name="laptop")
    forged = key[:15] + ("A" if key[15] != "A" else "B") + key[16:]

    response = api_client.get("/api/v1/auth/me", HTTP_AUTHORIZATION=f"Token {forged}")

    assert response.status_code == 401


# Creating


def test_it_creates_a_named_token_and_shows_its_key_once(alice: Any, auth_client: Any) -> None:
    client = auth_client(alice)

    response = client.post(URL, {"name": "my-bot"}, format="json")

    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "my-bot"
    assert body["token"].startswith(body["prefix"])
    assert AuthToken.objects.get(pk=body["id"]).user == alice
    bot = APIClient()
    bot.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert bot.get(ME).json()["username"] == "alice"
    assert body["token"] not in client.get(URL).content.decode()


def test_a_new_token_lives_the_default_lifetime(alice: Any, auth_client: Any) -> None:
    before = timezone.now()

    body = auth_client(alice).post(URL, {"name": "my-bot"}, format="json").json()

    expiry = AuthToken.objects.get(pk=body["id"]).expiry
    assert before + timedelta(days=30) <= expiry <= timezone.now() + timedelta(days=30)


def test_it_takes_a_lifetime_in_days(alice: Any, auth_client: Any) -> None:
    before = timezone.now()

    body = auth_client(alice).post(URL, {"name": "ci", "expires_in_days": 365}, format="json")

    expiry = AuthToken.objects.get(pk=body.json()["id"]).expiry
    assert before + timedelta(days=365) <= expiry <= timezone.now() + timedelta(days=365)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "x" * 65}, "name"),
        ({"name": "ci", "expires_in_days": 0}, "expires_in_days"),
        ({"name": "ci", "expires_in_days": 366}, "expires_in_days"),
    ],
)
def test_it_refuses_a_bad_token_request(
    alice: Any, auth_client: Any, body: dict[str, Any], field: str
) -> None:
    response = auth_client(alice).post(URL, body, format="json")

    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == [field]
    assert AuthToken.objects.count() == 1


# Revoking


def test_it_revokes_one_of_the_callers_tokens(alice: Any, auth_client: Any) -> None:
    phone, tablet = auth_client(alice), auth_client(alice)

    response = phone.delete(f"{URL}/{token_of(tablet).pk}")

    assert response.status_code == 204
    assert tablet.get(ME).status_code == 401
    assert phone.get(ME).status_code == 200


def test_revoking_the_current_token_logs_the_caller_out(alice: Any, auth_client: Any) -> None:
    phone = auth_client(alice)

    assert phone.delete(f"{URL}/{token_of(phone).pk}").status_code == 204
    assert phone.get(ME).status_code == 401


def test_it_answers_404_for_another_users_token(alice: Any, bob: Any, auth_client: Any) -> None:
    bobs_phone = auth_client(bob)

    response = auth_client(alice).delete(f"{URL}/{token_of(bobs_phone).pk}")

    assert response.status_code == 404
    assert response.json()["code"] == "NOT_FOUND"
    assert bobs_phone.get(ME).status_code == 200


def test_it_answers_404_for_an_unknown_token(alice: Any, auth_client: Any) -> None:
    response = auth_client(alice).delete(f"{URL}/999999")

    assert response.status_code == 404
    assert response.json()["code"] == "NOT_FOUND"


# Anonymous callers


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", URL), ("post", URL), ("delete", f"{URL}/1")],
)
def test_every_token_endpoint_needs_a_token(api_client: APIClient, method: str, path: str) -> None:
    response = getattr(api_client, method)(path)

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["code"] == "NOT_AUTHENTICATED"


@pytest.mark.parametrize("name", ["\t", " my bot ", "bot\u00a0"])
def test_a_token_name_is_kept_as_sent(alice: Any, auth_client: Any, name: str) -> None:
    """The schema allows any text but NUL; what is sent is what is stored, not trimmed."""
    response = auth_client(alice).post(URL, {"name": name}, format="json")

    assert response.status_code == 201, response.content
    assert response.json()["name"] == name


def test_a_token_name_with_nul_is_refused_by_name(alice: Any, auth_client: Any) -> None:
    response = auth_client(alice).post(URL, {"name": "a\x00b"}, format="json")

    assert response.status_code == 400
    assert [(r["field"], r["code"]) for r in response.json()["errors"]] == [
        ("name", "NULL_CHARACTERS_NOT_ALLOWED")
    ]
