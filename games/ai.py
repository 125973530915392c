"""The AI worker's loop: think on a snapshot with no lock held, then apply under the lock.

A person's move is never queued behind a bot's thinking: the bot decides on a game read
outside any transaction, and ``play.apply_ai_move`` applies the choice in a short
transaction only if that seat's decision is still the one it decided for (a person's
first-ticket choice landing meanwhile does not count); otherwise the bot thinks again.
"""

from __future__ import annotations

import time

from django.conf import settings

from . import bots, loading, queue
from .models import Game, GameStatus, SeatKind
from .play import AiMove, apply_ai_move
from .snapshot import load_state

# Times in a row a decision may go stale before the loop leaves the game to a later task.
_RETHINKS = 20


def play_ai_turns(game_id: int, max_moves: int = 200) -> int:
    """Play every pending AI decision of a game; the number of moves made.

    Safe to run twice or concurrently: a move applies only while its seat's decision is
    unchanged. When it stops at ``max_moves`` with AI decisions still pending, it queues
    itself again.
    """
    made = rethinks = 0
    while made < max_moves and rethinks < _RETHINKS:
        if made and not rethinks and settings.AI_MOVE_DELAY_SECONDS:
            time.sleep(settings.AI_MOVE_DELAY_SECONDS)
        game = loading.game_with_seats(game_id)
        if game is None or game.status != GameStatus.ACTIVE:
            return made
        state = load_state(game)
        ai = {s.index: s for s in game.seats.all() if s.played_by_ai}
        seat = next((i for i in state.pending.seats if i in ai), None)
        if seat is None:
            return made
        # A seat the AI took over from a person plays at the default level.
        level = ai[seat].ai_level if ai[seat].kind == SeatKind.AI else None
        action = bots.think(level, game.seed, state, seat)
        outcome = apply_ai_move(game_id, seat, action, game.version)
        if outcome is AiMove.DONE:
            return made
        if outcome is AiMove.RETHINK:
            rethinks += 1
            continue
        made, rethinks = made + 1, 0
    version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    if version is not None:
        queue.ai_turns(game_id, version)
    return made
