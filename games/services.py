"""The only code that changes games: lobby life cycle and moves.

Every mutation follows the same steps: lock the game row, check what the caller expects
(status, version), let the engine decide, write state + log + version together, and queue
follow-up work only after the transaction commits.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from engine import BOARD_IDS, GameState, SetupError, load_board, new_game, parse_action
from engine.board import check_options
from ttr_service import rows
from ttr_service.tasking import send_task, send_task_on_commit

from . import errors, loading, notices
from .models import Game, GameStatus, Move, MoveCause, Seat, SeatKind, TimeoutPolicy

# The engine's bots, weakest first; AI seats without a level play at DEFAULT_AI_LEVEL.
AI_LEVELS = ("random", "easy", "medium", "hard")
DEFAULT_AI_LEVEL = "medium"
MIN_TURN_SECONDS = 60
MAX_TURN_SECONDS = 14 * 24 * 3600


@dataclass(frozen=True)
class SeatSpec:
    type: str  # "creator", "open", "invite", "ai"
    username: str | None = None
    level: str | None = None


def _lock(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise errors.not_found() from None


def bump(game: Game, *, logged: Move | None = None, **fields: Any) -> None:
    """Save ``fields`` and the next version, only if nobody changed the game meanwhile;
    with ``logged``, its move log entry too (in the same statement where the database
    allows it)."""
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
        raise errors.conflict("CONCURRENT_UPDATE", "The game changed meanwhile; retry.")


def seat_of(user: AbstractBaseUser | None, game: Game) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next(
        (s for s in game.seats.all() if s.user_id == user.pk and s.kind == SeatKind.HUMAN), None
    )


# ------------------------------------------------------------------------------ lobby
def create_game(
    user: AbstractBaseUser,
    *,
    board: str,
    seats: list[SeatSpec],
    turn_time_limit: int | None = None,
    timeout_policy: str = TimeoutPolicy.AI_PLAYS_TURN,
    timeout_takeover_after: int = 2,
    first_seat: int | None = None,
    options: dict[str, Any] | None = None,
) -> Game:
    if board not in BOARD_IDS:
        raise errors.bad_request("UNKNOWN_BOARD", f"Unknown board {board!r}.")
    plain = load_board(board)
    try:
        chosen = check_options(plain, options or {})
    except SetupError as exc:
        raise errors.bad_request("BAD_OPTION", exc.message) from None
    rules = plain.rules
    if not rules.min_players <= len(seats) <= rules.max_players:
        raise errors.bad_request(
            "BAD_SEAT_COUNT",
            f"{plain.name} is played by {rules.min_players} to {rules.max_players} players, "
            f"not {len(seats)}.",
        )
    if sum(1 for s in seats if s.type == "creator") > 1:
        raise errors.bad_request("BAD_SEATS", "The creator can take only one seat.")
    if turn_time_limit is not None and not MIN_TURN_SECONDS <= turn_time_limit <= MAX_TURN_SECONDS:
        raise errors.bad_request(
            "BAD_TIME_LIMIT", "The time limit per move must be from 1 minute to 14 days."
        )
    if first_seat is not None and not 0 <= first_seat < len(seats):
        raise errors.bad_request("BAD_FIRST_SEAT", "The first seat must be one of the seats.")
    users = get_user_model()
    invited: dict[int, Any] = {}
    for i, spec in enumerate(seats):
        if spec.type == "invite":
            invitee = users.objects.filter(username__iexact=spec.username or "").first()
            if invitee is None:
                raise errors.bad_request("UNKNOWN_USER", f"No user named {spec.username!r}.")
            if invitee.pk == user.pk:
                raise errors.bad_request(
                    "BAD_SEATS", "Take a seat yourself instead of inviting yourself."
                )
            if invitee.pk in {u.pk for u in invited.values()}:
                raise errors.bad_request("BAD_SEATS", f"{invitee.username} is invited twice.")
            invited[i] = invitee
        elif spec.type == "ai" and (spec.level or DEFAULT_AI_LEVEL) not in AI_LEVELS:
            raise errors.bad_request("UNKNOWN_AI_LEVEL", f"Unknown AI level {spec.level!r}.")
    with transaction.atomic():
        game = Game.objects.create(
            board=board,
            options=chosen,
            created_by=user,
            players=len(seats),
            turn_time_limit=turn_time_limit,
            timeout_policy=timeout_policy,
            timeout_takeover_after=timeout_takeover_after,
            first_seat=first_seat,
            seed=secrets.randbits(62),
        )
        now = timezone.now()
        for i, spec in enumerate(seats):
            if spec.type == "creator":
                Seat.objects.create(
                    game=game, index=i, kind=SeatKind.HUMAN, user=user, joined_at=now
                )
            elif spec.type == "invite":
                seat = Seat.objects.create(
                    game=game, index=i, kind=SeatKind.INVITED, user=invited[i]
                )
                notices.invitation(game, seat)
            elif spec.type == "ai":
                Seat.objects.create(
                    game=game,
                    index=i,
                    kind=SeatKind.AI,
                    ai_level=spec.level or DEFAULT_AI_LEVEL,
                    joined_at=now,
                )
            else:
                Seat.objects.create(game=game, index=i, kind=SeatKind.OPEN)
        _start_if_full(game)
    return game


def _seats_filled(game: Game) -> bool:
    return not game.seats.filter(kind__in=[SeatKind.OPEN, SeatKind.INVITED]).exists()


def _start_if_full(game: Game) -> None:
    if _seats_filled(game):
        _start(game)


def _start(game: Game) -> None:
    state = new_game(game.board, game.players, game.seed, game.first_seat, options=game.options)
    _store_state(game, state, status=GameStatus.ACTIVE, started_at=timezone.now())
    notices.game_started(game)


def _require_status(game: Game, needed: str) -> None:
    if game.status != needed:
        raise errors.wrong_status(game.status, needed)


def join_game(user: AbstractBaseUser, game_id: int, seat_index: int | None = None) -> Game:
    with transaction.atomic():
        game = _lock(game_id)
        _require_status(game, GameStatus.LOBBY)
        seats = list(game.seats.all())
        if any(s.user_id == user.pk for s in seats):
            raise errors.conflict(
                "ALREADY_SEATED", "You already have a seat (or an invitation) here."
            )
        open_seats = [s for s in seats if s.kind == SeatKind.OPEN]
        if seat_index is not None:
            open_seats = [s for s in open_seats if s.index == seat_index]
        if not open_seats:
            raise errors.conflict("NO_OPEN_SEAT", "No open seat to take.")
        seat = open_seats[0]
        seat.kind, seat.user, seat.joined_at = SeatKind.HUMAN, user, timezone.now()
        seat.save()
        bump(game)
        _start_if_full(game)
    return game


def leave_game(user: AbstractBaseUser, game_id: int) -> Game:
    with transaction.atomic():
        game = _lock(game_id)
        _require_status(game, GameStatus.LOBBY)
        seat = game.seats.filter(user=user, kind=SeatKind.HUMAN).first()
        if seat is None:
            raise errors.not_a_player()
        seat.kind, seat.user, seat.joined_at = SeatKind.OPEN, None, None
        seat.save()
        bump(game)
    return game


def answer_invitation(user: AbstractBaseUser, game_id: int, accept: bool) -> Game:
    with transaction.atomic():
        game = _lock(game_id)
        _require_status(game, GameStatus.LOBBY)
        seat = game.seats.filter(user=user, kind=SeatKind.INVITED).first()
        if seat is None:
            raise errors.conflict("NO_INVITATION", "You have no open invitation to this game.")
        if accept:
            seat.kind, seat.joined_at = SeatKind.HUMAN, timezone.now()
        else:
            seat.kind, seat.user = SeatKind.OPEN, None
        seat.save()
        bump(game)
        if accept:
            _start_if_full(game)
    return game


def start_game(user: AbstractBaseUser, game_id: int) -> Game:
    with transaction.atomic():
        game = _lock(game_id)
        if game.created_by_id != user.pk:
            raise errors.not_creator("start it")
        _require_status(game, GameStatus.LOBBY)
        seats = list(game.seats.order_by("index"))
        taken = [s for s in seats if s.kind in (SeatKind.HUMAN, SeatKind.AI)]
        minimum = load_board(game.board).rules.min_players
        if len(taken) < minimum:
            raise errors.conflict(
                "NOT_ENOUGH_PLAYERS",
                f"At least {minimum} seats must be taken (by players or the AI) to start.",
            )
        # Starting early drops the seats nobody took; the others close ranks in order.
        kept_first = next((i for i, s in enumerate(taken) if s.index == game.first_seat), None)
        Seat.objects.filter(game=game).exclude(pk__in=[s.pk for s in taken]).delete()
        for new_index, seat in enumerate(taken):
            if seat.index != new_index:
                Seat.objects.filter(pk=seat.pk).update(index=new_index)
        game.players = len(taken)
        game.first_seat = kept_first
        Game.objects.filter(pk=game.pk).update(players=game.players, first_seat=kept_first)
        _start(game)
    return game


def cancel_game(user: AbstractBaseUser, game_id: int) -> Game:
    with transaction.atomic():
        game = _lock(game_id)
        if game.created_by_id != user.pk:
            raise errors.not_creator("cancel it")
        _require_status(game, GameStatus.LOBBY)
        bump(game, status=GameStatus.CANCELLED)
    return game


# ------------------------------------------------------------------------------ play
def load_state(game: Game) -> GameState:
    assert game.state is not None
    return GameState.from_json(game.state)


def _deadline(game: Game, pending: list[int]) -> Any:
    """The time limit from now, or from the end of a vacation of a player to move."""
    if game.turn_time_limit is None or game.status != GameStatus.ACTIVE:
        return None
    from .vacations import clock_starts

    start = clock_starts(game, pending)
    return start + timedelta(seconds=game.turn_time_limit)


def _store_state(
    game: Game,
    state: GameState,
    *,
    queue_ai: bool = True,
    logged: Move | None = None,
    **fields: Any,
) -> None:
    over = state.is_over
    status = GameStatus.FINISHED if over else fields.pop("status", game.status)
    extra: dict[str, Any] = {"state": state.to_json(), "status": status, **fields}
    if over:
        extra["finished_at"] = timezone.now()
        extra["result"] = state.result
        from ratings.tasks import record_game_result

        send_task_on_commit(record_game_result, game.pk)
    game.status = status
    pending = list(state.pending.seats)
    extra["deadline"] = _deadline(game, pending)
    bump(game, logged=logged, **extra)
    # Loaded with the game (see ``lock_game``) or read now, after every earlier change.
    seats = list(game.seats.all())
    before = {s.index for s in seats if s.pending}
    changed = [s for s in seats if s.pending != (s.index in pending)]
    for s in changed:
        s.pending = s.index in pending
    rows.set_flag(
        Seat,
        "pending",
        [s.pk for s in changed if s.pending],
        [s.pk for s in changed if not s.pending],
    )
    notices.turns(game, state, before)
    if over:
        assert state.result is not None
        notices.game_over(game, state.result)
    ai_pending = any(s.index in pending and s.played_by_ai for s in seats)
    if queue_ai and not over and ai_pending:
        from .tasks import play_ai_turns

        send_task_on_commit(play_ai_turns, game.pk, game.version)


def apply_move(game: Game, seat: int, action: Any, *, cause: str = MoveCause.PLAYER) -> GameState:
    """Apply an engine action to a locked, active game and record it. Raises EngineError."""
    state = load_state(game)
    new_state, events = state.apply_with_events(seat, action)
    move = Move(
        game=game,
        number=new_state.action_count,
        seat=seat,
        action=action.to_json(),
        events=[e.to_json() for e in events],
        version=game.version + 1,  # the version the move makes
        by_ai=cause != MoveCause.PLAYER,
        cause=cause,
    )
    # The AI loop plays consecutive AI decisions itself instead of queueing one task each.
    _store_state(game, new_state, queue_ai=cause == MoveCause.PLAYER, logged=move)
    return new_state


def submit_action(
    user: AbstractBaseUser, game: Game, action_data: Any, expected_version: int
) -> GameState:
    """A player's move, on a game row the caller has locked (see ``lock_game``)."""
    from ttr_service.problems import VersionMismatch

    seat = seat_of(user, game)
    if seat is None:
        raise errors.not_a_player()
    _require_status(game, GameStatus.ACTIVE)
    if expected_version != game.version:
        raise VersionMismatch(expected_version, game.version)
    action = parse_action(action_data, load_board(game.board))
    if seat.missed_turns or seat.ai_controlled:
        # Playing again takes the seat back from the AI and clears the missed deadlines.
        Seat.objects.filter(pk=seat.pk).update(missed_turns=0, ai_controlled=False)
        seat.missed_turns, seat.ai_controlled = 0, False
    return apply_move(game, seat.index, action)


