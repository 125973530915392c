"""Boards as the API shows them: the list, one board's map and rules, and its options."""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from typing import Any, get_type_hints

from rest_framework import serializers

from engine import Board
from engine.colors import COLORS, GRAY
from engine.rules import TIEBREAKS, RuleSet
from games.board_texts import translated
from ttr_service.http.writers import Writer

ROUTE_COLORS = (*COLORS, GRAY)
UNKEPT_TICKETS = ("removed", "bottom")


def _rule_field(name: str, hint: object, required: bool) -> serializers.Field[Any, Any, Any, Any]:
    kwargs: dict[str, Any] = {"required": required}
    if hint is bool:
        return serializers.BooleanField(**kwargs)
    if hint is int:
        return serializers.IntegerField(**kwargs)
    if hint is str:
        return serializers.ChoiceField(choices=UNKEPT_TICKETS, **kwargs)
    if name == "tiebreaks":
        return serializers.ListField(child=serializers.ChoiceField(choices=TIEBREAKS), **kwargs)
    if name == "station_costs":
        return serializers.ListField(child=serializers.IntegerField(), **kwargs)
    if name == "route_points":
        return serializers.DictField(
            child=serializers.IntegerField(),
            help_text="Points per route length (the keys are lengths).",
            **kwargs,
        )
    raise TypeError(f"no schema for the rule value {name}: {hint!r}")


def _rules_serializer(name: str, required: bool, doc: str) -> type[serializers.Serializer[Any]]:
    hints = get_type_hints(RuleSet)
    attrs: dict[str, Any] = {
        f.name: _rule_field(f.name, hints[f.name], required) for f in dataclass_fields(RuleSet)
    }
    attrs["__doc__"] = doc
    return type(name, (serializers.Serializer,), attrs)


RulesSerializer = _rules_serializer("Rules", True, "Every rule value of a board.")
RuleChangesSerializer = _rules_serializer(
    "RuleChanges", False, "The rule values one choice of a game option sets."
)


class BoardOptionSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    default = serializers.CharField()
    choices = serializers.DictField(
        child=RuleChangesSerializer(), help_text="Per choice, the rule values it sets."
    )
    description = serializers.CharField()


class CitySerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    x = serializers.IntegerField(help_text="Map position, in the board image's pixels.")
    y = serializers.IntegerField()
    aliases = serializers.ListField(child=serializers.CharField(), help_text="Other spellings.")
    country = serializers.CharField(
        required=False, help_text="On a country's border point (Switzerland): its id."
    )


class CountrySerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    aliases = serializers.ListField(child=serializers.CharField())
    border_points = serializers.ListField(
        child=serializers.CharField(), help_text="The cities that count as this country."
    )


class RouteSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    cities = serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2)
    length = serializers.IntegerField()
    color = serializers.ChoiceField(choices=ROUTE_COLORS)
    tunnel = serializers.BooleanField()
    ferry_locomotives = serializers.IntegerField(help_text="Locomotives a ferry needs (0: none).")
    double_group = serializers.CharField(
        allow_null=True, help_text="Shared by the tracks of a double route; null for a single."
    )
    points = serializers.IntegerField()


class DestinationSerializer(serializers.Serializer[Any]):
    to = serializers.CharField(help_text="A neighbouring country (any of its border points).")
    points = serializers.IntegerField()


class TicketSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    cities = serializers.ListField(
        child=serializers.CharField(),
        help_text="The two cities; for a ticket with several destinations, only its origin.",
    )
    points = serializers.IntegerField(help_text="The value; with destinations, the highest.")
    long = serializers.BooleanField()
    # Switzerland's country tickets: the best destination joined scores, else the lowest is lost.
    origin = serializers.CharField(
        required=False, help_text="With destinations: a city or a country."
    )
    destinations = DestinationSerializer(many=True, required=False)


class BoardSummarySerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    options = BoardOptionSerializer(many=True, help_text="Game options chosen at creation.")
    rules = RulesSerializer(help_text="The rule values with every option at its default.")


class BoardSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    rules = RulesSerializer(help_text="The rule values with the chosen options.")
    options = BoardOptionSerializer(many=True)
    chosen_options = serializers.DictField(child=serializers.CharField())
    countries = CountrySerializer(many=True, help_text="Neighbouring countries (Switzerland).")
    cities = CitySerializer(many=True)
    routes = RouteSerializer(many=True)
    tickets = TicketSerializer(many=True)
    route_scoring = serializers.DictField(child=serializers.IntegerField())


_SUMMARY = Writer(BoardSummarySerializer())
_BOARD = Writer(BoardSerializer())


def board_summary(board: Board) -> dict[str, Any]:
    """A board as the list shows it: player limits, game options, rule values."""
    return translated(
        {
            "id": board.id,
            "name": board.name,
            "description": board.description,
            "min_players": board.rules.min_players,
            "max_players": board.rules.max_players,
            "options": [o.to_json() for o in board.option_specs],
            "rules": board.rules.to_json(),
        }
    )


def board_summaries(boards: list[Board]) -> list[dict[str, Any]]:
    """The board list, written."""
    return _SUMMARY.many([board_summary(board) for board in boards])


def board_map(board: Board) -> dict[str, Any]:
    """One board's map and rules, with its chosen options."""
    return _BOARD(translated(board.to_json()))
