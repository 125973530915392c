"""Typed actions. Every action is a frozen value with a JSON form ``{"type": ..., ...}``.

The seat that acts is not part of the action: the caller (API, bot, replay) knows who is
acting and passes it beside the action. ``parse_action`` turns client JSON into an action,
accepting the board's aliases (city names with or without accents, ``pink`` for purple) and
always producing the canonical form, so equal moves compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, NoReturn

from .board import Board
from .colors import COLORS, canonical_color
from .errors import ErrorCode, MalformedActionError


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


def _bad(message: str, code: ErrorCode = ErrorCode.BAD_ACTION, **context: Any) -> NoReturn:
    raise MalformedActionError(code, message, **context)


def _int_field(data: dict[str, Any], name: str, low: int, high: int) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        _bad(f"'{name}' must be a whole number.", field=name)
    if not low <= value <= high:
        _bad(f"'{name}' must be between {low} and {high}, not {value}.", field=name)
    return value


def _payment(data: dict[str, Any]) -> tuple[str | None, int]:
    locomotives = _int_field(data, "locomotives", 0, 99) if "locomotives" in data else 0
    raw = data.get("color")
    if raw is None:
        return None, locomotives
    if not isinstance(raw, str):
        _bad("'color' must be a colour name or null.", field="color")
    color = canonical_color(raw)
    if color == "locomotive":
        return None, locomotives
    if color not in COLORS:
        _bad(
            f"Unknown card colour {raw!r}; use one of {', '.join(COLORS)} or null.",
            ErrorCode.UNKNOWN_COLOR,
            field="color",
        )
    return color, locomotives


def parse_action(data: object, board: Board) -> Action:
    """Build a canonical action from client JSON, or raise ``MalformedActionError``."""
    if not isinstance(data, dict):
        _bad("An action must be a JSON object with a 'type'.")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        _bad(
            f"Unknown action type {kind!r}; expected one of {', '.join(ACTION_TYPES)}.",
            ErrorCode.UNKNOWN_ACTION,
            field="type",
        )
    allowed = {"type", *(ACTION_TYPES[kind].__dataclass_fields__)}
    extra = sorted(set(data) - allowed)
    if extra:
        _bad(f"Unexpected field(s) for {kind}: {', '.join(extra)}.", field=extra[0])
    if kind == "keep_tickets":
        tickets = data.get("tickets")
        if not isinstance(tickets, list) or not all(isinstance(t, str) for t in tickets):
            _bad("'tickets' must be a list of ticket ids.", field="tickets")
        ids = []
        for raw in tickets:
            ticket = board.ticket_by_id.get(raw.strip().lower())
            if ticket is None:
                _bad(f"Unknown ticket {raw!r}.", ErrorCode.UNKNOWN_TICKET, field="tickets")
            else:
                ids.append(ticket.id)
        if len(set(ids)) != len(ids):
            _bad("A ticket is listed twice.", field="tickets")
        return KeepTickets(tuple(ids))
    if kind == "draw_face_up":
        return DrawFaceUp(_int_field(data, "slot", 0, board.rules.face_up - 1))
    if kind == "draw_blind":
        return DrawBlind()
    if kind == "draw_tickets":
        return DrawTickets()
    if kind == "decline_tunnel":
        return DeclineTunnel()
    if kind == "forfeit":
        return Forfeit()
    if kind == "pay_tunnel":
        return PayTunnel(_int_field(data, "locomotives", 0, 99))
    if kind == "claim_route":
        raw_route = data.get("route")
        if not isinstance(raw_route, str):
            _bad("'route' must be a route id.", field="route")
        route = board.route(raw_route)
        if route is None:
            _bad(f"Unknown route {raw_route!r}.", ErrorCode.UNKNOWN_ROUTE, field="route")
        color, locomotives = _payment(data)
        if locomotives >= route.length:
            color = None
        return ClaimRoute(route.id, color, locomotives)
    # build_station
    raw_city = data.get("city")
    if not isinstance(raw_city, str):
        _bad("'city' must be a city name.", field="city")
    city = board.city(raw_city)
    if city is None:
        _bad(f"Unknown city {raw_city!r}.", ErrorCode.UNKNOWN_CITY, field="city")
    color, locomotives = _payment(data)
    return BuildStation(city.name, color, locomotives)
