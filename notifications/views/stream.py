"""``GET /stream``: the caller's notifications as they happen (Server-Sent Events)."""

from __future__ import annotations

from typing import Any

from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from notifications import streams
from notifications.models import Kind
from notifications.openapi import NOTIFICATIONS_TAG
from notifications.serializers import NotificationSerializer
from ttr_service.http.caller import caller
from ttr_service.http.schema import problems
from ttr_service.streams import sse


def _frame(kind: str) -> type[serializers.Serializer[Any]]:
    name = "".join(word.title() for word in kind.split("_"))
    fields = {
        "event": sse.event_name_field(kind),
        "id": serializers.CharField(
            help_text="The notification's id: what `Last-Event-ID` and `after` take."
        ),
        "data": NotificationSerializer(help_text="The notification as the inbox shows it."),
    }
    return type(f"{name}StreamEventSerializer", (serializers.Serializer,), fields)


class SeekStateSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The seek's id (`GET /seeks/{seek_id}`).")
    status = serializers.CharField(help_text="The seek's status now: `matched`.")
    game = serializers.IntegerField(allow_null=True, help_text="The game it found.")


class SeekStreamEventSerializer(serializers.Serializer[Any]):
    event = sse.event_name_field(streams.SEEK_EVENT)
    id = serializers.CharField(help_text="The id of the `match_found` notification it follows.")
    data = SeekStateSerializer(help_text="The seek's new state.")  # type: ignore[assignment]


USER_EVENTS = PolymorphicProxySerializer(
    component_name="UserStreamEvent",
    # By event name, so the discriminator's mapping names each frame.
    serializers={
        **{kind: _frame(kind) for kind in Kind.values},
        streams.SEEK_EVENT: SeekStreamEventSerializer,
        # Events of the apps above (the chat's), registered when they are ready.
        **streams.side_frames(),
    },
    resource_type_field_name="event",
)

_STREAM_EXAMPLE = (
    "retry: 2000\n: stream open\n\n"
    "event: your_turn\nid: 318\n"
    'data: {"id":318,"type":"your_turn","game_id":12,"data":{"game_id":12,"board":"europe",'
    '"seat":0,"pending":"turn","deadline":null},"created_at":"2026-12-01T10:00:00Z",'
    '"read_at":null,"read":false}\n\n'
    ": heartbeat\n\n"
)


class UserStreamView(APIView):
    authentication_classes = sse.stream_authentication()
    renderer_classes = [JSONRenderer]
    content_negotiation_class = sse.StreamNegotiation

    @extend_schema(
        operation_id="stream",
        summary="My notifications as they happen (Server-Sent Events)",
        description="Every notification the caller's inbox receives from now on (your "
        "turn, invitations, deadline warnings, games started and over, timeouts), one "
        "event each, named by its `type`, its `id` the notification's id; a `match_found` is "
        "followed by a `seek` event with the same id, the seek's new state. A `chat` "
        "event (no id) tells of a message in the players' room of one of the caller's "
        "games while the caller has no event stream of that game open; a reconnecting "
        "client catches up from `GET /games/{id}/chat`, as `Last-Event-ID` only resumes "
        f"the notifications. {sse.KEEPALIVE_TEXT}",
        tags=[NOTIFICATIONS_TAG],
        parameters=[
            OpenApiParameter(
                "after",
                {"type": "integer", "minimum": 0},
                description="Send the notifications after this id first (the newest id "
                "of the inbox a client holds); left out, only those recorded from now on. "
                "Anything else: `BAD_CURSOR`.",
            ),
            sse.LAST_EVENT_ID,
        ],
        responses={
            (200, sse.EVENT_STREAM): OpenApiResponse(
                USER_EVENTS,
                description="An endless `text/event-stream`; each event is one of these, "
                "as the fields of its lines.",
                examples=[OpenApiExample("Your turn", value=_STREAM_EXAMPLE)],
            ),
            **problems(*sse.STREAM_PROBLEMS),
        },
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        cursor = sse.resume_cursor(request)
        if cursor is not None and (cursor.ended or cursor.side is not None):
            raise sse.bad_cursor(_("Last-Event-ID must be an id this stream sent."))
        user = caller(request)
        after = cursor.after if cursor is not None else streams.newest_id(user)
        feed = streams.InboxFeed(user, after)
        return sse.stream_response(sse.event_stream(streams.topic(user.pk), feed.read))
