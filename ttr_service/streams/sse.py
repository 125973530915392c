"""Server-Sent Events: the wire format, the resume cursor, and the loop every stream runs.

A stream is a DRF view (authentication, throttling and problem bodies as everywhere) that
answers a ``StreamingHttpResponse`` over an async generator, which the ASGI server drives
on its event loop: an open stream holds no thread and no database connection. The loop
reads new events from the database (``wakeups.read_db``), sends them, and waits for the
wake-up of its topic or the heartbeat, whichever comes first.

An event is ``event: <name>``, ``data: <one line of JSON>`` and, for events a client may
resume after, ``id: <cursor>``. A browser's ``EventSource`` sends the last id it saw as
``Last-Event-ID`` when it reconnects; other clients may pass it as ``?after=``. A cursor
is a number, or two numbers joined by a dot (``41.17``) for a stream that follows two
logs at once (a game's moves and its chat), which may end with a third part, the restore
epoch (``41.17.3f9a01c2``); ``?after=`` takes the first only.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.conf import settings
from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema_field
from rest_framework import serializers, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.settings import perform_import

from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError
from ttr_service.http.schema import Named
from ttr_service.observability.metrics import EVENT_STREAMS
from ttr_service.streams import wakeups

logger = logging.getLogger(__name__)

EVENT_STREAM = "text/event-stream"
# How long a browser waits before it reconnects a dropped stream (ms).
RETRY_MS = 2000
# The id of a stream's last event: ``<cursor>-end``; resuming after it answers 204.
END_SUFFIX = "-end"


LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    str,
    location=OpenApiParameter.HEADER,
    description="The `id` of the last event received; the stream resumes after it (what "
    "`EventSource` sends when it reconnects). Wins over `after`.",
)

# Schema texts both event streams state.
KEEPALIVE_TEXT = (
    "A comment line (`: heartbeat`) goes out every `STREAM_HEARTBEAT_SECONDS` (15) while "
    "nothing happens; the server closes a stream after `STREAM_MAX_SECONDS` (an hour), and "
    "the client resumes with the last id."
)
# What a stream answers besides its own refusals: a bad resume cursor, and the stream
# ticket's and the token's problems.
STREAM_PROBLEMS: tuple[Named, ...] = (
    (
        Code.BAD_CURSOR,
        "`after` is not a whole number from 0, or `Last-Event-ID` is not an id this stream sends.",
    ),
    Code.STREAM_TICKET_EXPIRED,
    (Code.STREAM_TICKET_INVALID, "Not a stream ticket, or its token was revoked."),
    (Code.TOKEN_IN_URL, "An API token in the URL."),
)


def event_name_field(name: str) -> serializers.CharField:
    """The ``event`` of a stream event's schema: the one name it goes by (inline, so that
    event names never clash with the schema's other enums)."""

    @extend_schema_field(
        {"allOf": [{"type": "string", "enum": [name]}], "description": "The event's name."}
    )
    class EventName(serializers.CharField):
        pass

    return EventName()


def stream_authentication() -> list[type[BaseAuthentication]]:
    """A stream ticket in the URL or the token in the header
    (``STREAM_AUTHENTICATION_CLASSES``)."""
    classes = perform_import(
        settings.STREAM_AUTHENTICATION_CLASSES, "STREAM_AUTHENTICATION_CLASSES"
    )
    assert isinstance(classes, list)  # the setting is a list of dotted paths
    return classes


class StreamNegotiation(DefaultContentNegotiation):
    """A stream answers ``text/event-stream`` whatever ``Accept`` says (``EventSource``
    asks for it); an error before the stream starts is a problem body in JSON."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        first = next(iter(renderers))
        return first, first.media_type


@dataclass(frozen=True)
class Event:
    name: str
    data: dict[str, Any]
    id: str | None = None

    @cached_property
    def wire(self) -> bytes:
        """The event as sent (made once, however many streams send it)."""
        return self.encode()

    @cached_property
    def data_line(self) -> str:
        return "data: " + json.dumps(self.data, separators=(",", ":"), default=str)

    def encode(self) -> bytes:
        lines = [f"event: {self.name}"]
        if self.id is not None:
            lines.append(f"id: {self.id}")
        lines.append(self.data_line)
        return ("\n".join(lines) + "\n\n").encode()

    def with_id(self, id: str) -> Event:
        """The same event under another id, its data encoded once for both."""
        other = Event(self.name, self.data, id)
        vars(other)["data_line"] = self.data_line
        return other


@dataclass
class Batch:
    """What one read found: the events to send, the cursor after them, whether the
    stream is over (``done``) and whether to read again at once (``again``: more waited
    than one read takes, or the game moved on while it was read)."""

    events: list[Event] = field(default_factory=list)
    done: bool = False
    again: bool = False


@dataclass(frozen=True)
class Cursor:
    after: int
    ended: bool  # the client saw the stream's last event
    # The second position of a two-part id (``41.17``: 17); None when the id had one.
    side: int | None = None
    # The restore epoch a three-part id ends with (``41.17.3f9a01c2``: eight hex digits);
    # None: not named.
    epoch: str | None = None


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) <= 18 else None


_EPOCH_DIGITS = frozenset("0123456789abcdef")


def _epoch(text: str) -> bool:
    """A restore epoch's form: eight lowercase hex digits."""
    return len(text) == 8 and all(c in _EPOCH_DIGITS for c in text)


