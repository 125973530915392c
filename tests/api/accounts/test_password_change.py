"""POST /auth/password: changing the password, with or without revoking other tokens."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import AuthToken
from tests.api import PASSWORD

pytestmark = pytest.mark.django_db

URL = "/api/v1/auth/password"
NEW = "a-brand-new-passphrase"


def change(client: APIClient, **body: Any) -> Any:
    return client.post(
        URL, {"current_password": PASSWORD, "new_password": NEW, **body}, format="json"
    )


def logs_in(password: str) -> bool:
    response = APIClient().post(
        "/api/v1/auth/login", {"username": "alice", "password": password}, format="json"
    )
    return bool(response.status_code == 200)


def test_it_sets_the_new_password(make_user: Any, auth_client: Any) -> None:
    response = change(auth_client(make_user("alice")))

    assert response.status_code == 200
    assert response.json() == {"revoked_tokens": 0}
    assert logs_in(NEW)
    assert not logs_in(PASSWORD)


def test_other_tokens_stay_valid_by_default(make_user: Any, auth_client: Any) -> None:
    alice = make_user("alice")
    phone, laptop = auth_client(alice), auth_client(alice)

    change(phone)

    assert laptop.get("/api/v1/auth/me").status_code == 200
    assert phone.get("/api/v1/auth/me").status_code == 200


def test_it_revokes_every_other_token_when_asked(make_user: Any, auth_client: Any) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    phone, laptop, bot = auth_client(alice), auth_client(alice), auth_client(alice)
    bobs = auth_client(bob)

    response = change(phone, revoke_other_tokens=True)

    assert response.json() == {"revoked_tokens": 2}
    assert phone.get("/api/v1/auth/me").status_code == 200
    assert laptop.get("/api/v1/auth/me").json()["code"] == "AUTHENTICATION_FAILED"
    assert bot.get("/api/v1/auth/me").status_code == 401
    assert bobs.get("/api/v1/auth/me").status_code == 200
    assert AuthToken.objects.filter(user=alice).count() == 1


def test_a_wrong_current_password_changes_nothing(make_user: Any, auth_client: Any) -> None:
    alice = make_user("alice")
    client, other = auth_client(alice), auth_client(alice)

    response = client.post(
        URL,
        {"current_password": "not-it-at-all", "new_password": NEW, "revoke_other_tokens": True},
        format="json",
    )

    assert response.status_code == 403
    assert response.json()["code"] == "CURRENT_PASSWORD_WRONG"
    assert logs_in(PASSWORD)
    assert other.get("/api/v1/auth/me").status_code == 200


def test_the_new_password_goes_through_the_validators(make_user: Any, auth_client: Any) -> None:
    response = change(auth_client(make_user("alice")), new_password="password")

    assert response.status_code == 400
    assert {(e["field"], e["code"]) for e in response.json()["errors"]} == {
        ("new_password", "PASSWORD_TOO_COMMON")
    }
    assert logs_in(PASSWORD)


def test_an_account_without_a_password_sets_one_by_reset(make_user: Any, auth_client: Any) -> None:
    response = change(auth_client(make_user("alice", password=None)))

    assert response.status_code == 409
    assert response.json()["code"] == "PASSWORD_NOT_SET"


def test_it_needs_a_token(api_client: APIClient) -> None:
    assert change(api_client).json()["code"] == "NOT_AUTHENTICATED"


def test_it_is_throttled_per_user_at_the_login_rate(
    make_user: Any, auth_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "login", "2/min")
    client = auth_client(make_user("alice"))
    wrong = {"current_password": "guess-1234", "new_password": NEW}

    answers = [client.post(URL, wrong, format="json").status_code for _ in range(3)]

    assert answers == [403, 403, 429]
