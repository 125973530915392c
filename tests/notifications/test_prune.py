"""Finished outbox rows older than the retention are deleted by a beat task."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from notifications import outbox, tasks
from notifications.models import Channel, Delivery, DeliveryStatus, Kind, Notification

pytestmark = pytest.mark.django_db


@pytest.fixture
def make_row(player: Any) -> Any:
    notification = Notification.objects.create(user=player("alice"), kind=Kind.YOUR_TURN)

    def make(status: str, age_days: float) -> Delivery:
        return Delivery.objects.create(
            notification=notification,
            channel=Channel.EMAIL,
            status=status,
            created_at=timezone.now() - timedelta(days=age_days),
        )

    return make


def test_finished_rows_past_the_retention_are_deleted_and_the_rest_kept(
    make_row: Any, settings: Any
) -> None:
    settings.NOTIFICATIONS_RETENTION_DAYS = 30
    old_delivered = make_row(DeliveryStatus.DELIVERED, 31)
    old_failed = make_row(DeliveryStatus.FAILED, 45)
    recent = make_row(DeliveryStatus.DELIVERED, 29)
    old_pending = make_row(DeliveryStatus.PENDING, 40)
    old_sending = make_row(DeliveryStatus.SENDING, 40)

    assert outbox.prune() == 2

    kept = set(Delivery.objects.values_list("pk", flat=True))
    assert kept == {recent.pk, old_pending.pk, old_sending.pk}
    assert old_delivered.pk not in kept and old_failed.pk not in kept
    # The in-app notification itself stays.
    assert Notification.objects.count() == 1


def test_the_retention_setting_decides_the_age(make_row: Any, settings: Any) -> None:
    settings.NOTIFICATIONS_RETENTION_DAYS = 7
    make_row(DeliveryStatus.DELIVERED, 8)
    make_row(DeliveryStatus.DELIVERED, 6)

    assert outbox.prune() == 1
    assert Delivery.objects.count() == 1


def test_a_large_backlog_goes_in_batches(make_row: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outbox, "PRUNE_BATCH", 3)
    for _ in range(7):
        make_row(DeliveryStatus.FAILED, 60)

    assert outbox.prune() == 7
    assert Delivery.objects.count() == 0


def test_the_task_prunes_and_runs_twice_safely(make_row: Any, eager_tasks: None) -> None:
    make_row(DeliveryStatus.DELIVERED, 90)

    assert tasks.prune_outbox.delay().get() == 1
    assert tasks.prune_outbox.delay().get() == 0


def test_the_beat_runs_the_prune_every_hour() -> None:
    entry = django_settings.CELERY_BEAT_SCHEDULE["notifications-prune-outbox"]

    assert entry == {"task": "notifications.tasks.prune_outbox", "schedule": 3600.0}
