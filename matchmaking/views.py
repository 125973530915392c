"""Thin views of quick match and rematch: parse, call one command or query, answer."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from idempotency.answers import idempotent
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.pagination import PAGE, PAGE_SIZE, Pages
from ttr_service.http.schema import problems

from . import examples
from .openapi import GAME_ID, SEEK_ID, TAG
from .rematches import rematch_agree, rematch_decline, rematch_of
from .seeks import seek_cancel, seek_create, seek_of, seeks_of
from .serializers import RematchSerializer, SeekCreateSerializer, SeekPageSerializer, SeekSerializer

_SEEK_REQUEST = SeekCreateSerializer()
_SEEK_MISSING = (Code.SEEK_NOT_FOUND, "No seek of the caller's has this id.")
_PAGE_PAST_END = (
    Code.NOT_FOUND,
    "`page` is past the last page, below 1, or neither a number nor `last`.",
)
_PAGE_SIZE_BAD = (Code.VALIDATION_ERROR, "`page_size` is not a whole number from 1.")


class SeekListView(APIView):
    @extend_schema(
        operation_id="seeks_list",
        summary="My seeks",
        description="The waiting ones first, then the latest. Paginated.",
        tags=[TAG],
        parameters=[PAGE, PAGE_SIZE],
        responses={
            200: OpenApiResponse(SeekPageSerializer, description="A page of the caller's seeks."),
            **problems(_PAGE_SIZE_BAD, _PAGE_PAST_END),
        },
        examples=[examples.seeks()],
    )
    def get(self, request: Request) -> Response:
        paginator = Pages()
        page = paginator.paginate_queryset(seeks_of(caller(request)), request, view=self)
        assert page is not None and paginator.page is not None
        body = {
            "count": paginator.page.paginator.count,
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "results": page,
        }
        return Response(SeekPageSerializer(body).data)

    @extend_schema(
        operation_id="seeks_create",
        summary="Seek a game (quick match)",
        description="The caller waits for players who seek a game like it; the workers seat "
        'them together in a new game as soon as a table forms (docs/api.md, "Quick match '
        'and rematch"), and each is told (`match_found`, and a `seek` event on '
        "`GET /stream`). The seek expires unmatched after `SEEK_EXPIRY_MINUTES`.",
        tags=[TAG],
        request=SeekCreateSerializer,
        responses={
            201: OpenApiResponse(SeekSerializer, description="The seek, waiting."),
            **problems(Code.SEEK_EXISTS, body=True, keyed=True),
        },
        examples=[examples.seek_request(), examples.seek("A seek, as it reads once matched")],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        fields = _SEEK_REQUEST.run_validation(request.data)
        made = seek_create(caller(request), **fields)
        return Response(SeekSerializer(made).data, status=status.HTTP_201_CREATED)


class SeekDetailView(APIView):
    @extend_schema(
        operation_id="seeks_retrieve",
        summary="One of my seeks",
        description="Someone else's seek is answered as one that does not exist.",
        tags=[TAG],
        parameters=[SEEK_ID],
        responses={
            200: OpenApiResponse(SeekSerializer, description="The seek."),
            **problems(_SEEK_MISSING),
        },
        examples=[examples.seek()],
    )
    def get(self, request: Request, seek_id: int) -> Response:
        return Response(SeekSerializer(seek_of(caller(request), seek_id)).data)

    @extend_schema(
        operation_id="seeks_cancel",
        summary="Cancel a seek",
        description="A waiting seek is cancelled; one cancelled or expired already is "
        "answered as it is; one that found its game is refused (`SEEK_MATCHED`).",
        tags=[TAG],
        parameters=[SEEK_ID],
        request=None,
        responses={
            200: OpenApiResponse(SeekSerializer, description="The seek, no longer waiting."),
            **problems(_SEEK_MISSING, Code.SEEK_MATCHED, keyed=True),
        },
        examples=[examples.seek_cancelled()],
    )
    @idempotent
    def delete(self, request: Request, seek_id: int) -> Response:
        return Response(SeekSerializer(seek_cancel(caller(request), seek_id)).data)


_NOT_FINISHED = (Code.GAME_NOT_FINISHED, "The game is not finished.")
_NOT_SEATED = (Code.NOT_A_PLAYER, "The caller played no seat of this game.")


class RematchView(APIView):
    @extend_schema(
        operation_id="rematch_retrieve",
        summary="The rematch of a game",
        description="Who agreed, who is still asked, and the new game once made. Public, as "
        "games are.",
        tags=[TAG],
        parameters=[GAME_ID],
        responses={
            200: OpenApiResponse(RematchSerializer, description="The rematch."),
            **problems(Code.GAME_NOT_FOUND),
        },
        examples=[examples.rematch()],
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(RematchSerializer(rematch_of(game_id)).data)

    @extend_schema(
        operation_id="rematch_agree",
        summary="Ask for, or agree to, a rematch",
        description="A player of a finished game asks for its rematch (the others are told, "
        "`rematch_offered`) or agrees to it. When every player has agreed, the new game is "
        "made: the same board, options, pace, timeout rules and rated flag, the same players "
        "and AI seats; it starts at once and each player is told (`game_started`). Asking "
        "again changes nothing.",
        tags=[TAG],
        parameters=[GAME_ID],
        request=None,
        responses={
            200: OpenApiResponse(RematchSerializer, description="The rematch now."),
            **problems(
                Code.GAME_NOT_FOUND,
                _NOT_SEATED,
                _NOT_FINISHED,
                Code.REMATCH_DECLINED,
                (Code.PLAYER_BLOCKED, "The caller blocks a player of the game."),
                (Code.SEAT_REFUSED, "A player of the game blocks the caller."),
                keyed=True,
            ),
        },
        examples=[examples.rematch(), examples.rematch("made")],
    )
    @idempotent
    def post(self, request: Request, game_id: int) -> Response:
        return Response(RematchSerializer(rematch_agree(caller(request), game_id)).data)

    @extend_schema(
        operation_id="rematch_decline",
        summary="Decline a rematch",
        description="The offer ends (asked for or not), and the other players are told "
        "(`rematch_declined`). Declining again changes nothing.",
        tags=[TAG],
        parameters=[GAME_ID],
        request=None,
        responses={
            200: OpenApiResponse(RematchSerializer, description="The rematch, declined."),
            **problems(
                Code.GAME_NOT_FOUND, _NOT_SEATED, _NOT_FINISHED, Code.REMATCH_MADE, keyed=True
            ),
        },
        examples=[examples.rematch("declined")],
    )
    @idempotent
    def delete(self, request: Request, game_id: int) -> Response:
        return Response(RematchSerializer(rematch_decline(caller(request), game_id)).data)
