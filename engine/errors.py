"""Typed errors with stable machine codes.

Every rejected action raises one of these before the state is touched, so a caller can
report ``code`` to a client and keep the game exactly as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .texts import Text, as_text, ngettext


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
    BAD_OPTION = "BAD_OPTION"
    # A position given to the score calculator (each problem has its own code).
    ILLEGAL_POSITION = "ILLEGAL_POSITION"
    BAD_SHAPE = "BAD_SHAPE"
    UNKNOWN_BOARD = "UNKNOWN_BOARD"
    BAD_PLAYER_COUNT = "BAD_PLAYER_COUNT"
    BAD_TICKET = "BAD_TICKET"
    ROUTE_HELD_TWICE = "ROUTE_HELD_TWICE"
    DOUBLE_ROUTE_BOTH_TRACKS = "DOUBLE_ROUTE_BOTH_TRACKS"
    TOO_MANY_TRAINS = "TOO_MANY_TRAINS"
    TOO_MANY_STATIONS = "TOO_MANY_STATIONS"
    STATION_CITY_TAKEN = "STATION_CITY_TAKEN"


class EngineError(Exception):
    """Base of every error the engine raises on purpose: ``message`` is the English,
    ``text`` the same words as a translatable template and its values."""

    def __init__(self, code: ErrorCode, message: str | Text, **context: Any) -> None:
        text = as_text(message)
        super().__init__(str(text))
        self.code = code
        self.text = text
        self.message = str(text)
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


def illegal(code: ErrorCode, message: str | Text, **context: Any) -> IllegalActionError:
    """An ``IllegalActionError``, for ``raise illegal(...)``."""
    return IllegalActionError(code, message, **context)


@dataclass(frozen=True, slots=True)
class PositionProblem:
    """One thing wrong with a position: where (``players[1].routes[3]``), what, and why
    (``text``, translatable; ``message`` is its English)."""

    field: str
    code: ErrorCode
    text: Text

    @property
    def message(self) -> str:
        return str(self.text)

    def to_json(self) -> dict[str, str]:
        return {"field": self.field, "code": str(self.code), "message": self.message}


class PositionError(EngineError):
    """A position that cannot be scored; ``problems`` lists everything found wrong."""

    def __init__(self, problems: Sequence[PositionProblem]) -> None:
        self.problems = tuple(problems)
        count = len(self.problems)
        super().__init__(
            ErrorCode.ILLEGAL_POSITION,
            ngettext(
                "The position is not legal: %(count)d problem found.",
                "The position is not legal: %(count)d problems found.",
                count,
                count=count,
            ),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "code": str(self.code),
            "message": self.message,
            "problems": [p.to_json() for p in self.problems],
        }
