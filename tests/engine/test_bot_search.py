"""The search level's tree search: legal in every phase on every board, blind to hidden data,
reproducible from its seed, and within its think time.

These tests search at a small budget (a few iterations a decision, no clock unless the
test is about the clock). Strength and speed are measured by ``bench/ai.py``.
"""

from __future__ import annotations

import time

import pytest

from engine import GameState, new_game
from engine.bots import make_bot, seat_view
from engine.bots.fast.state import BLIND, FACE, TICKETS, TURN
from engine.bots.search import ITERATIONS_PER_SECOND, Node, SearchBot, play_until, root_choice
from engine.state import TURN_ACTION

from .invariants import check_counts, perturb_hidden
from .test_bots import check_final_scores

pytestmark = pytest.mark.look_ahead

# Seconds of budget: four iterations a decision without a clock.
SMALL = 4 / ITERATIONS_PER_SECOND


def game(board: str, players: int, seed: int, budget: float = SMALL) -> tuple[GameState, set[str]]:
    """One searching bot against medium bots, every action checked before it is applied."""
    hero = seed % players
    bots = [
        SearchBot(seed, budget=budget) if i == hero else make_bot("medium", seed + i)
        for i in range(players)
    ]
    s = new_game(board, players, seed)
    kinds: set[str] = set()
    while not s.is_over:
        seat = s.pending.seats[0]
        action = bots[seat].choose(seat_view(s, seat))
        assert s.is_legal(seat, action), (board, s.pending.kind, action)
        if seat == hero:
            kinds.add(str(s.pending.kind))
        s = s.apply(seat, action)
    check_counts(s)
    check_final_scores(s)
    return s, kinds


@pytest.mark.parametrize(
    ("board", "players", "seed"),
    [("europe", 4, 1), ("europe", 2, 2), ("usa", 3, 3), ("switzerland", 3, 4)],
)
def test_the_search_plays_legal_moves_to_the_end(board, players, seed):
    _, kinds = game(board, players, seed)
    assert {"choose_initial_tickets", "turn_action", "second_card"} <= kinds


def positions(seed: int, every: int) -> list[GameState]:
    bots = [make_bot("medium", seed + i) for i in range(4)]
    s = new_game("europe", 4, seed)
    out = []
    n = 0
    while not s.is_over:
        if n % every == 0:
            out.append(s)
        seat = s.pending.seats[0]
        s = s.apply(seat, bots[seat].choose(seat_view(s, seat)))
        n += 1
    return out


def test_the_search_ignores_hidden_data():
    """Changing only what the deciding seat cannot see never changes its choice."""
    checked = 0
    for s in positions(21, every=23):
        seat = s.pending.seats[0]
        other = perturb_hidden(s, seat)
        first = SearchBot(5, budget=SMALL).decide(s, seat)
        second = SearchBot(5, budget=SMALL).decide(other, seat)
        assert first == second, (s.pending.kind, first, second)
        checked += 1
    assert checked >= 10


def test_the_same_seed_makes_the_same_choice():
    states = positions(22, every=37)
    for s in states:
        seat = s.pending.seats[0]
        a, b = SearchBot(9, budget=SMALL), SearchBot(9, budget=SMALL)
        assert a.choose(seat_view(s, seat)) == b.choose(seat_view(s, seat))
        assert a.iterations == b.iterations


def mid_game() -> GameState:
    for s in positions(23, every=1):
        if s.pending.kind == TURN_ACTION and min(s.trains) <= 30:
            return s
    raise AssertionError("no mid-game position")


def test_without_a_clock_the_budget_fixes_the_iterations():
    s = mid_game()
    bot = SearchBot(1, budget=0.1)
    bot.choose(seat_view(s, s.pending.seats[0]))
    assert bot.iterations == int(0.1 * ITERATIONS_PER_SECOND)


def test_with_a_clock_the_search_stops_within_its_budget():
    s = mid_game()
    budget = 0.3
    bot = SearchBot(1, budget=budget, clock=time.perf_counter)
    began = time.perf_counter()
    bot.choose(seat_view(s, s.pending.seats[0]))
    took = time.perf_counter() - began
    # Generous: the clock is read between iterations, and the machine may be busy.
    assert took < budget + 2.0
    assert bot.iterations >= 1


def test_a_clock_that_has_run_out_still_allows_one_iteration():
    s = mid_game()
    ticks = iter(range(0, 10_000, 100))
    bot = SearchBot(1, budget=1.0, clock=lambda: float(next(ticks)))
    action = bot.choose(seat_view(s, s.pending.seats[0]))
    assert bot.iterations == 1
    assert s.is_legal(s.pending.seats[0], action)


def test_make_bot_passes_the_budget_to_the_search_only():
    search = make_bot("search", 1, budget=0.5, clock=time.perf_counter)
    assert isinstance(search, SearchBot) and search.budget == 0.5
    assert make_bot("medium", 1, budget=0.5).name == "medium"
    assert make_bot("hard", 1, budget=0.5).name == "hard"
    assert make_bot("search", 1).budget == SearchBot.default_budget


def test_an_iteration_cap_bounds_every_decision(monkeypatch):
    """``max_iterations`` (what the test suite sets outside these tests) caps the search
    whatever its budget."""
    monkeypatch.setattr(SearchBot, "max_iterations", 2)
    s = mid_game()
    bot = SearchBot(1, budget=1.0)
    bot.choose(seat_view(s, s.pending.seats[0]))
    assert bot.iterations == 2


def test_a_play_out_that_never_ends_stops_after_its_move_limit():
    """However the policy plays, a play-out stops after the moves it is allowed (the
    search then scores the game as it stands)."""

    class Endless:
        phase = TURN
        moves = 0

        def to_move(self) -> int:
            return 1

        def apply(self, move: object) -> None:
            self.moves += 1

    class Passing:
        def choose(self) -> tuple[int]:
            return (BLIND,)

    f = Endless()
    assert play_until(f, Passing(), -1, 50) == 0  # type: ignore[arg-type]
    assert f.moves == 50
    assert play_until(f, Passing(), 1, 50) == 50  # type: ignore[arg-type]


def test_the_planners_move_stays_unless_another_is_clearly_ahead():
    planned, other, third = (BLIND,), (TICKETS,), (FACE, 0)

    def root(values: dict[tuple[int, ...], list[float]]) -> Node:
        node = Node()
        for move, vs in values.items():
            for v in vs:
                node.update(move, v)
        return node

    moves = [planned, other, third]
    close = root({planned: [0.0, 10.0, 5.0], other: [8.0, 4.0, 9.0], third: [1.0]})
    assert root_choice(close, moves, 1.0, 1.5) == 0
    clear = root({planned: [0.0, 1.0, 0.0, 1.0], other: [20.0, 21.0, 20.0, 21.0], third: [5.0]})
    assert root_choice(clear, moves, 1.0, 1.5) == 1
    # Never tried: the move tried most.
    untried = root({other: [1.0], third: [2.0, 3.0]})
    assert root_choice(untried, moves, 1.0, 1.5) == 2
