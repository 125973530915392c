"""Commands on a seat of a running game: more time for the seats to move, given by an
opponent, a seat taken back from the AI by its person, and a seat its person leaves for
good."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from engine import Forfeit
from games import errors
from games.commands.deadlines import seat_hand_to_ai
from games.commands.play import settled_first
from games.commands.write import bump, game_lock, move_apply
from games.domain.seats import played_by_ai, seat_of, state_of
from games.models import Game, GameStatus, MoveCause, Seat, TimeoutPolicy
from games.queries import deadlines
from games.queries.deadlines import MAX_EXTRA_SECONDS, MIN_EXTRA_SECONDS
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError


def extra_time_give(user: User, game_id: int, seconds: int) -> Game:
    """An opponent grants the player to move more time (the clock of the pending seats)."""

    def command() -> Game:
        with transaction.atomic():
            game = game_lock(game_id)
            seat = seat_of(user, game)
            if seat is None:
                raise errors.not_a_player()
            if game.status != GameStatus.ACTIVE:
                raise errors.wrong_status(game.status, "active")
            if game.deadline is None:
                raise ServiceError(Code.NO_DEADLINE, _("This game has no time limit."))
            if seat.pending:
                raise ServiceError(Code.OWN_CLOCK, _("Extra time is given by the opponents."))
            if not MIN_EXTRA_SECONDS <= seconds <= MAX_EXTRA_SECONDS:
                raise ServiceError(
                    Code.BAD_EXTRA_TIME, _("Extra time must be from 1 minute to 7 days.")
                )
            if deadlines.unsettled(game):
                raise errors.DeadlinePassed(game_id)
            bump(game, deadline=game.deadline + timedelta(seconds=seconds))
            return game

    return settled_first(game_id, command)


def seat_reclaim(user: User, game_id: int) -> Game:
    """The player takes back a seat the AI took over after missed deadlines."""
    with transaction.atomic():
        game = game_lock(game_id)
        seat = seat_of(user, game)
        if seat is None:
            raise errors.not_a_player()
        if not seat.ai_controlled:
            raise ServiceError(Code.SEAT_NOT_TAKEN_OVER, _("The AI is not playing for you here."))
        Seat.objects.filter(pk=seat.pk).update(
            ai_controlled=False, ai_controlled_since=None, missed_turns=0
        )
        seat.ai_controlled, seat.ai_controlled_since, seat.missed_turns = False, None, 0
        bump(game)
    return game


def seat_abandon(user: User, game_id: int) -> Game:
    """``user`` leaves a running game for good (their account is being erased), as the
    game's timeout policy says a missed deadline is settled: with ``forfeit`` the seat
    forfeits now (the engine's ``Forfeit``: its routes stay, it ranks last, and with fewer
    than two players left the game ends); with ``ai_plays_turn`` or ``ai_takes_seat`` the
    AI takes the seat at once (``deadlines.seat_hand_to_ai``), and plays it to the end.

    Changes nothing when the game is not being played, the user has no seat in it, or the
    seat is already the AI's or has forfeited: running it twice is running it once."""

    def command() -> Game:
        with transaction.atomic():
            game = game_lock(game_id)
            seat = seat_of(user, game)
            if seat is None or game.status != GameStatus.ACTIVE:
                return game
            if deadlines.unsettled(game):
                raise errors.DeadlinePassed(game_id)
            if game.timeout_policy == TimeoutPolicy.FORFEIT:
                if state_of(game).is_legal(seat.index, Forfeit()):
                    move_apply(game, seat.index, Forfeit(), cause=MoveCause.PLAYER)
            elif not played_by_ai(seat):
                bump(game)
                seat_hand_to_ai(game, seat)
            return game

    return settled_first(game_id, command)
