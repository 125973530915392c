from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt
from rest_framework.test import APIClient

from accounts.models import AuthToken
from tests.api import PASSWORD

pytestmark = pytest.mark.django_db

URL = "/api/v1/auth/login"


def log_in(client: APIClient, username: str, password: str = PASSWORD, **extra: Any) -> Any:
    return client.post(URL, {"username": username, "password": password, **extra}, format="json")


def test_it_returns_a_new_token_for_the_right_password(
    api_client: APIClient, make_user: Any
) -> None:
    alice = make_user("alice")

    response = log_in(api_client, "alice", token_name="Alice's iPad")

    assert response.status_code == 200
    body = response.json()
    assert body["user"] == {"id": alice.pk, "username": "alice"}
    assert body["token_name"] == "Alice's iPad"
    assert set(body) == {"user", "token", "token_name", "expires"}
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert api_client.get("/api/v1/auth/me").json()["id"] == alice.pk


def test_each_login_makes_its_own_token(api_client: APIClient, make_user: Any) -> None:
    alice = make_user("alice")

    first = log_in(api_client, "alice").json()["token"]
    second = log_in(api_client, "alice").json()["token"]

    assert first != second
    assert AuthToken.objects.filter(user=alice).count() == 2


def test_it_matches_the_username_ignoring_case(api_client: APIClient, make_user: Any) -> None:
    make_user("Alice")

    response = log_in(api_client, "aLiCe")

    assert response.status_code == 200
    assert response.json()["user"]["username"] == "Alice"


def test_it_records_the_login_time(api_client: APIClient, make_user: Any) -> None:
    alice = make_user("alice")
    assert alice.last_login is None

    log_in(api_client, "alice")

    alice.refresh_from_db()
    assert alice.last_login is not None


def test_it_refuses_a_wrong_password(api_client: APIClient, make_user: Any) -> None:
    make_user("alice")

    response = log_in(api_client, "alice", "not her password")

    assert response.status_code == 401
    assert response["Content-Type"] == "application/problem+json"
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["code"] == "INVALID_CREDENTIALS"
    assert not AuthToken.objects.exists()


def test_it_answers_an_unknown_user_exactly_like_a_wrong_password(
    api_client: APIClient, make_user: Any
) -> None:
    make_user("alice")

    wrong_password = log_in(api_client, "alice", "not her password")
    unknown_user = log_in(api_client, "nobody", "not her password")

    assert unknown_user.status_code == wrong_password.status_code == 401
    assert unknown_user.json() == wrong_password.json()


def test_it_refuses_a_deactivated_user_with_the_right_password(
    api_client: APIClient, make_user: Any
) -> None:
    make_user("alice", is_active=False)

    response = log_in(api_client, "alice")

    assert response.status_code == 401
    assert response.json()["code"] == "INVALID_CREDENTIALS"


def test_it_needs_a_username_and_a_password(api_client: APIClient) -> None:
    response = api_client.post(URL, {}, format="json")

    assert response.status_code == 400
    assert {e["field"] for e in response.json()["errors"]} == {"username", "password"}


def test_it_refuses_an_overlong_username_before_looking_it_up(api_client: APIClient) -> None:
    response = log_in(api_client, "a" * 151)

    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["username"]
    assert not AccessAttempt.objects.exists()


def test_it_refuses_a_body_that_is_not_json(api_client: APIClient) -> None:
    response = api_client.post(URL, "username=alice", content_type="application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "MALFORMED_JSON"


def test_it_ignores_a_stale_token_header(api_client: APIClient, make_user: Any) -> None:
    make_user("alice")
    api_client.credentials(HTTP_AUTHORIZATION="Token ttr_revokedlongago")

    assert log_in(api_client, "alice").status_code == 200


def test_a_password_is_never_stored_by_the_failure_records(
    api_client: APIClient, make_user: Any
) -> None:
    make_user("alice")

    log_in(api_client, "alice", "hunter2-guess")

    attempt = AccessAttempt.objects.get()
    assert attempt.username == "alice"
    assert "hunter2-guess" not in f"{attempt.get_data}{attempt.post_data}"
