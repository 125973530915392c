"""Longest-path estimates for the bots, from public track only.

Between planners of equal skill the longest-path bonus decides many games: when the
planner loses, the winner's bonus is about 6 of the 23 points between them. These helpers
say how long a seat's trail is, how long a network would make it, and how likely a trail of
some length is to be the longest at the end.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

from ..paths import Edge, longest_trail
from .knowledge import Knowledge

# Trains of its remaining ones (less the last few) an opponent's trail is expected to gain,
# and what the longest of several such guesses adds (the best of three runs longer).
RIVAL_GROWTH = 0.6
RIVAL_EXTRA = 3.0
# Trains of difference that move the chance of holding the longest path from 50 % to 73 %.
TRAIL_SCALE = 3.0


def route_edges(k: Knowledge, routes: Iterable[int]) -> list[Edge]:
    board = k.board
    out: list[Edge] = []
    for r in routes:
        route = board.routes[r]
        a, b = route.city_indices
        out.append((r, a, b, route.length))
    return out


def owned_edges(k: Knowledge, seat: int) -> list[Edge]:
    return route_edges(k, (r for r, o in enumerate(k.owner) if o == seat))


def trail_length(edges: list[Edge]) -> int:
    return _trail_of(tuple(sorted(edges)))


# Remembered by their set of edges: a look-ahead meets the same networks in many sampled
# states and play-outs.
@lru_cache(maxsize=20_000)
def _trail_of(edges: tuple[Edge, ...]) -> int:
    return longest_trail(list(edges))[0]


def rival_trail(k: Knowledge) -> float:
    """The longest trail an opponent is expected to end with."""
    best = 0.0
    for o in k.opponents():
        grown = trail_length(owned_edges(k, o)) + RIVAL_GROWTH * max(0, k.trains[o] - 3)
        best = max(best, grown)
    return best + RIVAL_EXTRA


def longest_chance(mine: float, rival: float) -> float:
    """Chance a trail of ``mine`` trains ends the longest against a rival's ``rival``."""
    return 1.0 / (1.0 + math.exp(-(mine - rival) / TRAIL_SCALE))
