"""The boards: the list, and one board's map and rules (open to everyone)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine import BOARD_IDS, load_board
from games import errors
from games.http import examples
from games.serializers.boards import (
    BoardSerializer,
    BoardSummarySerializer,
    board_map,
    board_summaries,
)
from ttr_service.http.codes import Code
from ttr_service.http.schema import problems


class BoardListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="boards_list",
        summary="Boards that games can be played on",
        responses={
            200: OpenApiResponse(
                BoardSummarySerializer(many=True),
                description="Every board, with its player counts, game options and rule values.",
            ),
            **problems(token="optional"),
        },
        examples=[examples.boards()],
    )
    def get(self, request: Request) -> Response:
        return Response(board_summaries([load_board(b) for b in BOARD_IDS]))


class BoardDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="boards_retrieve",
        summary="A board's map: cities with coordinates, routes, tickets, scoring",
        responses={
            200: OpenApiResponse(
                BoardSerializer,
                description="The board's map and rules (cacheable for an hour).",
            ),
            **problems(Code.BOARD_NOT_FOUND, token="optional"),
        },
        examples=[examples.board()],
    )
    def get(self, request: Request, board: str) -> Response:
        if board not in BOARD_IDS:
            raise errors.board_not_found(board)
        return Response(board_map(load_board(board)), headers={"Cache-Control": "max-age=3600"})
