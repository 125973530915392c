"""Chat on the live event streams.

- A game's stream (``GET /games/{id}/events``) carries a ``chat`` event per message of a
  room its reader may read when the stream reads it: a seated player the players' room; a
  spectator (anyone else, signed in or not) the spectators' room while the game runs, and
  both rooms once it is over. Never a message the reader may not see
  (``chat.visibility``). The stream's cursor passes every message of the game it read,
  shown or not, so a room that opens to a reader later (the game ends) shows the messages
  posted from then on; ``GET /games/{id}/chat`` has the rest.
- A user's stream (``GET /stream``) carries a ``chat`` event per message in the players'
  room of a game where the user holds a seat, by someone else, while the user has no
  stream of that game open (``ttr_service.streams.presence``): a badge or a toast. These
  events have no id (``Last-Event-ID`` keeps the inbox's cursor); a client catches up
  from ``GET /games/{id}/chat``.

A post wakes the game's streams and its players' user streams once it commits, and the
games' and users' poll markers include the newest message, so a lost wake-up only
delays a message.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max
from django.db.models.signals import post_save, pre_save
from rest_framework import serializers

from games import events as game_events
from games import feeds as game_feeds
from games.models import Game, GameStatus, Seat, SeatKind
from notifications import streams as user_streams
from ttr_service.streams import presence, sse, wakeups

from . import notices
from .models import Message, Room
from .rendering import message_for
from .serializers import ChatMessageSerializer
from .visibility import seen_by

EVENT = "chat"
_OVER = (GameStatus.FINISHED, GameStatus.CANCELLED)


def rooms_read(seat: int | None, status: str) -> set[str]:
    """The rooms a reader with ``seat`` (None: none) reads in a game of ``status``."""
    if status in _OVER:
        return {Room.PLAYERS, Room.SPECTATORS}
    return {Room.PLAYERS} if seat is not None else {Room.SPECTATORS}


def _shown(ids: list[int], reader_id: int | None, language: str) -> list[tuple[int, Any]]:
    """The messages among ``ids`` the reader may see, oldest first, as they see them."""
    if not ids:
        return []
    found = (
        Message.objects.filter(pk__in=ids)
        .filter(seen_by(reader_id))
        .select_related("sender")
        .order_by("id")
    )
    return [(m.pk, message_for(m, language)) for m in found]


# ------------------------------------------------------------------------- a game's stream
def game_latest(game_ids: list[int]) -> dict[int, int]:
    """The newest message id of each game that has one."""
    found = (
        Message.objects.filter(game_id__in=game_ids)
        .values("game_id")
        .annotate(latest=Max("id"))
        .values_list("game_id", "latest")
    )
    return dict(found)


def game_read(
    game_id: int, status: str, reader: game_feeds.Reader, after: int, limit: int
) -> game_feeds.SideRead:
    """The messages after ``after`` of the rooms the reader reads now."""
    scanned = list(
        Message.objects.filter(game_id=game_id, id__gt=after)
        .order_by("id")
        .values_list("id", "room")[: limit + 1]
    )
    more = len(scanned) > limit
    scanned = scanned[:limit]
    rooms = rooms_read(reader.seat, status)
    wanted = [pk for pk, room in scanned if room in rooms]
    items = _shown(wanted, reader.user_id, reader.language)
    return game_feeds.SideRead(items, scanned[-1][0] if scanned else after, more)


class ChatFrameSerializer(serializers.Serializer[Any]):
    event = sse.event_name_field(EVENT)
    id = serializers.CharField(
        help_text="`<move>.<message>.<epoch>`: the last move number sent, this message's "
        "id and the restore epoch; what `Last-Event-ID` takes."
    )
    data = ChatMessageSerializer(  # type: ignore[assignment]  # `data` hides Serializer.data
        help_text="The message as `GET /games/{id}/chat` shows it to the reader (a quick "
        "message in the reader's language)."
    )


# ------------------------------------------------------------------------- a user's stream
def _seated_games(user_id: int) -> Any:
    return Seat.objects.filter(user_id=user_id, kind=SeatKind.HUMAN).values("game_id")


def user_start(user_id: int) -> int:
    """Where a user's stream starts: after the newest message now."""
    latest = Message.objects.aggregate(latest=Max("id"))["latest"]
    return int(latest or 0)


