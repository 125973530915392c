"""What an erased account leaves in the chat: nothing. Its messages go (with the reports
of them), and so do its mutes, the mutes of it, its reports and its suspension."""

from __future__ import annotations

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
