"""POST /account/deletion: confirmed by the password (or `confirm` without one), every token
revoked at once, the account erased at once or after the grace period, and a sign-in
during the grace period cancelling it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import AuthToken
from privacy.deletion import deletion_carry_out, deletions_sweep
from privacy.models import AccountDeletion
from tests.api import PASSWORD

from .conftest import delete, person

pytestmark = pytest.mark.django_db

ME = "/api/v1/auth/me"


def _fresh(user: Any) -> Any:
    return get_user_model().objects.get(pk=user.pk)


def _log_in(username: str) -> Any:
    return APIClient().post(
        "/api/v1/auth/login", {"username": username, "password": PASSWORD}, format="json"
    )


def _erased(user: Any) -> bool:
    now = _fresh(user)
    return (
        now.username.startswith("deleted-player-")
        and not now.is_active
        and not now.has_usable_password()
        and now.email == ""
    )


def test_with_no_grace_the_account_is_erased_right_after_the_answer(
    django_capture_on_commit_callbacks: Any,
) -> None:
    alice = person("alice")
    with django_capture_on_commit_callbacks(execute=True):
        response = delete(alice.client, password=PASSWORD)

    assert response.status_code == 202, response.content
    body = response.json()
    assert body["status"] == "erasing"
    assert _erased(alice.user)
    assert len(_fresh(alice.user).username) <= 32
    assert not AccountDeletion.objects.exists()
    assert alice.client.get(ME).json()["code"] == "AUTHENTICATION_FAILED"
    assert _log_in("alice").status_code == 401
    # The name is free again.
    assert person("alice").user.pk != alice.user.pk


def test_every_token_is_revoked_at_once(settings: Any) -> None:
    settings.ACCOUNT_DELETION_GRACE_HOURS = 24
    alice = person("alice")
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {_log_in('alice').json()['token']}")
    assert AuthToken.objects.filter(user=alice.user).count() == 2

    response = delete(alice.client, password=PASSWORD)

    assert response.status_code == 202
    assert response.json()["status"] == "scheduled"
    assert not AuthToken.objects.filter(user=alice.user).exists()
    for client in (alice.client, other):
        assert client.get(ME).status_code == 401


def test_a_wrong_or_missing_password_deletes_nothing() -> None:
    alice = person("alice")

    wrong = delete(alice.client, password="not-the-password")
    missing = delete(alice.client)
    only_confirm = delete(alice.client, confirm="DELETE")

    assert (wrong.status_code, wrong.json()["code"]) == (403, "CURRENT_PASSWORD_WRONG")
    assert (missing.status_code, missing.json()["code"]) == (400, "DELETION_NOT_CONFIRMED")
    assert only_confirm.json()["code"] == "DELETION_NOT_CONFIRMED"
    assert alice.client.get(ME).status_code == 200
    assert not AccountDeletion.objects.exists()


def test_an_account_without_a_password_confirms_with_delete(
    django_capture_on_commit_callbacks: Any,
) -> None:
    alice = person("alice", password=None)

    refused = delete(alice.client)
    wrong_word = delete(alice.client, confirm="delete")
    with django_capture_on_commit_callbacks(execute=True):
        done = delete(alice.client, confirm="DELETE")

    assert refused.json()["code"] == "DELETION_NOT_CONFIRMED"
    assert wrong_word.status_code == 400
    assert done.status_code == 202
    assert _erased(alice.user)


def test_an_unknown_field_is_refused() -> None:
    alice = person("alice")
    response = delete(alice.client, password=PASSWORD, reason="bye")
    assert response.json()["errors"][0]["code"] == "UNKNOWN_FIELD"


def test_the_sweep_erases_once_the_grace_period_has_passed(settings: Any) -> None:
    settings.ACCOUNT_DELETION_GRACE_HOURS = 24
    alice = person("alice")
    response = delete(alice.client, password=PASSWORD)
    erase_at = AccountDeletion.objects.get(user=alice.user).erase_at
    assert abs((erase_at - timezone.now()) - timedelta(hours=24)) < timedelta(minutes=1)
    assert response.json()["erase_at"].startswith(erase_at.date().isoformat())

    assert deletions_sweep() == 0
    assert not _erased(alice.user)
    assert deletions_sweep(erase_at + timedelta(seconds=1)) == 1
    assert _erased(alice.user)
    # Twice is once.
    assert deletions_sweep(erase_at + timedelta(seconds=2)) == 0
    assert deletion_carry_out(alice.user.pk, erase_at + timedelta(seconds=3)) is False


def test_signing_in_during_the_grace_period_cancels_the_deletion(settings: Any) -> None:
    settings.ACCOUNT_DELETION_GRACE_HOURS = 24
    alice = person("alice")
    delete(alice.client, password=PASSWORD)

    login = _log_in("alice")

    assert login.status_code == 200
    assert not AccountDeletion.objects.exists()
    assert deletions_sweep(timezone.now() + timedelta(days=2)) == 0
    assert not _erased(alice.user)
    fresh = APIClient()
    fresh.credentials(HTTP_AUTHORIZATION=f"Token {login.json()['token']}")
    assert fresh.get(ME).json()["username"] == "alice"


def test_an_erasure_held_by_another_worker_is_left_to_it_until_its_lease_ends(
    settings: Any,
) -> None:
    settings.ACCOUNT_DELETION_GRACE_HOURS = 1
    alice = person("alice")
    delete(alice.client, password=PASSWORD)
    due = timezone.now() + timedelta(hours=2)
    AccountDeletion.objects.update(claimed_until=due + timedelta(minutes=5))

    assert deletions_sweep(due) == 0
    # A sign-in does not stop an erasure that has begun.
    assert _log_in("alice").status_code == 200
    assert AccountDeletion.objects.exists()
    assert deletions_sweep(due + timedelta(minutes=6)) == 1
    assert _erased(alice.user)
    assert not AuthToken.objects.filter(user=alice.user).exists()


def test_the_pseudonyms_form_is_no_one_elses_name(api_client: APIClient) -> None:
    response = api_client.post(
        "/api/v1/auth/register",
        {"username": "Deleted-Player-0a1b2c3d4e5f", "password": PASSWORD},
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (409, "USERNAME_TAKEN")


def test_a_provider_sign_in_during_the_grace_period_cancels_the_deletion(
    settings: Any, rf: Any
) -> None:
    from accounts.identities import provider_sign_in
    from accounts.models import ProviderIdentity
    from accounts.providers import Claims

    settings.ACCOUNT_DELETION_GRACE_HOURS = 24
    alice = person("alice", password=None)
    ProviderIdentity.objects.create(user=alice.user, provider="apple", subject="alice-sub")
    delete(alice.client, confirm="DELETE")
    assert AccountDeletion.objects.exists()

    claims = Claims(
        provider="apple", subject="alice-sub", email=None, email_verified=False, given_name=None
    )
    signed = provider_sign_in(rf.post("/"), claims, username=None, token_name=None)

    assert signed.user.pk == alice.user.pk and not signed.created
    assert not AccountDeletion.objects.exists()
