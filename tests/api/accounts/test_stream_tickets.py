"""Stream tickets: made with the token in the header, good for opening streams only, for
a minute, and never an API token in a URL."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import signing
from django.utils import timezone

from accounts import stream_tickets
from accounts.models import AuthToken

pytestmark = pytest.mark.django_db

STREAM = "/api/v1/stream"


def _ticket(client) -> str:
    response = client.post("/api/v1/stream-tickets")
    assert response.status_code == 201, response.content
    return str(response.json()["ticket"])


def _code(response) -> str:
    return str(response.json()["code"])


def test_it_gives_a_ticket_that_stands_for_the_caller_and_expires_in_a_minute(
    make_user, auth_client
):
    alice = make_user("alice")
    client = auth_client(alice)

    response = client.post("/api/v1/stream-tickets")

    assert response.status_code == 201
    body = response.json()
    assert body["expires_in"] == 60 and body["ticket"].startswith("sst_")
    assert client.token_key not in body["ticket"]
    user, token = stream_tickets.redeem(body["ticket"])
    assert user == alice and token.user_id == alice.pk


def test_it_refuses_to_make_a_ticket_without_a_token_or_with_a_ticket(
    api_client, make_user, auth_client
):
    ticket = _ticket(auth_client(make_user("alice")))

    assert api_client.post("/api/v1/stream-tickets").status_code == 401
    with_ticket = api_client.post(f"/api/v1/stream-tickets?ticket={ticket}")
    assert with_ticket.status_code == 401
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {ticket}")
    assert _code(api_client.post("/api/v1/stream-tickets")) == "AUTHENTICATION_FAILED"


def test_it_refuses_an_expired_ticket(api_client, make_user, auth_client):
    ticket = _ticket(auth_client(make_user("alice")))

    with time_machine.travel(timezone.now() + timedelta(seconds=61)):
        response = api_client.get(STREAM, {"ticket": ticket})

    assert response.status_code == 401
    assert _code(response) == "STREAM_TICKET_EXPIRED"
    assert response["WWW-Authenticate"] == "Token"


def test_it_refuses_a_value_signed_for_another_purpose(api_client, make_user, auth_client):
    alice = make_user("alice")
    client = auth_client(alice)
    token = AuthToken.objects.get(user=alice)
    forged = [
        "sst_" + signing.dumps([alice.pk, token.pk], salt="another.purpose", compress=False),
        "sst_" + signing.dumps([alice.pk, token.pk], compress=False),
        "sst_" + signing.dumps({"user": alice.pk}, salt=stream_tickets.SALT),
        _ticket(client)[:-2] + "xx",
        "anything",
    ]
    for value in forged:
        response = api_client.get(STREAM, {"ticket": value})
        assert (response.status_code, _code(response)) == (401, "STREAM_TICKET_INVALID"), value


def test_it_refuses_the_api_token_in_the_url_however_it_is_named(
    api_client, make_user, auth_client
):
    client = auth_client(make_user("alice"))
    for name in ("ticket", "token", "access_token", "auth_token", "api_key"):
        for path in (STREAM, "/api/v1/games/1/events"):
            response = api_client.get(path, {name: client.token_key})
            assert (response.status_code, _code(response)) == (401, "TOKEN_IN_URL"), (name, path)


def test_a_ticket_opens_nothing_but_streams(api_client, make_user, auth_client):
    ticket = _ticket(auth_client(make_user("alice")))

    for path in ("/api/v1/games", "/api/v1/notifications", "/api/v1/auth/me"):
        response = api_client.get(path, {"ticket": ticket})
        assert (response.status_code, _code(response)) == (401, "NOT_AUTHENTICATED"), path
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {ticket}")
    assert _code(api_client.get("/api/v1/games")) == "AUTHENTICATION_FAILED"


def test_a_ticket_stops_working_when_its_token_is_revoked(api_client, make_user, auth_client):
    client = auth_client(make_user("alice"))
    ticket = _ticket(client)

    assert client.post("/api/v1/auth/logout").status_code in (200, 204)
    response = api_client.get(STREAM, {"ticket": ticket})

    assert (response.status_code, _code(response)) == (401, "STREAM_TICKET_INVALID")


def test_a_stream_refuses_a_bad_cursor(make_user, auth_client):
    client = auth_client(make_user("alice"))

    for query, headers in (
        ({"after": "-1"}, {}),
        ({"after": "x"}, {}),
        ({}, {"HTTP_LAST_EVENT_ID": "abc"}),
        ({}, {"HTTP_LAST_EVENT_ID": "12-end"}),
    ):
        response = client.get(STREAM, query, **headers)
        assert (response.status_code, _code(response)) == (400, "BAD_CURSOR"), (query, headers)
