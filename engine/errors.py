"""Typed errors with stable machine codes.

Every rejected action raises one of these before the state is touched, so a caller can
report ``code`` to a client and keep the game exactly as it was.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    # The action does not fit the moment.
    GAME_OVER = "GAME_OVER"
    FORFEITED = "FORFEITED"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    WRONG_PHASE = "WRONG_PHASE"
    # Train cards.
    DECK_EMPTY = "DECK_EMPTY"
    EMPTY_SLOT = "EMPTY_SLOT"
    LOCOMOTIVE_NOT_ALLOWED = "LOCOMOTIVE_NOT_ALLOWED"
    # Routes.
    ROUTE_TAKEN = "ROUTE_TAKEN"
    DOUBLE_ROUTE_CLOSED = "DOUBLE_ROUTE_CLOSED"
    DOUBLE_ROUTE_OWNED = "DOUBLE_ROUTE_OWNED"
    NOT_ENOUGH_TRAINS = "NOT_ENOUGH_TRAINS"
    WRONG_COLOR = "WRONG_COLOR"
    WRONG_CARD_COUNT = "WRONG_CARD_COUNT"
    FERRY_NEEDS_LOCOMOTIVES = "FERRY_NEEDS_LOCOMOTIVES"
    INSUFFICIENT_CARDS = "INSUFFICIENT_CARDS"
    # Stations.
    STATIONS_DISABLED = "STATIONS_DISABLED"
    STATION_TAKEN = "STATION_TAKEN"
    NO_STATIONS_LEFT = "NO_STATIONS_LEFT"
    # Tickets.
    NO_TICKETS_LEFT = "NO_TICKETS_LEFT"
    TICKET_NOT_OFFERED = "TICKET_NOT_OFFERED"
    MUST_KEEP_TICKETS = "MUST_KEEP_TICKETS"
    # Malformed input.
    BAD_ACTION = "BAD_ACTION"
    UNKNOWN_ACTION = "UNKNOWN_ACTION"
    UNKNOWN_ROUTE = "UNKNOWN_ROUTE"
    UNKNOWN_CITY = "UNKNOWN_CITY"
    UNKNOWN_TICKET = "UNKNOWN_TICKET"
    UNKNOWN_COLOR = "UNKNOWN_COLOR"
    BAD_SEAT = "BAD_SEAT"
    BAD_SETUP = "BAD_SETUP"


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    def __init__(self, code: ErrorCode, message: str, **context: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.context = context

    def to_json(self) -> dict[str, Any]:
        return {"code": str(self.code), "message": self.message, **self.context}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!s}, {self.message!r})"


class IllegalActionError(EngineError):
    """A well-formed action that the rules do not allow now."""


class MalformedActionError(EngineError):
    """Input that is not an action at all: wrong shape, unknown ids or colours."""


class SetupError(EngineError):
    """A game that cannot be created as asked (player count, first player)."""
