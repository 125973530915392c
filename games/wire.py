"""The typed JSON of actions, move events and boards, declared once for the schema and for
parsing action requests.

An action is one of nine shapes told apart by ``type``; a move event one of fourteen. Each
shape is a serializer of its own, and the schema shows them as a ``oneOf`` with a ``type``
discriminator, so a generated client hands back a model per shape.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from typing import Any, get_type_hints

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from engine import CARD_NAMES
from engine.colors import COLORS, GRAY
from engine.rules import TIEBREAKS, RuleSet
from ttr_service.http.strict import StrictSerializer, wrong_type_detail

from .score_api import ScoreRankSerializer

ROUTE_COLORS = (*COLORS, GRAY)
UNKEPT_TICKETS = ("removed", "bottom")
FACE_UP_SLOTS = 5  # every board shows five face-up cards
MAX_LOCOMOTIVES = 99  # the engine's bound on a payment's locomotives
MAX_KEPT_TICKETS = 5  # the most tickets any board offers at once

_PAY_COLOR_HELP = (
    f"The colour paid in besides locomotives: {', '.join(COLORS)} (also `pink`, `violet`); "
    "null (or `locomotive`) when every card paid is a locomotive."
)


def _type_field(value: str, text: str) -> serializers.ChoiceField:
    """The discriminator: a one-value enum (named in the settings' ENUM_NAME_OVERRIDES for
    the action shapes, which the schema shows in several components)."""
    return serializers.ChoiceField(choices=[value], help_text=text)


# No docstring: drf-spectacular would take it as the description of every variant.
class RequestVariant(StrictSerializer):
    pass  # An action shape as a client sends it: no other keys (the schema says so too).


def _variant(
    name: str,
    kind: str,
    doc: str,
    base: type = serializers.Serializer,
    **declared: serializers.Field,
) -> type:
    """A serializer for one shape: its ``type`` first, then its own fields."""
    attrs: dict[str, Any] = {"type": _type_field(kind, doc), **declared, "__doc__": doc}
    return type(name, (base,), attrs)


def _cards() -> serializers.DictField:
    return serializers.DictField(
        child=serializers.IntegerField(min_value=1),
        help_text=f"Cards paid, per colour ({', '.join(CARD_NAMES)}); colours not paid left out.",
    )


# ----------------------------------------------------------------------------- actions
_KEEP_DOC = "Keep these of the tickets on offer (the first choice, or after drawing tickets)."
_FACE_UP_DOC = "Take the face-up card in `slot`."
_BLIND_DOC = "Take the top card of the deck."
_CLAIM_DOC = "Claim `route`, paying `locomotives` locomotives and the rest in `color`."
_PAY_DOC = "Pay the extra cards a tunnel asks for, `locomotives` of them locomotives."
_DECLINE_DOC = "Take the laid cards back and end the turn without the tunnel."
_TICKETS_DOC = "Draw destination tickets, then keep some with `keep_tickets`."
_STATION_DOC = "Build a station in `city`, paying like a route."
_FORFEIT_DOC = (
    "Leave the game: your routes stay, you take no more turns and rank last. Accepted at any "
    "moment from a seat still playing, whether or not a decision of yours is pending; "
    "`can_forfeit` in the legal actions says whether it is open to you now."
)


def _ticket_ids(**kwargs: Any) -> serializers.ListField:
    kwargs.setdefault("help_text", "Ticket ids from `you.offered_tickets`.")
    return serializers.ListField(
        child=serializers.CharField(max_length=64), max_length=MAX_KEPT_TICKETS, **kwargs
    )


def _route_id() -> serializers.CharField:
    return serializers.CharField(max_length=64, help_text="A route id of the board.")


def _city_name() -> serializers.CharField:
    return serializers.CharField(
        max_length=64, help_text="A city of the board (accents and case do not matter)."
    )


def _slot() -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=FACE_UP_SLOTS - 1)


def _locomotives(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=MAX_LOCOMOTIVES, **kwargs)


def _pay_color(**kwargs: Any) -> serializers.CharField:
    return serializers.CharField(
        allow_null=True, max_length=32, help_text=_PAY_COLOR_HELP, **kwargs
    )


def _action_variants(out: bool) -> dict[str, type]:
    """The nine action shapes: as a client sends them (``out`` False: optional fields may
    be left out), or as the server writes them (every field present)."""
    suffix = "Action" if out else ""
    optional: dict[str, Any] = {} if out else {"required": False}
    variant: Any = _variant if out else functools.partial(_variant, base=RequestVariant)
    return {
        "keep_tickets": variant(
            f"KeepTickets{suffix}",
            "keep_tickets",
            _KEEP_DOC,
            tickets=_ticket_ids(),
        ),
        "draw_face_up": variant(f"DrawFaceUp{suffix}", "draw_face_up", _FACE_UP_DOC, slot=_slot()),
        "draw_blind": variant(f"DrawBlind{suffix}", "draw_blind", _BLIND_DOC),
        "claim_route": variant(
            f"ClaimRoute{suffix}",
            "claim_route",
            _CLAIM_DOC,
            route=_route_id(),
            color=_pay_color(**optional),
            locomotives=_locomotives(**optional),
        ),
        "pay_tunnel": variant(
            f"PayTunnel{suffix}", "pay_tunnel", _PAY_DOC, locomotives=_locomotives()
        ),
        "decline_tunnel": variant(f"DeclineTunnel{suffix}", "decline_tunnel", _DECLINE_DOC),
        "draw_tickets": variant(f"DrawTickets{suffix}", "draw_tickets", _TICKETS_DOC),
        "build_station": variant(
            f"BuildStation{suffix}",
            "build_station",
            _STATION_DOC,
            city=_city_name(),
            color=_pay_color(**optional),
            locomotives=_locomotives(**optional),
        ),
        "forfeit": variant(f"Forfeit{suffix}", "forfeit", _FORFEIT_DOC),
    }


# Named without a suffix: the schema adds "Request" to what a client sends.
ACTION_REQUESTS = _action_variants(out=False)
ACTIONS = _action_variants(out=True)

# A move's action as a viewer sees it: which tickets another seat kept is private.
LOGGED_ACTIONS = {
    **ACTIONS,
    "keep_tickets": _variant(
        "KeepTicketsLoggedAction",
        "keep_tickets",
        _KEEP_DOC + " Another seat's choice shows only `count`.",
        tickets=_ticket_ids(required=False, help_text="The tickets kept: the actor only."),
        count=serializers.IntegerField(
            required=False, help_text="How many were kept: seen by the other seats."
        ),
    ),
}


def _one_of(name: str, variants: dict[str, type]) -> PolymorphicProxySerializer:
    return PolymorphicProxySerializer(
        component_name=name, serializers=variants, resource_type_field_name="type"
    )


@extend_schema_field(_one_of("Action", ACTION_REQUESTS))
class ActionRequestField(serializers.Field):
    """An action as a client sends it: validated by the (strict) serializer of its
    ``type``."""

    json_type = "object"
    default_error_messages = {
        "bad_type": "Unknown action type {kind!r}; expected one of {choices}.",
    }

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise serializers.ValidationError([wrong_type_detail(data, "an object")])
        kind = data.get("type")
        if "type" in data and not isinstance(kind, str):
            raise serializers.ValidationError({"type": [wrong_type_detail(kind, "a string")]})
        shape = ACTION_REQUESTS.get(kind) if isinstance(kind, str) else None
        if shape is None:
            raise serializers.ValidationError(
                {
                    "type": [
                        self.error_messages["bad_type"].format(
                            kind=kind, choices=", ".join(ACTION_REQUESTS)
                        )
                    ]
                }
            )
        # A strict serializer: another shape's field, or a value of the wrong JSON type, is
        # refused by name, as in the body around it.
        parsed = shape(data=data)
        parsed.is_valid(raise_exception=True)
        return dict(parsed.validated_data)

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field(_one_of("GameAction", ACTIONS))
class ActionField(serializers.JSONField):
    """An action as the server writes it (legal actions, game records)."""


@extend_schema_field(_one_of("LoggedAction", LOGGED_ACTIONS))
class LoggedActionField(serializers.JSONField):
    """A logged move's action as the caller may see it."""


