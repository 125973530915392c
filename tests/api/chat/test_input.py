"""What a message may say: 500 characters at most once trimmed, not blank, text or a known
quick message but not both, kept as sent (never read as HTML)."""

from __future__ import annotations

import pytest

from chat.models import Message

from .conftest import say


@pytest.fixture
def seated(people, table):
    [(alice, a)] = people("alice")
    return a, table("active", alice)


def _rows(answer) -> list[tuple[str, str]]:
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "VALIDATION_ERROR"
    return [(row["field"], row["code"]) for row in body["errors"]]


def test_five_hundred_characters_are_taken_and_five_hundred_and_one_are_not(seated):
    a, game = seated
    assert say(a, game, text="x" * 500).status_code == 201
    assert say(a, game, text=" " + "y" * 500 + "  ").status_code == 201  # trimmed first
    assert _rows(say(a, game, text="z" * 501)) == [("text", "MAX_LENGTH")]
    assert Message.objects.count() == 2


def test_empty_and_blank_text_is_refused(seated):
    a, game = seated
    assert _rows(say(a, game, text="")) == [("text", "BLANK")]
    assert _rows(say(a, game, text="   \n ")) == [("text", "BLANK")]


def test_text_and_quick_together_or_neither_are_refused(seated):
    a, game = seated
    both = _rows(say(a, game, text="hi", quick="hello"))
    neither = _rows(say(a, game))
    assert both == neither and len(both) == 1
    assert Message.objects.count() == 0


def test_an_unknown_quick_code_or_room_is_refused(seated):
    a, game = seated
    assert _rows(say(a, game, quick="gg_ez")) == [("quick", "INVALID_CHOICE")]
    assert _rows(say(a, game, room="kitchen", text="hi")) == [("room", "INVALID_CHOICE")]


def test_unknown_fields_are_refused(seated):
    a, game = seated
    assert _rows(say(a, game, text="hi", colour="red")) == [("colour", "UNKNOWN_FIELD")]


def test_markup_is_kept_as_sent(seated):
    a, game = seated
    said = '<b>bold</b> & <script>alert("x")</script>'
    assert say(a, game, text=said).json()["body"] == said
