"""Typed actions. Every action is a frozen value with a JSON form ``{"type": ..., ...}``.

The seat that acts is not part of the action: the caller (API, bot, replay) knows who is
acting and passes it beside the action. ``canonical_action`` puts an action in the board's
own names, accepting its aliases (city names with or without accents, ``pink`` for purple),
so equal moves compare equal; ``parse_action`` checks untyped client JSON first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, NoReturn

from .board import Board
from .colors import COLORS, canonical_color
from .errors import ErrorCode, MalformedActionError
from .texts import Text, gettext_noop, ngettext


@dataclass(frozen=True, slots=True)
class KeepTickets:
    """Keep these tickets of the ones on offer (initial choice or after drawing)."""

    tickets: tuple[str, ...]
    type: ClassVar[str] = "keep_tickets"

    def __post_init__(self) -> None:
        object.__setattr__(self, "tickets", tuple(sorted(self.tickets)))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "tickets": list(self.tickets)}


@dataclass(frozen=True, slots=True)
class DrawFaceUp:
    """Take the face-up card in ``slot`` (0-based)."""

    slot: int
    type: ClassVar[str] = "draw_face_up"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "slot": self.slot}


@dataclass(frozen=True, slots=True)
class DrawBlind:
    """Take the top card of the deck."""

    type: ClassVar[str] = "draw_blind"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class ClaimRoute:
    """Claim ``route`` paying ``locomotives`` locomotives and the rest in ``color``.

    ``color`` is None exactly when every card paid is a locomotive.
    """

    route: str
    color: str | None
    locomotives: int
    type: ClassVar[str] = "claim_route"

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "route": self.route,
            "color": self.color,
            "locomotives": self.locomotives,
        }


@dataclass(frozen=True, slots=True)
class PayTunnel:
    """Pay the extra cards a tunnel asks for, ``locomotives`` of them locomotives."""

    locomotives: int
    type: ClassVar[str] = "pay_tunnel"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "locomotives": self.locomotives}


@dataclass(frozen=True, slots=True)
class DeclineTunnel:
    """Take the laid cards back and end the turn without the tunnel."""

    type: ClassVar[str] = "decline_tunnel"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class DrawTickets:
    """Draw destination tickets (then keep some with ``KeepTickets``)."""

    type: ClassVar[str] = "draw_tickets"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class BuildStation:
    """Build a station in ``city``, paying like a route (``color`` None = locomotives only)."""

    city: str
    color: str | None
    locomotives: int
    type: ClassVar[str] = "build_station"

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "city": self.city,
            "color": self.color,
            "locomotives": self.locomotives,
        }


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Leave the game: routes stay, no more turns, last place. Allowed at any moment to a
    seat still playing, so it is never listed among the legal actions of a decision."""

    type: ClassVar[str] = "forfeit"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


Action = (
    KeepTickets
    | DrawFaceUp
    | DrawBlind
    | ClaimRoute
    | PayTunnel
    | DeclineTunnel
    | DrawTickets
    | BuildStation
    | Forfeit
)
# A card draw (a turn's first card or its second), and an answer to a tunnel's extra cards.
Draw = DrawFaceUp | DrawBlind
TunnelAnswer = PayTunnel | DeclineTunnel

ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (
        KeepTickets,
        DrawFaceUp,
        DrawBlind,
        ClaimRoute,
        PayTunnel,
        DeclineTunnel,
        DrawTickets,
        BuildStation,
        Forfeit,
    )
}


# The kinds of action that carry nothing but their type.
_WITHOUT_FIELDS: dict[str, type[DrawBlind | DrawTickets | DeclineTunnel | Forfeit]] = {
    cls.type: cls for cls in (DrawBlind, DrawTickets, DeclineTunnel, Forfeit)
}


def _bad(message: Text, code: ErrorCode = ErrorCode.BAD_ACTION, **context: Any) -> NoReturn:
    raise MalformedActionError(code, message, **context)


def _int_field(data: dict[str, Any], name: str, low: int, high: int) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        _bad(gettext_noop("'%(field)s' must be a whole number.", field=name), field=name)
    if not low <= value <= high:
        _bad(
            gettext_noop(
                "'%(field)s' must be between %(low)d and %(high)d, not %(value)d.",
                field=name,
                low=low,
                high=high,
                value=value,
            ),
            field=name,
        )
    return value


