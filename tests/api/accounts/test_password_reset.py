"""Resetting a forgotten password by e-mail, through a real SMTP server:
POST /auth/password/reset and /auth/password/reset/confirm."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import VerifiedEmail
from tests.api import PASSWORD
from tests.api.accounts.mailserver import MailServer

# Messages are queued once the request commits, which a test in a transaction never does.
pytestmark = pytest.mark.django_db(transaction=True)

RESET, CONFIRM = "/api/v1/auth/password/reset", "/api/v1/auth/password/reset/confirm"
NEW = "a-brand-new-passphrase"
User = get_user_model()


def ask(address: str, client: APIClient | None = None, **extra: Any) -> Any:
    return (client or APIClient()).post(RESET, {"email": address}, format="json", **extra)


def token_in(mail: MailServer, address: str) -> str:
    link = mail.last_to(address).link()
    assert link.startswith("ttr://reset-password?")
    return parse_qs(urlsplit(link).query)["token"][0]


def confirm(token: str, password: str = NEW) -> Any:
    return APIClient().post(CONFIRM, {"token": token, "new_password": password}, format="json")


def logs_in(username: str, password: str) -> bool:
    response = APIClient().post(
        "/api/v1/auth/login", {"username": username, "password": password}, format="json"
    )
    return bool(response.status_code == 200)


def test_the_link_sets_a_new_password_and_revokes_every_token(
    make_user: Any, auth_client: Any, mail: MailServer
) -> None:
    alice = make_user("alice", email="alice@example.org")
    phone = auth_client(alice)

    asked = ask("Alice@Example.org")
    response = confirm(token_in(mail, "alice@example.org"))

    assert asked.status_code == 202
    assert asked.content == b""
    assert response.status_code == 204
    assert logs_in("alice", NEW)
    assert not logs_in("alice", PASSWORD)
    assert phone.get("/api/v1/auth/me").status_code == 401
    message = mail.last_to("alice@example.org")
    assert "alice" in message.text and "30 minutes" in message.text


def test_the_link_works_once(make_user: Any, mail: MailServer) -> None:
    make_user("alice", email="alice@example.org")
    ask("alice@example.org")
    token = token_in(mail, "alice@example.org")
    assert confirm(token).status_code == 204

    again = confirm(token, "yet-another-passphrase")

    assert again.status_code == 400
    assert again.json()["code"] == "RESET_TOKEN_INVALID"
    assert logs_in("alice", NEW)


def test_the_link_expires_after_30_minutes(make_user: Any, mail: MailServer) -> None:
    make_user("alice", email="alice@example.org")
    ask("alice@example.org")
    token = token_in(mail, "alice@example.org")

    with time_machine.travel(timezone.now() + timedelta(minutes=30, seconds=2)):
        late = confirm(token)

    assert late.json()["code"] == "RESET_TOKEN_INVALID"
    assert logs_in("alice", PASSWORD)


def test_the_link_still_works_before_30_minutes(make_user: Any, mail: MailServer) -> None:
    make_user("alice", email="alice@example.org")
    ask("alice@example.org")
    token = token_in(mail, "alice@example.org")

    with time_machine.travel(timezone.now() + timedelta(minutes=29)):
        assert confirm(token).status_code == 204


def test_an_unknown_address_gets_the_same_answer_and_no_message(
    make_user: Any, mail: MailServer
) -> None:
    make_user("alice", email="alice@example.org")

    known, unknown = ask("alice@example.org"), ask("nobody@example.org")

    assert (unknown.status_code, unknown.content) == (known.status_code, known.content)
    # Every answer has its own date and request id; nothing else may tell them apart.
    own = {"Date", "X-Request-ID"}
    assert {k: v for k, v in unknown.items() if k not in own} == {
        k: v for k, v in known.items() if k not in own
    }
    mail.last_to("alice@example.org")
    assert mail.to("nobody@example.org") == []
    assert len(mail.messages) == 1


def test_a_weak_new_password_is_refused_and_the_link_kept(make_user: Any, mail: MailServer) -> None:
    make_user("alice", email="alice@example.org")
    ask("alice@example.org")
    token = token_in(mail, "alice@example.org")

    weak = confirm(token, "alice")

    assert weak.status_code == 400
    assert {e["field"] for e in weak.json()["errors"]} == {"new_password"}
    assert confirm(token).status_code == 204


@pytest.mark.parametrize("token", ["", "nonsense", "MQ.nonsense", "!!.x-y", "OTk5OQ.abc-def"])
def test_a_made_up_secret_is_refused(make_user: Any, token: str) -> None:
    make_user("alice", email="alice@example.org")

    response = confirm(token)

    assert response.status_code == 400
    assert response.json()["code"] in {"RESET_TOKEN_INVALID", "VALIDATION_ERROR"}


def test_the_reset_is_throttled_per_address_whether_or_not_it_has_an_account(
    make_user: Any, mail: MailServer
) -> None:
    make_user("alice", email="alice@example.org")
    clients = [APIClient(REMOTE_ADDR=f"198.51.100.{n}") for n in range(8)]

    known = [ask("alice@example.org", clients[n]).status_code for n in range(4)]
    unknown = [ask("nobody@example.org", clients[4 + n]).status_code for n in range(4)]
    refused = ask("nobody@example.org", clients[0])

    assert known == [202, 202, 202, 429]
    assert unknown == known
    assert refused.json()["code"] == "EMAIL_THROTTLED"
    assert 1 <= int(refused["Retry-After"]) <= 3600
    assert len(mail.to("alice@example.org")) == 3


def test_the_reset_is_throttled_per_client_address(make_user: Any, mail: MailServer) -> None:
    client = APIClient(REMOTE_ADDR="198.51.100.7")

    answers = [ask(f"user{n}@example.org", client).status_code for n in range(21)]
    elsewhere = ask("user0@example.org", APIClient(REMOTE_ADDR="198.51.100.8"))

    assert answers == [202] * 20 + [429]
    assert elsewhere.status_code == 202


def test_an_account_without_a_password_is_reset_only_to_a_verified_address(
    make_user: Any, mail: MailServer
) -> None:
    verified = make_user("alice", password=None, email="alice@example.org")
    VerifiedEmail.objects.create(
        user=verified, address="alice@example.org", verified_at=timezone.now()
    )
    make_user("bob", password=None, email="bob@example.org")  # never verified

    ask("alice@example.org")
    ask("bob@example.org")

    assert confirm(token_in(mail, "alice@example.org")).status_code == 204
    assert logs_in("alice", NEW)
    assert mail.to("bob@example.org") == []


def test_an_inactive_account_gets_no_message(make_user: Any, mail: MailServer) -> None:
    make_user("alice", email="alice@example.org", is_active=False)

    assert ask("alice@example.org").status_code == 202
    assert mail.messages == []


def test_a_reset_clears_the_login_lockout(make_user: Any, mail: MailServer) -> None:
    make_user("alice", email="alice@example.org")
    client = APIClient()

    def log_in(password: str) -> Any:
        body = {"username": "alice", "password": password}
        return client.post("/api/v1/auth/login", body, format="json")

    for _ in range(5):
        log_in("wrong-one")
    assert log_in(PASSWORD).json()["code"] == "ACCOUNT_LOCKED"

    ask("alice@example.org")
    confirm(token_in(mail, "alice@example.org"))

    assert log_in(NEW).status_code == 200
