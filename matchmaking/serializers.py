"""Request and response bodies of the seeks and rematch endpoints."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine import BOARD_IDS, load_board
from ttr_service.http.strict import StrictSerializer

from .models import RematchStatus, Seek, SeekStatus
from .rematches import RematchState
from .rules import PACES
from .seeks import shown_status

MAX_RATING_WINDOW = 3000
MAX_AI_FILL_AFTER = 3600


@extend_schema_field({"type": "integer", "enum": list(PACES)})
class PaceField(serializers.IntegerField):
    """Seconds per move, one of the paces quick match offers."""


class SeekCreateSerializer(StrictSerializer):
    board = serializers.ChoiceField(choices=BOARD_IDS, help_text="The board (see GET /boards).")
    players_min = serializers.IntegerField(
        min_value=2, max_value=5, help_text="The fewest players the seeker will play with."
    )
    players_max = serializers.IntegerField(
        min_value=2,
        max_value=5,
        help_text="The most players; from `players_min`, within what the board allows.",
    )
    turn_time_limit = PaceField(
        help_text=f"Seconds per move, one of {', '.join(map(str, PACES))}: the pace. One seek "
        "per pace may wait (`SEEK_EXISTS`)."
    )
    rated = serializers.BooleanField(
        default=True, help_text="A rated game (the ratings count it) or a casual one."
    )
    rating_window = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=MAX_RATING_WINDOW,
        help_text="± rating points around the seeker's rating that an opponent's rating must "
        "lie in; it widens by 50 points every 30 s of waiting. Null or left out: anyone.",
    )
    ai_fill_after = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=MAX_AI_FILL_AFTER,
        help_text="Seconds of waiting after which AI seats (medium) may fill the table: the "
        "game starts with the players found so far, at least the seeker. Null or left out: "
        "never.",
    )

    def validate_turn_time_limit(self, value: int) -> int:
        if value not in PACES:
            raise serializers.ValidationError(
                _("Not a pace quick match offers; one of %(paces)s.")
                % {"paces": ", ".join(map(str, PACES))}
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        rules = load_board(attrs["board"]).rules
        low, high = attrs["players_min"], attrs["players_max"]
        if low > high:
            raise serializers.ValidationError({"players_max": _("Less than `players_min`.")})
        if low < rules.min_players or high > rules.max_players:
            raise serializers.ValidationError(
                {
                    "players_max": _("The board is played by %(low)d to %(high)d players.")
                    % {"low": rules.min_players, "high": rules.max_players}
                }
            )
        return attrs


class SeekSerializer(serializers.ModelSerializer[Seek]):
    status = serializers.SerializerMethodField(
        help_text="`waiting`, `matched` (see `game`), `cancelled` or `expired`."
    )
    game = serializers.IntegerField(
        source="game_id", allow_null=True, help_text="The game it found; null until then."
    )
    turn_time_limit = PaceField(help_text="Seconds per move.")

    class Meta:
        model = Seek
        fields = [
            "id",
            "board",
            "players_min",
            "players_max",
            "turn_time_limit",
            "rated",
            "rating_window",
            "ai_fill_after",
            "status",
            "game",
            "created_at",
            "expires_at",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.ChoiceField(choices=SeekStatus.choices))
    def get_status(self, seek: Seek) -> str:
        return shown_status(seek)


class SeekPageSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = SeekSerializer(many=True)


REMATCH_STATUSES = [("none", "Nobody asked"), *RematchStatus.choices]


class RematchSerializer(serializers.Serializer[RematchState]):
    game = serializers.IntegerField(source="game.pk", help_text="The finished game.")
    status = serializers.ChoiceField(
        choices=REMATCH_STATUSES,
        help_text="`none`: nobody asked; `open`: asked, waiting for `waiting_for`; `made`: "
        "see `new_game`; `declined`: see `declined_by`.",
    )
    agreed = serializers.ListField(
        child=serializers.CharField(), help_text="The players who agreed, in that order."
    )
    waiting_for = serializers.ListField(
        child=serializers.CharField(), help_text="The players who have not agreed."
    )
    declined_by = serializers.CharField(allow_null=True, help_text="Who declined, if anyone.")
    new_game = serializers.IntegerField(allow_null=True, help_text="The rematch, once made.")
