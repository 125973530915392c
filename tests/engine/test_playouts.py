"""Seeded random games, checked after every action.

200 complete games for each of 2, 3, 4 and 5 players: every action legal, cards and tickets
all accounted for, trains and stations in range, an exact JSON round trip, views unchanged
by hidden data, and every game ending. One game in seven loses a player to a forfeit midway.
"""

from __future__ import annotations

import pytest

from engine import Forfeit, new_game
from engine.bots import RandomBot

from .invariants import check_counts, check_hidden_information, check_json_round_trip

GAMES_PER_COUNT = 200
CHUNK = 20
MAX_ACTIONS = 5000


def play_checked(players: int, seed: int) -> int:
    s = new_game("europe", players, seed)
    bot = RandomBot(seed)
    actions = 0
    while not s.is_over:
        assert actions < MAX_ACTIONS, "game did not end"
        seat = s.pending.seats[0]
        action = bot.choose(s, seat)
        if seed % 7 == 0 and actions == 100:
            # Some games lose a player midway (a resignation or a timeout).
            seat, action = (seat + 1) % players, Forfeit()
        s.check(seat, action)  # raises if the bot's choice were illegal
        s = s.apply(seat, action)
        actions += 1
        check_counts(s)
        check_json_round_trip(s)
        check_hidden_information(s, actions % players)
    assert s.result is not None
    return actions


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("chunk", range(GAMES_PER_COUNT // CHUNK))
def test_random_games_keep_every_invariant(players, chunk):
    for seed in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        play_checked(players, seed * 10 + players)
