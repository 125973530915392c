"""Examples for the OpenAPI schema, written by ``message_for`` from unsaved rows, so they
keep the shape the endpoints answer with."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiExample

from .models import Message, Room
from .rendering import message_for

_AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
_SINCE = "2026-11-29T12:05:00Z"


def _message(pk: int, sender: str, seat: int | None, **said: str) -> dict[str, Any]:
    room = Room.PLAYERS if seat is not None else Room.SPECTATORS
    message = Message(
        id=pk, game_id=12, room=room, sender=User(username=sender), seat=seat, created_at=_AT
    )
    message.text, message.quick = said.get("text", ""), said.get("quick", "")
    return message_for(message, "en")


def post_text() -> OpenApiExample:
    return OpenApiExample(
        "Typed text", value={"room": "players", "text": "good luck"}, request_only=True
    )


def post_quick() -> OpenApiExample:
    return OpenApiExample(
        "A quick message", value={"room": "players", "quick": "good_luck"}, request_only=True
    )


def posted() -> OpenApiExample:
    return OpenApiExample(
        "Posted", value=_message(101, "alice", 0, text="good luck"), response_only=True
    )


def listed() -> OpenApiExample:
    """One item; the schema generator wraps it in the list page."""
    return OpenApiExample(
        "A quick message, as a reader in English sees it",
        value=_message(102, "bob", 1, quick="thanks"),
        response_only=True,
    )


def quick_messages() -> OpenApiExample:
    """One item; the schema generator wraps it in the list."""
    return OpenApiExample(
        "One of them, in English",
        value={"code": "good_luck", "text": "Good luck!"},
        response_only=True,
    )


def mutes() -> OpenApiExample:
    return OpenApiExample(
        "One player muted", value={"username": "carol", "since": _SINCE}, response_only=True
    )


def mute() -> OpenApiExample:
    return OpenApiExample("Muted", value={"username": "carol", "since": _SINCE}, response_only=True)


def report_request() -> OpenApiExample:
    return OpenApiExample(
        "Abuse, with a note",
        value={"reason": "abuse", "note": "Insults after every move."},
        request_only=True,
    )


def report() -> OpenApiExample:
    value = {
        "id": 5,
        "message": 101,
        "reason": "abuse",
        "note": "Insults after every move.",
        "created_at": _SINCE,
    }
    return OpenApiExample("Queued", value=value, response_only=True)
