"""Bots choose an action for a seat from what that seat may know."""

from __future__ import annotations

from typing import Any, Protocol

from ..state import GameState
from .random_bot import RandomBot


class Bot(Protocol):
    name: str

    def choose(self, state: GameState, seat: int) -> Any: ...


BOTS: dict[str, type[Any]] = {"random": RandomBot}


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name, with its own reproducible randomness."""
    bot: Bot = BOTS[name](seed)
    return bot


__all__ = ["BOTS", "Bot", "RandomBot", "make_bot"]
