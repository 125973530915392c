"""The writes every command shares, each under the game's row lock.

A command locks the game row (``game_lock``), checks what it needs, and writes through
``bump`` (a change without a move) or ``move_apply`` (an engine action, its log entry and
the new state, together). Both raise the version by one, so every change a client can
observe has its own version. What follows a change happens in its transaction: the
pending flags, the deadline, the events the notifications and ratings listen to, the
wake-up of the game's streams, and the AI turn queued once it commits.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import Action, GameState
from engine.state import CHOOSE_INITIAL_TICKETS
from games import errors, events
from games.domain.seats import played_by_ai, state_of
from games.models import Game, GameStatus, Move, MoveCause, Seat
from games.queries import deadlines, sql
from games.queries.moves import moves_since
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError
from ttr_service.observability.metrics import MOVES_BY_CAUSE
from ttr_service.storage import rows


def game_lock(game_id: int) -> Game:
    """Lock a game row for the rest of the current transaction, and read its creator and
    its seats with their users (``game.seated``), which the commands that change seats
    keep up to date."""
    game = sql.game_with_seats(game_id, lock=True)
    if game is None:
        raise errors.not_found()
    return game


def require_status(game: Game, needed: str) -> None:
    if game.status != needed:
        raise errors.wrong_status(game.status, needed)


def bump(game: Game, *, logged: Move | None = None, **fields: Any) -> None:
    """Save ``fields`` and the next version, only if nobody changed the game meanwhile;
    with ``logged``, its move log entry too (in the same statement where the database
    allows it: docs/decisions/0305)."""
    old = game.version
    game.version = old + 1
    game.updated_at = timezone.now()
    for name, value in fields.items():
        setattr(game, name, value)
    values = {"version": game.version, "updated_at": game.updated_at, **fields}
    if logged is None:
        updated = rows.update(Game, values, id=game.pk, version=old)
    else:
        updated = rows.update_then_insert(Game, values, {"id": game.pk, "version": old}, logged)
    if updated != 1:  # cannot happen under the row lock; kept as a guard for the invariant
        raise ServiceError(Code.CONCURRENT_UPDATE, _("The game changed meanwhile; retry."))
    events.changed(game.pk)


def state_store(
    game: Game,
    state: GameState,
    *,
    queue_ai: bool = True,
    logged: Move | None = None,
    **fields: Any,
) -> None:
    """Write a new engine state of a locked game, with what follows from it: the status,
    the deadline, the pending flags, the events, and (``queue_ai``) an AI turn to play."""
    over = state.is_over
    status = GameStatus.FINISHED if over else fields.pop("status", game.status)
    extra: dict[str, Any] = {"state": state.to_json(), "status": status, **fields}
    if over:
        extra["finished_at"] = timezone.now()
        extra["result"] = state.result
    game.status = status
    pending = list(state.pending.seats)
    extra["deadline"] = deadlines.deadline_for(game, pending)
    bump(game, logged=logged, **extra)
    seats = game.seated
    before = {s.index for s in seats if s.pending}
    changed = [s for s in seats if s.pending != (s.index in pending)]
    for s in changed:
        s.pending = s.index in pending
    rows.set_flag(  # one statement, whichever way each flag goes: docs/decisions/0306
        Seat,
        "pending",
        [s.pk for s in changed if s.pending],
        [s.pk for s in changed if not s.pending],
    )
    events.turns(game, state, before)
    if over:
        assert state.result is not None
        events.game_over(game, state.result)
    elif queue_ai and any(s.index in pending and played_by_ai(s) for s in seats):
        events.ai_turns_on_commit(game.pk, game.version)


def move_apply(
    game: Game, seat: int, action: Action, *, cause: str = MoveCause.PLAYER
) -> GameState:
    """Apply an engine action to a locked, active game and record it. Raises EngineError."""
    new_state, logged_events = state_of(game).apply_with_events(seat, action)
    move = Move(
        game=game,
        number=new_state.action_count,
        seat=seat,
        action=action.to_json(),
        events=[e.to_json() for e in logged_events],
        version=game.version + 1,  # the version the move makes
        by_ai=cause != MoveCause.PLAYER,
        cause=cause,
    )
    # The AI worker plays consecutive AI decisions itself instead of queueing one task each.
    state_store(game, new_state, queue_ai=cause != MoveCause.AI, logged=move)
    transaction.on_commit(MOVES_BY_CAUSE[cause].inc)  # ttr_moves_total
    return new_state


def decision_unchanged(game: Game, state: GameState, seat: int, since: int) -> bool:
    """Whether ``seat``'s pending decision in the locked ``game`` (at ``state``) is still the
    one it was at version ``since``: nothing the seat sees or may do has changed.

    Always when the version is still ``since``. While every seat chooses its first tickets
    at once, the others' choices raise the version without touching this seat's offer, hand
    or options, so it also holds when every change since ``since`` is another seat's
    ``keep_tickets`` move. Any other change (a move of this seat, a deadline, a seat taken)
    has no move log entry of that kind and makes the decision stale.
    """
    if since == game.version:
        return True
    if since > game.version or seat not in state.pending.seats:
        return False
    if state.pending.kind != CHOOSE_INITIAL_TICKETS:
        return False
    since_then = moves_since(game, since)
    return len(since_then) == game.version - since and all(
        moved != seat and isinstance(action, dict) and action.get("type") == "keep_tickets"
        for moved, action in since_then
    )
