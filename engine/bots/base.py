"""The frame every planning bot shares: read the seat's knowledge, route the decision."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action, Draw, KeepTickets, TunnelAnswer
from ..legal import draw_actions, legal_actions
from ..state import (
    CHOOSE_INITIAL_TICKETS,
    KEEP_TICKETS,
    SECOND_CARD,
    TUNNEL_PAYMENT,
    GameState,
)
from .knowledge import Knowledge, know
from .view import SeatView


class KnowledgeBot:
    """Dispatches each kind of decision to a method that sees only ``Knowledge``.

    ``choose`` is given a seat's view (``view.SeatView``); ``decide`` plays a seat of a state
    the bot imagines itself (the look-ahead's sampled states). ``state`` is passed on only so
    the listing functions of ``engine.legal`` (which read the seat's own hand and public
    data) can spell out payments.
    """

    name = "knowledge"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def pick_index(self, n: int) -> int:
        # int(random() * n): the same draw on every Python version.
        return int(self._random.random() * n)

    def choose(self, view: SeatView) -> Action:
        return self.decide(view.state, view.seat, view.knowledge)

    def decide(self, state: GameState, seat: int, k: Knowledge | None = None) -> Action:
        """The move for ``seat`` in ``state``; ``k`` is its knowledge, when already read."""
        if k is None:
            k = know(state, seat)
        kind = k.kind
        if kind in (CHOOSE_INITIAL_TICKETS, KEEP_TICKETS):
            action: Action | None = self.keep_tickets(state, seat, k)
        elif kind == SECOND_CARD:
            action = self.second_card(state, seat, k)
        elif kind == TUNNEL_PAYMENT:
            action = self.tunnel(state, seat, k)
        else:
            action = self.turn(state, seat, k)
        if action is None:
            # Nothing planned fits: any legal move, drawing first.
            options: Sequence[Action] = draw_actions(state, seat) or legal_actions(state, seat)
            action = options[0]
        return action

    # One method per kind of decision. ``second_card`` and ``turn`` may return None when
    # nothing planned fits: ``decide`` then plays the first card draw, or legal move.
    def keep_tickets(self, state: GameState, seat: int, k: Knowledge) -> KeepTickets:
        raise NotImplementedError

    def second_card(self, state: GameState, seat: int, k: Knowledge) -> Draw | None:
        raise NotImplementedError

    def tunnel(self, state: GameState, seat: int, k: Knowledge) -> TunnelAnswer:
        raise NotImplementedError

    def turn(self, state: GameState, seat: int, k: Knowledge) -> Action | None:
        raise NotImplementedError
