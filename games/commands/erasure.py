"""What leaving the service does to a player's games (``account_erase``, one of the erasers
``privacy.erasure`` runs when an account is deleted).

Finished and cancelled games keep their seats as they are, so every other player's result,
rating and replay stays whole; the seat's user is the account under its pseudonym. The
lobbies the user made are cancelled (nobody else could start or cancel them); in the others
the user gives up their seat, or declines their invitation. In a running game the seat is
left as the game's timeout policy settles a missed deadline (``seats.seat_abandon``).

Once the account has its pseudonym, every game that names it (a seat, its creator) goes up
a version (``account_games_renew``, run after the accounts' eraser): a view shows the
name, so the new name is a change a client can see, and the views kept of the old version
(in the cache and in each process) and its ETags are never served again.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from games.commands import lobby
from games.commands.seats import seat_abandon
from games.commands.write import bump, game_lock
from games.models import Game, GameStatus, IdempotencyRecord, Seat, SeatKind, Vacation
from ttr_service.http.problems import ServiceError

# A game that changed between the look and the command (a lobby that just started) is
# looked at again, at most this many times.
_LOOKS = 3


def _leave(user: User, game_id: int) -> None:
    """``user`` out of one game they made or sit in, as its status is now."""
    game = Game.objects.filter(pk=game_id).values("status", "created_by_id").first()
    if game is None:
        return
    status, mine = game["status"], game["created_by_id"] == user.pk
    seat = Seat.objects.filter(game_id=game_id, user=user).values("kind").first()
    if status == GameStatus.LOBBY:
        if mine:
            lobby.game_cancel(user, game_id)
        elif seat is not None and seat["kind"] == SeatKind.INVITED:
            lobby.invitation_decline(user, game_id)
        elif seat is not None:
            lobby.game_leave(user, game_id)
    elif status == GameStatus.ACTIVE:
        if seat is not None:
            seat_abandon(user, game_id)
        elif mine and not Seat.objects.filter(game_id=game_id).exclude(kind=SeatKind.AI).exists():
            lobby.game_cancel(user, game_id)  # a game of AI seats only, which they made


def _games_left(user: User) -> list[int]:
    ongoing = Q(status__in=[GameStatus.LOBBY, GameStatus.ACTIVE])
    mine = Q(created_by=user) | Q(seats__user=user)
    return list(Game.objects.filter(ongoing, mine).distinct().values_list("pk", flat=True))


def account_erase(user: User) -> None:
    """Take ``user`` out of every lobby and running game, and delete their vacations and
    the kept answers of their moves. Safe to run again."""
    for game_id in _games_left(user):
        for look in range(_LOOKS):
            try:
                _leave(user, game_id)
                break
            except ServiceError:
                if look == _LOOKS - 1:
                    raise
    Vacation.objects.filter(user=user).delete()
    IdempotencyRecord.objects.filter(user=user).delete()


def account_games_renew(user: User) -> None:
    """One version more for every game that names ``user``, once they were renamed."""
    named = Game.objects.filter(Q(created_by=user) | Q(seats__user=user)).distinct()
    for game_id in named.values_list("pk", flat=True):
        with transaction.atomic():
            bump(game_lock(game_id))
