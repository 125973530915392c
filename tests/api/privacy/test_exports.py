"""POST/GET /account/exports and the download: built by the worker's function, announced by
an `export_ready` notice, downloaded once by its owner until it expires, throttled, and
holding nothing of another seat's hidden cards."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from accounts.models import ProviderIdentity
from notifications.models import Device, Notification, WebhookEndpoint
from privacy.exports import export_build, exports_sweep
from privacy.models import DataExport

from .conftest import person, two_player

pytestmark = pytest.mark.django_db

EXPORTS = "/api/v1/account/exports"


def _ask(client: Any) -> Any:
    return client.post(EXPORTS)


def _built(client: Any) -> dict[str, Any]:
    asked = _ask(client)
    assert asked.status_code == 202, asked.content
    assert export_build(asked.json()["id"]) == "ready"
    shown: dict[str, Any] = client.get(f"{EXPORTS}/{asked.json()['id']}").json()
    return shown


def _later(**delta: float) -> Any:
    return time_machine.travel(timezone.now() + timedelta(**delta), tick=False)


def test_an_export_is_asked_for_built_announced_and_downloaded_once(db: None) -> None:
    alice = person("alice")
    asked = _ask(alice.client)

    assert asked.status_code == 202
    pending = asked.json()
    assert pending["status"] == "pending" and pending["download"] is None
    assert pending["ready_at"] is None and pending["expires_at"] is None

    assert export_build(pending["id"]) == "ready"
    assert export_build(pending["id"]) == "ready"  # twice is once
    notices = Notification.objects.filter(user=alice.user, kind="export_ready")
    assert [n.data["export_id"] for n in notices] == [pending["id"]]
    shown = alice.client.get(f"{EXPORTS}/{pending['id']}").json()
    assert shown["status"] == "ready"
    assert shown["download"].endswith(f"/api/v1/account/exports/{pending['id']}/download")
    assert alice.client.get(EXPORTS).json() == [shown]

    first = alice.client.get(shown["download"])
    again = alice.client.get(shown["download"])

    assert first.status_code == 200
    assert first["Content-Disposition"].startswith("attachment;")
    archive = first.json()
    assert archive["format"] == "ttr-account-export"
    assert archive["profile"]["username"] == "alice"
    assert archive["profile"]["email"] == "alice@ex.org"
    assert (again.status_code, again.json()["code"]) == (410, "EXPORT_GONE")
    assert alice.client.get(f"{EXPORTS}/{pending['id']}").json()["status"] == "downloaded"
    assert DataExport.objects.get(pk=pending["id"]).archive is None


def test_one_export_is_built_at_a_time_and_one_asked_for_an_hour(db: None) -> None:
    alice = person("alice")
    first = _ask(alice.client)
    busy = _ask(alice.client)
    assert (busy.status_code, busy.json()["code"]) == (409, "EXPORT_PENDING")
    export_build(first.json()["id"])

    soon = _ask(alice.client)
    assert (soon.status_code, soon.json()["code"]) == (429, "EXPORT_THROTTLED")
    assert 3500 <= int(soon["Retry-After"]) <= 3600
    with _later(minutes=61):
        assert _ask(alice.client).status_code == 202


def test_a_failed_export_does_not_count_against_the_next(db: None) -> None:
    alice = person("alice")
    first = _ask(alice.client).json()
    DataExport.objects.filter(pk=first["id"]).update(status="failed")
    download = alice.client.get(f"{EXPORTS}/{first['id']}/download")
    assert (download.status_code, download.json()["code"]) == (409, "EXPORT_NOT_READY")
    assert _ask(alice.client).status_code == 202


def test_a_pending_export_cannot_be_downloaded_yet(db: None) -> None:
    alice = person("alice")
    asked = _ask(alice.client).json()
    response = alice.client.get(f"{EXPORTS}/{asked['id']}/download")
    assert (response.status_code, response.json()["code"]) == (409, "EXPORT_NOT_READY")


def test_an_export_not_downloaded_in_time_expires(db: None, settings: Any) -> None:
    settings.DATA_EXPORT_HOURS = 2
    alice = person("alice")
    shown = _built(alice.client)

    with _later(hours=2, minutes=1):
        assert alice.client.get(f"{EXPORTS}/{shown['id']}").json()["status"] == "expired"
        late = alice.client.get(f"{EXPORTS}/{shown['id']}/download")
        assert (late.status_code, late.json()["code"]) == (410, "EXPORT_GONE")
        assert exports_sweep()["expired"] == 1
    stored = DataExport.objects.get(pk=shown["id"])
    assert (stored.status, stored.archive) == ("expired", None)


def test_someone_elses_export_is_as_missing(db: None) -> None:
    alice, bob = person("alice"), person("bob")
    shown = _built(alice.client)
    for path in (f"{EXPORTS}/{shown['id']}", f"{EXPORTS}/{shown['id']}/download"):
        response = bob.client.get(path)
        assert (response.status_code, response.json()["code"]) == (404, "NOT_FOUND")
    assert bob.client.get(EXPORTS).json() == []
    assert alice.client.get(shown["download"]).status_code == 200


def test_the_archive_holds_no_secret_of_devices_webhooks_or_identities(db: None) -> None:
    alice = person("alice")
    Device.objects.create(user=alice.user, platform="fcm", token="device-secret-token")
    WebhookEndpoint.objects.create(
        user=alice.user, url="https://hooks.ex.org/a", secret="whsec_webhook-secret"
    )
    ProviderIdentity.objects.create(user=alice.user, provider="apple", subject="apple-sub-123")
    shown = _built(alice.client)

    archive = alice.client.get(shown["download"]).json()

    text = json.dumps(archive)
    for secret in ("device-secret-token", "whsec_webhook-secret", "apple-sub-123"):
        assert secret not in text
    assert archive["devices"][0]["platform"] == "fcm"
    assert archive["webhooks"][0]["url"] == "https://hooks.ex.org/a"
    assert archive["identities"][0]["provider"] == "apple"


def test_the_archive_holds_the_own_moves_as_the_seat_saw_them_and_no_hidden_card(
    db: None,
) -> None:
    alice, bob = person("alice"), person("bob")
    game_id = two_player(alice, bob)
    assert (
        alice.client.post(
            f"/api/v1/games/{game_id}/actions",
            {
                "version": alice.client.get(f"/api/v1/games/{game_id}").json()["version"],
                "action": {"type": "draw_blind"},
            },
            format="json",
        ).status_code
        == 200
    )
    seen = alice.client.get(f"/api/v1/games/{game_id}/moves?limit=500").json()["moves"]

    archive = alice.client.get(_built(alice.client)["download"]).json()

    (game,) = archive["games"]
    assert game["id"] == game_id and game["seat"]["index"] == 0
    assert [p["username"] for p in game["players"]] == ["alice", "bob"]
    assert game["moves"] == [m for m in seen if m["seat"] == 0]
    assert all(m["seat"] == 0 for m in game["moves"])
    # Bob's hand and tickets appear nowhere: not his kept tickets, not his cards.
    state = json.dumps(game)
    bob_tickets = {
        t["id"]
        for t in bob.client.get(f"/api/v1/games/{game_id}").json()["state"]["you"]["tickets"]
    }
    alice_view = alice.client.get(f"/api/v1/games/{game_id}").json()["state"]
    alice_tickets = {t["id"] for t in alice_view["you"]["tickets"]}
    for ticket in bob_tickets - alice_tickets:
        assert f'"{ticket}"' not in state
