"""Verifications at the same moment, on PostgreSQL's row locks and unique index."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.emails import code_digest
from accounts.models import EmailVerification, VerifiedEmail
from accounts.services import token_issue
from tests.concurrency import run_at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

VERIFY = "/api/v1/auth/email/verify"
CODE = "424242"


def waiting(username: str, address: str) -> APIClient:
    """A client of a new account whose ``address`` waits for the code ``CODE``."""
    user = get_user_model().objects.create_user(username=username, password="x-long-pass-1")
    verification = EmailVerification.objects.create(user=user, address=address)
    verification.code_digest = code_digest(verification, CODE)
    verification.expires_at = timezone.now() + timedelta(hours=1)
    verification.save()
    _, key = token_issue(user, name="race")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_two_accounts_verifying_one_address_at_once_one_wins() -> None:
    for round_ in range(5):
        address = f"shared{round_}@example.org"
        clients = [waiting(f"u{round_}-{n}", address.upper() if n else address) for n in range(4)]

        answers: list[Any] = run_at_once(
            [lambda c=c: c.post(VERIFY, {"code": CODE}, format="json") for c in clients]
        )

        statuses = sorted(a.status_code for a in answers)
        assert statuses == [200, 409, 409, 409]
        assert {a.json()["code"] for a in answers if a.status_code == 409} == {"EMAIL_TAKEN"}
        assert VerifiedEmail.objects.filter(address__iexact=address).count() == 1


def test_wrong_codes_at_once_are_each_counted() -> None:
    client = waiting("alice", "alice@example.org")

    answers = run_at_once(
        [lambda: client.post(VERIFY, {"code": "000000"}, format="json") for _ in range(8)]
    )

    assert (
        sorted(a.json()["code"] for a in answers)
        == ["EMAIL_CODE_EXPIRED"] * 3 + ["EMAIL_CODE_INVALID"] * 5
    )
    assert EmailVerification.objects.get().wrong_attempts == 5
