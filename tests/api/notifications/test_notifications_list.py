"""GET /notifications: the caller's inbox, newest first, optionally unread only."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from notifications.services import notification_send

pytestmark = pytest.mark.django_db

URL = "/api/v1/notifications"


def test_it_lists_the_callers_notifications_newest_first(alice: Any, auth_client: Any) -> None:
    first = notification_send(alice, "invitation", game_id=1, data={"board": "europe"})
    second = notification_send(alice, "game_started", game_id=1)

    response = auth_client(alice).get(URL)

    assert response.status_code == 200
    results = response.json()["results"]
    assert [n["id"] for n in results] == [second.pk, first.pk]
    assert results[1] == {
        "id": first.pk,
        "type": "invitation",
        "game_id": 1,
        "data": {"board": "europe"},
        "created_at": results[1]["created_at"],
        "read_at": None,
        "read": False,
    }


def test_it_shows_only_unread_ones_when_asked(alice: Any, auth_client: Any) -> None:
    read = notification_send(alice, "your_turn", game_id=1)
    unread = notification_send(alice, "your_turn", game_id=2)
    read.read_at = timezone.now()
    read.save()

    response = auth_client(alice).get(URL, {"unread": "true"})

    assert [n["id"] for n in response.json()["results"]] == [unread.pk]


def test_it_refuses_an_unread_value_that_is_not_true_or_false(alice: Any, auth_client: Any) -> None:
    response = auth_client(alice).get(URL, {"unread": "yes please"})

    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert response.json()["errors"][0]["field"] == "unread"


def test_it_pages_with_a_cursor(alice: Any, auth_client: Any) -> None:
    made = [notification_send(alice, "your_turn", game_id=n).pk for n in range(3)]
    client = auth_client(alice)

    first = client.get(URL, {"page_size": 2}).json()
    second = client.get(first["next"]).json()

    assert [n["id"] for n in first["results"]] == [made[2], made[1]]
    assert [n["id"] for n in second["results"]] == [made[0]]
    assert second["next"] is None


def test_it_never_shows_another_users_notifications(alice: Any, bob: Any, auth_client: Any) -> None:
    notification_send(alice, "your_turn", game_id=1)

    response = auth_client(bob).get(URL)

    assert response.status_code == 200
    assert response.json()["results"] == []


def test_it_needs_a_token(api_client: Any) -> None:
    response = api_client.get(URL)

    assert response.status_code == 401
    assert response.json()["code"] == "NOT_AUTHENTICATED"
