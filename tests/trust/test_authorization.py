"""Walk the authorization table of docs/authorization.md: one request per operation and persona.

The table is the test's data, so a change of behaviour fails here until the document says
so too. Each cell starts from fresh data (the personas, their games and objects).
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.friends import friend_request_send
from accounts.models import AuthToken, ProviderIdentity
from accounts.services import token_issue
from games.models import Game
from matchmaking.seeks import seek_create
from notifications.models import Device, Notification, WebhookEndpoint
from privacy.exports import export_build, export_request

from .conftest import Persona, create_game, finished_game, persona

pytestmark = pytest.mark.django_db

DOC = Path(__file__).resolve().parents[2] / "docs" / "authorization.md"
PERSONAS = ("creator", "opponent", "invitee", "outsider", "anonymous", "revoked", "expired")


def _table() -> list[tuple[str, str, str]]:
    text = DOC.read_text()
    block = text.split("<!-- matrix:start -->")[1].split("<!-- matrix:end -->")[0]
    rows = [line for line in block.strip().splitlines() if line.startswith("| `")]
    cells = []
    for line in rows:
        columns = [c.strip() for c in line.strip("|").split("|")]
        operation = columns[0].strip("`")
        assert len(columns) == 1 + len(PERSONAS), line
        cells += [(operation, who, cell) for who, cell in zip(PERSONAS, columns[1:], strict=True)]
    return cells


CELLS = _table()


class World:
    """Personas and objects, each made only when a cell needs it."""

    def __init__(self) -> None:
        self.people = {name: persona(name) for name in PERSONAS[:4]}
        self._made: dict[str, int] = {}

    @property
    def creator(self) -> Persona:
        return self.people["creator"]

    def client(self, who: str) -> APIClient:
        if who in self.people:
            return self.people[who].client
        client = APIClient()
        if who == "anonymous":
            return client
        token, key = token_issue(self.creator.user, name=who)
        if who == "revoked":
            logout = APIClient()
            logout.credentials(HTTP_AUTHORIZATION=f"Token {key}")
            assert logout.post("/api/v1/auth/logout").status_code == 204
        else:
            AuthToken.objects.filter(pk=token.pk).update(
                expiry=timezone.now() - timedelta(seconds=1)
            )
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return client

    def resolve(self, name: str) -> int:
        if name not in self._made:
            self._made[name] = getattr(self, f"_make_{name}")()
        return self._made[name]

    def _lobby(self, *, turn_time_limit: int | None = None) -> int:
        seats = [
            {"type": "creator"},
            {"type": "open"},
            {"type": "invite", "username": "invitee"},
            {"type": "open"},
        ]
        extra = {"turn_time_limit": turn_time_limit} if turn_time_limit else {}
        game_id = create_game(self.creator.client, seats, first_seat=0, **extra)
        joined = self.people["opponent"].client.post(
            f"/api/v1/games/{game_id}/join", {}, format="json"
        )
        assert joined.status_code == 200
        return game_id

    def _make_lobby(self) -> int:
        return self._lobby()

    def _make_active(self) -> int:
        game_id = self._lobby(turn_time_limit=86400)
        assert self.creator.client.post(f"/api/v1/games/{game_id}/start").status_code == 200
        for who in ("creator", "opponent"):
            client = self.people[who].client
            view = client.get(f"/api/v1/games/{game_id}").json()
            offered = [t["id"] for t in view["state"]["you"]["offered_tickets"]]
            body = {
                "version": view["version"],
                "action": {"type": "keep_tickets", "tickets": offered},
            }
            assert (
                client.post(f"/api/v1/games/{game_id}/actions", body, format="json").status_code
                == 200
            )
        assert Game.objects.get(pk=game_id).state["current"] == 0
        return game_id

    def _make_finished(self) -> int:
        return finished_game(self.creator, self.people["opponent"])

    def _make_token(self) -> int:
        token, _ = token_issue(self.creator.user, name="second")
        return int(token.pk)

    def _make_identity(self) -> int:
        identity = ProviderIdentity.objects.create(
            user=self.creator.user, provider="apple", subject="creator-apple"
        )
        return int(identity.pk)

    def _make_notification(self) -> int:
        return Notification.objects.create(user=self.creator.user, kind="your_turn").pk

    def _make_webhook(self) -> int:
        endpoint = WebhookEndpoint.objects.create(
            user=self.creator.user, url="https://hooks.example.org/ttr", secret="whsec_" + "A" * 32
        )
        return endpoint.pk

    def _make_device(self) -> int:
        return Device.objects.create(user=self.creator.user, platform="fcm", token="t-1").pk

    def _make_friend_request(self) -> int:
        return friend_request_send(self.creator.user, "opponent").pk

    def _make_export(self) -> int:
        export = export_request(self.creator.user)
        assert export_build(export.pk) == "ready"
        return export.pk

    def _make_seek(self) -> int:
        return seek_create(self.creator.user, **SEEK).pk

    def _make_message(self) -> int:
        """A message of the opponent's in the players' room of the running game."""
        path = f"/api/v1/games/{self.resolve('active')}/chat"
        said = {"room": "players", "text": "good luck"}
        posted = self.people["opponent"].client.post(path, said, format="json")
        assert posted.status_code == 201, posted.content
        message_id: int = posted.json()["id"]
        return message_id

    def _make_vacation(self) -> int:
        started = self.creator.client.post("/api/v1/vacations", {"days": 1}, format="json")
        assert started.status_code == 201, started.content
        vacation_id: int = started.json()["vacations"][0]["id"]
        return vacation_id


SEEK = {"board": "europe", "players_min": 2, "players_max": 4, "turn_time_limit": 60}


def _body(world: World, method: str, path: str) -> dict[str, Any] | None:
    if method == "POST" and path.endswith("/seeks"):
        return SEEK
    if path.endswith("/actions"):
        game_id = int(path.split("/")[4])
        version = Game.objects.get(pk=game_id).version
        return {"version": version, "action": {"type": "draw_blind"}}
    if path.endswith("/extra-time"):
        return {"seconds": 3600}
    if method == "POST" and "/chat" in path and not path.endswith("/report"):
        room = "spectators" if path.endswith("room=spectators") else "players"
        return {"room": room, "text": "hello"}
    if path.endswith("/report"):
        return {"reason": "spam"}
    return {} if method == "POST" else None


@pytest.mark.parametrize(
    ("operation", "who", "cell"), CELLS, ids=[f"{o} as {w}" for o, w, _ in CELLS]
)
def test_the_service_does_what_the_authorization_table_says(
    unthrottled: None, operation: str, who: str, cell: str
) -> None:
    world = World()
    method, template = operation.split(" ", 1)
    path = re.sub(r"\{(\w+)\}", lambda m: str(world.resolve(m.group(1))), template)
    client = world.client(who)
    body = _body(world, method, path)

    response = client.generic(
        method,
        path,
        "" if body is None else json.dumps(body),
        content_type="application/json",
    )

    status, _, detail = cell.partition(" ")
    assert response.status_code == int(status), response.content
    if detail.isupper():
        assert response.json()["code"] == detail
    elif detail in ("seat", "spectator"):
        view = response.json()
        seated = view["your_seat"] is not None
        sees_hand = view["state"] is not None and view["state"]["you"] is not None
        if detail == "seat":
            assert seated
            assert sees_hand == (view["state"] is not None)
        else:
            assert not seated and not sees_hand


def test_the_table_covers_every_persona_of_every_operation() -> None:
    operations = {o for o, _, _ in CELLS}
    assert len(CELLS) == len(operations) * len(PERSONAS)
    assert len(operations) >= 30
