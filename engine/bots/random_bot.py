"""A legal random bot: a kind of move uniformly among the possible kinds, then one of them."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal, TypeVar

from ..actions import Action, BuildStation, Draw, DrawTickets
from ..legal import (
    claim_actions_for,
    claimable_routes,
    draw_actions,
    keep_actions,
    legal_actions,
    station_payments,
)
from ..state import CHOOSE_INITIAL_TICKETS, KEEP_TICKETS, TURN_ACTION, GameState
from .view import SeatView

T = TypeVar("T")


class RandomBot:
    """Picks uniformly at random; reproducible from its own seed.

    It is given the seat's view (``view.SeatView``), and reads only what ``legal_actions``
    reads of it.
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def _pick(self, items: Sequence[T]) -> T:
        # int(random() * n): the one draw that stays the same across Python versions.
        return items[int(self._random.random() * len(items))]

    def choose(self, view: SeatView) -> Action:
        return self.decide(view.state, view.seat)

    def decide(self, state: GameState, seat: int) -> Action:
        kind = state.pending.kind
        if kind == TURN_ACTION:
            # Routes first, then a payment for the chosen route: listing every payment of
            # every route each turn would cost more than the rest of the game.
            kinds: list[Literal["claim", "station"] | list[Draw] | list[DrawTickets]] = []
            routes = claimable_routes(state, seat)
            if routes:
                kinds.append("claim")
            draws = draw_actions(state, seat)
            if draws:
                kinds.append(draws)
            if state.ticket_deck:
                kinds.append([DrawTickets()])
            payments = station_payments(state, seat)
            if payments and -1 in state.station_owner:
                kinds.append("station")
            choice = self._pick(kinds)
            if choice == "claim":
                return self._pick(claim_actions_for(state, seat, self._pick(routes)))
            if choice == "station":
                free = [c for c in state.board.cities if state.station_owner[c.index] == -1]
                color, locos = self._pick(payments)
                return BuildStation(self._pick(free).name, color, locos)
            return self._pick(choice)
        if kind in (CHOOSE_INITIAL_TICKETS, KEEP_TICKETS):
            return self._pick(keep_actions(state, seat))
        return self._pick(legal_actions(state, seat))
