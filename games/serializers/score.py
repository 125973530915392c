"""The score calculator's JSON: a position to score (sizes and JSON types only; every rule
about the position is the engine's calculator's to check, all problems at once), and the
score sheet it answers with (also a finished game's result)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import Direction, extend_schema_field
from rest_framework import serializers

from engine import BOARD_IDS, load_board
from engine.calculator import MAX_NAME_LENGTH, MAX_TICKETS
from engine.rules import TIEBREAKS
from ttr_service.http.strict import StrictSerializer
from ttr_service.http.writers import Writer

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
class TicketField(serializers.Field[str | list[Any], Any, str | list[Any], Any]):
    default_error_messages = {
        "invalid": gettext_lazy("A ticket is a printed ticket's id or [city, city, points]."),
        "too_long": gettext_lazy("At most {max_length} characters."),
    }

    def to_internal_value(self, data: Any) -> str | list[Any]:
        if isinstance(data, str):
            if len(data) > MAX_NAME_LENGTH:
                self.fail("too_long", max_length=MAX_NAME_LENGTH)
            return data
        if isinstance(data, list) and len(data) == 3:
            if not all(isinstance(x, str) and len(x) <= MAX_NAME_LENGTH for x in data[:2]):
                self.fail("invalid")
            if isinstance(data[2], bool) or not isinstance(data[2], int):
                self.fail("invalid")
            return data
        self.fail("invalid")

    def to_representation(self, value: str | list[Any]) -> str | list[Any]:
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


class PlayerList(serializers.ListSerializer[Any]):
    """The players of a position. Its length is checked by the engine, against the board."""


class PlayerListSchema(OpenApiSerializerFieldExtension):
    """States the player count every board allows as ``minItems``/``maxItems``."""

    target_class = PlayerList

    def map_serializer_field(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer_field(
            self.target, direction, bypass_extensions=True
        )
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
class ScoreDestinationSerializer(serializers.Serializer[Any]):
    to = serializers.CharField()
    points = serializers.IntegerField()
    completed = serializers.BooleanField()


class ScoreTicketSerializer(serializers.Serializer[Any]):
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


class ScoreStationSerializer(serializers.Serializer[Any]):
    city = serializers.CharField()
    borrowed_route = serializers.CharField(
        allow_null=True, help_text="The other player's route this station uses, or null."
    )
    route_owner = serializers.IntegerField(allow_null=True, help_text="That route's seat.")


class ScoreTrailSerializer(serializers.Serializer[Any]):
    length = serializers.IntegerField(help_text="Trains in the longest continuous path.")
    routes = serializers.ListField(child=serializers.CharField())
    cities = serializers.ListField(child=serializers.CharField())


class ScorePlayerSerializer(serializers.Serializer[Any]):
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


class ScoreLongestSerializer(serializers.Serializer[Any]):
    length = serializers.IntegerField()
    seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="Every seat with the Express bonus."
    )


class ScoreRankSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    place = serializers.IntegerField()
    total = serializers.IntegerField()


class ScoreDecisionSerializer(serializers.Serializer[Any]):
    seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="Two seats next to each other in the ranking."
    )
    decided_by = serializers.ChoiceField(
        choices=["forfeit", "total", *TIEBREAKS, "shared"],
        help_text="What put the first ahead, or `shared` when they share a place.",
    )


class ScoreSheetSerializer(serializers.Serializer[Any]):
    players = ScorePlayerSerializer(many=True, help_text="In seat order.")
    longest_path = ScoreLongestSerializer()
    ranking = ScoreRankSerializer(many=True, help_text="Best first.")
    decisions = ScoreDecisionSerializer(many=True)


_SHEET = Writer(ScoreSheetSerializer())


def score_sheet(sheet: dict[str, Any]) -> dict[str, Any]:
    """A score sheet (the calculator's, or a finished game's result) as the API writes it."""
    return _SHEET(sheet)
