"""Missed deadlines: each one is settled exactly once, by the game's timeout policy.

A deadline lives in the database (``Game.deadline``). The beat sweep settles the overdue
games; a command that finds its game overdue settles it first; a read only reports it and
queues the settling. The row lock plus a unique ``MissedDeadline(game, version)`` make the
effect happen once, however many sweeps, workers or requests see the same overdue game.

The AI that plays a missed turn thinks before the lock is taken, on a snapshot of the
overdue version; the lock then applies its choices only if the game is still at that
version (otherwise it thinks again), so no one waits for it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from engine import Action, Forfeit, GameState
from engine.legal import safe_action
from engine.state import CHOOSE_INITIAL_TICKETS, TURN_ACTION
from games import events
from games.commands.write import game_lock, move_apply
from games.domain import bots
from games.domain.seats import played_by_ai, state_of
from games.models import Game, GameStatus, MissedDeadline, MoveCause, Seat, SeatKind, TimeoutPolicy
from games.queries import sql
from games.queries.deadlines import deadline_passed

# A timed-out seat's turn is at most this many decisions (draws, tunnel, tickets).
_MAX_DECISIONS = 8
# Times a settling thinks again because the game changed while it thought.
_ATTEMPTS = 5
# The decisions the AI plays for a person; the others have a cautious default.
_FRESH = (CHOOSE_INITIAL_TICKETS, TURN_ACTION)


def _plan(game: Game, now: datetime) -> dict[int, Action]:
    """What the AI would play for each person whose fresh decision ran out (no lock held)."""
    if game.timeout_policy == TimeoutPolicy.FORFEIT or not deadline_passed(
        game.status, game.deadline, now
    ):
        return {}
    state = state_of(game)
    if state.pending.kind not in _FRESH:
        return {}
    people = {s.index for s in game.seated if not played_by_ai(s)}
    return {
        seat: bots.think(bots.DEFAULT_AI_LEVEL, game.seed, state, seat)
        for seat in state.pending.seats
        if seat in people
    }


def _play_for(game: Game, seat: int, policy: str, planned: Action | None) -> None:
    """Settle ``seat``'s pending decisions after a missed deadline."""
    if policy == TimeoutPolicy.FORFEIT:
        move_apply(game, seat, Forfeit(), cause=MoveCause.TIMEOUT)
        return
    for _ in range(_MAX_DECISIONS):
        state: GameState = state_of(game)
        if state.is_over or seat not in state.pending.seats:
            return
        fresh = state.pending.kind in _FRESH
        action = planned if fresh else safe_action(state, seat)
        if action is None:
            # Planned on this very version, so never missing; a guard, not a path.
            action = bots.think(bots.DEFAULT_AI_LEVEL, game.seed, state, seat)
        move_apply(game, seat, action, cause=MoveCause.TIMEOUT)
        if not fresh:
            # A mid-turn decision settled safely ends the turn it belonged to.
            return
        planned = None


def deadline_settle(game_id: int, now: datetime | None = None) -> bool:
    """Apply the timeout policy if the game's deadline has passed; True if it did."""
    now = now or timezone.now()
    for _ in range(_ATTEMPTS):
        seen = sql.game_with_seats(game_id)
        if seen is None or not deadline_passed(seen.status, seen.deadline, now):
            return False
        plan = _plan(seen, now)
        with transaction.atomic():
            game = game_lock(game_id)
            if not deadline_passed(game.status, game.deadline, now):
                return False
            if game.version != seen.version:
                continue  # changed while the AI thought: think again on the new version
            return _settle(game, plan)
    return False


def _settle(game: Game, plan: dict[int, Action]) -> bool:
    seats = list(state_of(game).pending.seats)
    try:
        with transaction.atomic():
            MissedDeadline.objects.create(
                game=game, version=game.version, seats=seats, policy=game.timeout_policy
            )
    except IntegrityError:
        return False
    by_index = {s.index: s for s in game.seated}
    for seat in seats:
        row = by_index[seat]
        if played_by_ai(row):
            continue  # the AI task owns it; a stuck one is retried by the sweep
        _play_for(game, seat, game.timeout_policy, plan.get(seat))
        row.missed_turns += 1
        take_over = (
            game.timeout_policy == TimeoutPolicy.AI_TAKES_SEAT
            and row.missed_turns >= game.timeout_takeover_after
        )
        if take_over:
            seat_hand_to_ai(game, row)
        else:
            Seat.objects.filter(pk=row.pk).update(missed_turns=row.missed_turns)
        events.timed_out(game, row, game.timeout_policy, take_over)
    return True


def seat_hand_to_ai(game: Game, row: Seat) -> None:
    """From now on the AI plays ``row`` of the locked ``game`` for its person, who keeps
    the seat: after missed deadlines (``ai_takes_seat``), or when the person leaves the
    service (``seats.seat_abandon``). Its turn, if it has one, is queued on commit."""
    row.ai_controlled, row.ai_controlled_since = True, timezone.now()
    Seat.objects.filter(pk=row.pk).update(
        missed_turns=row.missed_turns,
        ai_controlled=True,
        ai_controlled_since=row.ai_controlled_since,
    )
    events.ai_turns_on_commit(game.pk, game.version)


def deadlines_sweep(
    now: datetime | None = None, stuck_after: timedelta | None = None
) -> dict[str, int]:
    """Settle every overdue game, and queue AI turns that seem stuck (periodic task): those
    of games unchanged for ``stuck_after`` (``AI_STUCK_SECONDS``; zero: every AI turn due,
    as after a restore, whose queued tasks are gone)."""
    now = now or timezone.now()
    overdue = list(
        Game.objects.filter(status=GameStatus.ACTIVE, deadline__lte=now).values_list(
            "pk", flat=True
        )
    )
    settled = sum(1 for game_id in overdue if deadline_settle(game_id, now))
    if stuck_after is None:
        stuck_after = timedelta(seconds=settings.AI_STUCK_SECONDS)
    stale = now - stuck_after
    ai_waiting = Seat.objects.filter(game=OuterRef("pk"), pending=True).filter(
        Q(kind=SeatKind.AI) | Q(ai_controlled=True)
    )
    stuck = Game.objects.filter(
        Exists(ai_waiting), status=GameStatus.ACTIVE, updated_at__lte=stale
    ).values_list("pk", "version")
    requeued = 0
    for game_id, version in stuck:
        requeued += events.ai_turns(game_id, version)
    return {"settled": settled, "ai_requeued": requeued}
