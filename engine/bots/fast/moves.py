"""Translating between compact moves and the engine's actions."""

from __future__ import annotations

from ...actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DeclineTunnel,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    PayTunnel,
)
from ...board import Board
from ...colors import CARD_INDEX, CARD_NAMES, LOCOMOTIVE
from .state import (
    BLIND,
    CLAIM,
    DECLINE,
    FACE,
    KEEP_MOVE,
    PAY,
    STATION,
    TICKETS,
    FastMove,
)


def _color(index: int) -> str | None:
    return None if index == LOCOMOTIVE else CARD_NAMES[index]


def _index(color: str | None) -> int:
    return LOCOMOTIVE if color is None else CARD_INDEX[color]


def to_action(board: Board, move: FastMove) -> Action:
    """The engine action of a compact move."""
    kind = move[0]
    if kind == FACE:
        return DrawFaceUp(move[1])
    if kind == BLIND:
        return DrawBlind()
    if kind == CLAIM:
        return ClaimRoute(board.routes[move[1]].id, _color(move[2]), move[3])
    if kind == TICKETS:
        return DrawTickets()
    if kind == KEEP_MOVE:
        return KeepTickets(tuple(board.tickets[t].id for t in move[1:]))
    if kind == STATION:
        return BuildStation(board.cities[move[1]].name, _color(move[2]), move[3])
    if kind == PAY:
        return PayTunnel(move[1])
    if kind == DECLINE:
        return DeclineTunnel()
    raise ValueError(f"not a move: {move!r}")


def to_move(board: Board, action: Action) -> FastMove:
    """The compact move of an engine action (of the kinds a seat may choose)."""
    if isinstance(action, DrawFaceUp):
        return (FACE, action.slot)
    if isinstance(action, DrawBlind):
        return (BLIND,)
    if isinstance(action, ClaimRoute):
        return (
            CLAIM,
            board.route_by_id[action.route].index,
            _index(action.color),
            action.locomotives,
        )
    if isinstance(action, DrawTickets):
        return (TICKETS,)
    if isinstance(action, KeepTickets):
        return (KEEP_MOVE, *sorted(board.ticket_by_id[t].index for t in action.tickets))
    if isinstance(action, BuildStation):
        return (
            STATION,
            board.city_by_name[action.city].index,
            _index(action.color),
            action.locomotives,
        )
    if isinstance(action, PayTunnel):
        return (PAY, action.locomotives)
    if isinstance(action, DeclineTunnel):
        return (DECLINE,)
    raise ValueError(f"not an action a seat chooses: {action!r}")
