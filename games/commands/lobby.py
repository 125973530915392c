"""Commands of a game before it starts: create, join, leave, invitations, start, cancel.

Each one is a transaction of its own: it locks the game row, checks the status and the
caller's right, changes the seats, raises the version, and starts the game when the last
seat is filled.

A game of AI seats only (a bot-only game) starts at once and seats nobody, its creator
included; a lobby whose only taken seats are AI seats becomes one when it is started. Its
creator may cancel it while it runs, and may hold at most ``MAX_BOT_ONLY_GAMES_PER_USER``
of them unfinished: the bots play without pause, so each one keeps a worker busy until it
ends.

Blocks keep players apart (``accounts.relations``): nobody invites a player on the other
side of a block, or one who takes invitations from friends only and is not their friend,
and nobody takes a seat (joining or accepting an invitation) in a lobby whose creator or a
seated player is on the other side of a block with them. A block changes no game: seats
taken before it stay taken.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.relations import blocked_among, invitation_check, seating_check
from engine import BOARD_IDS, ErrorCode, SetupError, load_board, new_game
from engine.board import check_options
from games import errors, events
from games.commands.write import bump, game_lock, require_status, state_store
from games.domain.bots import AI_LEVELS, DEFAULT_AI_LEVEL
from games.domain.seats import seat_of
from games.models import Game, GameStatus, Seat, SeatKind, TimeoutPolicy
from games.queries.deadlines import MAX_TURN_SECONDS, MIN_TURN_SECONDS
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError, engine_text


@dataclass(frozen=True)
class SeatSpec:
    type: str  # "creator", "open", "invite", "ai", "user" (a player seated by the service)
    username: str | None = None
    level: str | None = None
    user_id: int | None = None


def game_create(
    user: User,
    *,
    board: str,
    seats: list[SeatSpec],
    turn_time_limit: int | None = None,
    timeout_policy: str = TimeoutPolicy.AI_PLAYS_TURN,
    timeout_takeover_after: int = 2,
    first_seat: int | None = None,
    options: Mapping[str, object] | None = None,
    rated: bool = True,
) -> Game:
    """A new game by ``user`` with these seats; started at once when no seat is left open
    or invited.

    A ``"user"`` seat seats the player ``user_id`` at once, as quick match and rematch do
    (not a choice the public API offers); a block between any two of the players so
    seated, or between one of them and ``user``, refuses the game (``blocked_among``).
    ``rated=False`` makes a casual game: the ratings leave it out."""
    chosen = _checked_setup(board, options, seats, turn_time_limit, first_seat)
    invited = _invitees(user, seats)
    _seated_users_check(user, seats)
    with transaction.atomic():
        if all(s.type == "ai" for s in seats):
            _check_bot_only_quota(user)
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
            rated=rated,
        )
        _seats_create(game, user, seats, invited)
        _start_if_full(game)
    return game


def _checked_setup(
    board: str,
    options: Mapping[str, object] | None,
    seats: list[SeatSpec],
    turn_time_limit: int | None,
    first_seat: int | None,
) -> dict[str, str]:
    """Refuse a game the board cannot be set up for; the options chosen, defaults included."""
    if board not in BOARD_IDS:
        raise errors.unknown_board(board)
    plain = load_board(board)
    try:
        chosen = check_options(plain, options or {})
    except SetupError as exc:
        raise ServiceError(ErrorCode.BAD_OPTION, engine_text(exc.text)) from None
    rules = plain.rules
    if not rules.min_players <= len(seats) <= rules.max_players:
        raise ServiceError(
            Code.BAD_SEAT_COUNT,
            _("%(board)s is played by %(low)d to %(high)d players, not %(players)d.")
            % {
                "board": plain.name,
                "low": rules.min_players,
                "high": rules.max_players,
                "players": len(seats),
            },
        )
    if sum(1 for s in seats if s.type == "creator") > 1:
        raise ServiceError(Code.BAD_SEATS, _("The creator can take only one seat."))
    if turn_time_limit is not None and not MIN_TURN_SECONDS <= turn_time_limit <= MAX_TURN_SECONDS:
        raise ServiceError(
            Code.BAD_TIME_LIMIT, _("The time limit per move must be from 1 minute to 14 days.")
        )
    if first_seat is not None and not 0 <= first_seat < len(seats):
        raise ServiceError(Code.BAD_FIRST_SEAT, _("The first seat must be one of the seats."))
    return chosen


def _seats_create(game: Game, user: User, seats: list[SeatSpec], invited: dict[int, User]) -> None:
    """The new game's seats, as specified (an invitation tells its invitee), read into
    ``game.seated``."""
    now = timezone.now()
    for i, spec in enumerate(seats):
        if spec.type == "creator":
            Seat.objects.create(game=game, index=i, kind=SeatKind.HUMAN, user=user, joined_at=now)
        elif spec.type == "invite":
            Seat.objects.create(game=game, index=i, kind=SeatKind.INVITED, user=invited[i])
        elif spec.type == "ai":
            level = spec.level or DEFAULT_AI_LEVEL
            Seat.objects.create(game=game, index=i, kind=SeatKind.AI, ai_level=level, joined_at=now)
        elif spec.type == "user":
            Seat.objects.create(
                game=game, index=i, kind=SeatKind.HUMAN, user_id=spec.user_id, joined_at=now
            )
        else:
            Seat.objects.create(game=game, index=i, kind=SeatKind.OPEN)
    _read_seats(game)
    for seat in game.seated:
        if seat.kind == SeatKind.INVITED:
            events.invitation(game, seat)


def bot_only_games(user: User) -> QuerySet[Game]:
    """The games ``user`` created that have not ended and in which no person has a seat."""
    return Game.objects.filter(
        created_by=user, status__in=[GameStatus.LOBBY, GameStatus.ACTIVE]
    ).exclude(seats__kind__in=[SeatKind.HUMAN, SeatKind.INVITED, SeatKind.OPEN])


def _check_bot_only_quota(user: User) -> None:
    """Refuse one more bot-only game past the limit. The user's row is locked first, so
    two creations at once are counted one after the other (SQLite serialises writers)."""
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk"))
    limit = settings.MAX_BOT_ONLY_GAMES_PER_USER
    if bot_only_games(user).count() >= limit:
        raise errors.too_many_bot_games(limit)


def _invitees(user: User, seats: list[SeatSpec]) -> dict[int, User]:
    """The users invited to each seat, by seat index, each one a player ``user`` may invite
    (``accounts.relations.invitation_check``: no block between them, and friends if the
    invitee takes invitations from friends only); checks the AI levels on the way.

    A block between two invitees is not looked for here: refusing the game would tell its
    creator of a block between two others. The second of them to accept is refused instead
    (``_seating_check``)."""
    users = get_user_model()
    invited: dict[int, User] = {}
    for i, spec in enumerate(seats):
        if spec.type == "invite":
            invitee = users.objects.filter(username__iexact=spec.username or "").first()
            if invitee is None:
                raise ServiceError(
                    Code.UNKNOWN_USER,
                    _("No user named %(username)r.") % {"username": spec.username},
                )
            if invitee.pk == user.pk:
                raise ServiceError(
                    Code.BAD_SEATS, _("Take a seat yourself instead of inviting yourself.")
                )
            if invitee.pk in {u.pk for u in invited.values()}:
                raise ServiceError(
                    Code.BAD_SEATS,
                    _("%(username)s is invited twice.") % {"username": invitee.username},
                )
            invitation_check(user.pk, invitee.pk, invitee.username)
            invited[i] = invitee
        elif spec.type == "ai" and (spec.level or DEFAULT_AI_LEVEL) not in AI_LEVELS:
            raise ServiceError(
                Code.UNKNOWN_AI_LEVEL, _("Unknown AI level %(level)r.") % {"level": spec.level}
            )
    return invited


def _seated_users_check(user: User, seats: list[SeatSpec]) -> None:
    """Refuse ``"user"`` seats with a player twice, or with a block among the players
    they seat and ``user``."""
    seated = [s.user_id for s in seats if s.type == "user"]
    if not seated:
        return
    if None in seated or len(set(seated)) != len(seated):
        raise ServiceError(Code.BAD_SEATS, _("Each player seated by the service sits once."))
    if blocked_among({user.pk, *(uid for uid in seated if uid is not None)}):
        raise ServiceError(Code.SEAT_REFUSED, _("A block stands between players of this game."))


def _start_if_full(game: Game) -> None:
    if not any(s.kind in (SeatKind.OPEN, SeatKind.INVITED) for s in game.seated):
        _start(game)


def _start(game: Game) -> None:
    state = new_game(game.board, game.players, game.seed, game.first_seat, options=game.options)
    state_store(game, state, status=GameStatus.ACTIVE, started_at=timezone.now())
    events.game_started(game)


def _seating_check(user: User, game: Game) -> None:
    """Refuse ``user`` a seat in the lobby when a block stands between them and its creator
    or a player seated there (invitations not yet accepted do not count: the first of two
    such players to take a seat keeps it)."""
    present = {game.created_by_id}
    present.update(s.user_id for s in game.seated if s.kind == SeatKind.HUMAN and s.user_id)
    seating_check(user.pk, present)


def _read_seats(game: Game) -> None:
    """Read the seats again after statements that changed them (``game.seated``)."""
    game.seated = list(Seat.objects.filter(game=game).select_related("user"))


def game_join(user: User, game_id: int, seat: int | None = None) -> Game:
    """Take an open seat (``seat``, or the first open one)."""
    with transaction.atomic():
        game = game_lock(game_id)
        require_status(game, GameStatus.LOBBY)
        seats = game.seated
        if any(s.user_id == user.pk for s in seats):
            raise ServiceError(
                Code.ALREADY_SEATED, _("You already have a seat (or an invitation) here.")
            )
        open_seats = [s for s in seats if s.kind == SeatKind.OPEN]
        if seat is not None:
            open_seats = [s for s in open_seats if s.index == seat]
        if not open_seats:
            raise ServiceError(Code.NO_OPEN_SEAT, _("No open seat to take."))
        _seating_check(user, game)
        taken = open_seats[0]
        taken.kind, taken.user, taken.joined_at = SeatKind.HUMAN, user, timezone.now()
        taken.save()
        bump(game)
        _start_if_full(game)
    return game


def game_leave(user: User, game_id: int) -> Game:
    """Give up a seat taken in a lobby."""
    with transaction.atomic():
        game = game_lock(game_id)
        require_status(game, GameStatus.LOBBY)
        seat = seat_of(user, game)
        if seat is None:
            raise errors.not_a_player()
        seat.kind, seat.user, seat.joined_at = SeatKind.OPEN, None, None
        seat.save()
        bump(game)
    return game


def _invitation_answer(user: User, game_id: int, accept: bool) -> Game:
    with transaction.atomic():
        game = game_lock(game_id)
        require_status(game, GameStatus.LOBBY)
        seat = next(
            (s for s in game.seated if s.user_id == user.pk and s.kind == SeatKind.INVITED), None
        )
        if seat is None:
            raise ServiceError(Code.NO_INVITATION, _("You have no open invitation to this game."))
        if accept:
            _seating_check(user, game)
            seat.kind, seat.joined_at = SeatKind.HUMAN, timezone.now()
        else:
            seat.kind, seat.user = SeatKind.OPEN, None
        seat.save()
        bump(game)
        if accept:
            _start_if_full(game)
    return game


def invitation_accept(user: User, game_id: int) -> Game:
    return _invitation_answer(user, game_id, True)


def invitation_decline(user: User, game_id: int) -> Game:
    return _invitation_answer(user, game_id, False)


def game_start(user: User, game_id: int) -> Game:
    """The creator starts the game with the seats taken; the others are dropped."""
    with transaction.atomic():
        game = game_lock(game_id)
        if game.created_by_id != user.pk:
            raise errors.not_creator("start")
        require_status(game, GameStatus.LOBBY)
        seats = game.seated
        taken = [s for s in seats if s.kind in (SeatKind.HUMAN, SeatKind.AI)]
        minimum = load_board(game.board).rules.min_players
        if len(taken) < minimum:
            raise ServiceError(
                Code.NOT_ENOUGH_PLAYERS,
                ngettext(
                    "At least %(minimum)d seat must be taken (by a player or the AI) to start.",
                    "At least %(minimum)d seats must be taken (by players or the AI) to start.",
                    minimum,
                )
                % {"minimum": minimum},
            )
        if all(s.kind == SeatKind.AI for s in taken):
            # Dropping the seats nobody took leaves a bot-only game: it counts from now.
            _check_bot_only_quota(user)
        # Starting early drops the seats nobody took; the others close ranks in order.
        kept_first = next((i for i, s in enumerate(taken) if s.index == game.first_seat), None)
        Seat.objects.filter(game=game).exclude(pk__in=[s.pk for s in taken]).delete()
        for new_index, seat in enumerate(taken):
            if seat.index != new_index:
                Seat.objects.filter(pk=seat.pk).update(index=new_index)
        game.players = len(taken)
        game.first_seat = kept_first
        Game.objects.filter(pk=game.pk).update(players=game.players, first_seat=kept_first)
        _read_seats(game)
        _start(game)
    return game


def game_cancel(user: User, game_id: int) -> Game:
    """The creator ends a game: a lobby, or a running game in which no person has a seat.

    A running game with people in it is theirs too, so it is not cancelled: each of them
    may forfeit instead. A bot-only game that is cancelled keeps its moves and state for
    the record; its AI turns stop (the AI loop plays active games only), and no seat is
    left to decide and no deadline to run.
    """
    with transaction.atomic():
        game = game_lock(game_id)
        if game.created_by_id != user.pk:
            raise errors.not_creator("cancel")
        if game.status == GameStatus.ACTIVE and _bots_only(game):
            bump(game, status=GameStatus.CANCELLED, deadline=None)
            Seat.objects.filter(game=game, pending=True).update(pending=False)
            for seat in game.seated:
                seat.pending = False
            return game
        require_status(game, GameStatus.LOBBY)
        bump(game, status=GameStatus.CANCELLED)
    return game


def _bots_only(game: Game) -> bool:
    return all(s.kind == SeatKind.AI for s in game.seated)
