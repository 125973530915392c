"""Bots choose an action for a seat from what that seat may know.

``random`` plays any legal move; ``easy``, ``medium`` and ``hard`` plan, from the seat's own
view of the game only (``knowledge.know``).
"""

from __future__ import annotations

from typing import Any, Protocol

from ..state import GameState
from .easy import EasyBot
from .hard import HardBot
from .medium import MediumBot
from .random_bot import RandomBot


class Bot(Protocol):
    name: str

    def choose(self, state: GameState, seat: int) -> Any: ...


BOTS: dict[str, type[Any]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
}


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name, with its own reproducible randomness."""
    bot: Bot = BOTS[name](seed)
    return bot


__all__ = ["BOTS", "Bot", "EasyBot", "HardBot", "MediumBot", "RandomBot", "make_bot"]
