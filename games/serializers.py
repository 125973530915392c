"""Input serializers, and output serializers that document the JSON the views return."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers

from engine import BOARD_IDS, CARD_NAMES
from ttr_service.http.codes import Code
from ttr_service.http.query import QueryParameters, WholeNumberParameter
from ttr_service.http.strict import StrictSerializer

from .bots import AI_LEVELS
from .lobby import MAX_TURN_SECONDS, MIN_TURN_SECONDS
from .models import GameStatus, SeatKind, TimeoutPolicy
from .score_api import ScoreSheetSerializer
from .wire import (
    FACE_UP_SLOTS,
    MAX_KEPT_TICKETS,
    MAX_LOCOMOTIVES,
    ActionField,
    ActionRequestField,
    BoardOptionSerializer,
    CitySerializer,
    CountrySerializer,
    EventField,
    LoggedActionField,
    RouteSerializer,
    RulesSerializer,
    TicketSerializer,
    action_fields,
)


# ----------------------------------------------------------------------------- input
class SeatSpecSerializer(StrictSerializer):
    type = serializers.ChoiceField(
        choices=["creator", "open", "invite", "ai"],
        help_text="creator: you sit here; open: anyone may join; invite: reserved for "
        "`username`; ai: played by the AI at `level`.",
    )
    username = serializers.CharField(required=False, max_length=150)
    level = serializers.ChoiceField(choices=AI_LEVELS, required=False)

    def validate(self, attrs: dict) -> dict:
        if attrs["type"] == "invite" and not attrs.get("username"):
            raise serializers.ValidationError({"username": "An invitation needs a username."})
        return attrs


class SizedList(serializers.ListSerializer):
    """A list of nested objects whose length bounds the schema states."""


class SizedListSchema(OpenApiSerializerFieldExtension):
    """States a ``SizedList``'s ``min_length``/``max_length`` as ``minItems``/``maxItems``."""

    target_class = SizedList

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> Any:
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
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
        min_value=60, max_value=7 * 24 * 3600, help_text="Seconds added to the deadline."
    )


class ActionRequestSerializer(StrictSerializer):
    version = serializers.IntegerField(
        required=False,
        min_value=0,
        help_text="The game version the move was decided on (or send it in If-Match).",
    )
    action = ActionRequestField()


_REQUEST_FIELDS = frozenset({"version", "action"})
_TEXT_FIELDS = ("route", "city")
_WHOLE_FIELDS = {"slot": (0, FACE_UP_SLOTS - 1), "locomotives": (0, MAX_LOCOMOTIVES)}
_TEXT_LENGTH = {"route": 64, "city": 64, "color": 32, "tickets": 64}


