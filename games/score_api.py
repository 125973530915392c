"""Score calculator over HTTP: final scores for any position on a board.

Open to anyone (no game, no database), so it has its own throttle scope, ``score``. The
serializer below only bounds sizes and JSON types; every rule about the position is checked
by ``engine.calculator``, which reports all problems at once.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine import BOARD_IDS, ErrorCode, load_board
from engine.calculator import MAX_NAME_LENGTH, MAX_TICKETS, score
from engine.rules import TIEBREAKS
from ttr_service.http.codes import Code
from ttr_service.http.schema import problem_example, problems
from ttr_service.http.strict import StrictSerializer
from ttr_service.http.throttling import ScopedRateThrottle

from . import errors

# The fewest and the most any board allows; each board's own limits are the engine's to check.
MIN_PLAYERS = min(load_board(b).rules.min_players for b in BOARD_IDS)
MAX_PLAYERS = max(load_board(b).rules.max_players for b in BOARD_IDS)
MAX_ROUTES = max(len(load_board(b).routes) for b in BOARD_IDS)
MAX_STATIONS = max(len(load_board(b).cities) for b in BOARD_IDS)


# ----------------------------------------------------------------------------- input
@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "maxLength": MAX_NAME_LENGTH, "example": "paris-wien"},
            {
                "type": "array",
                "minItems": 3,
                "maxItems": 3,
                "items": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                "example": ["Paris", "Wien", 8],
            },
        ],
        "description": "A printed ticket's id (a Swiss country ticket's id scores all its "
        "destinations), or [city, city, points] for any ticket; on Switzerland either end may "
        "be a neighbouring country, joined at any of its border points.",
    }
)
class TicketField(serializers.Field):
    default_error_messages = {
        "invalid": "A ticket is a printed ticket's id or [city, city, points].",
        "too_long": f"At most {MAX_NAME_LENGTH} characters.",
    }

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str):
            if len(data) > MAX_NAME_LENGTH:
                self.fail("too_long")
            return data
        if isinstance(data, list) and len(data) == 3:
            if not all(isinstance(x, str) and len(x) <= MAX_NAME_LENGTH for x in data[:2]):
                self.fail("invalid")
            if isinstance(data[2], bool) or not isinstance(data[2], int):
                self.fail("invalid")
            return data
        self.fail("invalid")

    def to_representation(self, value: Any) -> Any:
        return value


def _names(limit: int, help_text: str) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.CharField(max_length=MAX_NAME_LENGTH),
        max_length=limit,
        required=False,
        help_text=help_text,
    )


class ScorePlayerInputSerializer(StrictSerializer):
    routes = _names(
        MAX_ROUTES,
        "Route ids as `GET /boards/{board}` lists them (case and accents do not matter).",
    )
    stations = _names(MAX_STATIONS, "Cities where this player built a station.")
    tickets = serializers.ListField(
        child=TicketField(),
        max_length=MAX_TICKETS,
        required=False,
        help_text="Every ticket the player holds, completed or not.",
    )
    forfeited = serializers.BooleanField(
        required=False, help_text="The player left the game: ranked after everyone else."
    )


class PlayerList(serializers.ListSerializer):
    """The players of a position. Its length is checked by the engine, against the board."""


class PlayerListSchema(OpenApiSerializerFieldExtension):
    """States the player count every board allows as ``minItems``/``maxItems``."""

    target_class = PlayerList

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> Any:
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        return {**schema, "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS}


class ScoreRequestSerializer(StrictSerializer):
    board = serializers.CharField(
        required=False,
        max_length=MAX_NAME_LENGTH,
        help_text="Optional; if given it must be the board in the path.",
    )
    options = serializers.DictField(
        child=serializers.CharField(max_length=MAX_NAME_LENGTH),
        required=False,
        help_text='The board\'s game options, e.g. {"bonus": "longest_path"} on usa-bigcities.',
    )
    players = PlayerList(
        child=ScorePlayerInputSerializer(),
        max_length=MAX_PLAYERS,
        help_text=f"In seat order: {MIN_PLAYERS} to {MAX_PLAYERS} players, as the board takes "
        "(Switzerland 2 to 3). More than "
        f"{MAX_PLAYERS}: `VALIDATION_ERROR`; fewer than the board takes, or more on a smaller "
        "board: `ILLEGAL_POSITION` with `BAD_PLAYER_COUNT`.",
    )


# ----------------------------------------------------------------------------- output
class ScoreDestinationSerializer(serializers.Serializer):
    to = serializers.CharField()
    points = serializers.IntegerField()
    completed = serializers.BooleanField()


class ScoreTicketSerializer(serializers.Serializer):
    id = serializers.CharField(allow_null=True, help_text="The printed ticket's id, if any.")
    cities = serializers.ListField(
        child=serializers.CharField(),
        help_text="With destinations: the origin, then the destination scored (if any).",
    )
    points = serializers.IntegerField(help_text="The value scored or lost.")
    completed = serializers.BooleanField()
    score = serializers.IntegerField(help_text="+points if completed, else -points.")
    origin = serializers.CharField(required=False, help_text="Only with destinations.")
    destinations = ScoreDestinationSerializer(
        many=True,
        required=False,
        help_text="Switzerland's country tickets: the best destination joined scores, "
        "or the lowest value is lost.",
    )
    path = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="Route ids joining the cities (own and borrowed), or null.",
    )


class ScoreStationSerializer(serializers.Serializer):
    city = serializers.CharField()
    borrowed_route = serializers.CharField(
        allow_null=True, help_text="The other player's route this station uses, or null."
    )
    route_owner = serializers.IntegerField(allow_null=True, help_text="That route's seat.")


class ScoreTrailSerializer(serializers.Serializer):
    length = serializers.IntegerField(help_text="Trains in the longest continuous path.")
    routes = serializers.ListField(child=serializers.CharField())
    cities = serializers.ListField(child=serializers.CharField())


class ScorePlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    total = serializers.IntegerField()
    place = serializers.IntegerField(help_text="1 is first; equal players share a place.")
    route_points = serializers.IntegerField()
    routes = serializers.ListField(child=serializers.CharField())
    trains_used = serializers.IntegerField()
    tickets = ScoreTicketSerializer(many=True)
    ticket_points = serializers.IntegerField(help_text="Completed minus failed tickets.")
    completed_tickets = serializers.IntegerField()
    failed_tickets = serializers.IntegerField()
    stations = ScoreStationSerializer(many=True)
    stations_built = serializers.IntegerField()
    unbuilt_stations = serializers.IntegerField()
    station_points = serializers.IntegerField(help_text="Points for the unbuilt stations.")
    longest_path = ScoreTrailSerializer()
    longest_path_bonus = serializers.IntegerField(help_text="The European Express bonus.")
    globetrotter_bonus = serializers.IntegerField()
    forfeited = serializers.BooleanField()


class ScoreLongestSerializer(serializers.Serializer):
    length = serializers.IntegerField()
    seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="Every seat with the Express bonus."
    )


class ScoreRankSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    place = serializers.IntegerField()
    total = serializers.IntegerField()


class ScoreDecisionSerializer(serializers.Serializer):
    seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="Two seats next to each other in the ranking."
    )
    decided_by = serializers.ChoiceField(
        choices=["forfeit", "total", *TIEBREAKS, "shared"],
        help_text="What put the first ahead, or `shared` when they share a place.",
    )


class ScoreSheetSerializer(serializers.Serializer):
    players = ScorePlayerSerializer(many=True, help_text="In seat order.")
    longest_path = ScoreLongestSerializer()
    ranking = ScoreRankSerializer(many=True, help_text="Best first.")
    decisions = ScoreDecisionSerializer(many=True)


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
        checked = ScoreRequestSerializer(data=request.data)
        checked.is_valid(raise_exception=True)
        named = checked.validated_data.get("board", board)
        if named != board:
            raise serializers.ValidationError(
                {"board": [serializers.ErrorDetail(f"Must be {board}.", code="BOARD_MISMATCH")]}
            )
        # The engine reads the body as sent (its keys, sizes and some types are checked
        # above), so that what is wrong with the position itself is reported as on the
        # command line.
        position = {**request.data, "board": board}
        return Response(score(position))
