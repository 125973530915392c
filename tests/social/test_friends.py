"""My friends: listed by name with whether each plays now, and a friendship ended."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Friendship
from games.models import Game, GameStatus, Seat, SeatKind

pytestmark = pytest.mark.django_db


def befriend(a, b):
    a.send(b.name)
    assert b.send(a.name).status_code == 200


def seat_in(user, status):
    game = Game.objects.create(board="europe", created_by=user, players=2, seed=1, status=status)
    Seat.objects.create(game=game, index=0, kind=SeatKind.HUMAN, user=user)
    Seat.objects.create(game=game, index=1, kind=SeatKind.AI, ai_level="easy")
    return game.pk


def test_friends_are_listed_by_name_with_whether_each_plays_now(players):
    alice, bob, carol, dave, erin = players("alice", "Bob", "carol", "dave", "erin")
    for friend in (carol, bob, dave):
        befriend(alice, friend)
    earlier = seat_in(bob.user, GameStatus.ACTIVE)
    latest = seat_in(bob.user, GameStatus.ACTIVE)
    # The earlier game moved last: it is the one named.
    Game.objects.filter(pk=earlier).update(updated_at=timezone.now() + timedelta(minutes=1))
    seat_in(carol.user, GameStatus.LOBBY)
    seat_in(dave.user, GameStatus.FINISHED)
    seat_in(erin.user, GameStatus.ACTIVE)  # not a friend

    page = alice.client.get("/api/v1/friends").json()

    assert page["count"] == 3
    assert [(f["username"], f["in_game"], f["game_id"]) for f in page["results"]] == [
        ("Bob", True, earlier),
        ("carol", False, None),
        ("dave", False, None),
    ]
    assert latest != earlier
    assert page["results"][0]["id"] == bob.user.pk
    since = Friendship.objects.get(user_high=bob.user).created_at
    assert page["results"][0]["since"] == since.isoformat().replace("+00:00", "Z")


def test_a_friendship_shows_on_both_sides_and_either_may_end_it(players):
    alice, bob = players("alice", "bob")
    befriend(alice, bob)
    assert [f["username"] for f in bob.client.get("/api/v1/friends").json()["results"]] == ["alice"]

    ended = bob.client.delete("/api/v1/friends/ALICE")

    assert ended.status_code == 204
    assert alice.client.get("/api/v1/friends").json()["count"] == 0
    again = bob.client.delete("/api/v1/friends/alice")
    assert (again.status_code, again.json()["code"]) == (404, "FRIEND_NOT_FOUND")


@pytest.mark.parametrize("name", ["carol", "nobody"])
def test_ending_a_friendship_with_a_stranger_is_not_found(players, name):
    alice, _ = players("alice", "carol")

    refused = alice.client.delete(f"/api/v1/friends/{name}")

    assert (refused.status_code, refused.json()["code"]) == (404, "FRIEND_NOT_FOUND")


def test_the_friends_list_is_paginated(players):
    alice, *others = players("alice", "bob", "carol", "dave")
    for friend in others:
        befriend(alice, friend)

    first = alice.client.get("/api/v1/friends?page_size=2").json()
    second = alice.client.get("/api/v1/friends?page_size=2&page=2").json()

    assert [f["username"] for f in first["results"] + second["results"]] == [
        "bob",
        "carol",
        "dave",
    ]
    assert first["next"] is not None and second["next"] is None
    past = alice.client.get("/api/v1/friends?page=3&page_size=2")
    assert (past.status_code, past.json()["code"]) == (404, "NOT_FOUND")
