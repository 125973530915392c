"""Proof that the PostgreSQL pass really talks to PostgreSQL and gets its row locks.

SQLite accepts ``select_for_update()`` and does nothing with it, so these tests are what
shows the lock-based code paths are exercised at all.
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import Group
from django.db import DatabaseError, connection, connections, transaction

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def try_lock_without_waiting(pk: int) -> BaseException | None:
    """From a second thread, and so a second connection: lock the row, or fail at once."""
    outcome: list[BaseException | None] = []

    def attempt() -> None:
        try:
            with transaction.atomic():
                Group.objects.select_for_update(nowait=True).get(pk=pk)
            outcome.append(None)
        except BaseException as error:  # handed back to the test thread
            outcome.append(error)
        finally:
            connections.close_all()

    worker = threading.Thread(target=attempt)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive(), "the second connection hung instead of failing at once"
    return outcome[0]


def test_it_runs_on_postgresql() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        (name,) = cursor.fetchone()
    assert name.startswith("test_")


def test_a_row_lock_makes_a_nowait_lock_from_another_connection_fail() -> None:
    row = Group.objects.create(name="lock probe")

    with transaction.atomic():
        Group.objects.select_for_update().get(pk=row.pk)
        error = try_lock_without_waiting(row.pk)

    assert isinstance(error, DatabaseError)
    assert "could not obtain lock" in str(error)


def test_the_row_can_be_locked_again_once_the_holder_commits() -> None:
    row = Group.objects.create(name="lock probe")

    with transaction.atomic():
        Group.objects.select_for_update().get(pk=row.pk)

    assert try_lock_without_waiting(row.pk) is None
