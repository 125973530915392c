"""Seeded random games, checked after every action.

Every action legal, cards and tickets all accounted for, trains and stations in range, an
exact JSON round trip, views unchanged by hidden data, and every game ending. One game in
seven loses a player to a forfeit midway.

The default suite plays a few games for each player count of every board and variant: on
Europe, seven games per count (one of them with a forfeit). The sweep, marked ``slow``
(``make test-slow``), plays 200 Europe games for each of 2, 3, 4 and 5 players and 10 to 30
on every other board and variant at each of its player counts.
"""

from __future__ import annotations

import pytest

from engine import Forfeit, GameState, new_game
from engine.bots import RandomBot, seat_view

from .invariants import check_counts, check_hidden_information, check_json_round_trip

GAMES_PER_COUNT = 200
CHUNK = 20
# Seven seeds in a row hold exactly one that forfeits (seed % 7 == 0; 10 is prime to 7).
QUICK_GAMES_PER_COUNT = 7
MAX_ACTIONS = 5000
FORFEIT_AT = 100


def series(players: int, games: range) -> list[int]:
    """The seeds every run draws from for ``players``: the sweep's and the quick runs'."""
    return [game * 10 + players for game in games]


def forfeits(seed: int) -> bool:
    return seed % 7 == 0


def play_checked(
    players: int, seed: int, board: str = "europe", options: dict[str, str] | None = None
) -> GameState:
    s = new_game(board, players, seed, options=options)
    bot = RandomBot(seed)
    actions = 0
    while not s.is_over:
        assert actions < MAX_ACTIONS, "game did not end"
        seat = s.pending.seats[0]
        action = bot.choose(seat_view(s, seat))
        if forfeits(seed) and actions == FORFEIT_AT:
            # Some games lose a player midway (a resignation or a timeout).
            seat, action = (seat + 1) % players, Forfeit()
        s.check(seat, action)  # raises if the bot's choice were illegal
        s = s.apply(seat, action)
        actions += 1
        check_counts(s)
        check_json_round_trip(s)
        check_hidden_information(s, actions % players)
    assert s.result is not None
    return s


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_few_random_games_keep_every_invariant(players):
    seeds = series(players, range(QUICK_GAMES_PER_COUNT))
    assert sum(map(forfeits, seeds)) == 1
    for seed in seeds:
        end = play_checked(players, seed)
        assert any(end.forfeited) == forfeits(seed)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("chunk", range(GAMES_PER_COUNT // CHUNK))
def test_random_games_keep_every_invariant(players, chunk):
    for seed in series(players, range(chunk * CHUNK, (chunk + 1) * CHUNK)):
        play_checked(players, seed)


# Other boards: (board, options, player counts, games per count in the sweep).
OTHER_BOARDS = [
    ("usa", None, (2, 3, 4, 5), 20),
    ("usa-1910", None, (2, 3, 4, 5), 10),
    ("usa-mega", None, (2, 3, 4, 5), 10),
    ("usa-bigcities", None, (2, 3, 4, 5), 10),
    ("usa-bigcities", {"bonus": "both"}, (3,), 10),
    ("switzerland", None, (2, 3), 30),
]
EVERY_BOARD = [(b, o, n, g) for b, o, counts, g in OTHER_BOARDS for n in counts]


@pytest.mark.parametrize(("board", "options", "players"), [b[:3] for b in EVERY_BOARD])
def test_two_random_games_on_every_board_keep_every_invariant(board, options, players):
    """The first game of the sweep's series, and the first that loses a player midway."""
    seeds = series(players, range(7))
    first_forfeit = next(s for s in seeds if forfeits(s))
    assert not any(play_checked(players, seeds[0], board, options).forfeited)
    assert any(play_checked(players, first_forfeit, board, options).forfeited)


@pytest.mark.slow
@pytest.mark.parametrize(("board", "options", "players", "games"), EVERY_BOARD)
def test_random_games_on_every_board_keep_every_invariant(board, options, players, games):
    for seed in series(players, range(games)):
        play_checked(players, seed, board, options)
