"""Commands of a running game: a person's move, and an AI seat's decided move.

``move_play`` is the whole of a person's move: it settles a deadline that has passed,
locks the game, checks the seat, the status and the version the move was decided on, lets
the engine apply it, and stores the state with its log entry. Nothing is rendered here:
the caller builds the views of the new state once the transaction has committed.
``ai_move_apply`` is the AI worker's way in: the worker thinks with no lock held, then
applies its choice here only if the seat's decision is still the one it thought about.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from django.contrib.auth.models import User
from django.db import transaction

from engine import Action, GameState, canonical_action, load_board
from games import errors
from games.commands.deadlines import settled_first
from games.commands.write import decision_unchanged, game_lock, move_apply, require_status
from games.domain.seats import seat_of, state_of
from games.models import Game, GameStatus, MoveCause, Seat
from games.queries import clocks
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError


@dataclass(frozen=True)
class Played:
    """A move applied: the game as it now stands (with its seats), the mover's seat, and
    the new engine state."""

    game: Game
    seat: int
    state: GameState


def move_play(user: User, game_id: int, action: Action, expected_version: int) -> Played:
    """A person's ``action``, decided on ``expected_version``, in a transaction of its own."""

    def command() -> Played:
        with transaction.atomic():
            return move_play_locked(user, game_id, action, expected_version)

    return settled_first(game_id, command)


def move_play_locked(user: User, game_id: int, action: Action, expected_version: int) -> Played:
    """``move_play`` inside the caller's transaction, which ``settled_first`` runs again
    when it raises ``DeadlinePassed``. Raises before writing anything when the move is
    refused.

    The version check: a move decided on an older version is accepted only when nothing
    the seat's decision depends on has changed since (``write.decision_unchanged``: while
    every seat chooses its first tickets, the others' choices do not count); otherwise 412.
    """
    game = game_lock(game_id)
    if clocks.unsettled(game):
        raise errors.DeadlinePassed(game_id)
    seat = seat_of(user, game)
    if seat is None:
        raise errors.not_a_player()
    require_status(game, GameStatus.ACTIVE)
    state = state_of(game)
    if expected_version != game.version and not decision_unchanged(
        game, state, seat.index, expected_version
    ):
        raise ServiceError(
            Code.VERSION_MISMATCH,
            f"The game is at version {game.version}, not {expected_version}: fetch it again "
            "and retry.",
            current_version=game.version,
        )
    action = canonical_action(action, load_board(game.board))
    # Playing again takes the seat back from the AI and clears the missed deadlines (in
    # memory first: what the move queues and tells depends on who plays the seat).
    reclaimed = bool(seat.missed_turns or seat.ai_controlled)
    seat.missed_turns, seat.ai_controlled, seat.ai_controlled_since = 0, False, None
    new_state = move_apply(game, seat.index, action)
    if reclaimed:
        Seat.objects.filter(pk=seat.pk).update(
            missed_turns=0, ai_controlled=False, ai_controlled_since=None
        )
    return Played(game, seat.index, new_state)


class AiMove(Enum):
    APPLIED = "applied"
    RETHINK = "rethink"  # the seat's decision changed while the bot thought
    DONE = "done"  # the game is no longer running


def ai_move_apply(
    game_id: int, seat: int, action: Action, decided_on: int
) -> tuple[AiMove, Played | None]:
    """Apply the move an AI seat decided on version ``decided_on``, if it still stands;
    what became of it, and the move as applied."""
    with transaction.atomic():
        game = game_lock(game_id)
        if game.status != GameStatus.ACTIVE:
            return AiMove.DONE, None
        row = next((s for s in game.seated if s.index == seat), None)
        state = state_of(game)
        if row is None or not row.played_by_ai or seat not in state.pending.seats:
            return AiMove.RETHINK, None
        if not decision_unchanged(game, state, seat, decided_on):
            return AiMove.RETHINK, None
        new_state = move_apply(game, seat, action, cause=MoveCause.AI)
    return AiMove.APPLIED, Played(game, seat, new_state)