def lock_game(game_id: int, *, with_seats: bool = False) -> Game:
    """Lock a game row for the rest of the current transaction.

    ``with_seats`` also loads its creator and its seats with their users, which
    ``game.seats.all()`` then answers from memory; the services that change seats keep
    those objects up to date.
    """
    if not with_seats:
        return _lock(game_id)
    game = loading.game_with_seats(game_id, lock=True)
    if game is None:
        raise errors.not_found()
    return game


def play_ai_turns(game_id: int, max_moves: int = 200) -> int:
    """Play every pending AI decision of a game, one transaction per move.

    Safe to run twice or concurrently: each move re-reads the locked game and only acts
    when a decision of an AI seat is pending. Returns the number of moves made; when it
    stops at ``max_moves`` with AI decisions still pending, it queues itself again.
    """
    from engine.bots import make_bot

    made = 0
    while made < max_moves:
        if made and settings.AI_MOVE_DELAY_SECONDS:
            time.sleep(settings.AI_MOVE_DELAY_SECONDS)
        with transaction.atomic():
            game = lock_game(game_id, with_seats=True)
            if game.status != GameStatus.ACTIVE:
                return made
            state = load_state(game)
            ai = {s.index: s for s in game.seats.all() if s.played_by_ai}
            seat = next((i for i in state.pending.seats if i in ai), None)
            if seat is None:
                return made
            # The bot sees only what ``legal_actions`` reads for its seat; its randomness
            # comes from the game seed and the move number, so a replayed task repeats it.
            level = ai[seat].ai_level if ai[seat].kind == SeatKind.AI else DEFAULT_AI_LEVEL
            bot = make_bot(level or DEFAULT_AI_LEVEL, game.seed ^ (state.action_count + 1))
            new_state = apply_move(game, seat, bot.choose(state, seat), cause=MoveCause.AI)
            # The people at the table poll next: their views of this version are ready.
            from . import rendered

            stamp = rendered.stamp(game.version, game.updated_at)
            rendered.keep_on_commit(game.pk, stamp, rendered.render_seats(game, new_state))
            made += 1
    from .tasks import play_ai_turns as task

    version = Game.objects.values_list("version", flat=True).get(pk=game_id)
    send_task(task, game_id, version)
    return made
