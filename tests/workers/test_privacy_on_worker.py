"""Account deletion and data export with a real worker and its beat, on PostgreSQL and
Redis: a deletion whose grace period has ended is erased by the beat's sweep, and an
export is built by the worker and announced; racing sweeps erase an account once."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import AuthToken
from notifications.models import Notification
from privacy.deletion import deletion_carry_out, deletion_request
from privacy.exports import export_request
from privacy.models import AccountDeletion, DataExport
from tests.concurrency import run_at_once
from tests.processes import Worker, running, wait_for

pytestmark = pytest.mark.postgres

PASSWORD = "a-long-Passphrase-42"
# Generous limits: the beat sweeps each second here, and the worker answers in well under
# one; these allow for a slow, shared machine.
ERASED_WITHIN = 60
BUILT_WITHIN = 60


@pytest.fixture
def privacy_worker(worker_env: dict[str, str], tmp_path: Any) -> Iterator[Worker]:
    env = {**worker_env, "PRIVACY_SWEEP_SECONDS": "1"}
    with running(Worker(env, tmp_path / "worker.log")) as w:
        yield w


def _user(name: str) -> Any:
    return get_user_model().objects.create_user(name, password=PASSWORD, email=f"{name}@ex.org")


def test_a_deletion_whose_grace_ended_is_erased_by_the_beat(
    privacy_worker: Worker, settings: Any
) -> None:
    settings.ACCOUNT_DELETION_GRACE_HOURS = 1
    alice, bob = _user("alice"), _user("bob")
    deletion_request(alice, password=PASSWORD, confirm=None)
    assert not AuthToken.objects.filter(user=alice).exists()
    # The grace period runs out (as an hour later).
    AccountDeletion.objects.filter(user=alice).update(
        erase_at=timezone.now() - timedelta(seconds=1)
    )

    def erased() -> bool:
        return get_user_model().objects.get(pk=alice.pk).username.startswith("deleted-player-")

    wait_for(erased, ERASED_WITHIN, "the beat's sweep to erase the account")
    stored = get_user_model().objects.get(pk=alice.pk)
    assert not stored.is_active and stored.email == "" and not stored.has_usable_password()
    wait_for(
        lambda: not AccountDeletion.objects.exists(), ERASED_WITHIN, "the deletion's row to go"
    )
    assert get_user_model().objects.get(pk=bob.pk).username == "bob"


def test_an_export_is_built_by_the_worker_and_announced(privacy_worker: Worker) -> None:
    alice = _user("alice")
    export = export_request(alice)  # queued once it commits (a transactional test)

    def ready() -> bool:
        return DataExport.objects.get(pk=export.pk).status == "ready"

    wait_for(ready, BUILT_WITHIN, "the worker to build the export")
    built = DataExport.objects.get(pk=export.pk)
    assert built.archive is not None
    assert json.loads(gzip.decompress(built.archive))["profile"]["username"] == "alice"
    assert Notification.objects.filter(user=alice, kind="export_ready").count() == 1


@pytest.mark.django_db(transaction=True)
def test_sweeps_racing_for_one_account_erase_it_once(settings: Any) -> None:
    settings.ACCOUNT_DELETION_GRACE_HOURS = 1
    alice = _user("alice")
    deletion_request(alice, password=PASSWORD, confirm=None)
    due = timezone.now() + timedelta(hours=2)

    results = run_at_once([lambda: deletion_carry_out(alice.pk, due) for _ in range(4)])

    assert sorted(results) == [False, False, False, True]
    assert get_user_model().objects.get(pk=alice.pk).username.startswith("deleted-player-")
    assert not AccountDeletion.objects.exists()
