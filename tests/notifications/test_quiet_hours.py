"""Quiet hours hold email and push, never webhooks, and release them when they end."""

from __future__ import annotations

from datetime import UTC, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail

from notifications import outbox, services
from notifications.models import Channel, Delivery, DeliveryStatus, Device, Kind, WebhookEndpoint
from notifications.preferences import QuietHours, preferences_update
from notifications.webhooks import new_secret

PARIS = ZoneInfo("Europe/Paris")
NIGHT = QuietHours(time(22, 0), time(7, 0), "Europe/Paris")


def paris(*args: int) -> datetime:
    return datetime(*args, tzinfo=PARIS)


def test_a_night_period_ends_the_next_morning_when_it_starts_before_midnight() -> None:
    assert NIGHT.until(paris(2026, 3, 10, 23, 30)) == paris(2026, 3, 11, 7, 0)


def test_a_night_period_ends_the_same_morning_after_midnight() -> None:
    assert NIGHT.until(paris(2026, 3, 11, 2, 15)) == paris(2026, 3, 11, 7, 0)


def test_daytime_is_not_quiet_at_night_settings() -> None:
    assert NIGHT.until(paris(2026, 3, 11, 7, 0)) is None
    assert NIGHT.until(paris(2026, 3, 11, 21, 59)) is None


def test_a_period_within_one_day_is_quiet_only_between_its_ends() -> None:
    lunch = QuietHours(time(12, 0), time(14, 0), "Europe/Paris")

    assert lunch.until(paris(2026, 3, 11, 13, 0)) == paris(2026, 3, 11, 14, 0)
    assert lunch.until(paris(2026, 3, 11, 14, 0)) is None
    assert lunch.until(paris(2026, 3, 11, 11, 59)) is None


def test_the_time_zone_of_the_period_decides_not_utc() -> None:
    # 21:30 UTC in March is 22:30 in Paris: quiet there.
    assert NIGHT.until(datetime(2026, 3, 10, 21, 30, tzinfo=UTC)) == paris(2026, 3, 11, 7, 0)


@pytest.fixture
def alice(player: Any, recorded_pushes: list[Any]) -> Any:
    user = player("alice")
    WebhookEndpoint.objects.create(user=user, url="http://127.0.0.1:9/hook", secret=new_secret())
    Device.objects.create(user=user, platform="apns", token="apns-token")
    preferences_update(user, channels={}, quiet_hours=NIGHT)
    return user


def row(notification: Any, channel: str) -> Delivery:
    return Delivery.objects.get(notification=notification, channel=channel)


@pytest.mark.django_db
def test_email_and_push_wait_for_the_end_of_quiet_hours_and_webhooks_do_not(
    alice: Any, recorded_pushes: list[Any]
) -> None:
    with time_machine.travel(paris(2026, 3, 10, 23, 30), tick=False):
        notification = services.notification_send(alice, Kind.GAME_OVER, game_id=5)
        due_at_night = set(outbox.due_ids())

    assert row(notification, Channel.EMAIL).next_attempt_at == paris(2026, 3, 11, 7, 0)
    assert row(notification, Channel.PUSH).next_attempt_at == paris(2026, 3, 11, 7, 0)
    assert due_at_night == {row(notification, Channel.WEBHOOK).pk}

    with time_machine.travel(paris(2026, 3, 11, 7, 0, 1), tick=False):
        assert outbox.deliver(row(notification, Channel.EMAIL).pk) == DeliveryStatus.DELIVERED
        assert outbox.deliver(row(notification, Channel.PUSH).pk) == DeliveryStatus.DELIVERED

    assert [m.to for m in mail.outbox] == [["alice@example.org"]]
    assert [p.token for p in recorded_pushes] == ["apns-token"]


@pytest.mark.django_db
def test_a_held_row_is_not_sent_before_quiet_hours_end(
    alice: Any, recorded_pushes: list[Any]
) -> None:
    with time_machine.travel(paris(2026, 3, 10, 23, 30), tick=False):
        notification = services.notification_send(alice, Kind.GAME_OVER, game_id=5)
    push = row(notification, Channel.PUSH)

    with time_machine.travel(paris(2026, 3, 11, 6, 59), tick=False):
        assert outbox.deliver(push.pk) == "skipped"

    assert recorded_pushes == []
    push.refresh_from_db()
    assert (push.status, push.attempts) == (DeliveryStatus.PENDING, 0)


@pytest.mark.django_db
def test_a_row_that_comes_due_inside_quiet_hours_is_put_back_without_counting_an_attempt(
    alice: Any, recorded_pushes: list[Any]
) -> None:
    preferences_update(alice, channels={}, quiet_hours=None)
    with time_machine.travel(paris(2026, 3, 10, 21, 0), tick=False):
        notification = services.notification_send(alice, Kind.GAME_OVER, game_id=5)
    preferences_update(alice, channels={}, quiet_hours=NIGHT)
    push = row(notification, Channel.PUSH)

    with time_machine.travel(paris(2026, 3, 10, 22, 30), tick=False):
        assert outbox.deliver(push.pk) == DeliveryStatus.PENDING

    push.refresh_from_db()
    assert (push.status, push.attempts) == (DeliveryStatus.PENDING, 0)
    assert push.next_attempt_at == paris(2026, 3, 11, 7, 0)
    assert recorded_pushes == []
