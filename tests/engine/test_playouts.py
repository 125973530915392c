"""Seeded random games, checked after every action.

200 complete Europe games for each of 2, 3, 4 and 5 players, and fewer on every other board
and variant at each of its player counts: every action legal, cards and tickets all
accounted for, trains and stations in range, an exact JSON round trip, views unchanged by
hidden data, and every game ending. One game in seven loses a player to a forfeit midway.
"""

from __future__ import annotations

import pytest

from engine import Forfeit, new_game
from engine.bots import RandomBot

from .invariants import check_counts, check_hidden_information, check_json_round_trip

GAMES_PER_COUNT = 200
CHUNK = 20
MAX_ACTIONS = 5000


def play_checked(
    players: int, seed: int, board: str = "europe", options: dict[str, str] | None = None
) -> int:
    s = new_game(board, players, seed, options=options)
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


# Other boards: (board, options, player counts, games per count).
OTHER_BOARDS = [
    ("usa", None, (2, 3, 4, 5), 20),
    ("usa-1910", None, (2, 3, 4, 5), 10),
    ("usa-mega", None, (2, 3, 4, 5), 10),
    ("usa-bigcities", None, (2, 3, 4, 5), 10),
    ("usa-bigcities", {"bonus": "both"}, (3,), 10),
    ("switzerland", None, (2, 3), 30),
]


@pytest.mark.parametrize(
    ("board", "options", "players", "games"),
    [(b, o, n, g) for b, o, counts, g in OTHER_BOARDS for n in counts],
)
def test_random_games_on_every_board_keep_every_invariant(board, options, players, games):
    for seed in range(games):
        play_checked(players, seed * 10 + players, board, options)
