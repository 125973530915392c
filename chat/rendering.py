"""One message as one reader sees it: the only place a message is turned into its API
shape, for the list, the answer to a post and the live streams alike."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from rest_framework.fields import DateTimeField

from .models import Message
from .quick import QUICK_MESSAGES

# The API's form of a time (ISO 8601, UTC as Z), as its serializers write it.
_AT = DateTimeField()


def quick_text(code: str, language: str) -> str:
    """The quick message ``code`` in ``language`` (English where it has no translation)."""
    with translation.override(language):
        return str(QUICK_MESSAGES[code])


def message_for(message: Message, reader_language: str) -> dict[str, Any]:
    """``message`` as the API shows it to a reader who reads ``reader_language``: who sent
    it from which seat, and what they typed, or the quick message in the reader's
    language (``body``). Nothing else about the game. ``message.sender`` is read, so read
    messages with ``select_related("sender")``."""
    quick = message.quick or None
    text = None if quick else message.text
    return {
        "id": message.pk,
        "game": message.game_id,
        "room": message.room,
        "sender": message.sender.get_username(),
        "seat": message.seat,
        "text": text,
        "quick": quick,
        "body": quick_text(quick, reader_language) if quick else message.text,
        "at": _AT.to_representation(message.created_at),
    }
