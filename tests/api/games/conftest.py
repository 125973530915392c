"""Personas for game endpoints: the creator, a seated opponent, an outsider, anonymous.

Clients are authenticated with ``force_authenticate`` so these tests are about games, not
about the token scheme (the accounts tests cover that).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from ttr_service.celery import app as celery_app


@pytest.fixture(autouse=True)
def _tasks_run_inline(settings):
    # AI turns run in the request's process, right after the commit that asked for them.
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def users(db):
    model = get_user_model()
    return {
        name: model.objects.create_user(name, password="a-long-password-1")
        for name in ("creator", "opponent", "outsider", "invitee")
    }


@pytest.fixture
def creator(users):
    return _client(users["creator"])


@pytest.fixture
def opponent(users):
    return _client(users["opponent"])


@pytest.fixture
def outsider(users):
    return _client(users["outsider"])


@pytest.fixture
def invitee(users):
    return _client(users["invitee"])


@pytest.fixture
def anonymous():
    return APIClient()


def create_game(client, seats=None, **extra):
    body = {"board": "europe", "seats": seats or [{"type": "creator"}, {"type": "open"}], **extra}
    response = client.post("/api/v1/games", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def two_player_game(creator, opponent):
    """A started 2-player game: the creator in seat 0, the opponent in seat 1."""
    game = create_game(creator, first_seat=0)
    response = opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def act(client, game_id, action, version=None):
    if version is None:
        version = client.get(f"/api/v1/games/{game_id}").json()["version"]
    return client.post(
        f"/api/v1/games/{game_id}/actions", {"version": version, "action": action}, format="json"
    )


def keep_all_initial(game_id, *clients):
    for client in clients:
        view = client.get(f"/api/v1/games/{game_id}").json()
        offered = [t["id"] for t in view["state"]["you"]["offered_tickets"]]
        response = act(client, game_id, {"type": "keep_tickets", "tickets": offered})
        assert response.status_code == 200, response.content


def keyed_move(client, game_id, key, version, action=None):
    """A move with an Idempotency-Key (a blind draw unless ``action`` says otherwise)."""
    return client.post(
        f"/api/v1/games/{game_id}/actions",
        {"version": version, "action": action or {"type": "draw_blind"}},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


@pytest.fixture
def started(two_player_game, creator, opponent):
    """The two-player game past its first tickets: the creator to move."""
    game_id = two_player_game["id"]
    keep_all_initial(game_id, creator, opponent)
    return game_id
