"""Bounds and unknown fields of the accounts bodies: register, login, tokens.

Each refusal is checked for its status, its code, the field it names, and that nothing was
stored: no user, no token.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.models import AuthToken
from accounts.serializers import MAX_PASSWORD_LENGTH
from tests.api import PASSWORD

pytestmark = pytest.mark.django_db

REGISTER, LOGIN, TOKENS = "/api/v1/auth/register", "/api/v1/auth/login", "/api/v1/auth/tokens"
SCHEMA = Path(__file__).resolve().parents[3] / "openapi" / "schema.yaml"
User = get_user_model()


def rows(response: Any) -> list[tuple[str, str]]:
    return [(e["field"], e["code"]) for e in response.json()["errors"]]


def assert_refused(response: Any, *expected: tuple[str, str]) -> None:
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert rows(response) == list(expected)


def test_a_password_at_the_limit_registers(api_client: APIClient) -> None:
    password = "horse battery " * 20
    password = password[:MAX_PASSWORD_LENGTH]
    body = {"username": "alice", "password": password}
    assert api_client.post(REGISTER, body, format="json").status_code == 201
    assert User.objects.get(username="alice").check_password(password)


def test_a_password_over_the_limit_is_refused_before_it_is_hashed(
    api_client: APIClient,
) -> None:
    body = {"username": "alice", "password": "x" * (MAX_PASSWORD_LENGTH + 1)}
    response = api_client.post(REGISTER, body, format="json")
    assert_refused(response, ("password", "MAX_LENGTH"))
    assert not User.objects.exists()


def test_a_megabyte_password_is_refused(api_client: APIClient) -> None:
    body = {"username": "alice", "password": "correct horse " * 75_000}
    response = api_client.post(REGISTER, body, format="json")
    assert_refused(response, ("password", "MAX_LENGTH"))
    assert not User.objects.exists()


def test_a_login_with_a_password_over_the_limit_is_refused_and_not_counted(
    api_client: APIClient, make_user: Any
) -> None:
    make_user("alice")
    body = {"username": "alice", "password": "x" * (MAX_PASSWORD_LENGTH + 1)}
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        response = api_client.post(LOGIN, body, format="json")
        assert_refused(response, ("password", "MAX_LENGTH"))
    assert not AuthToken.objects.exists()
    # Refused before any password was checked, so no failure counted towards a lockout.
    ok = api_client.post(LOGIN, {"username": "alice", "password": PASSWORD}, format="json")
    assert ok.status_code == 200


@pytest.mark.parametrize("username", ["al", "a" * 33])
def test_a_username_outside_3_to_32_characters_is_refused(
    api_client: APIClient, username: str
) -> None:
    body = {"username": username, "password": PASSWORD}
    response = api_client.post(REGISTER, body, format="json")
    assert response.status_code == 400
    assert {field for field, _ in rows(response)} == {"username"}
    assert not User.objects.exists()


def test_an_unknown_field_at_registration_is_named_and_nothing_is_created(
    api_client: APIClient,
) -> None:
    body = {"username": "alice", "password": PASSWORD, "emial": "alice@example.org"}
    response = api_client.post(REGISTER, body, format="json")
    assert_refused(response, ("emial", "UNKNOWN_FIELD"))
    assert "Did you mean 'email'?" in response.json()["errors"][0]["detail"]
    assert not User.objects.exists()


def test_an_unknown_field_is_reported_with_the_other_problems(api_client: APIClient) -> None:
    body = {"username": "al", "password": PASSWORD, "is_staff": True}
    response = api_client.post(REGISTER, body, format="json")
    assert response.status_code == 400
    assert ("is_staff", "UNKNOWN_FIELD") in rows(response)
    assert "username" in {field for field, _ in rows(response)}
    assert not User.objects.exists()


def test_an_unknown_field_at_login_is_named_and_no_token_is_made(
    api_client: APIClient, make_user: Any
) -> None:
    make_user("alice")
    body = {"username": "alice", "password": PASSWORD, "remember_me": True}
    response = api_client.post(LOGIN, body, format="json")
    assert_refused(response, ("remember_me", "UNKNOWN_FIELD"))
    assert not AuthToken.objects.exists()


def test_an_unknown_field_when_creating_a_token_is_named_and_no_token_is_made(
    make_user: Any, auth_client: Any
) -> None:
    client = auth_client(make_user("alice"))
    before = AuthToken.objects.count()
    response = client.post(TOKENS, {"name": "bot", "expires_in": 7}, format="json")
    assert_refused(response, ("expires_in", "UNKNOWN_FIELD"))
    assert AuthToken.objects.count() == before


def test_the_schema_states_the_bounds_the_server_enforces() -> None:
    schemas = yaml.safe_load(SCHEMA.read_text())["components"]["schemas"]
    register = schemas["RegisterRequest"]
    username = register["properties"]["username"]
    assert (username["minLength"], username["maxLength"]) == (3, 32)
    assert username["pattern"] == "^[A-Za-z0-9._-]{3,32}$"
    assert register["properties"]["password"]["maxLength"] == MAX_PASSWORD_LENGTH
    assert schemas["LoginRequest"]["properties"]["password"]["maxLength"] == MAX_PASSWORD_LENGTH
    for name in ("RegisterRequest", "LoginRequest", "TokenCreateRequest"):
        assert schemas[name]["additionalProperties"] is False, name