def plainly_valid(body: dict[str, Any]) -> bool:
    """True when ``ActionRequestSerializer`` would surely accept ``body``: the shapes a
    client sends every move, checked without building the serializer's fields. Anything
    else (a number in a string, a missing field, blank text, ...) is left to the serializer,
    which accepts it or says what is wrong."""

    def whole(value: Any, low: int, high: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high

    def text(value: Any, longest: int) -> bool:
        # CharField refuses blank text, NUL characters and lone surrogates.
        return (
            isinstance(value, str)
            and value.strip() != ""
            and len(value) <= longest
            and "\x00" not in value
            and not any("\ud800" <= c <= "\udfff" for c in value)
        )

    action = body.get("action")
    if not set(body) <= _REQUEST_FIELDS:
        return False
    if "version" in body and not whole(body["version"], 0, 2**63 - 1):
        return False
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return False
    shape = action_fields(action["type"])
    if shape is None or not shape.required <= set(action) <= shape.allowed:
        return False
    if not all(text(action[f], _TEXT_LENGTH[f]) for f in _TEXT_FIELDS if f in action):
        return False
    if not all(whole(action[f], *bounds) for f, bounds in _WHOLE_FIELDS.items() if f in action):
        return False
    color = action.get("color")
    if color is not None and not text(color, _TEXT_LENGTH["color"]):
        return False
    tickets = action.get("tickets", [])
    return (
        isinstance(tickets, list)
        and len(tickets) <= MAX_KEPT_TICKETS
        and all(text(t, _TEXT_LENGTH["tickets"]) for t in tickets)
    )


# ----------------------------------------------------------------------------- output
class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=SeatKind.choices)
    username = serializers.CharField(allow_null=True)
    ai_level = serializers.CharField(allow_null=True)
    pending = serializers.BooleanField(help_text="A decision of this seat is pending.")
    controlled_by = serializers.ChoiceField(
        choices=["person", "ai"],
        allow_null=True,
        help_text="Who plays the seat now: its person, or the AI (an AI seat, or a "
        "person's seat the AI took over after missed deadlines); null while nobody sits "
        "there (an open seat or an invitation).",
    )
    ai_controlled_since = serializers.DateTimeField(
        allow_null=True,
        help_text="When the AI took this person's seat over; null unless it holds it now.",
    )
    can_reclaim = serializers.BooleanField(
        help_text="Whether the caller may take this seat back now "
        "(`POST /games/{id}/reclaim`): true only on the caller's own seat while the AI "
        "holds it."
    )


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    board = serializers.CharField()
    options = serializers.DictField(
        child=serializers.CharField(), help_text="The board's game options, defaults included."
    )
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField()
    players = serializers.IntegerField()
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    turn_time_limit = serializers.IntegerField(allow_null=True)
    timeout_policy = serializers.ChoiceField(choices=TimeoutPolicy.choices)
    deadline = serializers.DateTimeField(allow_null=True)
    seats = SeatSerializer(many=True)
    your_seat = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()


class GameSummaryPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameSummarySerializer(many=True)


class TunnelSerializer(serializers.Serializer):
    route = serializers.CharField()
    color = serializers.ChoiceField(
        choices=list(CARD_NAMES), help_text="The colour laid (`locomotive`: only locomotives)."
    )
    laid = serializers.DictField(
        child=serializers.IntegerField(), help_text="The cards laid, per colour."
    )
    revealed = serializers.ListField(
        child=serializers.ChoiceField(choices=list(CARD_NAMES)),
        help_text="The cards turned from the deck.",
    )
    extra = serializers.IntegerField(help_text="How many more cards the tunnel asks for.")


class PendingSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=[
            "choose_initial_tickets",
            "turn_action",
            "second_card",
            "tunnel_payment",
            "keep_tickets",
        ],
        allow_null=True,
        help_text="null once the game is over (no decision is pending).",
    )
    seats = serializers.ListField(child=serializers.IntegerField())
    tunnel = TunnelSerializer(
        required=False, help_text="While a tunnel's extra cards are to be paid: what lies face up."
    )


class PublicSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    trains = serializers.IntegerField()
    stations_left = serializers.IntegerField()
    stations = serializers.ListField(child=serializers.CharField())
    routes = serializers.ListField(child=serializers.CharField())
    route_points = serializers.IntegerField()
    hand_size = serializers.IntegerField()
    tickets = serializers.IntegerField(help_text="How many tickets the seat holds.")
    tickets_offered = serializers.IntegerField()
    forfeited = serializers.BooleanField()


class HeldTicketSerializer(TicketSerializer):
    connected = serializers.BooleanField(
        help_text="Your routes already join its cities (or its origin to a destination)."
    )


HandSerializer = type(
    "HandSerializer",
    (serializers.Serializer,),
    {name: serializers.IntegerField(min_value=0) for name in CARD_NAMES},
)


class OwnSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    hand = HandSerializer(help_text="How many cards of each colour you hold.")
    tickets = HeldTicketSerializer(many=True)
    offered_tickets = TicketSerializer(many=True)


class LastRoundSerializer(serializers.Serializer):
    triggered_by = serializers.IntegerField()
    turns_left = serializers.IntegerField()


