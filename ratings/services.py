"""Recording a finished game into statistics and ratings, once.

``game_result_record`` locks the game row, claims the game with a ``RatedGame`` row and
applies every update in the same transaction: a second run, or a run racing the first,
finds the claim and changes nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from accounts.erasure import PSEUDONYM_PREFIX
from games.models import Game, GameStatus, Seat, SeatKind

from . import elo
from .models import PlayerStats, RatedGame, Rating, RatingChange

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Outcome:
    """One human seat's line of the score sheet."""

    user_id: int
    place: int
    total: int
    completed_tickets: int
    failed_tickets: int
    longest_path_bonus: bool
    forfeited: bool


def game_result_record(game_id: int) -> bool:
    """Record a finished game's statistics and ratings.

    True if this call recorded it; False if it was recorded before, or the game does not
    exist or is not finished (nothing is written then).
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != GameStatus.FINISHED or not game.result:
            return False
        if RatedGame.objects.filter(game=game).exists():
            return False
        seats = list(Seat.objects.filter(game=game).order_by("index"))
        outcomes = _outcomes(game.result, seats)
        rated = game.rated and len(outcomes) >= 2 and all(_played_by_user(s) for s in seats)
        try:
            with transaction.atomic():
                RatedGame.objects.create(game=game, board=game.board, rated=rated)
        except IntegrityError:
            return False
        _record_stats(game, outcomes)
        if rated:
            _record_ratings(game, outcomes)
        _erased_dropped(outcomes)
    return True


def _erased_dropped(outcomes: list[_Outcome]) -> None:
    """An erased account keeps no statistics or rating (``ratings.erasure``), also from a
    game that ended as it was erased; its ``RatingChange`` stays, the record of the game."""
    erased = User.objects.filter(
        pk__in=[o.user_id for o in outcomes],
        is_active=False,
        username__startswith=PSEUDONYM_PREFIX,
    ).values("pk")
    PlayerStats.objects.filter(user__in=erased).delete()
    Rating.objects.filter(user__in=erased).delete()


def game_results_record_missing() -> int:
    """Record every finished game that has not been recorded; the number recorded."""
    missing = (
        Game.objects.filter(status=GameStatus.FINISHED, rated_game__isnull=True)
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)
    )
    return sum(1 for game_id in list(missing) if game_result_record(game_id))


def _played_by_user(seat: Seat) -> bool:
    """Whether a person held the seat to the end (no AI seat, no seat the AI took over)."""
    return (
        seat.kind == SeatKind.HUMAN
        and seat.user_id is not None
        and not getattr(seat, "ai_controlled", False)
    )


def _outcomes(result: dict[str, Any], seats: list[Seat]) -> list[_Outcome]:
    """The score-sheet lines of the seats held by a user at the end; AI seats get none."""
    lines: dict[int, dict[str, Any]] = {p["seat"]: p for p in result.get("players", [])}
    out = []
    for seat in seats:
        line = lines.get(seat.index)
        if seat.kind != SeatKind.HUMAN or seat.user_id is None or line is None:
            continue
        out.append(
            _Outcome(
                user_id=seat.user_id,
                place=int(line["place"]),
                total=int(line["total"]),
                completed_tickets=int(line.get("completed_tickets", 0)),
                failed_tickets=int(line.get("failed_tickets", 0)),
                longest_path_bonus=bool(line.get("longest_path_bonus")),
                forfeited=bool(line.get("forfeited")),
            )
        )
    return out


def _record_stats(game: Game, outcomes: list[_Outcome]) -> None:
    played = game.finished_at or timezone.now()
    PlayerStats.objects.bulk_create(
        [PlayerStats(user_id=o.user_id, board=game.board) for o in outcomes],
        ignore_conflicts=True,
    )
    for o in outcomes:
        # F() updates add to whatever another game's recording committed meanwhile.
        stats = PlayerStats.objects.filter(user_id=o.user_id, board=game.board)
        stats.update(
            games=F("games") + 1,
            wins=F("wins") + (1 if o.place == 1 else 0),
            total_score=F("total_score") + o.total,
            tickets_completed=F("tickets_completed") + o.completed_tickets,
            tickets_failed=F("tickets_failed") + o.failed_tickets,
            longest_path_bonuses=F("longest_path_bonuses") + (1 if o.longest_path_bonus else 0),
            forfeits=F("forfeits") + (1 if o.forfeited else 0),
            # Results may be recorded out of order: keep the latest game's time.
            last_played=Greatest(Coalesce("last_played", Value(played)), Value(played)),
        )


def _record_ratings(game: Game, outcomes: list[_Outcome]) -> None:
    user_ids = sorted(o.user_id for o in outcomes)
    Rating.objects.bulk_create(
        [Rating(user_id=u, board=game.board) for u in user_ids], ignore_conflicts=True
    )
    # Locked in user order, so two games sharing players cannot deadlock.
    current = {
        r.user_id: r
        for r in Rating.objects.select_for_update()
        .filter(board=game.board, user_id__in=user_ids)
        .order_by("user_id")
    }
    places = {o.user_id: o.place for o in outcomes}
    changes = elo.rating_changes({u: current[u].rating for u in user_ids}, places)
    for user_id in user_ids:
        row = current[user_id]
        before = row.rating
        row.rating = round(before + changes[user_id], 2)
        row.rated_games += 1
        row.rated_wins += 1 if places[user_id] == 1 else 0
        row.save(update_fields=["rating", "rated_games", "rated_wins"])
        RatingChange.objects.create(
            user_id=user_id,
            game=game,
            board=game.board,
            place=places[user_id],
            opponents=len(user_ids) - 1,
            before=before,
            after=row.rating,
        )
    logger.info("Rated game %s on %s for %d players", game.pk, game.board, len(user_ids))
