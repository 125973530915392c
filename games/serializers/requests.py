"""The bodies of the lobby's and the vacations' requests, each checked here alone."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import Direction
from rest_framework import serializers

from engine import BOARD_IDS
from games.domain.bots import AI_LEVELS
from games.models import TimeoutPolicy
from games.queries.deadlines import (
    MAX_EXTRA_SECONDS,
    MAX_TURN_SECONDS,
    MIN_EXTRA_SECONDS,
    MIN_TURN_SECONDS,
)
from ttr_service.http.strict import StrictSerializer


class SeatSpecSerializer(StrictSerializer):
    type = serializers.ChoiceField(
        choices=["creator", "open", "invite", "ai"],
        help_text="creator: you sit here; open: anyone may join; invite: reserved for "
        "`username`; ai: played by the AI at `level`.",
    )
    username = serializers.CharField(required=False, max_length=150)
    level = serializers.ChoiceField(choices=AI_LEVELS, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["type"] == "invite" and not attrs.get("username"):
            raise serializers.ValidationError({"username": _("An invitation needs a username.")})
        return attrs


class SizedList(serializers.ListSerializer[Any]):
    """A list of nested objects whose length bounds the schema states."""


class SizedListSchema(OpenApiSerializerFieldExtension):
    """States a ``SizedList``'s ``min_length``/``max_length`` as ``minItems``/``maxItems``."""

    target_class = SizedList

    def map_serializer_field(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer_field(
            self.target, direction, bypass_extensions=True
        )
        bounds = {"minItems": self.target.min_length, "maxItems": self.target.max_length}
        return {**schema, **{k: v for k, v in bounds.items() if v is not None}}


class GameCreateSerializer(StrictSerializer):
    board = serializers.ChoiceField(choices=BOARD_IDS, default="europe")
    options = serializers.DictField(
        child=serializers.CharField(),
        required=False,
        help_text="The board's game options by name (see GET /boards); those left out take "
        'their default. Only usa-bigcities has one: {"bonus": "none" | "longest_path" | '
        '"globetrotter" | "both"}.',
    )
    seats = SizedList(child=SeatSpecSerializer(), min_length=2, max_length=5)
    turn_time_limit = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=MIN_TURN_SECONDS,
        max_value=MAX_TURN_SECONDS,
        help_text="Seconds per move (60 to 1209600), or null for no limit.",
    )
    timeout_policy = serializers.ChoiceField(
        choices=TimeoutPolicy.choices, default=TimeoutPolicy.AI_PLAYS_TURN
    )
    timeout_takeover_after = serializers.IntegerField(default=2, min_value=1, max_value=10)
    first_seat = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=4,
        help_text="The seat that plays first; null: chosen at random from the game's seed.",
    )


class JoinSerializer(StrictSerializer):
    seat = serializers.IntegerField(required=False, min_value=0, max_value=4)


class ExtraTimeSerializer(StrictSerializer):
    seconds = serializers.IntegerField(
        min_value=MIN_EXTRA_SECONDS,
        max_value=MAX_EXTRA_SECONDS,
        help_text="Seconds added to the deadline.",
    )


class VacationRequestSerializer(StrictSerializer):
    days = serializers.IntegerField(min_value=1, max_value=366, help_text="From now on.")
