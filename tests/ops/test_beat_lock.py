"""The beat lease (ops/beat_lock.py) on the test database: SQLite in the default pass,
PostgreSQL in the PostgreSQL pass. Two holders in one process stand for two beats; the
real processes are in test_beat_processes.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models.functions import Now
from django.utils import timezone

from ops.beat_lock import LEASE_NAME, Lease, lease_seconds, new_holder
from ops.models import BeatLease

pytestmark = pytest.mark.django_db


def expire(name: str = LEASE_NAME) -> None:
    """The holder stopped renewing long enough ago (as if it had been killed)."""
    BeatLease.objects.filter(name=name).update(expires_at=Now() - timedelta(seconds=1))


def test_the_first_beat_takes_the_lease_and_the_second_stands_by() -> None:
    first, second = Lease("beat", "a", 30), Lease("beat", "b", 30)

    assert first.hold()
    assert not second.hold()
    assert not second.hold()
    assert first.hold()  # renewed

    row = BeatLease.objects.get(name="beat")
    assert row.holder == "a"
    assert row.expires_at > timezone.now() + timedelta(seconds=25)


def test_renewing_pushes_the_expiry_and_keeps_the_tenure() -> None:
    lease = Lease("beat", "a", 30)
    assert lease.hold()
    taken = BeatLease.objects.get().acquired_at
    BeatLease.objects.update(expires_at=Now() + timedelta(seconds=5))

    assert lease.hold()

    row = BeatLease.objects.get()
    assert row.acquired_at == taken
    assert row.expires_at > timezone.now() + timedelta(seconds=25)


def test_an_expired_lease_goes_to_the_next_beat_that_asks() -> None:
    first, second, third = (Lease("beat", h, 30) for h in "abc")
    assert first.hold()
    before = BeatLease.objects.get().acquired_at
    expire()

    assert second.hold()
    assert not third.hold()
    assert not first.hold(), "the old holder must not take it back while the new one's runs"
    row = BeatLease.objects.get()
    assert row.holder == "b"
    assert row.acquired_at >= before


def test_a_released_lease_is_free_at_once_and_only_its_holder_can_release_it() -> None:
    first, second = Lease("beat", "a", 30), Lease("beat", "b", 30)
    assert first.hold()

    second.release()
    assert not second.hold()

    first.release()
    assert second.hold()
    assert BeatLease.objects.get().holder == "b"


def test_leases_of_other_names_are_apart() -> None:
    assert Lease("beat", "a", 30).hold()
    assert Lease("other", "b", 30).hold()
    assert BeatLease.objects.count() == 2


def test_each_beat_process_has_a_name_of_its_own() -> None:
    names = {new_holder() for _ in range(20)}
    assert len(names) == 20


def test_the_lease_length_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.exceptions import ImproperlyConfigured

    monkeypatch.delenv("BEAT_LEASE_SECONDS", raising=False)
    assert lease_seconds() == 30
    monkeypatch.setenv("BEAT_LEASE_SECONDS", "4")
    assert lease_seconds() == 4
    monkeypatch.setenv("BEAT_LEASE_SECONDS", "2")
    with pytest.raises(ImproperlyConfigured, match="BEAT_LEASE_SECONDS: must be at least 3"):
        lease_seconds()
