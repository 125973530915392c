"""``GET /games/{id}/events``: the game's event stream (Server-Sent Events).

A thin DRF view: it authenticates (a stream ticket in the URL or the token in the header),
finds the game, reads the resume cursor, and hands the stream to ``ttr_service.streams.sse``,
which the ASGI server drives without a thread. docs/api.md, "Streams", has the protocol.
"""

from __future__ import annotations

from typing import Any

from django.http import StreamingHttpResponse
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
from games.queries.games import game_or_404
from games.serializers.moves import GameEndSerializer, GameStateSerializer, MoveSerializer
from ttr_service.http.codes import Code
from ttr_service.http.schema import problems
from ttr_service.streams import sse


class _Frame(drf.Serializer[Any]):
    """One event as it goes on the wire: `event: <event>`, `id: <id>`, `data: <data as one
    line of JSON>`, then a blank line."""


class MoveFrameSerializer(_Frame):
    event = sse.event_name_field("move")
    id = drf.CharField(help_text="The move's number: what `Last-Event-ID` and `after` take.")
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
        help_text="`<last move number>-end`: resuming after it answers 204, so a browser's "
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
    },
    resource_type_field_name="event",
)

_STREAM_EXAMPLE = (
    "retry: 2000\n: stream open\n\n"
    "event: move\nid: 41\n"
    'data: {"number":41,"seat":1,"by_ai":true,"action":{"type":"draw_blind"},'
    '"events":[{"type":"card_drawn","seat":1,"source":"deck"}],"version":44,'
    '"at":"2026-12-01T10:00:00+00:00"}\n\n'
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
        "`move` event per move (its `id` the move number), then each new move as it is "
        "committed, by any player, bot or worker. `game` tells of a change without a move; "
        f"`end` (with the result) closes the stream once the game is over. {sse.KEEPALIVE_TEXT} "
        "Open to everyone, as the move log is.",
        parameters=[
            OpenApiParameter(
                "after",
                {"type": "integer", "minimum": 0, "default": 0},
                description="Send the moves after this number (0: the whole log). "
                "Anything else: `BAD_CURSOR`.",
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
        cursor = sse.resume_cursor(request)
        if cursor is not None and cursor.ended and game.status in feeds.CLOSED:
            return sse.nothing_more()
        user = request.user if request.user.is_authenticated else None
        feed = feeds.GameFeed(game.pk, user, cursor.after if cursor else 0)
        return sse.stream_response(sse.event_stream(events.topic(game.pk), feed.read))
