"""Missed deadlines: each one is settled exactly once, by the game's timeout policy.

A deadline lives in the database (``Game.deadline``). It is enforced by a periodic sweep
and by any read or write of an overdue game. The row lock plus a unique
``MissedDeadline(game, version)`` make the effect happen once, however many sweeps,
workers or requests see the same overdue game.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from engine import Forfeit
from engine.bots import make_bot
from engine.legal import safe_action
from engine.state import CHOOSE_INITIAL_TICKETS, TURN_ACTION
from ttr_service.tasking import send_task, send_task_on_commit

from . import errors, notices, services
from .models import Game, GameStatus, MissedDeadline, MoveCause, Seat, SeatKind, TimeoutPolicy

MAX_EXTRA_SECONDS = 7 * 24 * 3600
# A timed-out seat's turn is at most this many decisions (draws, tunnel, tickets).
_MAX_DECISIONS = 8


def is_overdue(game: Game, now: datetime | None = None) -> bool:
    return deadline_passed(game.status, game.deadline, now)


def deadline_passed(status: str, deadline: datetime | None, now: datetime | None = None) -> bool:
    """Whether a game with this status and deadline has a deadline to settle."""
    return (
        status == GameStatus.ACTIVE and deadline is not None and deadline <= (now or timezone.now())
    )


def _play_for(game: Game, seat: int, policy: str) -> None:
    """Settle ``seat``'s pending decisions after a missed deadline."""
    if policy == TimeoutPolicy.FORFEIT:
        services.apply_move(game, seat, Forfeit(), cause=MoveCause.TIMEOUT)
        return
    for _ in range(_MAX_DECISIONS):
        state = services.load_state(game)
        if state.is_over or seat not in state.pending.seats:
            return
        action = safe_action(state, seat)
        if action is None or state.pending.kind in (CHOOSE_INITIAL_TICKETS, TURN_ACTION):
            # A fresh turn (or the initial choice) is played by the AI for the player; its
            # randomness comes from the seed and the move number, like an AI seat's.
            bot = make_bot(services.DEFAULT_AI_LEVEL, game.seed ^ (state.action_count + 1))
            action = bot.choose(state, seat)
        services.apply_move(game, seat, action, cause=MoveCause.TIMEOUT)
        if state.pending.kind not in (CHOOSE_INITIAL_TICKETS, TURN_ACTION):
            # A mid-turn decision settled safely ends the turn it belonged to.
            return


def enforce_deadline(game_id: int, now: datetime | None = None) -> bool:
    """Apply the timeout policy if the game's deadline has passed; True if it did."""
    now = now or timezone.now()
    with transaction.atomic():
        game = services.lock_game(game_id)
        if not is_overdue(game, now):
            return False
        state = services.load_state(game)
        seats = list(state.pending.seats)
        try:
            with transaction.atomic():
                MissedDeadline.objects.create(
                    game=game, version=game.version, seats=seats, policy=game.timeout_policy
                )
        except IntegrityError:
            return False
        by_index = {s.index: s for s in game.seats.all()}
        for seat in seats:
            row = by_index[seat]
            if row.played_by_ai:
                continue  # the AI task owns it; a stuck one is retried by the sweep
            _play_for(game, seat, game.timeout_policy)
            row.missed_turns += 1
            take_over = (
                game.timeout_policy == TimeoutPolicy.AI_TAKES_SEAT
                and row.missed_turns >= game.timeout_takeover_after
            )
            Seat.objects.filter(pk=row.pk).update(
                missed_turns=row.missed_turns, ai_controlled=take_over or row.ai_controlled
            )
            notices.timed_out(game, row, game.timeout_policy, take_over)
            if take_over:
                _queue_ai(game)
        return True


def _queue_ai(game: Game) -> None:
    from .tasks import play_ai_turns

    send_task_on_commit(play_ai_turns, game.pk, game.version)


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Settle every overdue game, and queue AI turns that seem stuck (periodic task)."""
    now = now or timezone.now()
    overdue = list(
        Game.objects.filter(status=GameStatus.ACTIVE, deadline__lte=now).values_list(
            "pk", flat=True
        )
    )
    settled = sum(1 for game_id in overdue if enforce_deadline(game_id, now))
    warned = notices.deadlines_approaching(now)
    stale = now - timedelta(seconds=settings.AI_STUCK_SECONDS)
    ai_waiting = Seat.objects.filter(game=OuterRef("pk"), pending=True).filter(
        Q(kind=SeatKind.AI) | Q(ai_controlled=True)
    )
    stuck = Game.objects.filter(
        Exists(ai_waiting), status=GameStatus.ACTIVE, updated_at__lte=stale
    ).values_list("pk", "version")
    from .tasks import play_ai_turns

    requeued = 0
    for game_id, version in stuck:
        requeued += send_task(play_ai_turns, game_id, version)
    return {"settled": settled, "ai_requeued": requeued, "warned": warned}


def give_extra_time(user: AbstractBaseUser, game_id: int, seconds: int) -> Game:
    """An opponent grants the player to move more time (the clock of the pending seats)."""
    with transaction.atomic():
        game = services.lock_game(game_id)
        seat = services.seat_of(user, game)
        if seat is None:
            raise errors.not_a_player()
        if game.status != GameStatus.ACTIVE:
            raise errors.wrong_status(game.status, "active")
        if game.deadline is None:
            raise errors.conflict("NO_DEADLINE", "This game has no time limit.")
        if seat.pending:
            raise errors.conflict("OWN_CLOCK", "Extra time is given by the opponents.")
        if not 60 <= seconds <= MAX_EXTRA_SECONDS:
            raise errors.bad_request(
                "BAD_EXTRA_TIME", "Extra time must be from 1 minute to 7 days."
            )
        services.bump(game, deadline=game.deadline + timedelta(seconds=seconds))
    return game


def reclaim_seat(user: AbstractBaseUser, game_id: int) -> Game:
    """The player takes back a seat the AI took over after missed deadlines."""
    with transaction.atomic():
        game = services.lock_game(game_id)
        seat = services.seat_of(user, game)
        if seat is None:
            raise errors.not_a_player()
        if not seat.ai_controlled:
            raise errors.conflict("SEAT_NOT_TAKEN_OVER", "The AI is not playing for you here.")
        Seat.objects.filter(pk=seat.pk).update(ai_controlled=False, missed_turns=0)
        services.bump(game)
    return game
