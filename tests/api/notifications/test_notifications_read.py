"""POST /notifications/{id}/read and POST /notifications/read-all."""

from __future__ import annotations

from typing import Any

import pytest

from notifications.models import Notification
from notifications.services import notification_send

pytestmark = pytest.mark.django_db


def read_url(notification: Notification) -> str:
    return f"/api/v1/notifications/{notification.pk}/read"


READ_ALL = "/api/v1/notifications/read-all"


def test_it_marks_one_notification_read(alice: Any, auth_client: Any) -> None:
    notification = notification_send(alice, "your_turn", game_id=1)

    response = auth_client(alice).post(read_url(notification))

    assert response.status_code == 200
    assert response.json()["read"] is True
    notification.refresh_from_db()
    assert notification.read_at is not None


def test_marking_it_read_again_keeps_the_first_time(alice: Any, auth_client: Any) -> None:
    notification = notification_send(alice, "your_turn", game_id=1)
    client = auth_client(alice)
    first = client.post(read_url(notification)).json()["read_at"]

    again = client.post(read_url(notification)).json()["read_at"]

    assert again == first


def test_another_users_notification_is_not_found(alice: Any, bob: Any, auth_client: Any) -> None:
    notification = notification_send(alice, "your_turn", game_id=1)

    response = auth_client(bob).post(read_url(notification))

    assert response.status_code == 404
    assert response.json()["code"] == "NOTIFICATION_NOT_FOUND"
    notification.refresh_from_db()
    assert notification.read_at is None


def test_read_all_marks_every_unread_notification_of_the_caller_only(
    alice: Any, bob: Any, auth_client: Any
) -> None:
    notification_send(alice, "your_turn", game_id=1)
    notification_send(alice, "game_over", game_id=2)
    bobs = notification_send(bob, "your_turn", game_id=1)

    response = auth_client(alice).post(READ_ALL)

    assert response.status_code == 200
    assert response.json() == {"marked": 2}
    assert not Notification.objects.filter(user=alice, read_at__isnull=True).exists()
    bobs.refresh_from_db()
    assert bobs.read_at is None


@pytest.mark.parametrize("url", ["/api/v1/notifications/1/read", READ_ALL])
def test_it_needs_a_token(api_client: Any, url: str) -> None:
    assert api_client.post(url).status_code == 401
