"""Which bot plays for a seat, and the one rule for its randomness.

A bot is handed the seat's view (``engine.bots.seat_view``), never the state, and its
randomness comes from the game's seed and the move number: the same position, the same
choice, whichever worker thinks it (the hard bot's look-ahead stops drawing samples at its
think time, ``settings.AI_THINK_SECONDS``, or at a number of samples fixed by that time,
whichever comes first: only a worker too busy to reach that number may decide
differently). Thinking is slow: callers run it outside any transaction, on a snapshot.
"""

from __future__ import annotations

import time

from django.conf import settings

from engine import Action, GameState
from engine.bots import make_bot, seat_view

# The engine's bots, weakest first; AI seats without a level play at DEFAULT_AI_LEVEL, and
# so does the AI that plays a missed turn for a person.
AI_LEVELS = ("random", "easy", "medium", "hard")
DEFAULT_AI_LEVEL = "medium"


def think(level: str | None, game_seed: int, state: GameState, seat: int) -> Action:
    """The action the bot of ``level`` chooses for ``seat`` in ``state``."""
    name = level or DEFAULT_AI_LEVEL
    bot = make_bot(
        name,
        game_seed ^ (state.action_count + 1),
        budget=settings.AI_THINK_SECONDS.get(name),
        clock=time.monotonic,
    )
    return bot.choose(seat_view(state, seat))
