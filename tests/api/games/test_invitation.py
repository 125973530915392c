from __future__ import annotations

import pytest

from .conftest import create_game

pytestmark = pytest.mark.django_db


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
