"""GET /auth/me, and how every protected endpoint treats missing and bad tokens."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import AuthToken

pytestmark = pytest.mark.django_db

URL = "/api/v1/auth/me"


def test_it_shows_the_callers_account(make_user: Any, auth_client: Any) -> None:
    alice = make_user("alice", email="alice@example.org")

    response = auth_client(alice).get(URL)

    assert response.status_code == 200
    assert response.json() == {
        "id": alice.pk,
        "username": "alice",
        "email": "alice@example.org",
        # An address set on the user directly was never verified with a code.
        "email_verified": False,
        "pending_email": None,
        "has_password": True,
        "date_joined": alice.date_joined.isoformat().replace("+00:00", "Z"),
        "language": None,
    }


def test_it_shows_a_missing_email_as_null(make_user: Any, auth_client: Any) -> None:
    assert auth_client(make_user("alice")).get(URL).json()["email"] is None


def test_each_user_sees_only_their_own_account(make_user: Any, auth_client: Any) -> None:
    make_user("alice")
    bob = make_user("bob")

    assert auth_client(bob).get(URL).json()["username"] == "bob"


def test_it_refuses_a_request_without_a_token(api_client: APIClient) -> None:
    response = api_client.get(URL)

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "NOT_AUTHENTICATED"


@pytest.mark.parametrize(
    "header",
    [
        "Token ttr_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        "Token",
        "Token two parts",
    ],
)
def test_it_refuses_an_unknown_or_malformed_token(api_client: APIClient, header: str) -> None:
    api_client.credentials(HTTP_AUTHORIZATION=header)

    response = api_client.get(URL)

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["code"] == "AUTHENTICATION_FAILED"


def test_it_does_not_take_a_token_under_another_scheme(make_user: Any, auth_client: Any) -> None:
    client = auth_client(make_user("alice"))
    client.credentials(HTTP_AUTHORIZATION=f"Basic {client.token_key}")

    response = client.get(URL)

    assert response.status_code == 401
    assert response.json()["code"] == "NOT_AUTHENTICATED"


def test_it_refuses_an_expired_token(make_user: Any, auth_client: Any) -> None:
    client = auth_client(make_user("alice"))
    token = AuthToken.objects.get()

    with time_machine.travel(token.expiry + timedelta(seconds=1), tick=False):
        response = client.get(URL)

    assert response.status_code == 401
    assert response.json()["code"] == "AUTHENTICATION_FAILED"
    assert not AuthToken.objects.exists()


def test_a_token_still_works_just_before_it_expires(make_user: Any, auth_client: Any) -> None:
    client = auth_client(make_user("alice"))
    token = AuthToken.objects.get()

    with time_machine.travel(token.expiry - timedelta(seconds=1), tick=False):
        assert client.get(URL).status_code == 200


def test_it_refuses_the_token_of_a_deactivated_user(make_user: Any, auth_client: Any) -> None:
    alice = make_user("alice")
    client = auth_client(alice)
    alice.is_active = False
    alice.save()

    response = client.get(URL)

    assert response.status_code == 401
    assert response.json()["code"] == "AUTHENTICATION_FAILED"


def test_it_records_when_a_token_was_last_used(make_user: Any, auth_client: Any) -> None:
    client = auth_client(make_user("alice"))
    assert AuthToken.objects.get().last_used is None

    start = timezone.now()
    with time_machine.travel(start, tick=False):
        client.get(URL)
    with time_machine.travel(start + timedelta(seconds=30), tick=False):
        client.get(URL)
    assert AuthToken.objects.get().last_used == start

    with time_machine.travel(start + timedelta(minutes=2), tick=False):
        client.get(URL)
    assert AuthToken.objects.get().last_used == start + timedelta(minutes=2)
