"""Thin read-only views: the leaderboard and per-player statistics.

Both are public like a finished game's result is: they are made of finished games only.
``players/me/stats`` needs a token, since "me" is whoever sends it.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine import ErrorCode
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.pagination import PAGE, PAGE_SIZE, Pages
from ttr_service.http.problems import ServiceError
from ttr_service.http.schema import problems

from . import examples, selectors, serializers

TAG = "ratings"
DEFAULT_BOARD = serializers.DEFAULT_BOARD


class LeaderboardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="leaderboard_list",
        summary="Players of a board by rating",
        description=(
            "Players with at least one rated game on the board, by rating (highest first), "
            "then by rated games (most first). Only games between people are rated. "
            "Paginated; a page past the end is 404 `NOT_FOUND`."
        ),
        tags=[TAG],
        parameters=[
            serializers.LeaderboardQuery,
            PAGE,
            PAGE_SIZE,
        ],
        responses={
            200: OpenApiResponse(
                serializers.LeaderboardPageSerializer,
                description="A page of the board's rated players, highest rating first.",
            ),
            **problems(
                (ErrorCode.UNKNOWN_BOARD, "No such board."),
                (Code.VALIDATION_ERROR, "`page_size` is not a whole number from 1."),
                (Code.NOT_FOUND, "A page past the end."),
                token="optional",
            ),
        },
        examples=[examples.leaderboard()],
    )
    def get(self, request: Request) -> Response:
        board = serializers.LeaderboardQuery.read(request)["board"]
        paginator = Pages()
        page = paginator.paginate_queryset(selectors.leaderboard(board), request, view=self)
        assert page is not None
        assert paginator.page is not None
        body = {
            "board": board,
            "count": paginator.page.paginator.count,
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "results": [selectors.leaderboard_row(row) for row in page],
        }
        return Response(serializers.LeaderboardPageSerializer(body).data)


def _stats_response(user: User) -> Response:
    return Response(serializers.PlayerStatsSerializer(selectors.player_stats(user)).data)


class PlayerStatsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="players_stats_retrieve",
        summary="A player's statistics and rating on each board",
        description=(
            "Statistics count every finished game, AI games included; the rating counts "
            "rated games (people only). The username is matched ignoring case; `me` is "
            "the caller (see `players_me_stats_retrieve`)."
        ),
        tags=[TAG],
        parameters=[
            OpenApiParameter("username", str, OpenApiParameter.PATH, description="A username.")
        ],
        responses={
            200: OpenApiResponse(
                serializers.PlayerStatsSerializer,
                description="The player's statistics and their rating on each board.",
            ),
            **problems(Code.PLAYER_NOT_FOUND, token="optional"),
        },
        examples=[examples.player_stats()],
    )
    def get(self, request: Request, username: str) -> Response:
        user = selectors.player_by_username(username)
        if user is None:
            raise ServiceError(
                Code.PLAYER_NOT_FOUND, _("No player named %(username)r.") % {"username": username}
            )
        return _stats_response(user)


class MyStatsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="players_me_stats_retrieve",
        summary="The caller's statistics and rating on each board",
        tags=[TAG],
        responses={
            200: OpenApiResponse(
                serializers.PlayerStatsSerializer,
                description="The caller's statistics and their rating on each board.",
            ),
            **problems(),
        },
        examples=[examples.player_stats()],
    )
    def get(self, request: Request) -> Response:
        return _stats_response(caller(request))
