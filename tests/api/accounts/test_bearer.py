"""A token sent as ``Authorization: Bearer <key>``, as most generated clients send it,
works exactly as ``Token <key>``, and the schema offers both."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import AuthToken
from accounts.services import token_issue

pytestmark = pytest.mark.django_db

ME = "/api/v1/auth/me"
UNKNOWN_KEY = "ttr_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"


@pytest.mark.parametrize("scheme", ["Token", "Bearer", "bearer", "BEARER", "token"])
def test_either_scheme_authenticates_the_token(
    make_user: Any, api_client: APIClient, scheme: str
) -> None:
    alice = make_user("alice")
    _, key = token_issue(alice, name="script")
    api_client.credentials(HTTP_AUTHORIZATION=f"{scheme} {key}")

    response = api_client.get(ME)

    assert response.status_code == 200
    assert response.json()["username"] == "alice"


def test_a_bearer_token_records_its_use_and_logs_out(make_user: Any, api_client: APIClient) -> None:
    token, key = token_issue(make_user("alice"), name="script")
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")

    assert api_client.get(ME).status_code == 200
    token.refresh_from_db()
    assert token.last_used is not None

    assert api_client.post("/api/v1/auth/logout").status_code == 204
    assert not AuthToken.objects.filter(pk=token.pk).exists()
    assert api_client.get(ME).status_code == 401


@pytest.mark.parametrize(
    "header", [f"Bearer {UNKNOWN_KEY}", "Bearer", "Bearer two parts", "Bearer \u00e9t\u00e9"]
)
def test_a_bad_bearer_token_is_a_401_problem(api_client: APIClient, header: str) -> None:
    api_client.credentials(HTTP_AUTHORIZATION=header)

    response = api_client.get(ME)

    assert response.status_code == 401
    assert response["Content-Type"] == "application/problem+json"
    assert response["WWW-Authenticate"] == "Token"
    body = response.json()
    assert body["code"] == "AUTHENTICATION_FAILED"
    assert body["type"] == "urn:ttr:problem:AUTHENTICATION_FAILED"


def test_a_bad_bearer_token_fails_on_an_open_endpoint_too(api_client: APIClient) -> None:
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {UNKNOWN_KEY}")

    response = api_client.get("/api/v1/boards")

    assert response.status_code == 401
    assert response.json()["code"] == "AUTHENTICATION_FAILED"


def test_a_revoked_token_fails_under_bearer(make_user: Any, api_client: APIClient) -> None:
    token, key = token_issue(make_user("alice"), name="script")
    token.delete()
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")

    assert api_client.get(ME).json()["code"] == "AUTHENTICATION_FAILED"


def test_the_schema_offers_bearer_and_token_schemes(client: Client) -> None:
    document = client.get("/api/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()

    schemes = document["components"]["securitySchemes"]
    assert schemes["bearerAuth"]["type"] == "http"
    assert schemes["bearerAuth"]["scheme"] == "bearer"
    assert "Bearer <key>" in schemes["bearerAuth"]["description"]
    assert schemes["tokenAuth"] == {
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
        "description": schemes["tokenAuth"]["description"],
    }
    assert "Token <key>" in schemes["tokenAuth"]["description"]
    # Either scheme alone authenticates a protected operation (OR, not AND)...
    assert document["paths"]["/api/v1/auth/me"]["get"]["security"] == [
        {"bearerAuth": []},
        {"tokenAuth": []},
    ]
    # ...and an open one takes a token optionally.
    assert {} in document["paths"]["/api/v1/boards"]["get"]["security"]
    assert {"bearerAuth": []} in document["paths"]["/api/v1/boards"]["get"]["security"]
