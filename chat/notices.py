"""Telling players who are away that their table is talking.

A player of the game is *present* at its chat while they read the players' room or post
in it: each such request marks them present for ``CHAT_NOTICE_MINUTES`` (a key in the
cache, Redis in production; the live streams may mark a reader present too, with
``mark_present``). A message in the players' room reaches each other seated player who is
not present, and who may see it (``chat.visibility``), as a ``chat_message`` notification
(in-app, and push or webhook as their preferences say), at most one per game and player
every ``CHAT_NOTICE_MINUTES``: the first message after a quiet spell is told, the ones
right after it are not. Spectators are never told. The notice names the game and the
sender, never the text.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

from games.models import SeatKind
from notifications.services import notification_send

from .models import Message
from .rooms import Place
from .visibility import may_see


def _window() -> int:
    minutes: int = settings.CHAT.notice_minutes
    return minutes * 60


def mark_present(user_id: int, game_id: int) -> None:
    """``user_id`` follows the chat of ``game_id`` now: no notices for a while."""
    cache.set(f"chat:present:{game_id}:{user_id}", 1, timeout=_window())


def present(user_id: int, game_id: int) -> bool:
    return cache.get(f"chat:present:{game_id}:{user_id}") is not None


def players_tell(place: Place, message: Message) -> None:
    """Tell the players who are away of ``message`` (in the players' room), within the
    transaction that posts it."""
    game = place.game
    for seat in game.seated:
        user = seat.user
        if seat.kind != SeatKind.HUMAN or user is None or user.pk == message.sender_id:
            continue
        if present(user.pk, game.pk) or not may_see(user.pk, message):
            continue
        if not cache.add(f"chat:notice:{game.pk}:{user.pk}", 1, timeout=_window()):
            continue  # told of this game's chat a short while ago
        notification_send(
            user,
            "chat_message",
            game_id=game.pk,
            data={"game_id": game.pk, "username": message.sender.get_username()},
            dedupe_key=f"chat:message:{message.pk}",
        )