@dataclass(frozen=True)
class ActionFields:
    allowed: frozenset[str]  # ``type`` included
    required: frozenset[str]


@functools.cache
def action_fields(kind: str) -> ActionFields | None:
    """The fields a client's action of ``kind`` may and must carry; None for no such kind."""
    shape = ACTION_REQUESTS.get(kind)
    if shape is None:
        return None
    declared = shape().fields
    return ActionFields(
        frozenset(declared), frozenset(n for n, f in declared.items() if f.required)
    )


# ----------------------------------------------------------------------------- events
def _event(name: str, kind: str, doc: str, **declared: serializers.Field) -> type:
    return _variant(
        name,
        kind,
        doc,
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


EVENTS: dict[str, type] = {
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


@extend_schema_field(_one_of("MoveEvent", EVENTS))
class EventField(serializers.JSONField):
    """One event of a move, as the caller may see it."""


# ----------------------------------------------------------------------------- boards
def _rule_field(name: str, hint: Any, required: bool) -> serializers.Field:
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


def _rules_serializer(name: str, required: bool, doc: str) -> type:
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


class BoardOptionSerializer(serializers.Serializer):
    name = serializers.CharField()
    default = serializers.CharField()
    choices = serializers.DictField(
        child=RuleChangesSerializer(), help_text="Per choice, the rule values it sets."
    )
    description = serializers.CharField()


class CitySerializer(serializers.Serializer):
    name = serializers.CharField()
    x = serializers.IntegerField(help_text="Map position, in the board image's pixels.")
    y = serializers.IntegerField()
    aliases = serializers.ListField(child=serializers.CharField(), help_text="Other spellings.")
    country = serializers.CharField(
        required=False, help_text="On a country's border point (Switzerland): its id."
    )


class CountrySerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    aliases = serializers.ListField(child=serializers.CharField())
    border_points = serializers.ListField(
        child=serializers.CharField(), help_text="The cities that count as this country."
    )


class RouteSerializer(serializers.Serializer):
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
