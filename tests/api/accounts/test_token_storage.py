"""Keys are stored hashed: a copy of the database does not let anyone in."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from accounts.models import AuthToken
from tests.api import PASSWORD

pytestmark = pytest.mark.django_db


def test_the_stored_row_holds_no_plaintext_key(api_client: APIClient, make_user: Any) -> None:
    make_user("alice")
    body = {"username": "alice", "password": PASSWORD}
    key = api_client.post("/api/v1/auth/login", body, format="json").json()["token"]

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {AuthToken._meta.db_table}")
        (row,) = cursor.fetchall()

    assert not any(key in str(value) for value in row)
    token = AuthToken.objects.get()
    assert token.digest == hashlib.sha512(key.encode()).hexdigest()
    assert token.token_key == key[:15]
    assert len(key) == len("ttr_") + 64


def test_a_stolen_digest_is_not_a_key(make_user: Any, auth_client: Any) -> None:
    auth_client(make_user("alice"))
    stolen = AuthToken.objects.get()
    thief = APIClient()
    thief.credentials(HTTP_AUTHORIZATION=f"Token {stolen.digest}")

    response = thief.get("/api/v1/auth/me")

    assert response.status_code == 401
    assert response.json()["code"] == "AUTHENTICATION_FAILED"