def bad_cursor(detail: str) -> ServiceError:
    return ServiceError(Code.BAD_CURSOR, detail)


def resume_cursor(request: Request) -> Cursor | None:
    """Where the client left off: ``Last-Event-ID`` (sent by a reconnecting
    ``EventSource``) before ``?after=``; None if neither is given."""
    header = request.headers.get("Last-Event-ID")
    if header is not None and header.strip():
        value = header.strip()
        ended = value.endswith(END_SUFFIX)
        first, dot, rest = value.removesuffix(END_SUFFIX).partition(".")
        second, epoch_dot, epoch = rest.partition(".")
        after, side = _number(first), _number(second) if dot else None
        if after is None or (dot and side is None) or (epoch_dot and not _epoch(epoch)):
            raise bad_cursor(_("Last-Event-ID must be an id this stream sent."))
        return Cursor(after, ended, side, epoch if epoch_dot else None)
    query = request.query_params.get("after")
    if query is None:
        return None
    number = _number(query)
    if number is None:
        raise bad_cursor(_("after must be a whole number from 0."))
    return Cursor(number, False)


def nothing_more() -> StreamingHttpResponse:
    """204: the client saw the stream's last event; an ``EventSource`` stops reconnecting."""
    response = StreamingHttpResponse(iter(()), status=status.HTTP_204_NO_CONTENT)
    del response["Content-Type"]
    return response


async def event_stream(
    topic: str,
    read: Callable[[int], Awaitable[Batch]],
    beat: Callable[[], Awaitable[None]] | None = None,
) -> AsyncGenerator[bytes, None]:
    """The loop of one stream: ``read`` (what is new since its last call; it keeps its own
    cursor) runs at the start and after each wake-up of ``topic``, given the hub's clock
    from which on a read finds what the stream was woken for (``Subscription.clear``), so
    a read it may share with other streams is one stamped with that or later; a comment
    goes out every ``STREAM_HEARTBEAT_SECONDS`` while nothing happens; the stream closes
    when ``read`` says it is done or after ``STREAM_MAX_SECONDS`` (the client reconnects
    with the last id). ``beat``, if given, runs when the stream opens and at every
    heartbeat (a stream telling that it is still open)."""
    yield f"retry: {RETRY_MS}\n: stream open\n\n".encode()
    closes_at = time.monotonic() + settings.STREAM_MAX_SECONDS
    with EVENT_STREAMS.track_inprogress(), wakeups.hub().subscribe(topic) as wake:
        await _beat(beat)
        while True:
            since = wake.clear()  # before the read: a wake-up during it is not lost
            batch = await _read_retrying(read, since)
            if batch.events:  # one chunk: one write to the client, however many events
                events = batch.events
                yield events[0].wire if len(events) == 1 else b"".join(e.wire for e in events)
            if batch.done:
                return
            if batch.again:
                continue
            while True:
                left = closes_at - time.monotonic()
                if left <= 0:
                    return
                if await wake.wait(min(settings.STREAM_HEARTBEAT_SECONDS, left)):
                    break
                yield b": heartbeat\n\n"
                await _beat(beat)


async def _beat(beat: Callable[[], Awaitable[None]] | None) -> None:
    if beat is None:
        return
    try:
        await beat()
    except Exception:  # a missed beat costs a notice at most; the stream goes on
        logger.warning("A stream's beat failed", exc_info=True)


# A read that fails (the database restarting) is tried again after 0.25 s, 0.5 s, ... up
# to this many times before the stream gives up; its client then reconnects and resumes.
READ_ATTEMPTS = 6


async def _read_retrying(read: Callable[[int], Awaitable[Batch]], since: int) -> Batch:
    delay = 0.25
    for attempt in range(1, READ_ATTEMPTS + 1):
        try:
            return await read(since)
        except Exception:
            if attempt == READ_ATTEMPTS:
                raise
            logger.warning("A stream's read failed; trying again in %.2f s", delay, exc_info=True)
            await asyncio.sleep(delay)
            since = wakeups.hub().tick()
            delay = min(delay * 2, 4.0)
    raise AssertionError("unreachable")


class EventStreamResponse(StreamingHttpResponse):
    """An event stream's answer. It keeps its events' iterator (``events``): the server
    sends its chunks as they come, past Django's wrapping of each part
    (``ttr_service.serving.StreamHandler``); any other handler streams it as Django does."""

    def __init__(self, events: AsyncGenerator[bytes, None]) -> None:
        super().__init__(events, content_type=EVENT_STREAM)
        self.events = events


def stream_response(events: AsyncGenerator[bytes, None]) -> StreamingHttpResponse:
    response = EventStreamResponse(events)
    response["Cache-Control"] = "no-cache"
    # nginx and similar proxies pass each event on at once instead of buffering.
    response["X-Accel-Buffering"] = "no"
    return response
