"""Posting in a game's rooms and listing them: the message's shape, paging newest first,
and who reads and writes which room before, during and after the game."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from chat.models import Message

from .conftest import chat_path, listed, say


def test_a_player_posts_text_and_the_others_read_it(people, table):
    [(alice, a), (bob, b)] = people("alice", "bob")
    game = table("active", alice, bob)

    posted = say(a, game, text="  good luck  ")
    assert posted.status_code == 201, posted.content
    body = posted.json()
    assert set(body) == {"id", "game", "room", "sender", "seat", "text", "quick", "body", "at"}
    assert body["game"] == game.pk and body["room"] == "players"
    assert (body["sender"], body["seat"]) == ("alice", 0)
    assert (body["text"], body["quick"], body["body"]) == ("good luck", None, "good luck")
    assert body["at"].endswith("Z")

    assert listed(b, game) == [body]
    stored = Message.objects.get()
    assert (stored.text, stored.quick, stored.seat) == ("good luck", "", 0)


def test_a_quick_message_carries_its_code_and_the_readers_text(people, table):
    [(alice, a), (bob, b)] = people("alice", "bob")
    game = table("active", alice, bob)
    posted = say(b, game, quick="good_luck")
    assert posted.status_code == 201, posted.content
    body = posted.json()
    assert (body["seat"], body["text"], body["quick"], body["body"]) == (
        1, None, "good_luck", "Good luck!",
    )  # fmt: skip
    assert listed(a, game)[0]["body"] == "Good luck!"


def test_the_room_is_listed_newest_first_in_pages(people, table, settings):
    settings.CHAT = type(settings.CHAT)(post_rates=(), notice_minutes=5)
    [(alice, a), (bob, _)] = people("alice", "bob")
    game = table("active", alice, bob)
    for n in range(5):
        assert say(a, game, text=f"m{n}").status_code == 201
    first = a.get(chat_path(game), {"page_size": 2}).json()
    assert [m["text"] for m in first["results"]] == ["m4", "m3"]
    second = a.get(first["next"]).json()
    assert [m["text"] for m in second["results"]] == ["m2", "m1"]
    bad = a.get(chat_path(game), {"cursor": "nonsense"})
    assert bad.status_code == 400 and bad.json()["code"] == "BAD_CURSOR"


def test_the_rooms_are_apart(people, table):
    [(alice, a), (bob, _), (_, c)] = people("alice", "bob", "carol")
    game = table("active", alice, bob)
    assert say(a, game, text="players only").status_code == 201
    spoken = say(c, game, room="spectators", text="watching")
    assert spoken.status_code == 201, spoken.content
    assert spoken.json()["seat"] is None
    assert [m["text"] for m in listed(c, game, "spectators")] == ["watching"]
    assert [m["text"] for m in listed(a, game)] == ["players only"]


@pytest.mark.parametrize("status", ["lobby", "active"])
def test_before_the_end_each_room_keeps_to_its_people(people, table, status):
    [(alice, a), (bob, _), (_, c)] = people("alice", "bob", "carol")
    game = table(status, alice, bob)
    assert say(a, game, text="hi").status_code == 201

    for answer in (c.get(chat_path(game)), say(c, game, text="let me in")):
        assert answer.status_code == 403 and answer.json()["code"] == "NOT_A_PLAYER"
    for answer in (
        a.get(chat_path(game), {"room": "spectators"}),
        say(a, game, room="spectators", text="hello watchers"),
    ):
        assert answer.status_code == 403 and answer.json()["code"] == "CHAT_ROOM_CLOSED"
    anonymous = APIClient()
    assert anonymous.get(chat_path(game)).json()["code"] == "NOT_A_PLAYER"
    assert listed(anonymous, game, "spectators") == []  # games are watched signed out too
    assert say(anonymous, game, room="spectators", text="hi").status_code == 401


@pytest.mark.parametrize("status", ["finished", "cancelled"])
def test_after_the_end_the_rooms_open_for_reading(people, table, status):
    [(alice, a), (bob, _), (_, c)] = people("alice", "bob", "carol")
    game = table(status, alice, bob)
    assert say(a, game, quick="well_played").status_code == 201
    assert say(c, game, room="spectators", text="great game").status_code == 201

    assert [m["quick"] for m in listed(c, game)] == ["well_played"]
    assert [m["quick"] for m in listed(APIClient(), game)] == ["well_played"]
    assert [m["text"] for m in listed(a, game, "spectators")] == ["great game"]
    # Still each room's own writers only.
    assert say(c, game, text="me too").json()["code"] == "NOT_A_PLAYER"
    assert say(a, game, room="spectators", text="thanks").json()["code"] == "CHAT_ROOM_CLOSED"


def test_an_unknown_game_is_not_found(people):
    [(_, a)] = people("alice")
    assert a.get("/api/v1/games/999999/chat").json()["code"] == "GAME_NOT_FOUND"
    assert say(a, type("G", (), {"pk": 999999})(), text="hi").status_code == 404


def test_the_room_parameter_is_checked(people, table):
    [(alice, a)] = people("alice")
    game = table("active", alice)
    answer = a.get(chat_path(game), {"room": "kitchen"})
    assert answer.status_code == 400 and answer.json()["code"] == "VALIDATION_ERROR"
