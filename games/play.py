"""Commands of a running game: a person's action, and an AI seat's decided move.

``act`` is the whole of a person's move: it settles a deadline that has passed, locks the
game, checks the seat, the status and the version the move was decided on, lets the
engine apply it, stores the state with its log entry, and keeps the new views of every
seated person for their next poll once it commits. ``apply_ai_move`` is the AI worker's
way in: the worker thinks with no lock held, then applies its choice here only if the
seat's decision is still the one it thought about.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from engine import load_board, parse_action
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

from . import clocks, errors, rendered
from .models import Game, GameStatus, MoveCause, Seat
from .snapshot import load_state, seat_of
from .store import apply_move, decision_unchanged, lock_game, require_status
from .timeouts import settled_first


@dataclass(frozen=True)
class Acted:
    """A move applied: the game as it now stands, the mover's seat, and the rendered view
    of every seated person (the mover's is the answer)."""

    game: Game
    seat: int
    views: dict[int | None, bytes]

    @property
    def view(self) -> bytes:
        return self.views[self.seat]


def act(user: AbstractBaseUser, game_id: int, action: Any, expected_version: int) -> Acted:
    """A person's action on the game, decided on ``expected_version``, in a transaction."""

    def command() -> Acted:
        with transaction.atomic():
            return act_locked(user, game_id, action, expected_version)

    return settled_first(game_id, command)


def act_locked(
    user: AbstractBaseUser, game_id: int, action_data: Any, expected_version: int
) -> Acted:
    """``act`` inside the caller's transaction (which ``settled_first`` runs again when it
    raises ``DeadlinePassed``). Raises before writing anything when the move is refused.

    The version check: a move decided on an older version is accepted only when nothing
    the seat's decision depends on has changed since (``store.decision_unchanged``: while
    every seat chooses its first tickets, the others' choices do not count); otherwise 412.
    """
    game = lock_game(game_id, with_seats=True)
    if clocks.to_settle(game):
        raise errors.DeadlinePassed(game_id)
    seat = seat_of(user, game)
    if seat is None:
        raise errors.not_a_player()
    require_status(game, GameStatus.ACTIVE)
    state = load_state(game)
    if expected_version != game.version and not decision_unchanged(
        game, state, seat.index, expected_version
    ):
        raise ServiceError(
            Code.VERSION_MISMATCH,
            f"The game is at version {game.version}, not {expected_version}: fetch it again "
            "and retry.",
            current_version=game.version,
        )
    action = parse_action(action_data, load_board(game.board))
    # Playing again takes the seat back from the AI and clears the missed deadlines (in
    # memory first: what the move queues and tells depends on who plays the seat).
    reclaimed = bool(seat.missed_turns or seat.ai_controlled)
    seat.missed_turns, seat.ai_controlled, seat.ai_controlled_since = 0, False, None
    new_state = apply_move(game, seat.index, action)
    if reclaimed:
        Seat.objects.filter(pk=seat.pk).update(
            missed_turns=0, ai_controlled=False, ai_controlled_since=None
        )
    views = rendered.render_seats(game, new_state)
    rendered.keep_on_commit(game.pk, rendered.stamp(game.version, game.updated_at), views)
    return Acted(game=game, seat=seat.index, views=views)


class AiMove(Enum):
    APPLIED = "applied"
    RETHINK = "rethink"  # the seat's decision changed while the bot thought
    DONE = "done"  # the game is no longer running


def apply_ai_move(game_id: int, seat: int, action: Any, decided_on: int) -> AiMove:
    """Apply the move an AI seat decided on version ``decided_on``, if it still stands."""
    with transaction.atomic():
        game = lock_game(game_id, with_seats=True)
        if game.status != GameStatus.ACTIVE:
            return AiMove.DONE
        row = next((s for s in game.seats.all() if s.index == seat), None)
        state = load_state(game)
        if row is None or not row.played_by_ai or seat not in state.pending.seats:
            return AiMove.RETHINK
        if not decision_unchanged(game, state, seat, decided_on):
            return AiMove.RETHINK
        new_state = apply_move(game, seat, action, cause=MoveCause.AI)
        # The people at the table poll next: their views of this version are ready.
        stamp = rendered.stamp(game.version, game.updated_at)
        rendered.keep_on_commit(game.pk, stamp, rendered.render_seats(game, new_state))
    return AiMove.APPLIED
