"""Final scoring of a game state, through the position scorer in ``scoring``."""

from __future__ import annotations

from typing import Any

from .scoring import PlayerPosition, TicketSpec, score_position
from .state_data import GameData


def positions(s: GameData) -> list[PlayerPosition]:
    """Each seat's routes, stations and kept tickets, as the scorer takes them."""
    board = s.board
    out = []
    for seat in range(s.n_players):
        tickets = tuple(TicketSpec.of(board.tickets[i]) for i in s.tickets[seat])
        out.append(
            PlayerPosition(
                routes=tuple(s.routes_of(seat)),
                stations=tuple(s.stations[seat]),
                tickets=tickets,
                forfeited=s.forfeited[seat],
            )
        )
    return out


def final_result(s: GameData) -> dict[str, Any]:
    return score_position(s.board, positions(s))
