"""Posting is limited per player and game: past a rate, 429 THROTTLED with Retry-After,
and allowed again once the window is over."""

from __future__ import annotations

import pytest
import time_machine
from django.utils import translation

from chat.models import Message
from chat.posting import message_post
from ttr_service.config.account_env import Rate
from ttr_service.http.problems import ServiceError

from .conftest import say


def test_past_the_rate_posting_waits_for_the_window(people, table, settings):
    settings.CHAT = type(settings.CHAT)(post_rates=(Rate(3, 10), Rate(30, 600)), notice_minutes=5)
    [(alice, a), (bob, b)] = people("alice", "bob")
    game = table("active", alice, bob)
    other = table("active", alice, bob)
    with time_machine.travel("2026-12-01 12:00:00Z", tick=False) as clock:
        for n in range(3):
            assert say(a, game, text=f"m{n}").status_code == 201
        refused = say(a, game, text="one too many")
        assert refused.status_code == 429
        assert refused.json()["code"] == "THROTTLED"
        assert 1 <= int(refused["Retry-After"]) <= 10
        # Per player and per game: bob, and alice at another table, still post.
        assert say(b, game, text="hi").status_code == 201
        assert say(a, other, text="hi").status_code == 201

        clock.shift(11)
        assert say(a, game, text="again").status_code == 201
    assert Message.objects.filter(game=game, sender=alice).count() == 4


def test_the_longer_window_counts_too(people, table, settings):
    settings.CHAT = type(settings.CHAT)(post_rates=(Rate(5, 10), Rate(6, 600)), notice_minutes=5)
    [(alice, a)] = people("alice")
    game = table("active", alice)
    with time_machine.travel("2026-12-01 12:00:00Z", tick=False) as clock:
        for n in range(6):
            if n == 5:
                clock.shift(11)
            assert say(a, game, text=f"m{n}").status_code == 201
        refused = say(a, game, text="m6")
        assert refused.status_code == 429
        assert int(refused["Retry-After"]) > 500


def test_the_wait_is_said_with_each_languages_plural_forms(people, table, settings):
    [(alice, _)] = people("alice")
    words: dict[str, list[str]] = {"en": [], "ru": []}
    with time_machine.travel("2026-12-01 12:00:00Z", tick=False):
        for language, said in words.items():
            for wait in (1, 2, 5, 21):
                # One post a window of ``wait`` seconds, at a new table: the second waits it.
                settings.CHAT = type(settings.CHAT)(post_rates=(Rate(1, wait),), notice_minutes=5)
                game = table("active", alice)
                message_post(alice, game.pk, "players", "hi", "")
                with translation.override(language), pytest.raises(ServiceError) as refused:
                    message_post(alice, game.pk, "players", "again", "")
                assert refused.value.wait == wait
                said.append(str(refused.value.detail).rsplit(" ", 1)[1])
    assert words == {
        "en": ["second.", "seconds.", "seconds.", "seconds."],
        "ru": ["секунду.", "секунды.", "секунд.", "секунду."],
    }
