"""A game's chat: list a room, post in it."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils import translation
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from idempotency.answers import idempotent
from notifications.views.query import CURSOR, PAGE_SIZE
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.schema import problems

from .. import examples
from ..models import Message, Room
from ..notices import mark_present
from ..openapi import GAME_ID, TAG
from ..pagination import ChatPages
from ..posting import message_post
from ..rendering import message_for
from ..rooms import check_read, place_of
from ..serializers import ChatListQuery, ChatMessageSerializer, ChatPostSerializer
from ..visibility import seen_by

_POST = ChatPostSerializer()
_NOT_SEATED = (Code.NOT_A_PLAYER, "The players' room of a game that is not over, to a spectator.")
_CLOSED = (Code.CHAT_ROOM_CLOSED, "The spectators' room, to a player of a game not over.")


class ChatView(ListAPIView[Message]):
    serializer_class = ChatMessageSerializer
    pagination_class = ChatPages

    def get_permissions(self) -> list[BasePermission]:
        # Reading is open (a finished game's players' room to anyone); posting needs a token.
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    def get_queryset(self) -> QuerySet[Message]:
        user = self.request.user if self.request.user.is_authenticated else None
        room = ChatListQuery.read(self.request)["room"]
        place = place_of(self.kwargs["game_id"], user)
        check_read(place, room)
        if user is not None and place.seat is not None and room == Room.PLAYERS:
            mark_present(user.pk, place.game.pk)
        found = Message.objects.filter(game=place.game, room=room)
        return found.filter(seen_by(user.pk if user else None)).select_related("sender")

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        assert page is not None
        language = translation.get_language()
        return self.get_paginated_response([message_for(m, language) for m in page])

    @extend_schema(
        operation_id="chat_list",
        summary="A room of a game's chat, newest first",
        description="The players' room (seated players; anyone once the game is over) or the "
        "spectators' room (anyone without a seat; the players too once the game is "
        "over). Messages a moderator hid, and those of players the caller blocks, is blocked "
        "by or mutes, are left out. Without a token the caller reads as a spectator. "
        'docs/api.md, "Chat".',
        tags=[TAG],
        parameters=[GAME_ID, ChatListQuery, CURSOR, PAGE_SIZE],
        responses={
            200: OpenApiResponse(
                ChatMessageSerializer(many=True), description="A page of the room, newest first."
            ),
            **problems(
                Code.GAME_NOT_FOUND,
                _NOT_SEATED,
                _CLOSED,
                (Code.VALIDATION_ERROR, "`room` or `page_size` is not one the list takes."),
                (Code.BAD_CURSOR, "A cursor this list did not give out."),
                token="optional",
            ),
        },
        examples=[examples.listed()],
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="chat_post",
        summary="Say something at the table",
        description="Typed text (at most 500 characters, trimmed, not blank) or a quick "
        "message, in a room the caller may write in: seated players in the players' room "
        "(in the lobby, during the game and after it), signed-in people without a seat in "
        "the spectators' room. At most `CHAT_POST_RATES` messages per player and game "
        "(5 in 10 s and 30 in 10 min by default): past that, 429 `THROTTLED` with "
        "Retry-After.",
        tags=[TAG],
        parameters=[GAME_ID],
        request=ChatPostSerializer,
        responses={
            201: OpenApiResponse(ChatMessageSerializer, description="The message, posted."),
            **problems(
                Code.GAME_NOT_FOUND,
                (Code.NOT_A_PLAYER, "The players' room, to someone without a seat."),
                (Code.CHAT_ROOM_CLOSED, "The spectators' room, to a player of the game."),
                Code.CHAT_SUSPENDED,
                body=True,
                keyed=True,
            ),
        },
        examples=[examples.post_text(), examples.post_quick(), examples.posted()],
    )
    @idempotent
    def post(self, request: Request, game_id: int) -> Response:
        user = caller(request)
        fields = _POST.run_validation(request.data)
        message = message_post(
            user, game_id, fields["room"], fields.get("text", ""), fields.get("quick", "")
        )
        body = message_for(message, translation.get_language())
        return Response(body, status=status.HTTP_201_CREATED)
