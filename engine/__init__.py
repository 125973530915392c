"""Ticket to Ride rules engine: pure Python, no I/O, no clock, no global randomness.

A ``Board`` holds the static data and rule options; a ``GameState`` is one playthrough.
``new_game`` deals, ``state.legal_actions(seat)`` lists moves, ``state.apply(seat, action)``
returns the next state, ``player_view(state, seat)`` is what a seat may see.
"""

from .actions import (
    ACTION_TYPES,
    Action,
    BuildStation,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    Forfeit,
    KeepTickets,
    PayTunnel,
    canonical_action,
    parse_action,
)
from .board import BOARD_IDS, Board, City, Route, Ticket, load_board
from .colors import CARD_NAMES, COLORS, LOCOMOTIVE, canonical_color
from .errors import (
    EngineError,
    ErrorCode,
    IllegalActionError,
    MalformedActionError,
    PositionError,
    PositionProblem,
    SetupError,
)
from .events import Event, action_view, event_view
from .replay import replay
from .rules import RuleSet
from .scoring import PlayerPosition, TicketSpec, score_position
from .state import RULES_VERSION, GameState, Pending, new_game
from .texts import Text
from .views import player_view

__all__ = [
    "ACTION_TYPES",
    "BOARD_IDS",
    "CARD_NAMES",
    "COLORS",
    "LOCOMOTIVE",
    "RULES_VERSION",
    "Action",
    "Board",
    "BuildStation",
    "City",
    "ClaimRoute",
    "DeclineTunnel",
    "DrawBlind",
    "DrawFaceUp",
    "DrawTickets",
    "EngineError",
    "ErrorCode",
    "Event",
    "Forfeit",
    "GameState",
    "IllegalActionError",
    "KeepTickets",
    "MalformedActionError",
    "PayTunnel",
    "Pending",
    "PlayerPosition",
    "PositionError",
    "PositionProblem",
    "Route",
    "RuleSet",
    "SetupError",
    "Text",
    "Ticket",
    "TicketSpec",
    "action_view",
    "canonical_action",
    "canonical_color",
    "event_view",
    "load_board",
    "new_game",
    "parse_action",
    "player_view",
    "replay",
    "score_position",
]
