"""The typed JSON of a move's events: fourteen shapes told apart by ``type``, each as the
caller may see it (a blind draw's colour is its drawer's only, until the game is over)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine import CARD_NAMES
from engine.colors import COLORS
from games.serializers.oneof import OneOf, Shape, one_of, variant
from games.serializers.score import ScoreRankSerializer


def _cards() -> serializers.DictField:
    return serializers.DictField(
        child=serializers.IntegerField(min_value=1),
        help_text=f"Cards paid, per colour ({', '.join(CARD_NAMES)}); colours not paid left out.",
    )


def _event(
    name: str, kind: str, doc: str, **declared: serializers.Field[Any, Any, Any, Any]
) -> Shape:
    return variant(
        name,
        kind,
        doc,
        base=serializers.Serializer,
        seat=serializers.IntegerField(
            allow_null=True, help_text="The seat it happened to; null for the table's events."
        ),
        **declared,
    )


def _private_ids(text: str) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text=text + " Only for the seat itself (everyone's once the game is over).",
    )


EVENTS: dict[str, Shape] = {
    "turn_started": _event(
        "TurnStartedEvent", "turn_started", "A seat's turn began.", turn=serializers.IntegerField()
    ),
    "turn_skipped": _event(
        "TurnSkippedEvent",
        "turn_skipped",
        "A seat with no legal action passed.",
        reason=serializers.CharField(),
    ),
    "card_drawn": _event(
        "CardDrawnEvent",
        "card_drawn",
        "A seat took a train card, face up (`slot`, `color`) or from the deck.",
        source=serializers.ChoiceField(choices=["face_up", "deck"]),
        slot=serializers.IntegerField(required=False, help_text="Face up only."),
        color=serializers.ChoiceField(
            choices=list(CARD_NAMES),
            required=False,
            help_text="Face up: for everyone. From the deck: only for the seat itself "
            "(everyone's once the game is over).",
        ),
    ),
    "market_changed": _event(
        "MarketChangedEvent",
        "market_changed",
        "The face-up cards changed.",
        market=serializers.ListField(
            child=serializers.ChoiceField(choices=list(CARD_NAMES), allow_null=True),
            help_text="The face-up cards now; null for an empty slot.",
        ),
        resets=serializers.IntegerField(
            help_text="How many times the display was replaced for holding too many locomotives."
        ),
    ),
    "deck_reshuffled": _event(
        "DeckReshuffledEvent",
        "deck_reshuffled",
        "The discard was shuffled into a new deck.",
        deck_size=serializers.IntegerField(),
    ),
    "route_claimed": _event(
        "RouteClaimedEvent",
        "route_claimed",
        "A seat claimed a route.",
        route=serializers.CharField(),
        cards=_cards(),
        points=serializers.IntegerField(),
        trains_left=serializers.IntegerField(),
    ),
    "tunnel_revealed": _event(
        "TunnelRevealedEvent",
        "tunnel_revealed",
        "A seat laid cards for a tunnel and the deck's cards were turned: `extra` more to pay.",
        route=serializers.CharField(),
        color=serializers.ChoiceField(choices=list(COLORS), allow_null=True),
        locomotives=serializers.IntegerField(),
        revealed=serializers.ListField(child=serializers.ChoiceField(choices=list(CARD_NAMES))),
        extra=serializers.IntegerField(),
    ),
    "tunnel_declined": _event(
        "TunnelDeclinedEvent",
        "tunnel_declined",
        "A seat took its cards back instead of paying a tunnel's extra cards.",
        route=serializers.CharField(),
    ),
    "tickets_drawn": _event(
        "TicketsDrawnEvent",
        "tickets_drawn",
        "A seat drew tickets to choose from.",
        count=serializers.IntegerField(),
        tickets=_private_ids("The tickets drawn."),
    ),
    "tickets_kept": _event(
        "TicketsKeptEvent",
        "tickets_kept",
        "A seat kept some of the tickets on offer and returned the rest.",
        kept=serializers.IntegerField(),
        returned=serializers.IntegerField(),
        initial=serializers.BooleanField(help_text="The choice at the start of the game."),
        tickets=_private_ids("The tickets kept."),
        returned_tickets=_private_ids("The tickets returned."),
    ),
    "station_built": _event(
        "StationBuiltEvent",
        "station_built",
        "A seat built a station.",
        city=serializers.CharField(),
        cards=_cards(),
        stations_left=serializers.IntegerField(),
    ),
    "last_round": _event(
        "LastRoundEvent",
        "last_round",
        "A seat is down to its last trains: each seat plays one more turn.",
        trains=serializers.IntegerField(),
        turns_left=serializers.IntegerField(),
    ),
    "forfeited": _event("ForfeitedEvent", "forfeited", "A seat left the game."),
    "game_over": _event(
        "GameOverEvent",
        "game_over",
        "The game ended; the ranking, best first.",
        ranking=ScoreRankSerializer(many=True),
    ),
}


@extend_schema_field(one_of("MoveEvent", EVENTS))
class EventField(OneOf):
    """One event of a move, as the caller may see it."""

    variants = EVENTS
