"""GET/PUT /notifications/preferences: channels per kind and quiet hours."""

from __future__ import annotations

from typing import Any

import pytest

from notifications.models import Kind

pytestmark = pytest.mark.django_db

URL = "/api/v1/notifications/preferences"
NIGHT = {"start": "22:00", "end": "07:00", "timezone": "Europe/Paris"}


def test_a_new_user_has_the_defaults(alice: Any, auth_client: Any) -> None:
    response = auth_client(alice).get(URL)

    assert response.status_code == 200
    body = response.json()
    assert set(body["channels"]) == set(Kind.values)
    assert body["channels"]["your_turn"] == {
        "in_app": True,
        "webhook": True,
        "email": False,
        "push": True,
    }
    emailed = {kind for kind, flags in body["channels"].items() if flags["email"]}
    assert emailed == {"invitation", "game_over", "timed_out"}
    assert body["quiet_hours"] is None


def test_a_put_replaces_the_preferences_and_kinds_left_out_get_defaults(
    alice: Any, auth_client: Any
) -> None:
    client = auth_client(alice)
    client.put(
        URL,
        {"channels": {"game_over": {"webhook": False, "email": False, "push": False}}},
        format="json",
    )

    response = client.put(
        URL,
        {
            "channels": {"your_turn": {"webhook": True, "email": True, "push": False}},
            "quiet_hours": NIGHT,
        },
        format="json",
    )

    assert response.status_code == 200
    body = client.get(URL).json()
    assert body == response.json()
    assert body["channels"]["your_turn"]["email"] is True
    assert body["channels"]["your_turn"]["push"] is False
    assert body["channels"]["game_over"]["email"] is True
    assert body["quiet_hours"] == NIGHT


def test_in_app_cannot_be_turned_off(alice: Any, auth_client: Any) -> None:
    flags = {"in_app": False, "webhook": False, "email": False, "push": False}

    response = auth_client(alice).put(URL, {"channels": {"invitation": flags}}, format="json")

    assert response.status_code == 200
    assert response.json()["channels"]["invitation"]["in_app"] is True


def test_a_null_quiet_hours_turns_them_off(alice: Any, auth_client: Any) -> None:
    client = auth_client(alice)
    client.put(URL, {"channels": {}, "quiet_hours": NIGHT}, format="json")

    response = client.put(URL, {"channels": {}, "quiet_hours": None}, format="json")

    assert response.json()["quiet_hours"] is None


@pytest.mark.parametrize(
    ("quiet_hours", "field"),
    [
        ({**NIGHT, "timezone": "Mars/Olympus_Mons"}, "quiet_hours.timezone"),
        ({**NIGHT, "timezone": "../../etc/passwd"}, "quiet_hours.timezone"),
        ({**NIGHT, "start": "25:00"}, "quiet_hours.start"),
        ({**NIGHT, "end": "7am"}, "quiet_hours.end"),
        ({**NIGHT, "end": "22:00"}, "quiet_hours.end"),
    ],
)
def test_it_refuses_bad_quiet_hours(
    alice: Any, auth_client: Any, quiet_hours: dict[str, str], field: str
) -> None:
    response = auth_client(alice).put(
        URL, {"channels": {}, "quiet_hours": quiet_hours}, format="json"
    )

    assert response.status_code == 400
    assert field in [e["field"] for e in response.json()["errors"]]


def test_it_refuses_a_kind_without_all_its_flags(alice: Any, auth_client: Any) -> None:
    response = auth_client(alice).put(
        URL, {"channels": {"your_turn": {"email": True}}}, format="json"
    )

    assert response.status_code == 400
    fields = {e["field"] for e in response.json()["errors"]}
    assert fields == {"channels.your_turn.webhook", "channels.your_turn.push"}


def test_one_users_preferences_do_not_change_anothers(
    alice: Any, bob: Any, auth_client: Any
) -> None:
    auth_client(alice).put(URL, {"channels": {}, "quiet_hours": NIGHT}, format="json")

    assert auth_client(bob).get(URL).json()["quiet_hours"] is None


@pytest.mark.parametrize("method", ["get", "put"])
def test_it_needs_a_token(api_client: Any, method: str) -> None:
    assert getattr(api_client, method)(URL).status_code == 401
