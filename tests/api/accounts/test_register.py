from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import AuthToken
from tests.api import PASSWORD

pytestmark = pytest.mark.django_db

URL = "/api/v1/auth/register"
User = get_user_model()


def register(client: APIClient, **body: Any) -> Any:
    return client.post(URL, {"username": "alice", "password": PASSWORD, **body}, format="json")


def field_codes(response: Any) -> dict[str, list[str]]:
    codes: dict[str, list[str]] = {}
    for error in response.json()["errors"]:
        codes.setdefault(error["field"], []).append(error["code"])
    return codes


def test_it_creates_an_account_and_returns_a_token(api_client: APIClient) -> None:
    response = register(api_client, token_name="Alice's iPhone")

    assert response.status_code == 201
    body = response.json()
    user = User.objects.get(username="alice")
    assert body["user"] == {"id": user.pk, "username": "alice"}
    assert body["token"].startswith("ttr_")
    assert body["token_name"] == "Alice's iPhone"
    assert user.check_password(PASSWORD)
    assert user.is_active


def test_the_returned_token_works_at_once(api_client: APIClient) -> None:
    key = register(api_client).json()["token"]

    api_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = api_client.get("/api/v1/auth/me")

    assert response.status_code == 200
    assert response.json()["username"] == "alice"


def test_the_token_expires_after_the_configured_lifetime(api_client: APIClient) -> None:
    before = timezone.now()
    body = register(api_client).json()

    token = AuthToken.objects.get(user__username="alice")
    assert before + timedelta(days=30) <= token.expiry <= timezone.now() + timedelta(days=30)
    assert body["expires"] == token.expiry.isoformat().replace("+00:00", "Z")


def test_it_names_the_token_after_the_user_agent_when_no_name_is_given(
    api_client: APIClient,
) -> None:
    response = api_client.post(
        URL,
        {"username": "alice", "password": PASSWORD},
        format="json",
        HTTP_USER_AGENT="TTR/1.4 (iPhone; iOS 18.1)",
    )

    assert response.json()["token_name"] == "TTR/1.4 (iPhone; iOS 18.1)"


def test_it_names_the_token_unnamed_without_a_user_agent(api_client: APIClient) -> None:
    assert register(api_client).json()["token_name"] == "unnamed"


def test_an_email_given_waits_for_its_code(api_client: APIClient) -> None:
    body = register(api_client, email="alice@example.org").json()

    api_client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    me = api_client.get("/api/v1/auth/me").json()
    assert (me["email"], me["email_verified"], me["pending_email"]) == (
        None,
        False,
        "alice@example.org",
    )
    assert User.objects.get(username="alice").email == ""


def test_it_refuses_a_short_password_with_the_validators_code(api_client: APIClient) -> None:
    response = register(api_client, password="x7#q")

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert "PASSWORD_TOO_SHORT" in field_codes(response)["password"]
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("password", "code"),
    [
        ("password123", "PASSWORD_TOO_COMMON"),
        ("4815162342108", "PASSWORD_ENTIRELY_NUMERIC"),
        ("alice.wonderland", "PASSWORD_TOO_SIMILAR"),
    ],
)
def test_it_runs_every_password_validator(api_client: APIClient, password: str, code: str) -> None:
    response = register(api_client, username="alice.wonderland", password=password)

    assert response.status_code == 400
    assert code in field_codes(response)["password"]


def test_it_refuses_a_username_taken_in_another_case(api_client: APIClient, make_user: Any) -> None:
    make_user("Alice")

    response = register(api_client, username="aLICE")

    assert response.status_code == 409
    assert response.json()["code"] == "USERNAME_TAKEN"
    assert User.objects.count() == 1


def test_a_registration_racing_another_for_the_same_name_gets_409(
    api_client: APIClient, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_user("Alice")
    # As if the other registration committed just after this one looked.
    monkeypatch.setattr("accounts.services.user_find", lambda username: None)

    response = register(api_client, username="alice")

    assert response.status_code == 409
    assert response.json()["code"] == "USERNAME_TAKEN"


def test_the_database_itself_refuses_names_differing_only_in_case(make_user: Any) -> None:
    make_user("Alice")

    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="alice", password=PASSWORD)


@pytest.mark.parametrize(
    "username",
    ["al", "x" * 33, "alice smith", "alice@example.org", "älice", ""],
)
def test_it_refuses_a_malformed_username(api_client: APIClient, username: str) -> None:
    response = register(api_client, username=username)

    assert response.status_code == 400
    assert "username" in field_codes(response)


def test_it_refuses_a_malformed_email(api_client: APIClient) -> None:
    response = register(api_client, email="not-an-email")

    assert response.status_code == 400
    assert field_codes(response) == {"email": ["INVALID"]}


def test_it_refuses_a_missing_password(api_client: APIClient) -> None:
    response = api_client.post(URL, {"username": "alice"}, format="json")

    assert response.status_code == 400
    assert field_codes(response) == {"password": ["REQUIRED"]}


def test_it_ignores_a_stale_token_header(api_client: APIClient) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Token ttr_revokedlongago")

    assert register(api_client).status_code == 201
