"""POST/GET /webhooks, GET/PATCH/DELETE /webhooks/{id}, POST /webhooks/{id}/rotate-secret."""

from __future__ import annotations

from typing import Any

import pytest
from standardwebhooks import Webhook

from notifications.models import WebhookEndpoint
from notifications.webhooks import MAX_ENDPOINTS, endpoint_create

pytestmark = pytest.mark.django_db

URL = "/api/v1/webhooks"
HOOK = "https://hooks.example.org/ttr"


def detail(endpoint: WebhookEndpoint) -> str:
    return f"{URL}/{endpoint.pk}"


@pytest.fixture
def alices_hook(alice: Any) -> WebhookEndpoint:
    return endpoint_create(alice, url=HOOK, name="bot", events=["your_turn"])


def test_creating_an_endpoint_shows_its_secret_once(alice: Any, auth_client: Any) -> None:
    client = auth_client(alice)

    response = client.post(
        URL, {"url": HOOK, "name": "my bot", "events": ["game_over", "your_turn"]}, format="json"
    )

    assert response.status_code == 201
    body = response.json()
    assert body["secret"].startswith("whsec_")
    Webhook(body["secret"])  # the library accepts it
    assert body["events"] == ["your_turn", "game_over"]
    assert body["active"] is True
    assert WebhookEndpoint.objects.get(pk=body["id"]).secret == body["secret"]
    assert "secret" not in client.get(f"{URL}/{body['id']}").json()
    assert "secret" not in client.get(URL).json()[0]


def test_each_endpoint_gets_its_own_secret(alice: Any, auth_client: Any) -> None:
    client = auth_client(alice)

    secrets = {client.post(URL, {"url": HOOK}, format="json").json()["secret"] for _ in "ab"}

    assert len(secrets) == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": "ftp://files.example.org/"}, "url"),
        ({"url": "javascript:alert(1)"}, "url"),
        ({"url": "not a url"}, "url"),
        ({"url": HOOK, "events": ["chat"]}, "events[0]"),
        ({}, "url"),
    ],
)
def test_it_refuses_bad_input(alice: Any, auth_client: Any, body: Any, field: str) -> None:
    response = auth_client(alice).post(URL, body, format="json")

    assert response.status_code == 400
    assert field in [e["field"] for e in response.json()["errors"]]
    assert not WebhookEndpoint.objects.exists()


def test_a_user_has_a_limited_number_of_endpoints(alice: Any, auth_client: Any) -> None:
    for _ in range(MAX_ENDPOINTS):
        endpoint_create(alice, url=HOOK, events=[])

    response = auth_client(alice).post(URL, {"url": HOOK}, format="json")

    assert response.status_code == 409
    assert response.json()["code"] == "WEBHOOK_LIMIT_REACHED"


def test_it_lists_only_the_callers_endpoints(
    alices_hook: WebhookEndpoint, bob: Any, auth_client: Any
) -> None:
    endpoint_create(bob, url=HOOK, events=[])

    listed = auth_client(alices_hook.user).get(URL).json()

    assert [e["id"] for e in listed] == [alices_hook.pk]


def test_a_patch_changes_only_the_fields_given(
    alices_hook: WebhookEndpoint, auth_client: Any
) -> None:
    response = auth_client(alices_hook.user).patch(
        detail(alices_hook), {"active": False}, format="json"
    )

    assert response.status_code == 200
    alices_hook.refresh_from_db()
    assert (alices_hook.active, alices_hook.name, alices_hook.events) == (
        False,
        "bot",
        ["your_turn"],
    )


def test_a_patch_checks_the_url_too(alices_hook: WebhookEndpoint, auth_client: Any) -> None:
    response = auth_client(alices_hook.user).patch(
        detail(alices_hook), {"url": "file:///etc/passwd"}, format="json"
    )

    assert response.status_code == 400
    alices_hook.refresh_from_db()
    assert alices_hook.url == HOOK


def test_deleting_an_endpoint_removes_it(alices_hook: WebhookEndpoint, auth_client: Any) -> None:
    response = auth_client(alices_hook.user).delete(detail(alices_hook))

    assert response.status_code == 204
    assert not WebhookEndpoint.objects.exists()


def test_rotating_the_secret_shows_a_new_one(
    alices_hook: WebhookEndpoint, auth_client: Any
) -> None:
    old = alices_hook.secret

    response = auth_client(alices_hook.user).post(f"{detail(alices_hook)}/rotate-secret")

    assert response.status_code == 200
    alices_hook.refresh_from_db()
    assert response.json()["secret"] == alices_hook.secret != old


@pytest.mark.parametrize(
    ("method", "suffix"),
    [("get", ""), ("patch", ""), ("delete", ""), ("post", "/rotate-secret")],
)
def test_another_users_endpoint_is_not_found_and_stays_as_it_was(
    alices_hook: WebhookEndpoint, bob: Any, auth_client: Any, method: str, suffix: str
) -> None:
    response = getattr(auth_client(bob), method)(
        detail(alices_hook) + suffix, {"active": False}, format="json"
    )

    assert response.status_code == 404
    assert response.json()["code"] == "WEBHOOK_NOT_FOUND"
    assert WebhookEndpoint.objects.get(pk=alices_hook.pk).secret == alices_hook.secret
    assert WebhookEndpoint.objects.get(pk=alices_hook.pk).active is True


@pytest.mark.parametrize(
    ("method", "url"),
    [("get", URL), ("post", URL), ("get", f"{URL}/1"), ("post", f"{URL}/1/rotate-secret")],
)
def test_it_needs_a_token(api_client: Any, method: str, url: str) -> None:
    assert getattr(api_client, method)(url).status_code == 401


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:8000/hook", "http://10.0.0.8/hook", "http://[fe80::1]/hook"]
)
def test_a_private_address_is_refused_when_not_allowed(
    alice: Any, auth_client: Any, settings: Any, url: str
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE = False

    response = auth_client(alice).post(URL, {"url": url}, format="json")

    assert response.status_code == 400
    assert response["content-type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "WEBHOOK_URL_PRIVATE"
    assert "private, loopback or link-local" in body["detail"]
    assert WebhookEndpoint.objects.count() == 0


def test_a_patch_to_a_private_address_is_refused_and_changes_nothing(
    alices_hook: WebhookEndpoint, auth_client: Any, settings: Any
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE = False

    response = auth_client(alices_hook.user).patch(
        detail(alices_hook), {"url": "http://192.168.1.1/x", "name": "changed"}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "WEBHOOK_URL_PRIVATE"
    alices_hook.refresh_from_db()
    assert (alices_hook.url, alices_hook.name) == (HOOK, "bot")


def test_a_private_address_is_taken_when_allowed(
    alice: Any, auth_client: Any, settings: Any
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE = True

    response = auth_client(alice).post(URL, {"url": "http://127.0.0.1:8000/hook"}, format="json")

    assert response.status_code == 201
