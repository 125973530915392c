"""The typed JSON of actions, declared once: the request an action comes in, parsed into
an engine action, and the shapes the server writes actions in (legal actions, records, the
move log).

An action is one of nine shapes told apart by ``type``. Each shape is a serializer of its
own, and the schema shows them as a ``oneOf`` with a ``type`` discriminator, so a
generated client hands back a model per shape. A request's body is checked here alone (its
field types, bounds and shape); the engine then resolves its names on the board and checks
the rules.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine import ACTION_TYPES, Action, KeepTickets
from engine.colors import COLORS
from games.serializers.oneof import OneOf, Shape, one_of, variant
from ttr_service.http.strict import StrictSerializer, wrong_type_detail

FACE_UP_SLOTS = 5  # every board shows five face-up cards
MAX_LOCOMOTIVES = 99  # the engine's bound on a payment's locomotives
MAX_KEPT_TICKETS = 5  # the most tickets any board offers at once

_PAY_COLOR_HELP = (
    f"The colour paid in besides locomotives: {', '.join(COLORS)} (also `pink`, `violet`); "
    "null (or `locomotive`) when every card paid is a locomotive."
)


# No docstring: drf-spectacular would take it as the description of every variant.
class RequestVariant(StrictSerializer):
    pass  # An action shape as a client sends it: no other keys (the schema says so too).


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


def _action_variants(out: bool) -> dict[str, Shape]:
    """The nine action shapes: as a client sends them (``out`` False: optional fields may
    be left out), or as the server writes them (every field present)."""
    suffix = "Action" if out else ""
    optional: dict[str, Any] = {} if out else {"required": False}
    make: Callable[..., Shape] = variant if out else functools.partial(variant, base=RequestVariant)
    return {
        "keep_tickets": make(
            f"KeepTickets{suffix}",
            "keep_tickets",
            _KEEP_DOC,
            tickets=_ticket_ids(),
        ),
        "draw_face_up": make(f"DrawFaceUp{suffix}", "draw_face_up", _FACE_UP_DOC, slot=_slot()),
        "draw_blind": make(f"DrawBlind{suffix}", "draw_blind", _BLIND_DOC),
        "claim_route": make(
            f"ClaimRoute{suffix}",
            "claim_route",
            _CLAIM_DOC,
            route=_route_id(),
            color=_pay_color(**optional),
            locomotives=_locomotives(**optional),
        ),
        "pay_tunnel": make(
            f"PayTunnel{suffix}", "pay_tunnel", _PAY_DOC, locomotives=_locomotives()
        ),
        "decline_tunnel": make(f"DeclineTunnel{suffix}", "decline_tunnel", _DECLINE_DOC),
        "draw_tickets": make(f"DrawTickets{suffix}", "draw_tickets", _TICKETS_DOC),
        "build_station": make(
            f"BuildStation{suffix}",
            "build_station",
            _STATION_DOC,
            city=_city_name(),
            color=_pay_color(**optional),
            locomotives=_locomotives(**optional),
        ),
        "forfeit": make(f"Forfeit{suffix}", "forfeit", _FORFEIT_DOC),
    }


# Named without a suffix: the schema adds "Request" to what a client sends.
ACTION_REQUESTS = _action_variants(out=False)
ACTIONS = _action_variants(out=True)

# A move's action as a viewer sees it: which tickets another seat kept is private.
LOGGED_ACTIONS = {
    **ACTIONS,
    "keep_tickets": variant(
        "KeepTicketsLoggedAction",
        "keep_tickets",
        _KEEP_DOC + " Another seat's choice shows only `count`.",
        tickets=_ticket_ids(required=False, help_text="The tickets kept: the actor only."),
        count=serializers.IntegerField(
            required=False, help_text="How many were kept: seen by the other seats."
        ),
    ),
}


@extend_schema_field(one_of("Action", ACTION_REQUESTS))
class ActionRequestField(serializers.Field[dict[str, Any], Any, dict[str, Any], Any]):
    """An action as a client sends it: validated by the (strict) serializer of its
    ``type``."""

    json_type = "object"
    default_error_messages = {
        "bad_type": gettext_lazy("Unknown action type {kind!r}; expected one of {choices}."),
    }

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise serializers.ValidationError([wrong_type_detail(data, "an object")])
        kind = data.get("type")
        if "type" in data and not isinstance(kind, str):
            raise serializers.ValidationError({"type": [wrong_type_detail(kind, "a string")]})
        if not isinstance(kind, str) or kind not in ACTION_REQUESTS:
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
        return dict(_REQUEST_READERS[kind].run_validation(data))

    def to_representation(self, value: dict[str, Any]) -> dict[str, Any]:
        return value


@extend_schema_field(one_of("GameAction", ACTIONS))
class ActionField(OneOf):
    """An action as the server writes it (legal actions, game records)."""

    variants = ACTIONS


@extend_schema_field(one_of("LoggedAction", LOGGED_ACTIONS))
class LoggedActionField(OneOf):
    """A logged move's action as the caller may see it."""

    variants = LOGGED_ACTIONS


# Each shape's reader, made once (a serializer's fields are built on first use).
_REQUEST_READERS = {kind: shape() for kind, shape in ACTION_REQUESTS.items()}


class ActionRequestSerializer(StrictSerializer):
    version = serializers.IntegerField(
        required=False,
        min_value=0,
        help_text="The game version the move was decided on (or send it in If-Match).",
    )
    action = ActionRequestField()


_ACTION_REQUEST = ActionRequestSerializer()


def action_request_read(body: object) -> Action:
    """The engine action a move's request body asks for (its names as sent: the engine's
    ``canonical_action`` resolves them on the board), or 400 ``VALIDATION_ERROR``."""
    fields = dict(_ACTION_REQUEST.run_validation(body)["action"])
    kind = fields.pop("type")
    if kind == "keep_tickets":
        return KeepTickets(tuple(fields["tickets"]))
    if kind in ("claim_route", "build_station"):
        # Left out: every card paid is of one colour, or no locomotive is paid.
        fields.setdefault("color", None)
        fields.setdefault("locomotives", 0)
    action: Action = ACTION_TYPES[kind](**fields)
    return action
