"""Mutes: a player mutes another for themselves, in every game; the muted player's
messages are no longer listed (nor streamed) to them. The muted player is not told."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from accounts.relations import player_named
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

from .models import Mute


def mutes_of(user: User) -> QuerySet[Mute]:
    """The players ``user`` mutes, the latest first."""
    return Mute.objects.filter(user=user).select_related("muted").order_by("-created_at", "-pk")


def mute_create(user: User, username: str) -> tuple[Mute, bool]:
    """``user`` mutes the player named ``username``; whether the mute is new."""
    muted = player_named(username)
    if muted.pk == user.pk:
        raise ServiceError(Code.NAMED_YOURSELF, _("That is your own username: you can't mute it."))
    return Mute.objects.get_or_create(user=user, muted=muted)


def mute_delete(user: User, username: str) -> None:
    """``user`` no longer mutes the player named ``username``."""
    gone, _count = Mute.objects.filter(user=user, muted__username__iexact=username).delete()
    if not gone:
        raise ServiceError(
            Code.CHAT_MUTE_NOT_FOUND,
            _("You do not mute a player named %(username)s.") % {"username": username},
        )
