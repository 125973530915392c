"""Friend requests over the API: sent by username, answered by their recipient, cancelled
by their sender, and refused with stable codes."""

from __future__ import annotations

import pytest

from accounts.models import FriendRequest, Friendship
from notifications.models import Notification

pytestmark = pytest.mark.django_db


def ids(page):
    return [row["id"] for row in page.json()["results"]]


def test_a_request_is_pending_for_both_and_its_recipient_is_told(players):
    alice, bob = players("alice", "bob")

    sent = alice.send("BOB")  # names match ignoring case

    assert sent.status_code == 201, sent.content
    request = sent.json()
    assert request["sender"] == {"id": alice.user.pk, "username": "alice"}
    assert request["recipient"] == {"id": bob.user.pk, "username": "bob"}
    assert ids(bob.client.get("/api/v1/friend-requests/incoming")) == [request["id"]]
    assert ids(alice.client.get("/api/v1/friend-requests/outgoing")) == [request["id"]]
    assert ids(alice.client.get("/api/v1/friend-requests/incoming")) == []
    told = Notification.objects.get(user=bob.user)
    assert told.kind == "friend_request"
    assert told.data == {"friend_request_id": request["id"], "username": "alice"}


def test_an_accepted_request_makes_friends_and_tells_its_sender(players):
    alice, bob = players("alice", "bob")
    request_id = alice.send("bob").json()["id"]

    accepted = bob.client.post(f"/api/v1/friend-requests/{request_id}/accept")

    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["username"] == "alice" and accepted.json()["in_game"] is False
    assert [f["username"] for f in alice.client.get("/api/v1/friends").json()["results"]] == ["bob"]
    assert not FriendRequest.objects.exists()
    told = Notification.objects.get(user=alice.user, kind="friend_accepted")
    assert told.data == {"username": "bob"}


def test_a_request_to_someone_who_asked_first_accepts_theirs(players):
    alice, bob = players("alice", "bob")
    alice.send("bob")

    crossed = bob.send("alice")

    assert crossed.status_code == 200, crossed.content
    assert crossed.json()["username"] == "alice"
    assert Friendship.objects.count() == 1 and not FriendRequest.objects.exists()
    assert Notification.objects.filter(user=alice.user, kind="friend_accepted").count() == 1


def test_a_declined_request_is_gone_for_both_and_may_be_sent_again(players):
    alice, bob = players("alice", "bob")
    request_id = alice.send("bob").json()["id"]

    declined = bob.client.post(f"/api/v1/friend-requests/{request_id}/decline")

    assert declined.status_code == 204
    assert ids(alice.client.get("/api/v1/friend-requests/outgoing")) == []
    assert ids(bob.client.get("/api/v1/friend-requests/incoming")) == []
    assert not Notification.objects.filter(user=alice.user).exists()
    assert alice.send("bob").status_code == 201


def test_only_its_sender_cancels_a_request_and_only_its_recipient_answers_it(players):
    alice, bob, carol = players("alice", "bob", "carol")
    request_id = alice.send("bob").json()["id"]
    path = f"/api/v1/friend-requests/{request_id}"

    cancelled = bob.client.delete(path)
    assert (cancelled.status_code, cancelled.json()["code"]) == (403, "PERMISSION_DENIED")
    for answer in ("accept", "decline"):
        refused = alice.client.post(f"{path}/{answer}")
        assert (refused.status_code, refused.json()["code"]) == (403, "PERMISSION_DENIED")
    # Someone else's request is answered as one that does not exist.
    for attempt in (carol.client.delete(path), carol.client.post(f"{path}/accept")):
        assert (attempt.status_code, attempt.json()["code"]) == (404, "FRIEND_REQUEST_NOT_FOUND")
    assert FriendRequest.objects.count() == 1

    assert alice.client.delete(path).status_code == 204
    assert not FriendRequest.objects.exists()
    gone = bob.client.post(f"{path}/accept")
    assert gone.status_code == 404 and gone.json()["code"] == "FRIEND_REQUEST_NOT_FOUND"


@pytest.mark.parametrize(
    ("to", "status", "code"),
    [
        ("alice", 400, "NAMED_YOURSELF"),
        ("Alice", 400, "NAMED_YOURSELF"),
        ("nobody", 404, "PLAYER_NOT_FOUND"),
    ],
)
def test_a_request_to_oneself_or_to_nobody_is_refused(players, to, status, code):
    (alice,) = players("alice")

    refused = alice.send(to)

    assert (refused.status_code, refused.json()["code"]) == (status, code)
    assert not FriendRequest.objects.exists()


def test_a_second_request_and_a_request_to_a_friend_are_refused(players):
    alice, bob = players("alice", "bob")
    alice.send("bob")

    again = alice.send("bob")
    assert (again.status_code, again.json()["code"]) == (409, "FRIEND_REQUEST_PENDING")

    bob.send("alice")
    friends = alice.send("bob")
    assert (friends.status_code, friends.json()["code"]) == (409, "ALREADY_FRIENDS")


def test_pending_requests_are_limited(players, settings):
    settings.MAX_PENDING_FRIEND_REQUESTS = 2
    alice, *_ = players("alice", "bob", "carol", "dave")
    assert alice.send("bob").status_code == 201
    assert alice.send("carol").status_code == 201

    refused = alice.send("dave")

    assert (refused.status_code, refused.json()["code"]) == (409, "FRIEND_REQUEST_LIMIT_REACHED")
    assert FriendRequest.objects.count() == 2


def test_friends_are_limited_on_both_sides(players, settings):
    settings.MAX_FRIENDS_PER_USER = 1
    alice, bob, carol = players("alice", "bob", "carol")
    alice.send("bob")
    assert bob.send("alice").status_code == 200  # alice and bob are friends

    request_id = carol.send("alice").json()["id"]  # alice has as many friends as allowed
    refused = alice.client.post(f"/api/v1/friend-requests/{request_id}/accept")
    assert (refused.status_code, refused.json()["code"]) == (409, "FRIEND_LIMIT_REACHED")

    crossing = alice.send("carol")  # accepting carol's own request, refused the same way
    assert (crossing.status_code, crossing.json()["code"]) == (409, "FRIEND_LIMIT_REACHED")
    assert Friendship.objects.count() == 1
    assert FriendRequest.objects.filter(sender=carol.user).exists()


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({}, "username", "REQUIRED"),
        ({"username": 7}, "username", "WRONG_TYPE"),
        ({"username": "bob", "note": "hi"}, "note", "UNKNOWN_FIELD"),
        ({"username": "b" * 151}, "username", "MAX_LENGTH"),
    ],
)
def test_the_body_is_strict(players, body, field, code):
    alice, _ = players("alice", "bob")

    refused = alice.client.post("/api/v1/friend-requests", body, format="json")

    assert refused.status_code == 400
    assert {"field": field, "code": code} in [
        {"field": row["field"], "code": row["code"]} for row in refused.json()["errors"]
    ]
    assert not FriendRequest.objects.exists()
