"""POST/GET /devices and DELETE /devices/{id}."""

from __future__ import annotations

from typing import Any

import pytest

from notifications.devices import device_deactivate
from notifications.models import Delivery, Device
from notifications.services import notification_send

pytestmark = pytest.mark.django_db

URL = "/api/v1/devices"
PHONE = {"platform": "fcm", "token": "fcm-registration-token", "name": "Alice's phone"}


def test_it_registers_a_device(alice: Any, auth_client: Any) -> None:
    response = auth_client(alice).post(URL, PHONE, format="json")

    assert response.status_code == 201
    device = Device.objects.get(pk=response.json()["id"])
    assert (device.user, device.platform, device.token) == (alice, "fcm", PHONE["token"])


def test_registering_the_same_token_again_keeps_one_device(alice: Any, auth_client: Any) -> None:
    client = auth_client(alice)
    first = client.post(URL, PHONE, format="json").json()

    again = client.post(URL, {**PHONE, "name": "renamed"}, format="json")

    assert again.status_code == 200
    assert again.json()["id"] == first["id"]
    assert Device.objects.get().name == "renamed"


def test_a_token_moving_to_another_account_drops_what_waited_for_the_old_one(
    alice: Any, bob: Any, auth_client: Any
) -> None:
    auth_client(alice).post(URL, PHONE, format="json")
    notification_send(alice, "your_turn", game_id=1)

    response = auth_client(bob).post(URL, PHONE, format="json")

    assert response.status_code == 200
    assert Device.objects.get().user == bob
    waiting = Delivery.objects.get(channel="push")
    assert waiting.status == "failed"


@pytest.mark.parametrize(
    ("body", "field"),
    [({**PHONE, "platform": "wns"}, "platform"), ({"platform": "apns"}, "token")],
)
def test_it_refuses_bad_input(alice: Any, auth_client: Any, body: Any, field: str) -> None:
    response = auth_client(alice).post(URL, body, format="json")

    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == [field]


def test_it_lists_only_the_callers_devices(alice: Any, bob: Any, auth_client: Any) -> None:
    Device.objects.create(user=bob, platform="apns", token="bobs")
    mine = Device.objects.create(user=alice, platform="apns", token="alices")

    response = auth_client(alice).get(URL)

    assert [d["id"] for d in response.json()] == [mine.pk]


def test_it_removes_a_device(alice: Any, auth_client: Any) -> None:
    device = Device.objects.create(user=alice, platform="apns", token="alices")

    response = auth_client(alice).delete(f"{URL}/{device.pk}")

    assert response.status_code == 204
    assert not Device.objects.exists()


def test_another_users_device_is_not_found_and_stays(
    alice: Any, bob: Any, auth_client: Any
) -> None:
    device = Device.objects.create(user=alice, platform="apns", token="alices")

    response = auth_client(bob).delete(f"{URL}/{device.pk}")

    assert response.status_code == 404
    assert response.json()["code"] == "DEVICE_NOT_FOUND"
    assert Device.objects.filter(pk=device.pk).exists()


@pytest.mark.parametrize(("method", "url"), [("get", URL), ("post", URL), ("delete", f"{URL}/1")])
def test_it_needs_a_token(api_client: Any, method: str, url: str) -> None:
    assert getattr(api_client, method)(url).status_code == 401


def test_a_switched_off_device_is_listed_as_inactive(alice: Any, auth_client: Any) -> None:
    Device.objects.create(user=alice, platform="apns", token="dead", active=False)

    [shown] = auth_client(alice).get(URL).json()

    assert shown["active"] is False


def test_registering_a_switched_off_token_again_switches_it_back_on(
    alice: Any, auth_client: Any
) -> None:
    client = auth_client(alice)
    device_id = client.post(URL, PHONE, format="json").json()["id"]

    assert device_deactivate(Device.objects.get(pk=device_id), "UNREGISTERED")
    assert client.get(URL).json()[0]["deactivated_at"] is not None

    again = client.post(URL, PHONE, format="json")

    assert again.status_code == 200
    assert (again.json()["active"], again.json()["deactivated_at"]) == (True, None)
    notification_send(alice, "your_turn", game_id=1)
    assert Delivery.objects.filter(device_id=device_id).count() == 1
