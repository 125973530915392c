"""Commands of a running game: a person's move (once per ``Idempotency-Key``), and an AI
seat's decided move.

``move_play`` is the whole of a person's move: it settles a deadline that has passed,
locks the game, checks the seat, the status and the version the move was decided on, lets
the engine apply it, and stores the state with its log entry. Nothing is rendered here:
the caller builds the views of the new state once the transaction has committed.

``move_play_once`` plays a move under an Idempotency-Key: the first request with a key
claims the key's record and runs the move in the same transaction, and the record keeps
the outcome with it: a refusal's problem body, or the version the move made. A move's
answer (the mover's new view) is rendered once it has committed and kept in the record by
one more statement (``answer_keep``). A retry gets the first answer byte for byte; the
same key with another request gets 422; a retry while the first is still running, or
still rendering its answer, gets 409 at once. A key that is not 1 to 255 visible ASCII
characters gets 400 before anything is stored or settled. Should a process stop between
the commit and keeping the answer, a retry made ``ANSWER_GRACE`` later gets the game as
it is then (``Unanswered``): the move is never applied twice, but that answer is the
view of now.

``ai_move_apply`` is the AI worker's way in: the worker thinks with no lock held, then
applies its choice here only if the seat's decision is still the one it thought about.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from enum import Enum
from typing import TypeVar

from django.contrib.auth.models import User
from django.db import OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from psycopg.errors import LockNotAvailable
from rest_framework.exceptions import APIException
from rest_framework.renderers import JSONRenderer

from engine import Action, EngineError, GameState, canonical_action, load_board
from games import errors
from games.commands.deadlines import deadline_settle
from games.commands.write import decision_unchanged, game_lock, move_apply, require_status
from games.domain.seats import played_by_ai, seat_of, state_of
from games.models import Game, GameStatus, IdempotencyRecord, MoveCause, Seat
from games.queries import deadlines
from idempotency.keys import REPLAYED, KeyInFlight, key_check, key_reused, oldest_kept
from ttr_service.http.codes import Code
from ttr_service.http.problems import PROBLEM_CONTENT_TYPE, ServiceError, problem_of, written

T = TypeVar("T")


def settled_first(game_id: int, command: Callable[[], T]) -> T:
    """Run ``command``, a transaction that raises ``DeadlinePassed`` when it finds its game
    overdue and unsettled: then the deadline is settled outside it (a bot may think) and
    the command runs once more, on the settled game (whose next deadline is a whole time
    limit away, at least a minute)."""
    try:
        return command()
    except errors.DeadlinePassed:
        deadline_settle(game_id)
    try:
        return command()
    except errors.DeadlinePassed:
        raise ServiceError(
            Code.CONCURRENT_UPDATE, _("The game's deadline is being settled; retry.")
        ) from None


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
    if deadlines.unsettled(game):
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
            _("The game is at version %(version)d, not %(expected)d: fetch it again and retry.")
            % {"version": game.version, "expected": expected_version},
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


# ----------------------------------------------------------------------------- once per key
# How long a move's answer may take to be kept after its commit before a retry stops
# waiting for it.
ANSWER_GRACE = timedelta(seconds=30)


@dataclass(frozen=True)
class Reply:
    """An answer as it goes out, kept byte for byte for a retry."""

    status: int
    content: bytes
    content_type: str
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Keyed:
    """A move applied under a key: its answer is to be kept in ``record_id``."""

    played: Played
    record_id: int


@dataclass(frozen=True)
class Unanswered:
    """A key whose move was applied (making ``version``) but whose answer was never kept."""

    version: int
    record_id: int


def fingerprint(method: str, path: str, body: object, if_match: str | None = None) -> str:
    """What makes two requests with one key the same request: method, path, body, and the
    ``If-Match`` precondition when one is sent (a retry with another is another request)."""
    parts = [method, path, body] if if_match is None else [method, path, body, if_match]
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def move_play_once(
    user: User,
    key: str,
    print_: str,
    game_id: int,
    instance: str,
    attempt: Callable[[], Played],
) -> Keyed | Reply | Unanswered:
    """A person's move once per key: ``attempt`` (reading the request and playing the move
    with ``move_play_locked``, in this transaction) gives a move applied, or the first
    answer again, or a refusal kept as the key's answer (``instance`` is the request path
    its problem names)."""
    key_check(key)
    # Claimed in its own (auto-committed) statement, so a concurrent request with the same
    # key finds the row and its lock below instead of inserting a second one.
    record, _ = IdempotencyRecord.objects.get_or_create(
        user=user, key=key, defaults={"fingerprint": print_}
    )

    def keyed() -> Played | tuple[IdempotencyRecord, bool]:
        with transaction.atomic():
            claimed = _claim(record.pk)
            if claimed.created_at <= oldest_kept():
                # The key was forgotten (its time is up): a new request under it.
                claimed.fingerprint, claimed.created_at = print_, timezone.now()
                claimed.status_code = claimed.version = claimed.problem = claimed.body = None
                claimed.outcome_at, claimed.headers = None, {}
            if claimed.fingerprint != print_:
                raise key_reused()
            if claimed.status_code is not None:
                return claimed, True
            claimed.outcome_at = timezone.now()
            try:
                played = attempt()
            except (APIException, EngineError) as refused:
                claimed.problem = problem_of(refused, instance)
                claimed.status_code = claimed.problem["status"]
                claimed.save()
                return claimed, False
            claimed.status_code, claimed.version = 200, played.game.version
            claimed.save()
            return played

    outcome = settled_first(game_id, keyed)
    if isinstance(outcome, Played):
        return Keyed(outcome, record.pk)
    return _answer(*outcome)


def _answer(record: IdempotencyRecord, replayed: bool) -> Reply | Unanswered:
    """The answer a key's record keeps (a refusal's problem, or a move's kept answer), as
    first given or ``replayed``."""
    assert record.status_code is not None
    if record.problem is not None:
        content = JSONRenderer().render(written(record.problem))
        return Reply(
            record.status_code, content, PROBLEM_CONTENT_TYPE, REPLAYED if replayed else {}
        )
    if record.body is None:
        assert record.outcome_at is not None
        if record.outcome_at > timezone.now() - ANSWER_GRACE:
            raise KeyInFlight()
        assert record.version is not None
        return Unanswered(record.version, record.pk)
    headers = dict(record.headers)
    content_type = headers.pop("Content-Type", "application/json")
    return Reply(record.status_code, bytes(record.body), content_type, {**headers, **REPLAYED})


def replayed(reply: Reply) -> Reply:
    """``reply`` as a retry gets it: marked as not applied again."""
    return Reply(reply.status, reply.content, reply.content_type, {**reply.headers, **REPLAYED})


def answer_keep(record_id: int, reply: Reply) -> None:
    """Keep a move's answer, rendered after its commit, for the key's retries."""
    IdempotencyRecord.objects.filter(pk=record_id, body__isnull=True).update(
        body=reply.content, headers={"Content-Type": reply.content_type, **reply.headers}
    )


def keys_forget_expired() -> int:
    """Delete the keys older than ``IDEMPOTENCY_KEY_HOURS`` (the deadline sweep does); how
    many."""
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lte=oldest_kept()).delete()
    return deleted


def _claim(record_id: int) -> IdempotencyRecord:
    """Lock the key's record for this transaction, or fail at once if another request holds it.

    The lock is held until the outcome is stored with the move, so a second request
    meanwhile gets 409 instead of waiting. A record left without an outcome (the first
    request failed and rolled back) is simply claimed again. SQLite has no row locks:
    there the writers are serialised and the retry finds the stored outcome.
    """
    try:
        return IdempotencyRecord.objects.select_for_update(nowait=True).get(pk=record_id)
    except OperationalError as exc:
        # Only a lock held elsewhere means "in flight"; any other failure (a dropped
        # connection) goes on to the handler's 503.
        if isinstance(exc.__cause__, LockNotAvailable):
            raise KeyInFlight() from None
        raise


# ----------------------------------------------------------------------------- the AI's move
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
        if row is None or not played_by_ai(row) or seat not in state.pending.seats:
            return AiMove.RETHINK, None
        if not decision_unchanged(game, state, seat, decided_on):
            return AiMove.RETHINK, None
        new_state = move_apply(game, seat, action, cause=MoveCause.AI)
    return AiMove.APPLIED, Played(game, seat, new_state)
