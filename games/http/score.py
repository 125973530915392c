"""The score calculator over HTTP: final scores for any position on a board.

Open to anyone (no game, no database), so it has its own throttle scope, ``score``. The
request's serializer bounds sizes and JSON types; every rule about the position is checked
by ``engine.calculator``, which reports all problems at once.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine import BOARD_IDS, ErrorCode
from engine.calculator import score
from games import errors
from games.serializers.score import ScoreRequestSerializer, ScoreSheetSerializer, score_sheet
from ttr_service.http.codes import Code
from ttr_service.http.schema import problem_example, problems
from ttr_service.http.throttling import ScopedRateThrottle

_REQUEST = ScoreRequestSerializer()

# ----------------------------------------------------------------------------- docs
PATH = "/api/v1/boards/europe/score"
EXAMPLE_POSITION: dict[str, Any] = {
    "players": [
        {
            "routes": ["frankfurt-paris-1", "berlin-frankfurt-1", "berlin-wien", "essen-frankfurt"],
            "stations": ["Essen"],
            "tickets": ["paris-wien", ["Frankfurt", "København", 5]],
        },
        {
            "routes": ["essen-kobenhavn-1", "kobenhavn-stockholm-1"],
            "stations": [],
            "tickets": [["Essen", "Stockholm", 6], "berlin-roma"],
        },
    ]
}
EXAMPLE_SHEET = score(EXAMPLE_POSITION, default_board="europe")
# Bern joined to France: the country ticket scores 5; the city-to-country one loses 11.
EXAMPLE_COUNTRY_TICKETS: dict[str, Any] = {
    "board": "switzerland",
    "players": [
        {
            "routes": [
                "bern-neuchatel-1",
                "la_chaux_de_fonds-neuchatel-1",
                "FR3-la_chaux_de_fonds-1",
            ],
            "tickets": ["ch-x1", ["Zürich", "Italia", 11]],
        },
        {"routes": ["bern-solothurn-1"], "tickets": ["ch-01"]},
    ],
}
EXAMPLE_PROBLEMS = [
    {
        "field": "players[0].routes[1]",
        "code": "UNKNOWN_ROUTE",
        "detail": "No route 'paris-moon' on this board.",
    },
    {
        "field": "players[1].routes[0]",
        "code": "DOUBLE_ROUTE_CLOSED",
        "detail": "frankfurt-paris-2: with fewer than 4 players only one track of a double "
        "route is used, and seat 0 holds frankfurt-paris-1 (players[0].routes[0]).",
    },
    {
        "field": "players[1].stations",
        "code": "TOO_MANY_STATIONS",
        "detail": "4 stations; a player has 3.",
    },
]


# ----------------------------------------------------------------------------- view
class ScoreView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "score"

    @extend_schema(
        operation_id="boards_score",
        summary="Final scores for any position on this board",
        description="Scores a position as the game's end would: route points, every ticket "
        "(with the path completing it), the route each station borrows, unbuilt stations, "
        "the longest path and the Express bonus, then the ranking with what decided each "
        "place. The position may be far from finished but must be legal on the board; if "
        "not, `ILLEGAL_POSITION` lists every problem in `errors`. Open to anonymous callers "
        "and throttled per caller (`THROTTLE_SCORE_RATE`).",
        parameters=[
            OpenApiParameter(
                "board", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(BOARD_IDS)
            ),
        ],
        request=ScoreRequestSerializer,
        responses={
            200: OpenApiResponse(
                ScoreSheetSerializer,
                description="The score sheet: each player's points and how they add up, and "
                "the ranking.",
            ),
            **problems(
                (
                    ErrorCode.ILLEGAL_POSITION,
                    "One `errors` row per problem (`UNKNOWN_ROUTE`, `UNKNOWN_CITY`, "
                    "`UNKNOWN_TICKET`, `ROUTE_HELD_TWICE`, `DOUBLE_ROUTE_BOTH_TRACKS`, "
                    "`DOUBLE_ROUTE_CLOSED`, `TOO_MANY_TRAINS`, `TOO_MANY_STATIONS`, "
                    "`STATION_CITY_TAKEN`, `BAD_PLAYER_COUNT`, `BAD_TICKET`, `BAD_SHAPE`).",
                ),
                (
                    Code.VALIDATION_ERROR,
                    "Wrong JSON types, too many items, a key the body does not take "
                    "(`UNKNOWN_FIELD`), or a `board` in the body that is not the one in the "
                    "path (a `BOARD_MISMATCH` row).",
                ),
                Code.BOARD_NOT_FOUND,
                body=True,
                token="optional",
            ),
        },
        examples=[
            OpenApiExample("A two-player position", value=EXAMPLE_POSITION, request_only=True),
            OpenApiExample(
                "Switzerland: country tickets",
                value=EXAMPLE_COUNTRY_TICKETS,
                request_only=True,
            ),
            OpenApiExample(
                "Big Cities with the longest-path bonus",
                value={
                    "board": "usa-bigcities",
                    "options": {"bonus": "longest_path"},
                    "players": [
                        {"routes": ["chicago-pittsburgh-1"], "tickets": ["1910-04"]},
                        {"routes": ["dallas-houston-1"], "tickets": []},
                    ],
                },
                request_only=True,
            ),
            OpenApiExample(
                "Its score sheet", value=EXAMPLE_SHEET, response_only=True, status_codes=["200"]
            ),
            problem_example(
                ErrorCode.ILLEGAL_POSITION,
                "The position is not legal: 3 problems found.",
                PATH,
                errors=EXAMPLE_PROBLEMS,
            ),
            problem_example(
                Code.VALIDATION_ERROR,
                "The request has invalid fields: board",
                PATH,
                errors=[{"field": "board", "code": "BOARD_MISMATCH", "detail": "Must be europe."}],
                name="BOARD_MISMATCH",
            ),
            problem_example(Code.BOARD_NOT_FOUND, "No board 'mars'.", PATH),
            problem_example(
                Code.THROTTLED, "Request was throttled. Expected available in 42 seconds.", PATH
            ),
        ],
    )
    def post(self, request: Request, board: str) -> Response:
        if board not in BOARD_IDS:
            raise errors.board_not_found(board)
        body = request.data
        named = _REQUEST.run_validation(body).get("board", board)
        if named != board:
            raise serializers.ValidationError(
                {
                    "board": [
                        serializers.ErrorDetail(
                            _("Must be %(board)s.") % {"board": board}, code="BOARD_MISMATCH"
                        )
                    ]
                }
            )
        # The engine reads the body as sent (its keys, sizes and some types are checked
        # above), so that what is wrong with the position itself is reported as on the
        # command line.
        assert isinstance(body, dict)  # the serializer above takes nothing but an object
        position = {**body, "board": board}
        return Response(score_sheet(score(position)))
