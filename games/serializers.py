"""Input serializers, and output serializers that document the JSON the views return."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from engine import ACTION_TYPES, BOARD_IDS, CARD_NAMES

from .bots import AI_LEVELS
from .lobby import MAX_TURN_SECONDS, MIN_TURN_SECONDS
from .models import GameStatus, SeatKind, TimeoutPolicy


# ----------------------------------------------------------------------------- input
class SeatSpecSerializer(serializers.Serializer):
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


class GameCreateSerializer(serializers.Serializer):
    board = serializers.ChoiceField(choices=BOARD_IDS, default="europe")
    options = serializers.DictField(
        child=serializers.CharField(),
        required=False,
        help_text="The board's game options by name (see GET /boards); those left out take "
        'their default. Only usa-bigcities has one: {"bonus": "none" | "longest_path" | '
        '"globetrotter" | "both"}.',
    )
    seats = SeatSpecSerializer(many=True, min_length=2, max_length=5)
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


class JoinSerializer(serializers.Serializer):
    seat = serializers.IntegerField(required=False, min_value=0, max_value=4)


class ExtraTimeSerializer(serializers.Serializer):
    seconds = serializers.IntegerField(
        min_value=60, max_value=7 * 24 * 3600, help_text="Seconds added to the deadline."
    )


class ActionSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=list(ACTION_TYPES))
    tickets = serializers.ListField(child=serializers.CharField(), required=False)
    slot = serializers.IntegerField(required=False)
    route = serializers.CharField(required=False)
    city = serializers.CharField(required=False)
    color = serializers.CharField(required=False, allow_null=True)
    locomotives = serializers.IntegerField(required=False)


class ActionRequestSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        required=False,
        help_text="The game version the move was decided on (or send it in If-Match).",
    )
    action = ActionSerializer()


_TEXT_FIELDS = ("route", "city")
_WHOLE_FIELDS = ("slot", "locomotives")


def plainly_valid(body: dict[str, Any]) -> bool:
    """True when ``ActionRequestSerializer`` would surely accept ``body``: the shapes a
    client sends every move, checked without building the serializer's fields. Anything
    else (a number in a string, a missing type, blank text, ...) is left to the serializer,
    which accepts it or says what is wrong."""

    def whole(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    def text(value: Any) -> bool:
        # CharField refuses blank text, NUL characters and lone surrogates.
        return (
            isinstance(value, str)
            and value.strip() != ""
            and "\x00" not in value
            and not any("\ud800" <= c <= "\udfff" for c in value)
        )

    action = body.get("action")
    if "version" in body and not whole(body["version"]):
        return False
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return False
    if action["type"] not in ACTION_TYPES:
        return False
    if not all(text(action[f]) for f in _TEXT_FIELDS if f in action):
        return False
    if not all(whole(action[f]) for f in _WHOLE_FIELDS if f in action):
        return False
    if "color" in action and action["color"] is not None and not text(action["color"]):
        return False
    tickets = action.get("tickets", [])
    return isinstance(tickets, list) and all(text(t) for t in tickets)


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
    tunnel = serializers.DictField(required=False, help_text="route, color, laid, revealed, extra")


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


class DestinationSerializer(serializers.Serializer):
    to = serializers.CharField(help_text="A neighbouring country (any of its border points).")
    points = serializers.IntegerField()


class TicketSerializer(serializers.Serializer):
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


class HeldTicketSerializer(TicketSerializer):
    connected = serializers.BooleanField(
        help_text="Your routes already join its cities (or its origin to a destination)."
    )


class OwnSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    hand = serializers.DictField(
        child=serializers.IntegerField(), help_text=f"Counts per card: {', '.join(CARD_NAMES)}."
    )
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
    result = serializers.DictField(allow_null=True, help_text="The final score sheet, once over.")


class GameDetailSerializer(GameSummarySerializer):
    state = GameStateViewSerializer(allow_null=True, help_text="null until the game starts.")


class LegalActionsSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    pending = PendingSerializer()
    actions = serializers.ListField(child=serializers.DictField(), help_text="Each a JSON action.")


class MoveSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    by_ai = serializers.BooleanField()
    action = serializers.DictField(allow_null=True)
    events = serializers.ListField(child=serializers.DictField())
    version = serializers.IntegerField()
    at = serializers.DateTimeField()


class MoveListSerializer(serializers.Serializer):
    moves = MoveSerializer(many=True)
    next_after = serializers.IntegerField(help_text="Pass as `after` to get the moves that follow.")
    has_more = serializers.BooleanField()


class GameRecordSerializer(serializers.Serializer):
    board = serializers.CharField()
    board_options = serializers.DictField(
        child=serializers.CharField(), required=False, help_text="Only for a board with options."
    )
    players = serializers.IntegerField()
    seed = serializers.IntegerField()
    first_player = serializers.IntegerField()
    rules_version = serializers.IntegerField()
    actions = serializers.ListField(child=serializers.DictField())


class BoardOptionSerializer(serializers.Serializer):
    name = serializers.CharField()
    default = serializers.CharField()
    choices = serializers.DictField(
        child=serializers.DictField(), help_text="Per choice, the rule values it sets."
    )
    description = serializers.CharField()


class BoardSummarySerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    options = BoardOptionSerializer(many=True, help_text="Game options chosen at creation.")
    rules = serializers.DictField(help_text="The rule values with every option at its default.")


class BoardSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    rules = serializers.DictField()
    options = BoardOptionSerializer(many=True)
    chosen_options = serializers.DictField(child=serializers.CharField())
    countries = serializers.ListField(
        child=serializers.DictField(),
        help_text="Neighbouring countries (Switzerland): id, name, aliases, border_points.",
    )
    cities = serializers.ListField(child=serializers.DictField())
    routes = serializers.ListField(child=serializers.DictField())
    tickets = serializers.ListField(child=serializers.DictField())
    route_scoring = serializers.DictField(child=serializers.IntegerField())


class VacationRequestSerializer(serializers.Serializer):
    days = serializers.IntegerField(min_value=1, max_value=366, help_text="From now on.")


class VacationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()


class VacationListSerializer(serializers.Serializer):
    days_per_year = serializers.IntegerField()
    days_left = serializers.FloatField(help_text="Days left this calendar year (UTC).")
    vacations = VacationSerializer(many=True)
