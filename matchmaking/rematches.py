"""Rematches of finished games: asking (or agreeing), declining, and reading one.

Each seated player of a finished game may ask for its rematch; the others are told
(``rematch_offered``) and agree by asking too. When every player of the game has agreed,
the new game is made through the lobby's own ``game_create``: the same board, options,
pace, timeout rules and rated flag, the same players each seated by the service and the
AI seats kept at their levels (the seat order and the first player drawn anew); each
player is told that it started as of any game. A player who declines ends the offer and
the others are told (``rematch_declined``). A block between two of the players refuses the
rematch as a block refuses a seat (``PLAYER_BLOCKED`` to the blocker, ``SEAT_REFUSED`` to
the other). The rematch row is locked for each change, so the game is made once.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.relations import seating_check
from games import errors
from games.commands.lobby import SeatSpec, game_create
from games.models import Game, GameStatus, SeatKind
from games.queries.sql import game_with_seats
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

from . import notices
from .models import Rematch, RematchStatus


@dataclass(frozen=True)
class RematchState:
    """A rematch as the API shows it (``status`` ``none`` while nobody asked)."""

    game: Game
    status: str
    agreed: list[str]
    waiting_for: list[str]
    declined_by: str | None
    new_game: int | None


def _players(game: Game) -> list[User]:
    """The people seated in the game, in seat order."""
    return [s.user for s in game.seated if s.kind == SeatKind.HUMAN and s.user is not None]


def _finished_game_of(user: User, game_id: int) -> tuple[Game, list[User]]:
    game = game_with_seats(game_id)
    if game is None:
        raise errors.not_found()
    players = _players(game)
    if user.pk not in {p.pk for p in players}:
        raise errors.not_a_player()
    if game.status != GameStatus.FINISHED:
        raise errors.wrong_status(game.status, GameStatus.FINISHED)
    return game, players


def _locked(game: Game) -> Rematch:
    Rematch.objects.get_or_create(game=game)
    return Rematch.objects.select_for_update().get(game=game)


def rematch_agree(user: User, game_id: int) -> RematchState:
    """``user`` asks for the rematch of a finished game, or agrees to it."""
    game, players = _finished_game_of(user, game_id)
    seating_check(user.pk, {p.pk for p in players})
    with transaction.atomic():
        rematch = _locked(game)
        if rematch.status == RematchStatus.DECLINED:
            raise ServiceError(Code.REMATCH_DECLINED, _("The rematch of this game was declined."))
        if rematch.status == RematchStatus.OPEN and user.pk not in rematch.agreed:
            rematch.agreed = [*rematch.agreed, user.pk]
            if {p.pk for p in players} <= set(rematch.agreed):
                rematch.new_game = _rematch_game(game, players)
                rematch.status = RematchStatus.MADE
            elif len(rematch.agreed) == 1:
                notices.rematch_offered([p for p in players if p.pk != user.pk], rematch, user)
            rematch.save()
    return _state(game, players, rematch)


def rematch_decline(user: User, game_id: int) -> RematchState:
    """``user`` declines the rematch of a finished game (asked for or not): the offer
    ends, and the other players are told."""
    game, players = _finished_game_of(user, game_id)
    with transaction.atomic():
        rematch = _locked(game)
        if rematch.status == RematchStatus.MADE:
            raise ServiceError(
                Code.REMATCH_MADE,
                _("The rematch is game %(game)d, made already.") % {"game": rematch.new_game_id},
            )
        if rematch.status == RematchStatus.OPEN:
            rematch.status, rematch.declined_by = RematchStatus.DECLINED, user
            rematch.save()
            notices.rematch_declined([p for p in players if p.pk != user.pk], rematch, user)
    return _state(game, players, rematch)


def rematch_of(game_id: int) -> RematchState:
    """The rematch of a game as anyone may read it (games are public)."""
    game = game_with_seats(game_id)
    if game is None:
        raise errors.not_found()
    players = _players(game)
    found = Rematch.objects.filter(game=game).select_related("declined_by").first()
    return _state(game, players, found)


def _state(game: Game, players: list[User], rematch: Rematch | None) -> RematchState:
    agreed = rematch.agreed if rematch is not None else []
    names = {p.pk: p.get_username() for p in players}
    declined = rematch.declined_by if rematch is not None else None
    return RematchState(
        game=game,
        status=rematch.status if rematch is not None else "none",
        agreed=[names[pk] for pk in agreed if pk in names],
        waiting_for=[name for pk, name in names.items() if pk not in agreed],
        declined_by=declined.get_username() if declined is not None else None,
        new_game=rematch.new_game_id if rematch is not None else None,
    )


def _rematch_game(game: Game, players: list[User]) -> Game:
    seats = [
        SeatSpec("user", user_id=s.user_id)
        if s.kind == SeatKind.HUMAN
        else SeatSpec("ai", level=s.ai_level or None)
        for s in game.seated
    ]
    creator = next((p for p in players if p.pk == game.created_by_id), players[0])
    return game_create(
        creator,
        board=game.board,
        seats=seats,
        turn_time_limit=game.turn_time_limit,
        timeout_policy=game.timeout_policy,
        timeout_takeover_after=game.timeout_takeover_after,
        options=game.options,
        rated=game.rated,
    )
