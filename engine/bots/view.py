"""What a bot is given to decide from: one seat's view of the game, and nothing more.

A bot's ``choose`` takes a ``SeatView``, never the game's state. The view carries the seat's
``Knowledge`` (its own hand, tickets and offers, every public count, route and station) and
a stand-in ``state`` for the engine's listing functions and for sampling. The stand-in
equals the real state in everything the seat may see; everything it may not see (the other
hands and tickets, the deck, the discard, the ticket deck, the game's seed) is filled by a
fixed rule from the view alone: the unseen cards and tickets dealt in one fixed shuffle. Two
real states that differ only in what the seat cannot see give the same view, so no bot can
read hidden data, even by mistake.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..state import GameState
from .knowledge import Knowledge, know
from .sampling import sample_state

# The seed of the one fixed shuffle that fills the hidden parts of every stand-in state.
STAND_IN_SEED = 0


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's view: ``knowledge`` and a ``state`` that shows only what the seat sees."""

    seat: int
    state: GameState
    knowledge: Knowledge


def seat_view(state: GameState, seat: int) -> SeatView:
    """``seat``'s view of ``state``: what a bot deciding for that seat is given."""
    k = know(state, seat)
    uniform = {o: [1.0] * len(k.board.tickets) for o in k.opponents()}
    stand_in = sample_state(state, seat, k, random.Random(STAND_IN_SEED), uniform)
    stand_in.seed = STAND_IN_SEED
    return SeatView(seat, stand_in, k)
