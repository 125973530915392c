"""What an erased account leaves in the chat: nothing. Its messages go (with the reports
of them), and so do its mutes, the mutes of it, its reports and its suspension. And what
its data export holds of the chat: the messages it wrote (``account_export``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from .models import ChatReport, ChatSuspension, Message, Mute


def account_erase(user: User) -> None:
    with transaction.atomic():
        Message.objects.filter(sender=user).delete()
        ChatReport.objects.filter(reporter=user).delete()
        Mute.objects.filter(Q(user=user) | Q(muted=user)).delete()
        ChatSuspension.objects.filter(user=user).delete()


def account_export(user: User) -> list[dict[str, Any]]:
    """The messages ``user`` wrote, oldest first, as the data export holds them."""
    written = Message.objects.filter(sender=user).order_by("pk")
    return [
        {
            "game": m.game_id,
            "room": m.room,
            "seat": m.seat,
            "text": None if m.quick else m.text,
            "quick": m.quick or None,
            "at": m.created_at,
            "hidden": m.hidden,
        }
        for m in written
    ]
