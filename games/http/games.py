"""Games: the caller's list (or the open lobbies), a new game, and one game as the caller
may see it."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine import ErrorCode
from games import rendering
from games.commands import lobby
from games.domain.seats import seat_of
from games.http import examples
from games.queries.games import game_or_404, games_of, open_games
from games.serializers.games import (
    GameDetailSerializer,
    GameSummaryPageSerializer,
    game_detail,
    game_summaries,
)
from games.serializers.queries import GameListQuery
from games.serializers.requests import GameCreateSerializer
from idempotency.answers import idempotent
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.pagination import PAGE, PAGE_SIZE, Pages
from ttr_service.http.schema import problems

_CREATE = GameCreateSerializer()


class GameListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="games_list",
        summary="My games (my turn first), or open games to join",
        parameters=[
            GameListQuery,
            PAGE,
            PAGE_SIZE,
        ],
        responses={
            200: OpenApiResponse(
                GameSummaryPageSerializer,
                description="A page of games: with `scope=mine`, those the caller created, "
                "sits in or is invited to, the ones awaiting their decision first; with "
                "`scope=open`, the lobbies with an open seat, newest first.",
            ),
            **problems(
                Code.BAD_SCOPE,
                Code.BAD_STATUS,
                Code.VALIDATION_ERROR,
                (
                    Code.NOT_FOUND,
                    "`page` is past the last page, below 1, or neither a number nor `last`.",
                ),
            ),
        },
        examples=[examples.game_page()],
    )
    def get(self, request: Request) -> Response:
        query = GameListQuery.read(request)
        scope, wanted = query["scope"], query.get("status")
        user = caller(request)
        found = games_of(user, wanted) if scope == "mine" else open_games(user)
        paginator = Pages()
        page = paginator.paginate_queryset(found, request, view=self)
        assert page is not None
        return paginator.get_paginated_response(
            game_summaries([(g, seat_of(user, g)) for g in page])
        )

    @extend_schema(
        operation_id="games_create",
        summary="Create a game",
        request=GameCreateSerializer,
        responses={
            201: OpenApiResponse(
                GameDetailSerializer,
                description="The game as its creator sees it: in the lobby, or started "
                "already when no seat is left open or invited.",
            ),
            **problems(
                ErrorCode.BAD_OPTION,
                Code.BAD_SEAT_COUNT,
                Code.BAD_SEATS,
                Code.BAD_FIRST_SEAT,
                Code.UNKNOWN_USER,
                (
                    Code.NOT_INVITABLE,
                    "An invitee blocks the caller, or takes invitations from friends only and "
                    "is not the caller's friend (the same answer for both).",
                ),
                (Code.PLAYER_BLOCKED, "The caller blocks an invitee."),
                (
                    Code.TOO_MANY_BOT_GAMES,
                    "Every seat is an AI seat, and the caller has as many unfinished games of AI "
                    "seats only as allowed.",
                ),
                body=True,
                keyed=True,
            ),
        },
        examples=[
            OpenApiExample(
                "Me against two AIs, a day per move",
                value={
                    "board": "europe",
                    "seats": [
                        {"type": "creator"},
                        {"type": "ai", "level": "medium"},
                        {"type": "ai", "level": "hard"},
                    ],
                    "turn_time_limit": 86400,
                    "timeout_policy": "ai_plays_turn",
                },
                request_only=True,
            ),
            OpenApiExample(
                "An invitation and an open seat",
                value={
                    "seats": [
                        {"type": "creator"},
                        {"type": "invite", "username": "bob"},
                        {"type": "open"},
                    ],
                    "first_seat": 0,
                },
                request_only=True,
            ),
            examples.game_detail(),
            OpenApiExample(
                "USA 1910 Big Cities with the longest-path bonus",
                value={
                    "board": "usa-bigcities",
                    "options": {"bonus": "longest_path"},
                    "seats": [{"type": "creator"}, {"type": "ai"}, {"type": "ai"}],
                },
                request_only=True,
            ),
            OpenApiExample(
                "Switzerland, three players",
                value={
                    "board": "switzerland",
                    "seats": [{"type": "creator"}, {"type": "open"}, {"type": "ai"}],
                },
                request_only=True,
            ),
        ],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        v = _CREATE.run_validation(request.data)
        user = caller(request)
        game = lobby.game_create(
            user,
            board=v["board"],
            seats=[lobby.SeatSpec(**s) for s in v["seats"]],
            turn_time_limit=v.get("turn_time_limit"),
            timeout_policy=v["timeout_policy"],
            timeout_takeover_after=v["timeout_takeover_after"],
            first_seat=v.get("first_seat"),
            options=v.get("options"),
        )
        game = game_or_404(game.pk)
        return Response(game_detail(game, seat_of(user, game)), status=201)


def _view_headers(tag: str) -> dict[str, str]:
    return {"ETag": tag, "Vary": "Authorization", "Cache-Control": "private, no-cache"}


class GameDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_retrieve",
        summary="A game as the caller may see it",
        description="A seated player sees its own hand, tickets and offers; everyone else "
        "the public view. Carries an ETag (per caller: the game version and the caller's "
        "seat); send it in If-None-Match to get 304 when nothing changed (compared as RFC 9110 "
        "says: weakly, so `W/` tags match too; a list of tags; or `*`). A matching "
        "If-None-Match is answered from the version and the seat alone, without reading "
        "the game's state, so polling with it is cheap; a view of the current version is "
        "rendered once per seat and then served as it was rendered.",
        parameters=[OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER)],
        responses={
            200: OpenApiResponse(
                GameDetailSerializer,
                description="The game as the caller may see it, with its ETag.",
            ),
            304: OpenApiResponse(
                description="Not modified: If-None-Match names the caller's ETag of the game "
                "as it is now; no body."
            ),
            **problems(Code.GAME_NOT_FOUND, token="optional"),
        },
        examples=[examples.game_detail()],
    )
    def get(self, request: Request, game_id: int) -> HttpResponse:
        user = request.user if request.user.is_authenticated else None
        tag, body = rendering.view_for(game_id, user, request.headers.get("If-None-Match"))
        if body is None:
            return Response(status=304, headers=_view_headers(tag))
        return HttpResponse(body, content_type="application/json", headers=_view_headers(tag))
