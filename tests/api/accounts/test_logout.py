from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import AuthToken

pytestmark = pytest.mark.django_db

URL = "/api/v1/auth/logout"
ME = "/api/v1/auth/me"


def test_it_revokes_the_calling_token(make_user: Any, auth_client: Any) -> None:
    client = auth_client(make_user("alice"))

    response = client.post(URL)

    assert response.status_code == 204
    assert response.content == b""
    assert not AuthToken.objects.exists()
    refused = client.get(ME)
    assert refused.status_code == 401
    assert refused.json()["code"] == "AUTHENTICATION_FAILED"


def test_it_leaves_the_users_other_tokens_working(make_user: Any, auth_client: Any) -> None:
    alice = make_user("alice")
    phone, tablet = auth_client(alice), auth_client(alice)

    phone.post(URL)

    assert tablet.get(ME).status_code == 200
    assert phone.get(ME).status_code == 401


def test_it_leaves_other_users_logged_in(make_user: Any, auth_client: Any) -> None:
    alice, bob = auth_client(make_user("alice")), auth_client(make_user("bob"))

    alice.post(URL)

    assert bob.get(ME).status_code == 200


def test_it_needs_a_token(api_client: APIClient) -> None:
    response = api_client.post(URL)

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["code"] == "NOT_AUTHENTICATED"


def test_a_second_logout_with_the_same_token_is_refused(make_user: Any, auth_client: Any) -> None:
    client = auth_client(make_user("alice"))
    client.post(URL)

    response = client.post(URL)

    assert response.status_code == 401
    assert response.json()["code"] == "AUTHENTICATION_FAILED"
