"""Whether a reader sees a sender's message: the one rule the list and the live streams
share. A reader never sees the messages of a player they block or who blocks them, nor
those of a player they mute, nor any message a moderator hid."""

from __future__ import annotations

from django.db.models import Q

from accounts.relations import apart_from, blocked_between

from .models import Message, Mute


def may_see(reader_id: int | None, message: Message) -> bool:
    """Whether the reader (None: someone signed out) sees ``message``."""
    if message.hidden:
        return False
    if reader_id is None or reader_id == message.sender_id:
        return True
    if Mute.objects.filter(user=reader_id, muted=message.sender_id).exists():
        return False
    return not blocked_between(reader_id, message.sender_id)


def seen_by(reader_id: int | None) -> Q:
    """A filter on messages: those the reader sees (``may_see`` as a query, for lists)."""
    shown = Q(hidden=False)
    if reader_id is None:
        return shown
    muted = Mute.objects.filter(user=reader_id).values("muted")
    return shown & ~Q(sender__in=muted) & ~apart_from(reader_id, "sender")
