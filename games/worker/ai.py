"""The AI worker's loop: think on a snapshot with no lock held, then apply under the lock.

A person's move is never queued behind a bot's thinking: the bot decides on a game read
outside any transaction, and ``ai_move_apply`` applies the choice in a short transaction
only if that seat's decision is still the one it decided for (a person's first-ticket
choice landing meanwhile does not count); otherwise the bot thinks again. Once a move has
committed, the views of the people at the table are rendered for their next poll.
"""

from __future__ import annotations

import time

from django.conf import settings

from games import events, rendering
from games.commands.play import AiMove, ai_move_apply
from games.domain import bots
from games.domain.seats import played_by_ai, state_of
from games.models import Game, GameStatus, SeatKind
from games.queries import sql
from ttr_service.observability.metrics import AI_DECISION_SECONDS

# Times in a row a decision may go stale before the loop leaves the game to a later task.
_RETHINKS = 20


def ai_turns_play(game_id: int, max_moves: int = 200) -> int:
    """Play every pending AI decision of a game; the number of moves made.

    Safe to run twice or concurrently: a move applies only while its seat's decision is
    unchanged. When it stops at ``max_moves`` with AI decisions still pending, it queues
    itself again.
    """
    made = rethinks = 0
    while made < max_moves and rethinks < _RETHINKS:
        if made and not rethinks and settings.AI_MOVE_DELAY_SECONDS:
            time.sleep(settings.AI_MOVE_DELAY_SECONDS)
        game = sql.game_with_seats(game_id)
        if game is None or game.status != GameStatus.ACTIVE:
            return made
        state = state_of(game)
        ai = {s.index: s for s in game.seated if played_by_ai(s)}
        seat = next((i for i in state.pending.seats if i in ai), None)
        if seat is None:
            return made
        # A seat the AI took over from a person plays at the default level.
        level = ai[seat].ai_level if ai[seat].kind == SeatKind.AI else None
        started = time.perf_counter()
        action = bots.think(level, game.seed, state, seat)
        AI_DECISION_SECONDS.labels(level or bots.DEFAULT_AI_LEVEL).observe(
            time.perf_counter() - started
        )
        outcome, played = ai_move_apply(game_id, seat, action, game.version)
        if outcome is AiMove.DONE:
            return made
        if outcome is AiMove.RETHINK:
            rethinks += 1
            continue
        assert played is not None
        rendering.views_keep(played.game, played.state)
        made, rethinks = made + 1, 0
    version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    if version is not None:
        events.ai_turns(game_id, version)
    return made
