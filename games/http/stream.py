"""``GET /games/{id}/events``: the game's event stream (Server-Sent Events).

A thin DRF view: it authenticates (a stream ticket in the URL or the token in the header),
finds the game, reads the resume cursor, and hands the stream to ``ttr_service.streams.sse``,
which the ASGI server drives without a thread. docs/api.md, "Streams", has the protocol.
"""

from __future__ import annotations

from typing import Any

from django.http import StreamingHttpResponse
from django.utils import translation
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers as drf
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from games import events, feeds
from games.queries.games import current_epoch, game_or_404
from games.serializers.moves import GameEndSerializer, GameStateSerializer, MoveSerializer
from ttr_service.http.codes import Code
from ttr_service.http.schema import problems
from ttr_service.streams import sse


class _Frame(drf.Serializer[Any]):
    """One event as it goes on the wire: `event: <event>`, `id: <id>`, `data: <data as one
    line of JSON>`, then a blank line."""


class MoveFrameSerializer(_Frame):
    event = sse.event_name_field("move")
    id = drf.CharField(
        help_text="`<move>.<message>.<epoch>`: the move's number, the id of the last chat "
        "message the stream passed (0: none) and the restore epoch (as in the game's ETag); "
        "what `Last-Event-ID` takes (`after` takes the move's number)."
    )
    data = MoveSerializer(  # type: ignore[assignment]  # field `data` hides Serializer.data
        help_text="The move as `GET /games/{id}/moves` shows it to the caller, with the "
        "game's version after it."
    )


class GameFrameSerializer(_Frame):
    event = sse.event_name_field("game")
    data = GameStateSerializer(  # type: ignore[assignment]  # field `data` hides Serializer.data
        help_text="Sent when the stream opens with nothing to bring the client to the "
        "game's version, and when the game changes without a move (a seat taken, the game "
        "started, extra time): fetch the game again. No id."
    )


class EndFrameSerializer(_Frame):
    event = sse.event_name_field("end")
    id = drf.CharField(
        help_text="`<move>.<message>.<epoch>-end` (the last move number, chat message id "
        "and restore epoch, then `-end`): resuming after it answers 204, so a browser's "
        "`EventSource` stops reconnecting."
    )
    data = GameEndSerializer(  # type: ignore[assignment]  # field `data` hides Serializer.data
        help_text="The game is over or cancelled; the stream closes."
    )


GAME_EVENTS = PolymorphicProxySerializer(
    component_name="GameStreamEvent",
    # By event name, so the discriminator's mapping names each frame.
    serializers={
        "move": MoveFrameSerializer,
        "game": GameFrameSerializer,
        "end": EndFrameSerializer,
        # Events of the apps above (the chat's), registered when they are ready.
        **{feed.event: feed.frame for feed in [feeds.side_feed()] if feed is not None},
    },
    resource_type_field_name="event",
)

_STREAM_EXAMPLE = (
    "retry: 2000\n: stream open\n\n"
    "event: move\nid: 41.17.3f9a01c2\n"
    'data: {"number":41,"seat":1,"by_ai":true,"action":{"type":"draw_blind"},'
    '"events":[{"type":"card_drawn","seat":1,"source":"deck"}],"version":44,'
    '"at":"2026-12-01T10:00:00+00:00"}\n\n'
    "event: chat\nid: 41.18.3f9a01c2\n"
    'data: {"id":18,"game":12,"room":"players","sender":"ada","seat":0,"text":null,'
    '"quick":"nice_move","body":"Nice move!","at":"2026-12-01T10:00:02Z"}\n\n'
    ": heartbeat\n\n"
)


class GameEventsView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = sse.stream_authentication()
    renderer_classes = [JSONRenderer]
    content_negotiation_class = sse.StreamNegotiation

    @extend_schema(
        operation_id="games_events",
        summary="The game's events as they happen (Server-Sent Events)",
        description="The move log as `GET /games/{id}/moves` shows it to the caller, one "
        "`move` event per move, then each new move as it is committed, by any player, bot "
        "or worker. `chat` events carry the messages of the rooms the caller reads when the "
        "stream reads them (a seated player the players' room; anyone else the spectators' "
        "room while the game runs; both once it is over), leaving out those of players the "
        "caller blocks, is blocked by or mutes, and those a moderator hid. `game` tells of "
        "a change without a move; `end` (with the result) closes the stream once the game "
        "is over. Every event with an id has `<move>.<message>.<epoch>`: the last move number "
        "and chat message id the stream passed, and the restore epoch; `Last-Event-ID` "
        "resumes after both. An id of another epoch (from before the database was restored "
        "from a backup), or one past the game's version, is not resumed after: the stream "
        "starts as a new one does, with the whole move log and chat. A plain "
        "move number (`after`, or the `Last-Event-ID` of a client from before the chat) "
        "resumes the moves and starts the chat at the stream's open; no cursor sends the "
        f"whole move log and chat. {sse.KEEPALIVE_TEXT} Open to everyone, as the move log "
        "is.",
        parameters=[
            OpenApiParameter(
                "after",
                {"type": "integer", "minimum": 0, "default": 0},
                description="Send the moves after this number (0: the whole log), and "
                "the chat messages from the stream's open. Anything else: `BAD_CURSOR`.",
            ),
            sse.LAST_EVENT_ID,
        ],
        responses={
            (200, sse.EVENT_STREAM): OpenApiResponse(
                GAME_EVENTS,
                description="An endless `text/event-stream` until the game ends; each event "
                "is one of these, as the fields of its lines.",
                examples=[OpenApiExample("A bot's blind draw", value=_STREAM_EXAMPLE)],
            ),
            204: OpenApiResponse(
                description="`Last-Event-ID` was the `end` event's id: nothing more will come."
            ),
            **problems(*sse.STREAM_PROBLEMS, Code.GAME_NOT_FOUND, token="optional"),
        },
    )
    def get(self, request: Request, game_id: int) -> StreamingHttpResponse:
        game = game_or_404(game_id)
        epoch = current_epoch()
        cursor = sse.resume_cursor(request)
        if cursor is not None and cursor.epoch not in (None, epoch):
            cursor = None  # from before a restore: start as a new connection does
        if cursor is not None and cursor.ended and game.status in feeds.CLOSED:
            return sse.nothing_more()
        if cursor is not None and cursor.after > game.version:
            cursor = None  # past the game's version (no move number is above its version)
        user = request.user if request.user.is_authenticated else None
        feed = feeds.GameFeed(
            game.pk,
            user,
            cursor.after if cursor else 0,
            _side_start(game.pk, cursor),
            translation.get_language(),
            epoch,
        )
        stream = sse.event_stream(events.topic(game.pk), feed.read, feed.beat)
        return sse.stream_response(stream)


def _side_start(game_id: int, cursor: sse.Cursor | None) -> int:
    """Where the chat starts: after the id's second position; from the stream's open for
    a cursor without one (a plain move number); from the start without a cursor."""
    if cursor is None:
        return 0
    if cursor.side is None:
        return feeds.side_latest(game_id)
    return cursor.side
