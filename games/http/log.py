"""What a game left behind: its move log (as the caller may see it), and once it is over,
its result and its record."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.replay import game_record as engine_record
from engine.state import new_game
from games import errors
from games.domain.seats import seat_index, seat_of
from games.http import examples
from games.models import GameStatus
from games.queries.games import game_or_404
from games.queries.moves import actions_of, log_rows
from games.serializers.moves import GameRecordSerializer, MoveListSerializer, game_record, move_page
from games.serializers.queries import MoveListQuery
from games.serializers.score import ScoreSheetSerializer, score_sheet
from ttr_service.http.codes import Code
from ttr_service.http.schema import problems


class MoveListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_moves_list",
        summary="The move log since a cursor, as the caller may see it",
        description="Each event is redacted for the caller (a blind draw's colour is shown "
        "to its drawer only). Once the game is over, everything is shown to everyone.",
        parameters=[MoveListQuery],
        responses={
            200: OpenApiResponse(
                MoveListSerializer,
                description="The moves after `after`, as the caller may see them, and the "
                "`after` to ask for next.",
            ),
            **problems(
                (
                    Code.BAD_CURSOR,
                    "`after` is not a whole number from 0, or `limit` not one from 1 to 500.",
                ),
                Code.GAME_NOT_FOUND,
                token="optional",
            ),
        },
        examples=[examples.moves()],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        query = MoveListQuery.read(request)
        after, limit = query["after"], query["limit"]
        rows, more = log_rows(game_id, after, limit)
        user = request.user if request.user.is_authenticated else None
        viewer = seat_index(seat_of(user, game))
        return Response(move_page(rows, viewer, game.status, after, more))


class ResultView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_result",
        summary="The final result with the full breakdown (once the game is over)",
        responses={
            200: OpenApiResponse(
                ScoreSheetSerializer,
                description="The final score sheet: ranks, points and their breakdown.",
            ),
            **problems(
                Code.GAME_NOT_FOUND,
                (
                    Code.GAME_NOT_FINISHED,
                    "The game has no result: it is in the lobby, being played, or was cancelled; "
                    "`game_status` says where it is.",
                ),
                token="optional",
            ),
        },
        examples=[examples.result()],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        if game.status != GameStatus.FINISHED or game.result is None:
            raise errors.wrong_status(game.status, "finished")
        return Response(score_sheet(game.result))


class RecordView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_record",
        summary="Seed and full action log of a finished game, to verify every shuffle",
        responses={
            200: OpenApiResponse(
                GameRecordSerializer,
                description="The board, players, seed, rules version and every move in "
                "order: enough to replay the game and check each shuffle.",
            ),
            **problems(
                Code.GAME_NOT_FOUND,
                (
                    Code.GAME_NOT_FINISHED,
                    "The game has no result: it is in the lobby, being played, or was cancelled; "
                    "`game_status` says where it is.",
                ),
                token="optional",
            ),
        },
        examples=[examples.record()],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = game_or_404(game_id)
        if game.status != GameStatus.FINISHED:
            raise errors.wrong_status(game.status, "finished")
        state0 = new_game(game.board, game.players, game.seed, game.first_seat, game.options)
        record = engine_record(state0, [])
        record["actions"] = [{"seat": s, "action": a} for s, a in actions_of(game)]
        record["rules_version"] = game.state["rules_version"] if game.state else None
        return Response(game_record(record))
