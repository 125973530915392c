"""A friend request and its acceptance reach their player as any notice does: in-app,
and on the channels the player wants for its kind."""

from __future__ import annotations

import pytest

from notifications import services
from notifications.models import Delivery, Device, Notification

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def queued(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The outbox rows handed to the workers at commit (none are sent)."""
    calls: list[int] = []
    monkeypatch.setattr(services, "deliveries_queue", lambda ids: calls.extend(ids))
    return calls


def test_a_friend_request_is_pushed_to_its_recipients_phone(
    players, queued, django_capture_on_commit_callbacks
):
    alice, bob = players("alice", "bob")
    Device.objects.create(user=bob.user, platform="fcm", token="fcm-bob")

    with django_capture_on_commit_callbacks(execute=True):
        alice.send("bob")

    delivery = Delivery.objects.get(notification__user=bob.user)
    assert (delivery.channel, delivery.notification.kind) == ("push", "friend_request")
    assert queued == [delivery.pk]


def test_a_player_may_turn_a_friend_kind_off_on_a_channel(players):
    alice, bob = players("alice", "bob")
    Device.objects.create(user=alice.user, platform="fcm", token="fcm-alice")
    off = {"webhook": False, "email": False, "push": False}
    saved = alice.client.put(
        "/api/v1/notifications/preferences",
        {"channels": {"friend_accepted": off}},
        format="json",
    )
    assert saved.status_code == 200, saved.content
    assert saved.json()["channels"]["friend_request"]["push"] is True

    alice.send("bob")
    bob.send("alice")

    told = Notification.objects.get(user=alice.user)
    assert told.kind == "friend_accepted"
    assert not Delivery.objects.filter(notification=told).exists()


def test_a_friend_notice_is_told_once_and_read_in_the_inbox(players):
    alice, bob = players("alice", "bob")

    alice.send("bob")

    inbox = bob.client.get("/api/v1/notifications").json()["results"]
    assert [(n["type"], n["game_id"], n["data"]["username"]) for n in inbox] == [
        ("friend_request", None, "alice")
    ]