class GameStateViewSerializer(serializers.Serializer):
    rules_version = serializers.IntegerField()
    board = serializers.CharField()
    board_options = serializers.DictField(child=serializers.CharField())
    players = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=["initial_tickets", "playing", "game_over"])
    turn = serializers.IntegerField()
    current_seat = serializers.IntegerField(allow_null=True)
    first_seat = serializers.IntegerField()
    pending = PendingSerializer(allow_null=True)
    market = serializers.ListField(child=serializers.CharField(allow_null=True))
    deck_size = serializers.IntegerField()
    discard_size = serializers.IntegerField()
    ticket_deck_size = serializers.IntegerField()
    last_round = LastRoundSerializer(allow_null=True)
    seats = PublicSeatSerializer(many=True)
    you = OwnSerializer(
        allow_null=True, help_text="Only for a seated player: your own hand and tickets."
    )
    result = ScoreSheetSerializer(allow_null=True, help_text="The final score sheet, once over.")


class GameDetailSerializer(GameSummarySerializer):
    state = GameStateViewSerializer(allow_null=True, help_text="null until the game starts.")


class LegalActionsSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    pending = PendingSerializer()
    actions = serializers.ListField(
        child=ActionField(),
        help_text="Every action the caller may send now, payments spelled out; empty while "
        "no decision of the caller's is pending. `forfeit` is not listed (see `can_forfeit`).",
    )
    can_forfeit = serializers.BooleanField(
        help_text='Whether the caller may send `{"type": "forfeit"}` now: true for a seat '
        "still playing, at any moment of the game."
    )


class MoveSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    by_ai = serializers.BooleanField()
    action = LoggedActionField(allow_null=True, help_text="null for a move of the table's own.")
    events = serializers.ListField(child=EventField(), help_text="What the move caused, in order.")
    version = serializers.IntegerField()
    at = serializers.DateTimeField()


class MoveListSerializer(serializers.Serializer):
    moves = MoveSerializer(many=True)
    next_after = serializers.IntegerField(help_text="Pass as `after` to get the moves that follow.")
    has_more = serializers.BooleanField()


class RecordEntrySerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    action = ActionField()


class GameRecordSerializer(serializers.Serializer):
    board = serializers.CharField()
    board_options = serializers.DictField(
        child=serializers.CharField(), required=False, help_text="Only for a board with options."
    )
    players = serializers.IntegerField()
    seed = serializers.IntegerField()
    first_player = serializers.IntegerField()
    rules_version = serializers.IntegerField()
    actions = RecordEntrySerializer(many=True, help_text="Every move, in order.")


class BoardSummarySerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    options = BoardOptionSerializer(many=True, help_text="Game options chosen at creation.")
    rules = RulesSerializer(help_text="The rule values with every option at its default.")


class BoardSerializer(serializers.Serializer):
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


class VacationRequestSerializer(StrictSerializer):
    days = serializers.IntegerField(min_value=1, max_value=366, help_text="From now on.")


class VacationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()


class VacationListSerializer(serializers.Serializer):
    days_per_year = serializers.IntegerField()
    days_left = serializers.FloatField(help_text="Days left this calendar year (UTC).")
    vacations = VacationSerializer(many=True)


# ----------------------------------------------------------------------------- queries
MAX_MOVES_PAGE = 500


class GameListQuery(QueryParameters):
    codes = {"scope": Code.BAD_SCOPE, "status": Code.BAD_STATUS}

    scope = serializers.ChoiceField(
        ["mine", "open"],
        default="mine",
        help_text="`mine`: the games the caller created, sits in or is invited to; `open`: "
        "lobbies with an open seat. Another value: 400 `BAD_SCOPE`.",
    )
    status = serializers.ChoiceField(
        GameStatus.values,
        required=False,
        help_text="Only games in this status. Another value: 400 `BAD_STATUS`.",
    )


class MoveListQuery(QueryParameters):
    codes = {"after": Code.BAD_CURSOR, "limit": Code.BAD_CURSOR}

    after = WholeNumberParameter(
        min_value=0,
        default=0,
        help_text="Move number to start after (0 = start). Anything else: `BAD_CURSOR`.",
    )
    limit = WholeNumberParameter(
        min_value=1,
        max_value=MAX_MOVES_PAGE,
        default=100,
        help_text=f"At most this many moves (1 to {MAX_MOVES_PAGE}). Anything else: `BAD_CURSOR`.",
    )
