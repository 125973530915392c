"""Quick messages: the list of codes with their texts, and each shown in the reader's
language (the rendering function, under each language the service speaks)."""

from __future__ import annotations

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from chat.models import Message, Room
from chat.quick import QUICK_CODES
from chat.rendering import message_for


def test_the_list_names_every_code_with_its_text(db):
    answer = APIClient().get("/api/v1/chat/quick-messages")
    assert answer.status_code == 200
    listed = answer.json()
    assert [q["code"] for q in listed] == list(QUICK_CODES)
    assert {"code": "good_luck", "text": "Good luck!"} in listed


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "Good luck!"), ("ru", "Удачи!"), ("el", "Καλή τύχη!"), ("vi", "Chúc may mắn!")],
)
def test_a_quick_message_reads_in_the_readers_language(people, language, expected):
    [(alice, _)] = people("alice")
    message = Message(
        id=1, game_id=3, room=Room.PLAYERS, sender=alice, seat=0, quick="good_luck", text=""
    )
    from django.utils import timezone

    message.created_at = timezone.now()
    shown = message_for(message, language)
    assert (shown["quick"], shown["text"], shown["body"]) == ("good_luck", None, expected)
    # The reader's language only: the one active around the call does not matter.
    with translation.override("ru" if language != "ru" else "el"):
        assert message_for(message, language)["body"] == expected


@pytest.mark.parametrize("language", ["el", "vi", "ru"])
def test_every_quick_message_is_translated(language):
    from chat.quick import QUICK_MESSAGES
    from chat.rendering import quick_text

    for code, english in QUICK_MESSAGES.items():
        with translation.override("en"):
            source = str(english)
        assert quick_text(code, language) != source, (language, code)
