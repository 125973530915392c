"""Join, leave, invitations, start and cancel."""

from __future__ import annotations

import pytest

from .conftest import create_game

pytestmark = pytest.mark.django_db


def test_joining_the_last_open_seat_starts_the_game(creator, opponent):
    game = create_game(creator)
    response = opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "active" and body["your_seat"] == 1
    assert body["state"]["pending"]["kind"] == "choose_initial_tickets"


def test_a_full_game_cannot_be_joined(two_player_game, outsider):
    response = outsider.post(f"/api/v1/games/{two_player_game['id']}/join", {}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "GAME_NOT_LOBBY"


def test_joining_twice_is_refused(creator):
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "open"}, {"type": "open"}])
    response = creator.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "ALREADY_SEATED"


def test_leaving_frees_the_seat(creator, opponent):
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "open"}, {"type": "open"}])
    opponent.post(f"/api/v1/games/{game['id']}/join", {"seat": 2}, format="json")
    response = opponent.post(f"/api/v1/games/{game['id']}/leave", {}, format="json")
    assert response.status_code == 200
    assert [s["kind"] for s in response.json()["seats"]] == ["human", "open", "open"]


def test_an_invited_user_accepts_and_the_game_starts(creator, invitee, outsider):
    game = create_game(
        creator, seats=[{"type": "creator"}, {"type": "invite", "username": "invitee"}]
    )
    assert game["seats"][1]["kind"] == "invited"
    stolen = outsider.post(f"/api/v1/games/{game['id']}/invitation/accept", {}, format="json")
    assert stolen.status_code == 409 and stolen.json()["code"] == "NO_INVITATION"
    response = invitee.post(f"/api/v1/games/{game['id']}/invitation/accept", {}, format="json")
    assert response.status_code == 200
    assert response.json()["status"] == "active" and response.json()["your_seat"] == 1


def test_a_declined_invitation_opens_the_seat(creator, invitee, outsider):
    game = create_game(
        creator, seats=[{"type": "creator"}, {"type": "invite", "username": "invitee"}]
    )
    response = invitee.post(f"/api/v1/games/{game['id']}/invitation/decline", {}, format="json")
    assert response.json()["seats"][1]["kind"] == "open"
    joined = outsider.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    assert joined.json()["status"] == "active"


def test_only_the_creator_starts_and_only_with_every_seat_filled(creator, opponent):
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "open"}, {"type": "open"}])
    assert opponent.post(f"/api/v1/games/{game['id']}/start", {}, format="json").status_code == 403
    refused = creator.post(f"/api/v1/games/{game['id']}/start", {}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "SEATS_NOT_FILLED"


def test_the_creator_cancels_a_lobby_game(creator, opponent):
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "open"}, {"type": "open"}])
    assert opponent.post(f"/api/v1/games/{game['id']}/cancel", {}, format="json").status_code == 403
    response = creator.post(f"/api/v1/games/{game['id']}/cancel", {}, format="json")
    assert response.json()["status"] == "cancelled"
    late = opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")
    assert late.status_code == 409