def user_latest(user_ids: list[int]) -> dict[int, int]:
    """The newest players' room message of each user's games, for the hub's poll."""
    found = (
        Message.objects.filter(
            room=Room.PLAYERS, game__seats__user_id__in=user_ids, game__seats__kind=SeatKind.HUMAN
        )
        .values("game__seats__user_id")
        .annotate(latest=Max("id"))
        .values_list("game__seats__user_id", "latest")
    )
    return dict(found)


def user_read(user_id: int, after: int, limit: int, language: str) -> user_streams.SideRead:
    """The players' room messages after ``after`` in the user's games, by others, of
    games the user has no stream of open."""
    scanned = list(
        Message.objects.filter(room=Room.PLAYERS, game_id__in=_seated_games(user_id), id__gt=after)
        .order_by("id")
        .values_list("id", "game_id", "sender_id")[: limit + 1]
    )
    more = len(scanned) > limit
    scanned = scanned[:limit]
    watched = presence.watching(user_id, sorted({game for _, game, _ in scanned}))
    wanted = [pk for pk, game, sender in scanned if sender != user_id and game not in watched]
    items = [data for _, data in _shown(wanted, user_id, language)]
    return user_streams.SideRead(items, scanned[-1][0] if scanned else after, more)


class UserChatFrameSerializer(serializers.Serializer[Any]):
    event = sse.event_name_field(EVENT)
    data = ChatMessageSerializer(  # type: ignore[assignment]  # `data` hides Serializer.data
        help_text="A message in the players' room of one of the caller's games, which the "
        "caller has no event stream of open; as `GET /games/{id}/chat` shows it. No id: "
        "`Last-Event-ID` stays the inbox's, and a reconnecting client catches up from "
        "`GET /games/{id}/chat`."
    )


# ------------------------------------------------------------------------- wake-ups
def _in_order(sender: type[Message], instance: Message, **_: Any) -> None:
    """Messages of one game commit in the order of their ids: a new one takes its id with
    the game's row locked (till its transaction ends), so a stream that read message 18
    can never find a 17 later and resumes after 18 without a loss."""
    if instance.pk is None and transaction.get_connection().in_atomic_block:
        Game.objects.select_for_update().filter(pk=instance.game_id).values_list("pk").first()


def _posted(sender: type[Message], instance: Message, created: bool, **_: Any) -> None:
    """A new message wakes its game's streams, and its players' user streams, once it
    commits."""
    if not created:
        return
    wakeups.announce(game_events.topic(instance.game_id))
    if instance.room != Room.PLAYERS:
        return
    seated = Seat.objects.filter(game_id=instance.game_id, kind=SeatKind.HUMAN)
    for user_id in seated.exclude(user_id=instance.sender_id).values_list("user_id", flat=True):
        if user_id is not None:
            user_streams.announce(user_id)


def register() -> None:
    game_feeds.register_side_feed(
        game_feeds.SideFeed(EVENT, game_latest, game_read, ChatFrameSerializer)
    )
    user_streams.register_side_feed(
        user_streams.SideFeed(EVENT, user_start, user_latest, user_read, UserChatFrameSerializer)
    )
    # A player with the game's stream open is at the table: no notices of its chat.
    game_feeds.register_watcher(notices.mark_present)
    pre_save.connect(_in_order, sender=Message, dispatch_uid="chat.feeds.in_order")
    post_save.connect(_posted, sender=Message, dispatch_uid="chat.feeds.posted")
