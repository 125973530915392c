"""Choosing between a few candidate moves by playing the game out.

Each candidate is tried on the same sampled states (``sampling.sample_state``: the hidden
parts drawn consistently with what the seat has seen), and every sample is played to the
end by planning bots, one per seat. A candidate's value is its mean final margin: the
seat's score less the best other score, plus a bonus for winning. Using the same samples
for every candidate (common random numbers) makes the comparison far less noisy than the
margins themselves.

Everything is seeded from the bot's own random stream, so a bot decides the same way every
time it sees the same position.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..actions import Action
from ..errors import EngineError
from ..state import GameState
from .knowledge import Knowledge
from .sampling import sample_state, ticket_beliefs

# Points a win is worth beside the margin: what counts is finishing first.
WIN_BONUS = 15.0
# A play-out longer than this many actions is cut off and scored as it stands.
MAX_PLAYOUT_ACTIONS = 2000
# Samples every comparison gets, however little think time is left: fewer tell nothing.
MIN_SAMPLES = 2

Policy = Callable[[GameState, int], Action]
# A caller's clock, in seconds: what a think time is measured on.
Clock = Callable[[], float]
# The kind of move compared: a ticket choice, or any move.
ActionT = TypeVar("ActionT", bound=Action)


@dataclass(slots=True)
class Estimate(Generic[ActionT]):
    action: ActionT
    values: list[float]  # the margin on each sample, in sample order

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values)


def margin(state: GameState, seat: int) -> float:
    """The seat's final score less the best other one, plus the bonus for a win."""
    assert state.result is not None
    totals: dict[int, int] = {p["seat"]: p["total"] for p in state.result["players"]}
    mine = totals.pop(seat)
    first = any(p["seat"] == seat and p["place"] == 1 for p in state.result["players"])
    return float(mine - max(totals.values(), default=0)) + (WIN_BONUS if first else 0.0)


def play_out(state: GameState, policies: Sequence[Policy]) -> GameState | None:
    """The game played to its end by ``policies`` (one per seat); None if one failed."""
    s = state
    for _ in range(MAX_PLAYOUT_ACTIONS):
        if s.is_over:
            return s
        seat = s.pending.seats[0]
        try:
            s = s.apply(seat, policies[seat](s, seat))
        except EngineError:
            return None
    return None


def evaluate(
    state: GameState,
    seat: int,
    k: Knowledge,
    candidates: Sequence[ActionT],
    policies: Sequence[Policy],
    samples: int,
    rng: random.Random,
    beliefs: dict[int, list[float]] | None = None,
    *,
    screen: int | None = None,
    finalists: int = 1,
    stop: Callable[[], bool] | None = None,
    fresh: Callable[[], None] | None = None,
) -> list[Estimate[ActionT]]:
    """Every candidate's mean margin over the same ``samples`` sampled states.

    ``policies`` play every seat in the play-outs (one per seat); ``beliefs`` are the
    opponents' ticket likelihoods (``ticket_beliefs``), worked out here when not given. A
    candidate that a sample does not allow, or whose play-out fails, scores that sample
    as the worst margin seen, so it is not chosen for it.

    With ``screen``, every candidate is played on the first ``screen`` samples only; after
    them the first candidate goes on with at most ``finalists`` others, those whose mean is
    ahead of its own, best first, and the play stops there when none is. Only the candidates
    played on every sample are returned, the first one first.

    ``stop``, when given, is asked before each sample after the first two: once it says
    True, no more samples are drawn (the think time is spent). ``fresh``, when given, is
    called before each play-out, for policies that keep something from one of their
    decisions to the next (``planner.PlanMemo``) to start anew.
    """
    values: list[list[float]] = [[] for _ in candidates]
    live = list(range(len(candidates)))
    if beliefs is None:
        beliefs = ticket_beliefs(k)
    for n in range(samples):
        if n >= MIN_SAMPLES and stop is not None and stop():
            break
        if n == screen and live:
            means = [sum(v) / len(v) for v in values]
            ahead = [i for i in live[1:] if means[i] > means[live[0]]]
            ahead.sort(key=lambda i: (-means[i], i))
            live = [live[0], *sorted(ahead[:finalists])]
            if len(live) == 1:
                break
        world = sample_state(state, seat, k, rng, beliefs)
        results: list[float | None] = []
        for i in live:
            try:
                after = world.apply(seat, candidates[i])
            except EngineError:
                results.append(None)
                continue
            if fresh is not None:
                fresh()
            end = play_out(after, policies)
            results.append(None if end is None else margin(end, seat))
        seen = [r for r in results if r is not None]
        floor = min(seen) if seen else 0.0
        for i, r in zip(live, results, strict=True):
            values[i].append(floor if r is None else r)
    return [Estimate(candidates[i], values[i]) for i in live]


def best(estimates: Sequence[Estimate[ActionT]], keep_first_by: float, z: float) -> ActionT:
    """The candidate with the best mean; the first (the planner's own choice) stays unless
    another is ahead of it by more than ``keep_first_by`` points and by more than ``z``
    standard errors of their paired differences (the same samples for both)."""
    first = estimates[0]
    top = max(estimates, key=lambda e: e.mean)
    if top is first:
        return first.action
    diffs = [a - b for a, b in zip(top.values, first.values, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    spread = (sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)) ** 0.5
    if mean > keep_first_by and mean > z * spread / n**0.5:
        return top.action
    return first.action
