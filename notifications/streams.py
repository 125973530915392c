"""A user's event stream: each new notification of the in-app inbox, as it is recorded.

The events are the inbox's rows (``notifications.Notification``), shown as
``GET /notifications`` shows them, with the notification's id as the event id: a client
that read the inbox resumes the stream after the newest id it holds. A ``match_found``
notification is followed by a ``seek`` event of the same id: the seek's new state
(``seek_state``).

Apps above notifications add events of their own through ``register_side_feed`` (the
chat's messages in the user's games): events without an id, read from a cursor the
stream keeps from its open, so ``Last-Event-ID`` stays the inbox's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Max
from django.utils import translation
from rest_framework.serializers import ModelSerializer, Serializer

from ttr_service.streams import wakeups
from ttr_service.streams.sse import Batch, Event

from .models import Kind, Notification
from .serializers import NotificationSerializer

BATCH = 200


def topic(user_id: int) -> str:
    return f"user:{user_id}"


def announce(user_id: int) -> None:
    """Wake the user's streams once the current transaction commits."""
    wakeups.announce(topic(user_id))


@dataclass(frozen=True)
class SideRead:
    """A side feed's events for one user after a cursor: their data in order, the cursor
    after them, whether more wait."""

    items: list[dict[str, Any]]
    after: int
    more: bool


@dataclass(frozen=True)
class SideFeed:
    """Events of a user's stream from an app above notifications.

    - ``event``: the events' name;
    - ``start(user_id)``: the cursor of a stream opened now;
    - ``latest(user_ids)``: a marker per user that changes with every new item (the poll);
    - ``read(user_id, after, limit, language)``: the items after ``after``;
    - ``frame``: the schema of its events (``event``, ``data``).
    """

    event: str
    start: Callable[[int], int]
    latest: Callable[[list[int]], dict[int, int]]
    read: Callable[[int, int, int, str], SideRead]
    frame: type[Serializer[Any]]


_side: list[SideFeed] = []


def register_side_feed(feed: SideFeed) -> None:
    _side[:] = [f for f in _side if f.event != feed.event] + [feed]


def side_frames() -> dict[str, type[Serializer[Any]]]:
    """The side feeds' events, by name, for the schema."""
    return {feed.event: feed.frame for feed in _side}


def _latest(keys: list[str]) -> dict[str, Any]:
    """The newest notification id of each watched user, and the side feeds' markers, for
    the hub's poll."""
    ids = [int(k) for k in keys]
    found = dict(
        Notification.objects.filter(user_id__in=ids)
        .values("user_id")
        .annotate(latest=Max("id"))
        .values_list("user_id", "latest")
    )
    sides = [feed.latest(ids) for feed in _side]
    return {str(user): (found.get(user), *(s.get(user) for s in sides)) for user in ids}


wakeups.register_probe("user", _latest)


def newest_id(user: User) -> int:
    latest = Notification.objects.filter(user=user).aggregate(latest=Max("id"))["latest"]
    return int(latest or 0)


class InboxFeed:
    """The user's notifications after id ``after``, oldest first, one read at a time."""

    def __init__(self, user: User, after: int) -> None:
        self.user = user
        self.after = after
        # Each side feed's cursor, from now on, and the language its events are read in.
        self.side_after = {feed.event: feed.start(user.pk) for feed in _side}
        self.language = translation.get_language()

    async def read(self, since: int) -> Batch:
        """The next events (each stream reads its own: one user's streams are few)."""
        return await wakeups.read_db(self.read_now)

    def read_now(self) -> Batch:
        batch = self.inbox_batch()
        for feed in _side:
            side = feed.read(self.user.pk, self.side_after[feed.event], BATCH, self.language)
            self.side_after[feed.event] = side.after
            batch.events += [Event(feed.event, data) for data in side.items]
            batch.again = batch.again or side.more
        return batch

    def inbox_batch(self) -> Batch:
        rows = list(
            Notification.objects.filter(user=self.user, id__gt=self.after).order_by("id")[
                : BATCH + 1
            ]
        )
        more = len(rows) > BATCH
        rows = rows[:BATCH]
        if rows:
            self.after = rows[-1].pk
        events = []
        for n in rows:
            events.append(Event(n.kind, _shown(n), id=str(n.pk)))
            if n.kind == Kind.MATCH_FOUND:
                events.append(Event(SEEK_EVENT, seek_state(n), id=str(n.pk)))
        return Batch(events=events, again=more)


SEEK_EVENT = "seek"


def seek_state(notification: Notification) -> dict[str, Any]:
    """The ``seek`` event of a ``match_found`` notification: the seek's id, status and
    game."""
    data = notification.data
    return {
        "id": data.get("seek_id"),
        "status": data.get("seek_status"),
        "game": notification.game_id,
    }


def _shown(notification: Notification) -> dict[str, Any]:
    """The notification as the inbox shows it."""
    # Read through the base class: the field named ``data`` hides the property from the
    # type checker (see NotificationSerializer).
    serializer: ModelSerializer[Notification] = NotificationSerializer(notification)
    return dict(serializer.data)
