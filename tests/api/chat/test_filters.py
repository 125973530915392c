"""What a reader does not see: messages a moderator hid, those of a player the reader
blocks or who blocks the reader, and those of a player the reader mutes."""

from __future__ import annotations

from accounts.blocks import block_create, block_delete
from chat.models import Message, Mute

from .conftest import listed, say


def _texts(client, game) -> list[str]:
    return [m["text"] for m in listed(client, game)]


def test_a_block_hides_messages_both_ways(people, table):
    [(alice, a), (bob, b), (carol, c)] = people("alice", "bob", "carol")
    game = table("active", alice, bob, carol)
    for client, text in ((a, "from alice"), (b, "from bob"), (c, "from carol")):
        assert say(client, game, text=text).status_code == 201

    block_create(alice, "bob")
    assert _texts(a, game) == ["from carol", "from alice"]
    assert _texts(b, game) == ["from carol", "from bob"]
    assert _texts(c, game) == ["from carol", "from bob", "from alice"]

    block_delete(alice, "bob")
    assert _texts(a, game) == ["from carol", "from bob", "from alice"]


def test_mutes_are_made_listed_and_undone_through_the_api(people, table):
    [(alice, a), (bob, b), (_, c)] = people("alice", "bob", "carol")
    game = table("active", alice, bob)
    assert say(b, game, text="from bob").status_code == 201
    assert say(a, game, text="from alice").status_code == 201

    made = a.put("/api/v1/chat/mutes/BOB")
    assert made.status_code == 201, made.content
    assert made.json()["username"] == "bob"
    assert a.put("/api/v1/chat/mutes/bob").status_code == 200  # once
    assert [m["username"] for m in a.get("/api/v1/chat/mutes").json()] == ["bob"]
    assert _texts(a, game) == ["from alice"]
    assert _texts(b, game) == ["from alice", "from bob"]  # a mute is one way
    assert c.get("/api/v1/chat/mutes").json() == []

    assert a.delete("/api/v1/chat/mutes/bob").status_code == 204
    assert _texts(a, game) == ["from alice", "from bob"]
    gone = a.delete("/api/v1/chat/mutes/bob")
    assert gone.status_code == 404 and gone.json()["code"] == "CHAT_MUTE_NOT_FOUND"
    assert not Mute.objects.exists()


def test_a_mute_of_oneself_or_of_nobody_is_refused(people):
    [(_, a)] = people("alice")
    assert a.put("/api/v1/chat/mutes/alice").json()["code"] == "NAMED_YOURSELF"
    assert a.put("/api/v1/chat/mutes/nobody").json()["code"] == "PLAYER_NOT_FOUND"


def test_a_hidden_message_is_listed_to_nobody(people, table):
    [(alice, a), (bob, b)] = people("alice", "bob")
    game = table("finished", alice, bob)
    assert say(a, game, text="rude").status_code == 201
    assert say(a, game, text="sorry").status_code == 201
    Message.objects.filter(text="rude").update(hidden=True)
    assert _texts(a, game) == ["sorry"]
    assert _texts(b, game) == ["sorry"]
