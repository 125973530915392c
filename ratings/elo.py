"""Multi-player Elo: a game of n players counts as every pair of them playing each other.

Each pair is scored like a two-player game (1 for the better place, ½ for a shared place, 0
for the worse), against the expectation from the rating difference on the usual 400 scale.
K is divided by the number of opponents, so a game moves a rating about as much as one
two-player game does, whatever the table size. Every pair uses the ratings from before the
game, so the order of the players does not matter.
"""

from __future__ import annotations

from collections.abc import Mapping

K_FACTOR = 32.0
SCALE = 400.0


def expected_score(rating: float, opponent: float) -> float:
    """The chance of finishing ahead of ``opponent``, a draw counting half."""
    odds: float = 10.0 ** ((opponent - rating) / SCALE)
    return 1.0 / (1.0 + odds)


def pair_score(place: int, opponent_place: int) -> float:
    if place < opponent_place:
        return 1.0
    if place == opponent_place:
        return 0.5
    return 0.0


def rating_changes(ratings: Mapping[int, float], places: Mapping[int, int]) -> dict[int, float]:
    """The rating change of each player (keyed as in ``ratings``) from their places."""
    players = list(ratings)
    if len(players) < 2:
        return dict.fromkeys(players, 0.0)
    k = K_FACTOR / (len(players) - 1)
    return {
        p: k
        * sum(
            pair_score(places[p], places[q]) - expected_score(ratings[p], ratings[q])
            for q in players
            if q != p
        )
        for p in players
    }
