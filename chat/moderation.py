"""Reports of messages, and what a moderator does about them: hide the message, suspend
the sender's chat. A hidden message is no longer listed to anyone (nor sent on a stream);
a suspended player's posts are refused with ``CHAT_SUSPENDED``."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

from .models import ChatReport, ChatSuspension, Message
from .rooms import check_read, place_of
from .visibility import may_see


def _missing() -> ServiceError:
    return ServiceError(Code.CHAT_MESSAGE_NOT_FOUND, _("No message you may read has this id."))


def report_create(user: User, message_id: int, reason: str, note: str) -> ChatReport:
    """``user`` reports a message they may read; once per message."""
    message = Message.objects.filter(pk=message_id).first()
    if message is None or not may_see(user.pk, message):
        raise _missing()
    try:
        check_read(place_of(message.game_id, user), message.room)
    except ServiceError:
        raise _missing() from None
    try:
        with transaction.atomic():
            return ChatReport.objects.create(
                message=message, reporter=user, reason=reason, note=note
            )
    except IntegrityError:
        raise ServiceError(
            Code.CHAT_ALREADY_REPORTED, _("You reported this message already.")
        ) from None


def messages_hide(messages: Iterable[Message]) -> int:
    """Hide the messages and close the reports of them; how many were hidden."""
    ids = [m.pk for m in messages]
    with transaction.atomic():
        hidden = Message.objects.filter(pk__in=ids, hidden=False).update(hidden=True)
        ChatReport.objects.filter(message__in=ids, resolved_at__isnull=True).update(
            resolved_at=timezone.now()
        )
    return hidden


def senders_suspend(messages: Iterable[Message], until: datetime | None, reason: str) -> int:
    """Suspend the chat of the senders of the messages (until ``until``; None: until lifted)
    and close the reports of their messages; how many senders."""
    senders = {m.sender_id for m in messages}
    with transaction.atomic():
        for sender in senders:
            ChatSuspension.objects.update_or_create(
                user_id=sender, defaults={"until": until, "reason": reason}
            )
        ChatReport.objects.filter(message__sender__in=senders, resolved_at__isnull=True).update(
            resolved_at=timezone.now()
        )
    return len(senders)
