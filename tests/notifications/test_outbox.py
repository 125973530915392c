"""The outbox: claim once, leases, the sweep, backoff and the Celery tasks."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from notifications import outbox, services, tasks
from notifications.models import Delivery, DeliveryStatus, Device, Kind
from notifications.push import RecordingTransport
from notifications.push_message import PushMessage
from notifications.results import DeliveryResult


@pytest.fixture
def push_row(player: Any, recorded_pushes: list[Any]) -> Delivery:
    user = player("alice")
    Device.objects.create(user=user, platform="fcm", token="fcm-token")
    services.notification_send(user, Kind.YOUR_TURN, game_id=4)
    return Delivery.objects.get()


@pytest.mark.django_db
def test_only_the_first_of_two_claims_on_a_row_wins(push_row: Delivery) -> None:
    first = outbox.claim(push_row.pk)
    second = outbox.claim(push_row.pk)

    assert first is not None
    assert second is None
    push_row.refresh_from_db()
    assert (push_row.status, push_row.claim_token, push_row.attempts) == ("sending", first, 1)


@pytest.mark.django_db
def test_a_delivered_row_is_not_sent_again(
    push_row: Delivery, recorded_pushes: list[PushMessage]
) -> None:
    assert tasks.deliver_outbox(push_row.pk) == DeliveryStatus.DELIVERED
    assert tasks.deliver_outbox(push_row.pk) == "skipped"

    assert len(recorded_pushes) == 1


@pytest.mark.django_db
def test_an_expired_lease_lets_another_worker_take_the_row_and_ignores_the_first(
    push_row: Delivery,
) -> None:
    stale = outbox.claim(push_row.pk)
    later = timezone.now() + timedelta(seconds=settings.NOTIFICATIONS_LEASE_SECONDS + 1)

    fresh = outbox.claim(push_row.pk, now=later)
    assert stale is not None and fresh is not None
    outbox.record(push_row, stale, DeliveryResult.failed("late answer"), later)

    push_row.refresh_from_db()
    assert (push_row.status, push_row.claim_token, push_row.last_error) == ("sending", fresh, "")


@pytest.mark.django_db
def test_the_sweep_queues_rows_that_are_due_or_stuck_and_nothing_else(player: Any) -> None:
    notification = services.notification_send(player("nobody", email=""), Kind.GAME_OVER)
    now = timezone.now()

    def make(**fields: Any) -> int:
        return Delivery.objects.create(notification=notification, channel="email", **fields).pk

    due = make(next_attempt_at=now - timedelta(seconds=1))
    make(next_attempt_at=now + timedelta(seconds=30))
    make(status=DeliveryStatus.DELIVERED, next_attempt_at=None)
    make(status=DeliveryStatus.FAILED, next_attempt_at=None)
    make(status=DeliveryStatus.SENDING, claimed_until=now + timedelta(seconds=60))
    stuck = make(status=DeliveryStatus.SENDING, claimed_until=now - timedelta(seconds=1))
    queued: list[int] = []

    count = outbox.sweep(queued.append, now=now)

    assert sorted(queued) == [due, stuck]
    assert count == 2


@pytest.mark.django_db
def test_the_sweep_task_queues_through_the_delivery_task(
    push_row: Delivery, monkeypatch: pytest.MonkeyPatch
) -> None:
    queued: list[int] = []
    monkeypatch.setattr(tasks.deliver_outbox, "delay", queued.append)

    assert tasks.sweep_outbox() == 1
    assert queued == [push_row.pk]


@pytest.mark.django_db
def test_an_eager_delivery_task_sends_a_due_row(
    push_row: Delivery, eager_tasks: None, recorded_pushes: list[PushMessage]
) -> None:
    tasks.deliver_outbox.delay(push_row.pk).get()

    assert [p.token for p in recorded_pushes] == ["fcm-token"]


def test_the_backoff_doubles_from_the_base_and_stops_at_the_cap(settings: Any) -> None:
    settings.NOTIFICATIONS_RETRY_BASE_SECONDS = 30
    settings.NOTIFICATIONS_RETRY_CAP_SECONDS = 200

    waits = [outbox.backoff(n).total_seconds() for n in range(1, 6)]

    assert waits == [30, 60, 120, 200, 200]


def test_the_sweep_runs_every_thirty_seconds_by_default() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["notifications-sweep-outbox"]

    assert entry["task"] == tasks.sweep_outbox.name
    assert entry["schedule"] == 30.0


def test_the_tasks_acknowledge_late_so_a_lost_worker_hands_them_back() -> None:
    assert tasks.deliver_outbox.acks_late is True
    assert tasks.sweep_outbox.acks_late is True


class SlowTransport(RecordingTransport):
    def send(self, message: PushMessage) -> DeliveryResult:
        time.sleep(0.3)
        return super().send(message)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_delivering_the_same_row_at_once_send_it_once(
    push_row: Delivery, settings: Any, recorded_pushes: list[PushMessage]
) -> None:
    settings.PUSH_TRANSPORT = f"{__name__}.SlowTransport"
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def worker() -> None:
        start.wait()
        try:
            outcomes.append(outbox.deliver(push_row.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["delivered", "skipped"]
    assert len(recorded_pushes) == 1
