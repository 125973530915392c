"""A player away from the table hears of new messages in the players' room: one notice
per game every CHAT_NOTICE_MINUTES, none while they follow the chat, none for messages
they would not see, none for the spectators' room."""

from __future__ import annotations

import time_machine

from accounts.blocks import block_create
from notifications.models import Notification

from .conftest import listed, say


def _told(user) -> list[dict]:
    return list(
        Notification.objects.filter(user=user, kind="chat_message")
        .order_by("pk")
        .values("game_id", "data")
    )


def test_an_away_player_is_told_once_per_window(people, table):
    [(alice, a), (bob, _), (carol, _)] = people("alice", "bob", "carol")
    game = table("active", alice, bob, carol)
    with time_machine.travel("2026-12-01 12:00:00Z", tick=False) as clock:
        assert say(a, game, text="anyone there?").status_code == 201
        told = [{"game_id": game.pk, "data": {"game_id": game.pk, "username": "alice"}}]
        assert _told(bob) == told and _told(carol) == told
        assert _told(alice) == []  # never of one's own message

        clock.shift(60)
        assert say(a, game, text="hello?").status_code == 201
        assert len(_told(bob)) == 1  # within the window: not again

        clock.shift(5 * 60)
        assert say(a, game, quick="your_turn").status_code == 201
        assert len(_told(bob)) == 2


def test_a_player_following_the_chat_is_not_told(people, table):
    [(alice, a), (bob, b)] = people("alice", "bob")
    game = table("active", alice, bob)
    with time_machine.travel("2026-12-01 12:00:00Z", tick=False) as clock:
        listed(b, game)  # bob reads the players' room
        assert say(a, game, text="hi bob").status_code == 201
        assert _told(bob) == []

        clock.shift(4 * 60)
        assert say(b, game, text="hi alice").status_code == 201  # posting counts too
        assert _told(alice) == []
        clock.shift(6 * 60)  # both quiet for longer than the window
        assert say(a, game, text="still there?").status_code == 201
        assert len(_told(bob)) == 1


def test_no_notice_for_a_message_one_would_not_see_or_for_spectators(people, table):
    [(alice, a), (bob, _), (_, c)] = people("alice", "bob", "carol")
    game = table("active", alice, bob)
    block_create(bob, "alice")
    assert say(a, game, text="hi").status_code == 201
    assert say(c, game, room="spectators", text="watching").status_code == 201
    assert Notification.objects.filter(kind="chat_message").count() == 0
