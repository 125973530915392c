"""Posting a message: the room's rule, the suspension, the rate, then the row."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.limits import wait_after_hit
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

from .models import ChatSuspension, Message, Room
from .notices import mark_present, players_tell
from .rooms import check_write, place_of


def suspended(user: User) -> bool:
    """Whether a moderator's suspension of ``user``'s chat stands now."""
    standing = Q(until__isnull=True) | Q(until__gt=timezone.now())
    return ChatSuspension.objects.filter(standing, user=user).exists()


def _rate_check(user: User, game_id: int) -> None:
    """One more message by ``user`` in this game, or 429 ``THROTTLED`` with the wait."""
    key = f"chat:post:{user.pk}:{game_id}"
    wait = wait_after_hit(key, settings.CHAT.post_rates)
    if wait is not None:
        said = ngettext(
            "Too many messages at this table; try again in %(seconds)d second.",
            "Too many messages at this table; try again in %(seconds)d seconds.",
            wait,
        )
        error = ServiceError(Code.THROTTLED, said % {"seconds": wait})
        error.wait = wait
        raise error


def message_post(user: User, game_id: int, room: str, text: str, quick: str) -> Message:
    """``user`` posts ``text`` (trimmed, not blank) or the quick message ``quick`` in a room
    of the game."""
    place = place_of(game_id, user)
    check_write(place, room)
    if suspended(user):
        raise ServiceError(Code.CHAT_SUSPENDED, _("A moderator suspended your chat."))
    _rate_check(user, game_id)
    with transaction.atomic():  # the game's messages commit in the order of their ids
        message = Message.objects.create(
            game=place.game,
            room=room,
            sender=user,
            seat=place.seat,
            text="" if quick else text,
            quick=quick,
        )
        if room == Room.PLAYERS:
            mark_present(user.pk, game_id)
            players_tell(place, message)
    return message