def _shaped(data: object, board: Board) -> Action:
    """An action of the right shape and types from client JSON, its names as sent."""
    if not isinstance(data, dict):
        _bad(gettext_noop("An action must be a JSON object with a 'type'."))
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        _bad(
            gettext_noop(
                "Unknown action type %(kind)r; expected one of %(types)s.",
                kind=kind,
                types=", ".join(ACTION_TYPES),
            ),
            ErrorCode.UNKNOWN_ACTION,
            field="type",
        )
    allowed = {"type", *(ACTION_TYPES[kind].__dataclass_fields__)}
    extra = sorted(set(data) - allowed)
    if extra:
        _bad(
            ngettext(
                "Unexpected field for %(kind)s: %(fields)s.",
                "Unexpected fields for %(kind)s: %(fields)s.",
                len(extra),
                kind=kind,
                fields=", ".join(extra),
            ),
            field=extra[0],
        )
    if kind == "keep_tickets":
        tickets = data.get("tickets")
        if not isinstance(tickets, list) or not all(isinstance(t, str) for t in tickets):
            _bad(gettext_noop("'tickets' must be a list of ticket ids."), field="tickets")
        return KeepTickets(tuple(tickets))
    if kind == "draw_face_up":
        return DrawFaceUp(_int_field(data, "slot", 0, board.rules.face_up - 1))
    if kind in ("claim_route", "build_station"):
        where = "route" if kind == "claim_route" else "city"
        name = data.get(where)
        if not isinstance(name, str):
            if where == "route":
                _bad(gettext_noop("'route' must be a route id."), field=where)
            _bad(gettext_noop("'city' must be a city name."), field=where)
        color = data.get("color")
        if color is not None and not isinstance(color, str):
            _bad(gettext_noop("'color' must be a colour name or null."), field="color")
        locomotives = _int_field(data, "locomotives", 0, 99) if "locomotives" in data else 0
        if kind == "claim_route":
            return ClaimRoute(name, color, locomotives)
        return BuildStation(name, color, locomotives)
    if kind == "pay_tunnel":
        return PayTunnel(_int_field(data, "locomotives", 0, 99))
    return _WITHOUT_FIELDS[kind]()


def _color(raw: str | None) -> str | None:
    """A paid colour in the engine's names: None for locomotives only."""
    if raw is None:
        return None
    color = canonical_color(raw)
    if color == "locomotive":
        return None
    if color not in COLORS:
        _bad(
            gettext_noop(
                "Unknown card colour %(color)r; use one of %(colors)s or null.",
                color=raw,
                colors=", ".join(COLORS),
            ),
            ErrorCode.UNKNOWN_COLOR,
            field="color",
        )
    return color


def canonical_action(action: Action, board: Board) -> Action:
    """``action`` in the board's own names (route and ticket ids, city names, colours, as
    the board spells them), so equal moves compare equal; raises ``MalformedActionError``
    for a name the board does not have, or a ticket kept twice. Types and bounds are the
    caller's to have checked (``parse_action`` does, for untyped JSON)."""
    if isinstance(action, KeepTickets):
        ids = []
        for raw in action.tickets:
            ticket = board.ticket_by_id.get(raw.strip().lower())
            if ticket is None:
                _bad(
                    gettext_noop("Unknown ticket %(ticket)r.", ticket=raw),
                    ErrorCode.UNKNOWN_TICKET,
                    field="tickets",
                )
            ids.append(ticket.id)
        if len(set(ids)) != len(ids):
            _bad(gettext_noop("A ticket is listed twice."), field="tickets")
        return KeepTickets(tuple(ids))
    if isinstance(action, ClaimRoute):
        route = board.route(action.route)
        if route is None:
            _bad(
                gettext_noop("Unknown route %(route)r.", route=action.route),
                ErrorCode.UNKNOWN_ROUTE,
                field="route",
            )
        color = _color(action.color)
        if action.locomotives >= route.length:
            color = None
        return ClaimRoute(route.id, color, action.locomotives)
    if isinstance(action, BuildStation):
        city = board.city(action.city)
        if city is None:
            _bad(
                gettext_noop("Unknown city %(city)r.", city=action.city),
                ErrorCode.UNKNOWN_CITY,
                field="city",
            )
        return BuildStation(city.name, _color(action.color), action.locomotives)
    return action


def parse_action(data: object, board: Board) -> Action:
    """Build a canonical action from untyped client JSON, or raise
    ``MalformedActionError``: its shape and types checked, then its names
    (``canonical_action``)."""
    return canonical_action(_shaped(data, board), board)
