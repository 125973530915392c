"""Blocks: made and undone by username, ending what stood between the two players, and
never telling the blocked player they are blocked."""

from __future__ import annotations

import pytest

from accounts.models import Block, FriendRequest, Friendship
from notifications.models import Notification

pytestmark = pytest.mark.django_db


def usernames(page):
    return [row["username"] for row in page.json()["results"]]


def test_a_block_is_made_once_and_listed(players):
    alice, bob = players("alice", "bob")

    made = alice.block("BOB")
    again = alice.block("bob")

    assert made.status_code == 201, made.content
    assert made.json()["id"] == bob.user.pk and made.json()["username"] == "bob"
    assert again.status_code == 200 and again.json() == made.json()
    assert Block.objects.count() == 1
    assert usernames(alice.client.get("/api/v1/blocks")) == ["bob"]
    assert usernames(bob.client.get("/api/v1/blocks")) == []


@pytest.mark.parametrize(
    ("who", "status", "code"), [("alice", 400, "NAMED_YOURSELF"), ("zed", 404, "PLAYER_NOT_FOUND")]
)
def test_blocking_oneself_or_nobody_is_refused(players, who, status, code):
    (alice,) = players("alice")

    refused = alice.block(who)

    assert (refused.status_code, refused.json()["code"]) == (status, code)
    assert not Block.objects.exists()


def test_a_block_ends_the_friendship_of_the_two_and_no_other(players):
    alice, bob, carol = players("alice", "bob", "carol")
    for other in (bob, carol):
        alice.send(other.name)
        assert other.send("alice").status_code == 200

    assert alice.block("bob").status_code == 201

    assert usernames(alice.client.get("/api/v1/friends")) == ["carol"]
    assert usernames(bob.client.get("/api/v1/friends")) == []
    assert Friendship.objects.count() == 1


@pytest.mark.parametrize("sender", ["alice", "bob"])
def test_a_block_drops_a_request_either_way(players, sender):
    alice, bob, carol = players("alice", "bob", "carol")
    by = {"alice": alice, "bob": bob}[sender]
    by.send("bob" if sender == "alice" else "alice")
    carol.send("alice")

    alice.block("bob")

    assert list(FriendRequest.objects.values_list("sender__username", flat=True)) == ["carol"]


def test_a_request_from_a_blocked_player_looks_sent_to_them_and_reaches_nobody(players):
    alice, bob = players("alice", "bob")
    alice.block("bob")

    sent = bob.send("alice")

    assert sent.status_code == 201, sent.content
    assert [
        r["id"] for r in bob.client.get("/api/v1/friend-requests/outgoing").json()["results"]
    ] == [sent.json()["id"]]
    assert alice.client.get("/api/v1/friend-requests/incoming").json()["count"] == 0
    assert not Notification.objects.filter(user=alice.user).exists()
    hidden = f"/api/v1/friend-requests/{sent.json()['id']}"
    attempts = [alice.client.post(f"{hidden}/{answer}") for answer in ("accept", "decline")]
    for refused in [*attempts, alice.client.delete(hidden)]:
        assert (refused.status_code, refused.json()["code"]) == (404, "FRIEND_REQUEST_NOT_FOUND")
    again = bob.send("alice")  # as for any pending request
    assert (again.status_code, again.json()["code"]) == (409, "FRIEND_REQUEST_PENDING")
    assert bob.client.delete(hidden).status_code == 204


def test_the_blocker_is_told_of_their_own_block(players):
    alice, _ = players("alice", "bob")
    alice.block("bob")

    refused = alice.send("bob")

    assert (refused.status_code, refused.json()["code"]) == (409, "PLAYER_BLOCKED")


def test_unblocking_drops_what_the_blocked_player_sent_meanwhile(players):
    alice, bob = players("alice", "bob")
    alice.block("bob")
    bob.send("alice")

    unblocked = alice.client.delete("/api/v1/blocks/Bob")

    assert unblocked.status_code == 204
    assert not Block.objects.exists() and not FriendRequest.objects.exists()
    assert bob.client.get("/api/v1/friend-requests/outgoing").json()["count"] == 0
    assert alice.send("bob").status_code == 201  # friends may be made again
    again = alice.client.delete("/api/v1/blocks/bob")
    assert (again.status_code, again.json()["code"]) == (404, "BLOCK_NOT_FOUND")


def test_unblocking_leaves_the_other_way_blocked(players):
    alice, bob = players("alice", "bob")
    alice.block("bob")
    bob.block("alice")
    alice.client.delete("/api/v1/blocks/bob")

    sent = alice.send("bob")  # bob still blocks alice: hidden from bob

    assert sent.status_code == 201
    assert bob.client.get("/api/v1/friend-requests/incoming").json()["count"] == 0


@pytest.mark.parametrize("name", ["carol", "nobody"])
def test_unblocking_a_player_not_blocked_is_not_found(players, name):
    alice, _ = players("alice", "carol")

    refused = alice.client.delete(f"/api/v1/blocks/{name}")

    assert (refused.status_code, refused.json()["code"]) == (404, "BLOCK_NOT_FOUND")
