"""Bots choose an action for a seat from what that seat may know.

Every bot's ``choose`` takes a ``SeatView`` (``seat_view(state, seat)``), not the game's
state: what the seat cannot see is not there to read. ``random`` plays any legal move;
``easy``, ``medium`` and ``hard`` plan; ``hard`` also plays candidate moves out on the
engine's own states (``lookahead``).
"""

from __future__ import annotations

from typing import Protocol

from ..actions import Action

# First: importing ``native`` puts the compiled hot modules, when built, on this package's
# path before any module below is imported.
from . import native
from .easy import EasyBot
from .hard import HardBot
from .lookahead import Clock
from .medium import MediumBot
from .random_bot import RandomBot
from .view import SeatView, seat_view


class Bot(Protocol):
    name: str

    def choose(self, view: SeatView) -> Action: ...


BOTS: dict[str, type[RandomBot | EasyBot | MediumBot | HardBot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "medium": MediumBot,
    # A planner with a one-ply look-ahead over hidden information.
    "hard": HardBot,
}


def make_bot(name: str, seed: int, budget: float | None = None, clock: Clock | None = None) -> Bot:
    """A bot by name, with its own reproducible randomness.

    ``budget`` is the think time a decision may take (seconds) for the level that takes one
    (``hard``, whose ``takes_budget`` says so), and ``clock`` the caller's clock that
    enforces it; other levels ignore both. Without a clock the look-ahead's work is bounded
    by sample counts fixed by the budget, so its decisions are the same on every machine.
    """
    cls = BOTS[name]
    if issubclass(cls, HardBot):
        return cls(seed, budget=budget, clock=clock)
    return cls(seed)


__all__ = [
    "BOTS",
    "Bot",
    "Clock",
    "EasyBot",
    "HardBot",
    "MediumBot",
    "RandomBot",
    "SeatView",
    "make_bot",
    "native",
    "seat_view",
]
