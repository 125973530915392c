"""An account's chat in its data export, and gone with the account."""

from __future__ import annotations

from chat.erasure import account_erase
from chat.models import ChatReport, ChatSuspension, Message, Mute
from privacy.exports import export_build

from .conftest import say


def test_the_export_holds_the_messages_the_account_wrote(people, table):
    [(alice, a), (bob, b)] = people("alice", "bob")
    game = table("finished", alice, bob)
    assert say(a, game, text="good game").status_code == 201
    assert say(b, game, text="thanks").status_code == 201
    assert say(a, game, quick="well_played").status_code == 201
    Message.objects.filter(text="good game").update(hidden=True)

    asked = a.post("/api/v1/account/exports")
    assert asked.status_code == 202, asked.content
    assert export_build(asked.json()["id"]) == "ready"
    archive = a.get(f"/api/v1/account/exports/{asked.json()['id']}/download").json()

    rows = [{k: v for k, v in row.items() if k != "at"} for row in archive["chat_messages"]]
    assert rows == [
        {"game": game.pk, "room": "players", "seat": 0, "text": "good game", "quick": None,
         "hidden": True},
        {"game": game.pk, "room": "players", "seat": 0, "text": None, "quick": "well_played",
         "hidden": False},
    ]  # fmt: skip
    assert all(row["at"].endswith("Z") for row in archive["chat_messages"])


def test_an_erased_account_leaves_no_chat(people, table):
    [(alice, a), (bob, b)] = people("alice", "bob")
    game = table("finished", alice, bob)
    mine = say(a, game, text="mine").json()
    theirs = say(b, game, text="theirs").json()
    ChatReport.objects.create(message_id=theirs["id"], reporter=alice, reason="spam")
    ChatReport.objects.create(message_id=mine["id"], reporter=bob, reason="abuse")
    Mute.objects.create(user=alice, muted=bob)
    Mute.objects.create(user=bob, muted=alice)
    ChatSuspension.objects.create(user=alice)

    account_erase(alice)
    account_erase(alice)  # again, as an erasure cut short is run again

    assert list(Message.objects.values_list("text", flat=True)) == ["theirs"]
    assert not ChatReport.objects.exists()
    assert not Mute.objects.exists() and not ChatSuspension.objects.exists()
