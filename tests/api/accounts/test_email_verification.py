"""Verifying an account's e-mail address with the code sent to it, through a real SMTP
server: PUT /auth/email, POST /auth/email/verify and /auth/email/resend."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import VerifiedEmail
from tests.api import PASSWORD
from tests.api.accounts.mailserver import MailServer

# Messages are queued once the request commits, which a test in a transaction never does.
pytestmark = pytest.mark.django_db(transaction=True)

ME, EMAIL = "/api/v1/auth/me", "/api/v1/auth/email"
VERIFY, RESEND = "/api/v1/auth/email/verify", "/api/v1/auth/email/resend"


def signed_up(client: APIClient, username: str = "alice", **body: Any) -> APIClient:
    response = client.post(
        "/api/v1/auth/register", {"username": username, "password": PASSWORD, **body}, format="json"
    )
    assert response.status_code == 201, response.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client


def wrong(code: str) -> str:
    return f"{(int(code) + 1) % 10**6:06d}"


def test_the_registration_email_is_verified_with_the_code_sent_to_it(
    api_client: APIClient, mail: MailServer
) -> None:
    client = signed_up(api_client, email="alice@example.org")
    message = mail.last_to("alice@example.org")

    response = client.post(VERIFY, {"code": message.code()}, format="json")

    assert response.status_code == 200
    body = response.json()
    assert (body["email"], body["email_verified"], body["pending_email"]) == (
        "alice@example.org",
        True,
        None,
    )
    assert client.get(ME).json() == body
    assert message.sender == "ttr@example.org"
    assert "alice" in message.text and "24 hours" in message.text


def test_the_message_links_to_the_same_code(api_client: APIClient, mail: MailServer) -> None:
    signed_up(api_client, email="alice@example.org")
    message = mail.last_to("alice@example.org")

    assert message.link() == f"ttr://verify-email?code={message.code()}"
    assert message.code() in message.subject


def test_a_code_works_once(api_client: APIClient, mail: MailServer) -> None:
    client = signed_up(api_client, email="alice@example.org")
    code = mail.last_to("alice@example.org").code()
    assert client.post(VERIFY, {"code": code}, format="json").status_code == 200

    again = client.post(VERIFY, {"code": code}, format="json")

    assert again.status_code == 409
    assert again.json()["code"] == "EMAIL_NOT_PENDING"


def test_a_code_expires_after_24_hours(api_client: APIClient, mail: MailServer) -> None:
    client = signed_up(api_client, email="alice@example.org")
    code = mail.last_to("alice@example.org").code()

    with time_machine.travel(timezone.now() + timedelta(hours=24, seconds=1)):
        response = client.post(VERIFY, {"code": code}, format="json")

    assert response.status_code == 409
    assert response.json()["code"] == "EMAIL_CODE_EXPIRED"
    assert client.get(ME).json()["email"] is None


def test_a_code_still_works_just_before_it_expires(api_client: APIClient, mail: MailServer) -> None:
    client = signed_up(api_client, email="alice@example.org")
    code = mail.last_to("alice@example.org").code()

    with time_machine.travel(timezone.now() + timedelta(hours=23, minutes=59)):
        assert client.post(VERIFY, {"code": code}, format="json").status_code == 200


def test_five_wrong_codes_spend_the_code(api_client: APIClient, mail: MailServer) -> None:
    client = signed_up(api_client, email="alice@example.org")
    code = mail.last_to("alice@example.org").code()

    answers = [client.post(VERIFY, {"code": wrong(code)}, format="json") for _ in range(5)]
    last = client.post(VERIFY, {"code": code}, format="json")

    assert [a.json()["code"] for a in answers] == ["EMAIL_CODE_INVALID"] * 5
    assert [a.status_code for a in answers] == [400] * 5
    assert "4 tries left" in answers[0].json()["detail"]
    assert "0 tries left" in answers[4].json()["detail"]
    assert last.status_code == 409
    assert last.json()["code"] == "EMAIL_CODE_EXPIRED"


def test_a_new_code_replaces_a_spent_one(
    api_client: APIClient, mail: MailServer, settings: Any
) -> None:
    client = signed_up(api_client, email="alice@example.org")
    first = mail.last_to("alice@example.org").code()
    for _ in range(5):
        client.post(VERIFY, {"code": wrong(first)}, format="json")

    with time_machine.travel(timezone.now() + timedelta(minutes=1, seconds=1)):
        assert client.post(RESEND).status_code == 200
        second = mail.last_to("alice@example.org").code()
        refused = client.post(VERIFY, {"code": first}, format="json") if first != second else None
        taken = client.post(VERIFY, {"code": second}, format="json")

    assert len(mail.to("alice@example.org")) == 2
    assert refused is None or refused.json()["code"] == "EMAIL_CODE_INVALID"
    assert taken.status_code == 200


def test_resending_is_throttled_to_one_a_minute(api_client: APIClient, mail: MailServer) -> None:
    client = signed_up(api_client, email="alice@example.org")

    response = client.post(RESEND)

    assert response.status_code == 429
    assert response.json()["code"] == "EMAIL_THROTTLED"
    assert 1 <= int(response["Retry-After"]) <= 60
    assert len(mail.to("alice@example.org")) == 1


def test_resending_is_throttled_to_five_an_hour(api_client: APIClient, mail: MailServer) -> None:
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        client = signed_up(api_client, email="alice@example.org")
        answers = []
        for _ in range(5):
            clock.shift(timedelta(seconds=61))
            answers.append(client.post(RESEND).status_code)

    assert answers == [200, 200, 200, 200, 429]
    assert len(mail.to("alice@example.org")) == 5


def test_a_new_address_waits_while_the_verified_one_stays(
    api_client: APIClient, mail: MailServer
) -> None:
    client = signed_up(api_client, email="alice@example.org")
    client.post(VERIFY, {"code": mail.last_to("alice@example.org").code()}, format="json")

    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        changed = client.put(EMAIL, {"email": "alice@example.com"}, format="json")
        before = client.get(ME).json()
        code = mail.last_to("alice@example.com").code()
        verified = client.post(VERIFY, {"code": code}, format="json").json()

    assert changed.status_code == 200
    assert (before["email"], before["email_verified"], before["pending_email"]) == (
        "alice@example.org",
        True,
        "alice@example.com",
    )
    assert (verified["email"], verified["email_verified"], verified["pending_email"]) == (
        "alice@example.com",
        True,
        None,
    )


def test_naming_the_verified_address_drops_the_one_waiting(
    api_client: APIClient, mail: MailServer
) -> None:
    client = signed_up(api_client, email="alice@example.org")
    client.post(VERIFY, {"code": mail.last_to("alice@example.org").code()}, format="json")
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        client.put(EMAIL, {"email": "alice@example.com"}, format="json")

    response = client.put(EMAIL, {"email": "ALICE@example.org"}, format="json")

    assert response.status_code == 200
    assert response.json()["pending_email"] is None
    assert response.json()["email"] == "alice@example.org"


def test_an_address_verified_by_another_account_is_refused_once_its_code_is_entered(
    api_client: APIClient, mail: MailServer
) -> None:
    alice = signed_up(api_client, email="shared@example.org")
    alice.post(VERIFY, {"code": mail.last_to("shared@example.org").code()}, format="json")
    bob = signed_up(APIClient(), "bob")

    asked = bob.put(EMAIL, {"email": "Shared@Example.org"}, format="json")
    code = mail.last_to("Shared@Example.org").code()
    response = bob.post(VERIFY, {"code": code}, format="json")

    assert asked.status_code == 200  # asking tells nobody whether the address has an account
    assert response.status_code == 409
    assert response.json()["code"] == "EMAIL_TAKEN"
    assert bob.get(ME).json()["pending_email"] is None
    assert VerifiedEmail.objects.get().user.username == "alice"


def test_verifying_needs_an_address_waiting(make_user: Any, auth_client: Any) -> None:
    client = auth_client(make_user("alice"))

    response = client.post(VERIFY, {"code": "123456"}, format="json")
    resent = client.post(RESEND)

    assert response.json()["code"] == "EMAIL_NOT_PENDING"
    assert resent.json()["code"] == "EMAIL_NOT_PENDING"


@pytest.mark.parametrize("code", ["12345", "1234567", "abcdef", "12 456"])
def test_a_code_is_six_digits(make_user: Any, auth_client: Any, code: str) -> None:
    response = auth_client(make_user("alice")).post(VERIFY, {"code": code}, format="json")

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "code"


def test_only_the_codes_digest_is_stored(api_client: APIClient, mail: MailServer) -> None:
    from accounts.models import EmailVerification

    signed_up(api_client, email="alice@example.org")
    code = mail.last_to("alice@example.org").code()

    stored = EmailVerification.objects.get()
    assert code not in str(stored.__dict__)
    assert len(stored.code_digest) == 64


def test_a_code_needs_the_token_of_its_account(api_client: APIClient, mail: MailServer) -> None:
    signed_up(api_client, email="alice@example.org")
    code = mail.last_to("alice@example.org").code()
    bob = signed_up(APIClient(), "bob")

    response = bob.post(VERIFY, {"code": code}, format="json")

    assert response.json()["code"] == "EMAIL_NOT_PENDING"
    assert APIClient().post(VERIFY, {"code": code}, format="json").status_code == 401
