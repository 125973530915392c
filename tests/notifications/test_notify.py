"""notification_send(): the notification and its outbox rows, written with the caller's
transaction."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from kombu.exceptions import OperationalError

from notifications import outbox, services, tasks
from notifications.models import Channel, Delivery, Device, Kind, Notification, WebhookEndpoint
from notifications.preferences import preferences_update
from notifications.webhooks import new_secret


@pytest.fixture
def alice(player: Any) -> Any:
    user = player("alice")
    WebhookEndpoint.objects.create(user=user, url="http://127.0.0.1:9/hook", secret=new_secret())
    Device.objects.create(user=user, platform="fcm", token="fcm-token-1")
    return user


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    monkeypatch.setattr(services, "deliveries_queue", lambda ids: calls.extend(ids))
    return calls


def channels_of(notification: Notification) -> list[str]:
    return sorted(notification.deliveries.values_list("channel", flat=True))


@pytest.mark.django_db
def test_it_records_the_notification_and_one_outbox_row_per_wanted_channel(alice: Any) -> None:
    notification = services.notification_send(
        alice, Kind.INVITATION, game_id=12, data={"board": "europe"}
    )

    assert notification is not None
    assert (notification.kind, notification.game_id) == ("invitation", 12)
    assert notification.data == {"board": "europe"}
    assert channels_of(notification) == ["email", "push", "webhook"]


@pytest.mark.django_db
def test_your_turn_skips_email_by_default(alice: Any) -> None:
    notification = services.notification_send(alice, Kind.YOUR_TURN, game_id=12)

    assert notification is not None
    assert channels_of(notification) == ["push", "webhook"]


@pytest.mark.django_db
def test_a_user_without_an_email_address_gets_no_email_row(player: Any) -> None:
    nobody = player("nobody", email="")

    notification = services.notification_send(nobody, Kind.GAME_OVER, game_id=3)

    assert notification is not None
    assert channels_of(notification) == []


@pytest.mark.django_db
def test_channels_turned_off_in_the_preferences_get_no_row(alice: Any) -> None:
    preferences_update(
        alice,
        channels={"game_over": {"webhook": False, "email": True, "push": False}},
        quiet_hours=None,
    )

    notification = services.notification_send(alice, Kind.GAME_OVER, game_id=3)

    assert notification is not None
    assert channels_of(notification) == ["email"]


@pytest.mark.django_db
def test_only_active_webhooks_subscribed_to_the_kind_get_a_row(alice: Any) -> None:
    other_kind = WebhookEndpoint.objects.create(
        user=alice, url="http://127.0.0.1:9/a", events=["game_over"], secret=new_secret()
    )
    inactive = WebhookEndpoint.objects.create(
        user=alice, url="http://127.0.0.1:9/b", active=False, secret=new_secret()
    )
    wanted = WebhookEndpoint.objects.create(
        user=alice, url="http://127.0.0.1:9/c", events=["your_turn"], secret=new_secret()
    )

    notification = services.notification_send(alice, Kind.YOUR_TURN, game_id=1)

    assert notification is not None
    endpoints = set(notification.deliveries.values_list("endpoint_id", flat=True))
    assert wanted.pk in endpoints
    assert other_kind.pk not in endpoints
    assert inactive.pk not in endpoints


@pytest.mark.django_db
def test_a_second_call_with_the_same_dedupe_key_records_nothing(alice: Any) -> None:
    key = "game:12:turn:57:seat:1"
    first = services.notification_send(alice, Kind.YOUR_TURN, game_id=12, dedupe_key=key)
    rows = Delivery.objects.count()

    second = services.notification_send(alice, Kind.YOUR_TURN, game_id=12, dedupe_key=key)

    assert first is not None
    assert second is None
    assert Notification.objects.filter(user=alice).count() == 1
    assert Delivery.objects.count() == rows


@pytest.mark.django_db
def test_the_same_dedupe_key_for_another_user_is_a_new_notification(
    alice: Any, player: Any
) -> None:
    bob = player("bob")
    services.notification_send(alice, Kind.GAME_STARTED, game_id=12, dedupe_key="game:12:started")

    assert services.notification_send(
        bob, Kind.GAME_STARTED, game_id=12, dedupe_key="game:12:started"
    )


@pytest.mark.django_db
def test_an_unknown_kind_is_refused(alice: Any) -> None:
    with pytest.raises(ValueError, match="carrier_pigeon"):
        services.notification_send(alice, "carrier_pigeon")

    assert not Notification.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_deliveries_are_queued_only_once_the_caller_commits(
    alice: Any, queued: list[int]
) -> None:
    with transaction.atomic():
        notification = services.notification_send(alice, Kind.INVITATION, game_id=7)
        assert queued == []

    assert notification is not None
    assert sorted(queued) == sorted(notification.deliveries.values_list("pk", flat=True))


@pytest.mark.django_db(transaction=True)
def test_nothing_is_recorded_or_queued_when_the_callers_transaction_rolls_back(
    alice: Any, queued: list[int]
) -> None:
    class MoveRejected(Exception):
        pass

    with pytest.raises(MoveRejected), transaction.atomic():
        services.notification_send(
            alice, Kind.YOUR_TURN, game_id=7, dedupe_key="game:7:turn:1:seat:0"
        )
        raise MoveRejected

    assert not Notification.objects.exists()
    assert not Delivery.objects.exists()
    assert queued == []
    # The key was rolled back too, so the retried move can notify.
    assert services.notification_send(
        alice, Kind.YOUR_TURN, game_id=7, dedupe_key="game:7:turn:1:seat:0"
    )


@pytest.mark.django_db(transaction=True)
def test_a_broker_that_is_down_at_commit_leaves_the_rows_for_the_sweep(
    alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broker_down(*args: Any) -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(tasks.deliver_outbox, "delay", broker_down)

    with transaction.atomic():
        notification = services.notification_send(alice, Kind.INVITATION, game_id=7)

    assert notification is not None
    ids = set(notification.deliveries.values_list("pk", flat=True))
    assert len(ids) == 3
    assert ids <= set(outbox.due_ids())


@pytest.mark.django_db
def test_the_on_commit_callback_hands_every_due_row_to_the_delivery_task(
    alice: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    sent: list[int] = []
    monkeypatch.setattr(tasks.deliver_outbox, "delay", sent.append)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        notification = services.notification_send(alice, Kind.INVITATION, game_id=7)

    assert notification is not None
    # The hand-off to the delivery task, and the wake-up of the user's event streams.
    assert len(callbacks) == 2
    assert sorted(sent) == sorted(notification.deliveries.values_list("pk", flat=True))
    assert set(notification.deliveries.values_list("channel", flat=True)) == set(Channel)
