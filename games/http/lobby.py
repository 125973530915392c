"""A game's lobby and clock: join, leave, answer an invitation, start, cancel, give extra
time, take a seat back from the AI. Each is a command on one game that answers the
caller's view of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.commands import lobby, seats
from games.domain.seats import seat_of
from games.http import examples
from games.models import Game
from games.queries.games import game_or_404
from games.serializers.games import GameDetailSerializer, game_detail
from games.serializers.requests import ExtraTimeSerializer, JoinSerializer
from idempotency.answers import idempotent
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.schema import problems
from ttr_service.http.strict import StrictSerializer


def _lobby_view(
    operation: str,
    summary: str,
    call: Callable[..., Game],
    done: str,
    refused: dict[Any, OpenApiResponse],
    body: type[StrictSerializer] | None = None,
    example: OpenApiExample | None = None,
) -> type[APIView]:
    """A command on one game that answers the caller's view of it: ``done`` says what that
    view shows, ``refused`` what the command answers instead (``problems(...)``)."""

    reader = body() if body is not None else None

    class LobbyAction(APIView):
        permission_classes = [IsAuthenticated]

        @extend_schema(
            operation_id=operation,
            summary=summary,
            request=body,
            responses={
                200: OpenApiResponse(GameDetailSerializer, description=done),
                **refused,
            },
            examples=[examples.game_detail(), *([example] if example is not None else [])],
        )
        @idempotent
        def post(self, request: Request, game_id: int) -> Response:
            fields = reader.run_validation(request.data) if reader is not None else {}
            user = caller(request)
            call(user, game_id, **fields)
            game = game_or_404(game_id)
            return Response(game_detail(game, seat_of(user, game)))

    LobbyAction.__name__ = LobbyAction.__qualname__ = f"{operation.title().replace('_', '')}View"
    return LobbyAction


# A seat beside a player on the other side of a block (docs/api.md, "Friends and blocks").
_SEAT_REFUSED = (
    Code.SEAT_REFUSED,
    "A player seated here, or the game's creator, blocks the caller (not said which, nor why).",
)
_SEAT_BLOCKED = (
    Code.PLAYER_BLOCKED,
    "The caller blocks a player seated here, or the game's creator.",
)

GameJoinView = _lobby_view(
    "games_join",
    "Take an open seat",
    lobby.game_join,
    "The game with the caller seated; started if that was the last seat to fill.",
    problems(
        Code.GAME_NOT_FOUND,
        Code.GAME_NOT_LOBBY,
        Code.ALREADY_SEATED,
        (Code.NO_OPEN_SEAT, "No seat is open (with `seat`: not that one)."),
        _SEAT_REFUSED,
        _SEAT_BLOCKED,
        body=True,
        keyed=True,
    ),
    JoinSerializer,
    examples.join(),
)
GameLeaveView = _lobby_view(
    "games_leave",
    "Leave a game before it starts",
    lobby.game_leave,
    "The game with the caller's seat open again.",
    problems(
        (
            Code.NOT_A_PLAYER,
            "The caller has taken no seat in this game (an invitation is declined instead).",
        ),
        Code.GAME_NOT_FOUND,
        Code.GAME_NOT_LOBBY,
        keyed=True,
    ),
)
GameAcceptView = _lobby_view(
    "games_invitation_accept",
    "Accept an invitation",
    lobby.invitation_accept,
    "The game with the caller seated; started if that was the last seat to fill.",
    problems(
        Code.GAME_NOT_FOUND,
        Code.GAME_NOT_LOBBY,
        Code.NO_INVITATION,
        _SEAT_REFUSED,
        _SEAT_BLOCKED,
        keyed=True,
    ),
)
GameDeclineView = _lobby_view(
    "games_invitation_decline",
    "Decline an invitation",
    lobby.invitation_decline,
    "The game with the invited seat open to anyone.",
    problems(Code.GAME_NOT_FOUND, Code.GAME_NOT_LOBBY, Code.NO_INVITATION, keyed=True),
)
GameStartView = _lobby_view(
    "games_start",
    "Start now with the seats taken (creator); seats nobody took are dropped",
    lobby.game_start,
    "The game, started with the seats that were taken.",
    problems(
        Code.NOT_CREATOR,
        Code.GAME_NOT_FOUND,
        Code.GAME_NOT_LOBBY,
        (
            Code.NOT_ENOUGH_PLAYERS,
            "Fewer seats are taken (by players or the AI) than the board is played with.",
        ),
        (
            Code.TOO_MANY_BOT_GAMES,
            "Only AI seats are taken, and the caller has as many unfinished games of AI seats "
            "only as allowed.",
        ),
        keyed=True,
    ),
)
GameExtraTimeView = _lobby_view(
    "games_extra_time",
    "Give the player to move more time (an opponent)",
    seats.extra_time_give,
    "The game with the deadline moved later.",
    problems(
        Code.NOT_A_PLAYER,
        Code.GAME_NOT_FOUND,
        Code.GAME_NOT_ACTIVE,
        Code.NO_DEADLINE,
        (
            Code.OWN_CLOCK,
            "A decision of the caller's is pending (extra time is given by the opponents).",
        ),
        body=True,
        keyed=True,
    ),
    ExtraTimeSerializer,
    examples.extra_time(),
)
GameReclaimView = _lobby_view(
    "games_seat_reclaim",
    "Take back a seat the AI took over after missed deadlines",
    seats.seat_reclaim,
    "The game with the caller's seat played by the caller again.",
    problems(Code.NOT_A_PLAYER, Code.GAME_NOT_FOUND, Code.SEAT_NOT_TAKEN_OVER, keyed=True),
)
GameCancelView = _lobby_view(
    "games_cancel",
    "Cancel the game (creator): a lobby, or a running game of AI seats only",
    lobby.game_cancel,
    "The game, cancelled; a running game keeps its moves for the record.",
    problems(
        Code.NOT_CREATOR,
        Code.GAME_NOT_FOUND,
        (
            Code.GAME_NOT_LOBBY,
            "The game is neither in the lobby nor running with AI seats only (it is over, "
            "cancelled already, or has a person seated); `game_status` says where it is.",
        ),
        keyed=True,
    ),
)
