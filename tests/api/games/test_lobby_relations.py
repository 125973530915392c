"""The lobby keeps players apart whom a block separates, and honours the preference to be
invited by friends only; a refusal a block causes never tells the blocked player so."""

from __future__ import annotations

import pytest

from accounts.blocks import block_create, social_preference_set
from accounts.friends import friend_request_send
from games.models import Game, Seat

from .conftest import create_game

pytestmark = pytest.mark.django_db


def invite(client, *names):
    seats = [{"type": "creator"}] + [{"type": "invite", "username": n} for n in names]
    return client.post("/api/v1/games", {"board": "europe", "seats": seats}, format="json")


def refused(response, code):
    assert response.status_code == 409, response.content
    assert response.json()["code"] == code
    return response.json()["detail"]


def test_a_player_who_blocks_the_creator_cannot_be_invited_and_nothing_is_created(creator, users):
    block_create(users["invitee"], "creator")

    detail = refused(invite(creator, "invitee"), "NOT_INVITABLE")

    assert detail == "invitee can't be invited by you."
    assert not Game.objects.exists()


def test_the_preference_is_refused_in_the_same_words_as_a_block(creator, users):
    social_preference_set(users["invitee"], invitations_from_friends_only=True)
    block_create(users["outsider"], "creator")

    by_preference = invite(creator, "invitee").json()
    by_block = invite(creator, "outsider").json()

    assert by_preference["code"] == by_block["code"] == "NOT_INVITABLE"
    assert by_preference["detail"].replace("invitee", "X") == by_block["detail"].replace(
        "outsider", "X"
    )


def test_a_friend_may_invite_a_player_who_takes_invitations_from_friends_only(creator, users):
    social_preference_set(users["invitee"], invitations_from_friends_only=True)
    friend_request_send(users["creator"], "invitee")
    friend_request_send(users["invitee"], "creator")  # accepts the creator's

    made = invite(creator, "invitee")

    assert made.status_code == 201, made.content
    assert made.json()["seats"][1]["kind"] == "invited"


def test_the_creator_who_blocks_the_player_is_told_so(creator, users):
    block_create(users["creator"], "invitee")

    detail = refused(invite(creator, "invitee"), "PLAYER_BLOCKED")

    assert "unblock" in detail


def test_a_blocked_player_cannot_join_the_blockers_lobby_nor_see_it_open(creator, outsider, users):
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "open"}, {"type": "open"}])
    block_create(users["creator"], "outsider")

    detail = refused(
        outsider.post(f"/api/v1/games/{game['id']}/join", {}, format="json"), "SEAT_REFUSED"
    )

    assert detail == "You can't take a seat in this game."
    assert outsider.get("/api/v1/games?scope=open").json()["count"] == 0
    assert Seat.objects.filter(game_id=game["id"], user=users["outsider"]).count() == 0


def test_a_player_cannot_join_a_lobby_where_someone_they_block_sits(
    creator, opponent, outsider, users
):
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "open"}, {"type": "open"}])
    assert opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json").status_code == 200
    block_create(users["outsider"], "opponent")

    refused(outsider.post(f"/api/v1/games/{game['id']}/join", {}, format="json"), "PLAYER_BLOCKED")
    assert outsider.get("/api/v1/games?scope=open").json()["count"] == 0
    assert creator.get("/api/v1/games?scope=open").json()["count"] == 1


def test_the_second_of_two_invitees_a_block_separates_is_refused_their_seat(
    creator, opponent, invitee, users
):
    block_create(users["invitee"], "opponent")
    made = invite(creator, "opponent", "invitee")  # the creator is not told of their block
    assert made.status_code == 201, made.content
    game_id = made.json()["id"]
    accepted = opponent.post(f"/api/v1/games/{game_id}/invitation/accept", {}, format="json")
    assert accepted.status_code == 200, accepted.content

    refused(
        invitee.post(f"/api/v1/games/{game_id}/invitation/accept", {}, format="json"),
        "PLAYER_BLOCKED",
    )
    declined = invitee.post(f"/api/v1/games/{game_id}/invitation/decline", {}, format="json")
    assert declined.status_code == 200


def test_an_invitation_made_before_a_block_cannot_be_accepted_after_it(creator, invitee, users):
    game_id = invite(creator, "invitee").json()["id"]
    block_create(users["creator"], "invitee")

    refused(
        invitee.post(f"/api/v1/games/{game_id}/invitation/accept", {}, format="json"),
        "SEAT_REFUSED",
    )
    assert Seat.objects.get(game_id=game_id, index=1).kind == "invited"


def test_a_block_leaves_seats_already_taken(creator, opponent, users):
    game = create_game(creator, seats=[{"type": "creator"}, {"type": "open"}, {"type": "open"}])
    opponent.post(f"/api/v1/games/{game['id']}/join", {}, format="json")

    block_create(users["creator"], "opponent")

    started = creator.post(f"/api/v1/games/{game['id']}/start")
    assert started.status_code == 200, started.content
    assert [s["username"] for s in started.json()["seats"]] == ["creator", "opponent"]
