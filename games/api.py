"""Thin views: parse input, call one service or selector, shape the answer."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine import BOARD_IDS, EngineError, ErrorCode, load_board
from engine.replay import game_record
from engine.state import new_game
from ttr_service.http.codes import Code, engine_codes
from ttr_service.http.pagination import PAGE, PAGE_SIZE, Pages
from ttr_service.http.problems import (
    PROBLEM_CONTENT_TYPE,
    ServiceError,
    problem_exception_handler,
)
from ttr_service.http.schema import problems

from . import (
    clocks,
    errors,
    examples,
    idempotency,
    lobby,
    play,
    rendered,
    selectors,
    serializers,
    timeouts,
    vacations,
)
from .models import Game, GameStatus

# A game's ETag (``"g12-v7-s0"``, weak or not) or a bare version (``7``, ``"7"``).
IF_MATCH_PATTERN = r'^(W/)?"?(g[0-9]+-v)?([0-9]{1,18})(-s[0-9x]+)?"?$'
IF_MATCH_MAX_LENGTH = 64
_IF_MATCH = re.compile(IF_MATCH_PATTERN)
# The engine's refusals of a move that does not fit the game now.
RULE_CODES = engine_codes(409)


# ----------------------------------------------------------------------------- boards
class BoardListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="boards_list",
        summary="Boards that games can be played on",
        responses={
            200: OpenApiResponse(
                serializers.BoardSummarySerializer(many=True),
                description="Every board, with its player counts, game options and rule values.",
            ),
            **problems(token="optional"),
        },
        examples=[examples.boards()],
    )
    def get(self, request: Request) -> Response:
        return Response([selectors.board_summary(load_board(b)) for b in BOARD_IDS])


class BoardDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="boards_retrieve",
        summary="A board's map: cities with coordinates, routes, tickets, scoring",
        responses={
            200: OpenApiResponse(
                serializers.BoardSerializer,
                description="The board's map and rules (cacheable for an hour).",
            ),
            **problems(Code.BOARD_NOT_FOUND, token="optional"),
        },
        examples=[examples.board()],
    )
    def get(self, request: Request, board: str) -> Response:
        if board not in BOARD_IDS:
            raise errors.board_not_found(board)
        return Response(load_board(board).to_json(), headers={"Cache-Control": "max-age=3600"})


# ----------------------------------------------------------------------------- lobby
class GameListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="games_list",
        summary="My games (my turn first), or open games to join",
        parameters=[
            serializers.GameListQuery,
            PAGE,
            PAGE_SIZE,
        ],
        responses={
            200: OpenApiResponse(
                serializers.GameSummaryPageSerializer,
                description="A page of games: with `scope=mine`, those the caller created, "
                "sits in or is invited to, the ones awaiting their decision first; with "
                "`scope=open`, the lobbies with an open seat, newest first.",
            ),
            **problems(
                Code.BAD_SCOPE,
                Code.BAD_STATUS,
                Code.VALIDATION_ERROR,
                (
                    Code.NOT_FOUND,
                    "`page` is past the last page, below 1, or neither a number nor `last`.",
                ),
            ),
        },
        examples=[examples.game_page()],
    )
    def get(self, request: Request) -> Response:
        query = serializers.GameListQuery.read(request)
        scope, wanted = query["scope"], query.get("status")
        qs = selectors.games_of(request.user, wanted) if scope == "mine" else selectors.open_games()
        paginator = Pages()
        page = paginator.paginate_queryset(qs, request, view=self)
        assert page is not None
        return paginator.get_paginated_response(
            [selectors.game_summary(g, request.user) for g in page]
        )

    @extend_schema(
        operation_id="games_create",
        summary="Create a game",
        request=serializers.GameCreateSerializer,
        responses={
            201: OpenApiResponse(
                serializers.GameDetailSerializer,
                description="The game as its creator sees it: in the lobby, or started "
                "already when no seat is left open or invited.",
            ),
            **problems(
                ErrorCode.BAD_OPTION,
                Code.BAD_SEAT_COUNT,
                Code.BAD_SEATS,
                Code.BAD_FIRST_SEAT,
                Code.UNKNOWN_USER,
                (
                    Code.TOO_MANY_BOT_GAMES,
                    "Every seat is an AI seat, and the caller has as many unfinished games of AI "
                    "seats only as allowed.",
                ),
                body=True,
            ),
        },
        examples=[
            OpenApiExample(
                "Me against two AIs, a day per move",
                value={
                    "board": "europe",
                    "seats": [
                        {"type": "creator"},
                        {"type": "ai", "level": "medium"},
                        {"type": "ai", "level": "hard"},
                    ],
                    "turn_time_limit": 86400,
                    "timeout_policy": "ai_plays_turn",
                },
                request_only=True,
            ),
            OpenApiExample(
                "An invitation and an open seat",
                value={
                    "seats": [
                        {"type": "creator"},
                        {"type": "invite", "username": "bob"},
                        {"type": "open"},
                    ],
                    "first_seat": 0,
                },
                request_only=True,
            ),
            examples.game_detail(),
            OpenApiExample(
                "USA 1910 Big Cities with the longest-path bonus",
                value={
                    "board": "usa-bigcities",
                    "options": {"bonus": "longest_path"},
                    "seats": [{"type": "creator"}, {"type": "ai"}, {"type": "ai"}],
                },
                request_only=True,
            ),
            OpenApiExample(
                "Switzerland, three players",
                value={
                    "board": "switzerland",
                    "seats": [{"type": "creator"}, {"type": "open"}, {"type": "ai"}],
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        data = serializers.GameCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        game = lobby.create_game(
            request.user,
            board=v["board"],
            seats=[lobby.SeatSpec(**s) for s in v["seats"]],
            turn_time_limit=v.get("turn_time_limit"),
            timeout_policy=v["timeout_policy"],
            timeout_takeover_after=v["timeout_takeover_after"],
            first_seat=v.get("first_seat"),
            options=v.get("options"),
        )
        game = selectors.game_or_404(game.pk)
        return Response(selectors.game_detail(game, request.user), status=status.HTTP_201_CREATED)


def _view_headers(tag: str) -> dict[str, str]:
    return {"ETag": tag, "Vary": "Authorization", "Cache-Control": "private, no-cache"}


class GameDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_retrieve",
        summary="A game as the caller may see it",
        description="A seated player sees its own hand, tickets and offers; everyone else "
        "the public view. Carries an ETag (per caller: the game version and the caller's "
        "seat); send it in If-None-Match to get 304 when nothing changed (compared as RFC 9110 "
        "says: weakly, so `W/` tags match too; a list of tags; or `*`). A matching "
        "If-None-Match is answered from the version and the seat alone, without reading "
        "the game's state, so polling with it is cheap; a view of the current version is "
        "rendered once per seat and then served as it was rendered.",
        parameters=[OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER)],
        responses={
            200: OpenApiResponse(
                serializers.GameDetailSerializer,
                description="The game as the caller may see it, with its ETag.",
            ),
            304: OpenApiResponse(
                description="Not modified: If-None-Match names the caller's ETag of the game "
                "as it is now; no body."
            ),
            **problems(Code.GAME_NOT_FOUND, token="optional"),
        },
        examples=[examples.game_detail()],
    )
    def get(self, request: Request, game_id: int) -> HttpResponse:
        tag, body = rendered.view_for(game_id, request.user, request.headers.get("If-None-Match"))
        if body is None:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=_view_headers(tag))
        return _respond(body, status.HTTP_200_OK, "application/json", _view_headers(tag))


def _lobby_view(
    operation: str,
    summary: str,
    call: Any,
    done: str,
    refused: dict[Any, OpenApiResponse],
    body: Any = None,
    example: Any = None,
) -> type[APIView]:
    """A command on one game that answers the caller's view of it: ``done`` says what that
    view shows, ``refused`` what the command answers instead (``problems(...)``)."""

    class LobbyAction(APIView):
        permission_classes = [IsAuthenticated]

        @extend_schema(
            operation_id=operation,
            summary=summary,
            request=body,
            responses={
                200: OpenApiResponse(serializers.GameDetailSerializer, description=done),
                **refused,
            },
            examples=[examples.game_detail(), *([example] if example is not None else [])],
        )
        def post(self, request: Request, game_id: int) -> Response:
            kwargs = {}
            if body is not None:
                data = body(data=request.data)
                data.is_valid(raise_exception=True)
                kwargs = dict(data.validated_data)
            call(request.user, game_id, **kwargs)
            return Response(selectors.game_detail(selectors.game_or_404(game_id), request.user))

    LobbyAction.__name__ = LobbyAction.__qualname__ = f"{operation.title().replace('_', '')}View"
    return LobbyAction


def _join(user: Any, game_id: int, seat: int | None = None) -> Game:
    return lobby.join_game(user, game_id, seat)


GameJoinView = _lobby_view(
    "games_join",
    "Take an open seat",
    _join,
    "The game with the caller seated; started if that was the last seat to fill.",
    problems(
        Code.GAME_NOT_FOUND,
        Code.GAME_NOT_LOBBY,
        Code.ALREADY_SEATED,
        (Code.NO_OPEN_SEAT, "No seat is open (with `seat`: not that one)."),
        body=True,
    ),
    serializers.JoinSerializer,
    examples.join(),
)
GameLeaveView = _lobby_view(
    "games_leave",
    "Leave a game before it starts",
    lobby.leave_game,
    "The game with the caller's seat open again.",
    problems(
        (
            Code.NOT_A_PLAYER,
            "The caller has taken no seat in this game (an invitation is declined instead).",
        ),
        Code.GAME_NOT_FOUND,
        Code.GAME_NOT_LOBBY,
    ),
)
GameAcceptView = _lobby_view(
    "games_invitation_accept",
    "Accept an invitation",
    lobby.accept_invitation,
    "The game with the caller seated; started if that was the last seat to fill.",
    problems(Code.GAME_NOT_FOUND, Code.GAME_NOT_LOBBY, Code.NO_INVITATION),
)
GameDeclineView = _lobby_view(
    "games_invitation_decline",
    "Decline an invitation",
    lobby.decline_invitation,
    "The game with the invited seat open to anyone.",
    problems(Code.GAME_NOT_FOUND, Code.GAME_NOT_LOBBY, Code.NO_INVITATION),
)
GameStartView = _lobby_view(
    "games_start",
    "Start now with the seats taken (creator); seats nobody took are dropped",
    lobby.start_game,
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
    ),
)
GameExtraTimeView = _lobby_view(
    "games_extra_time",
    "Give the player to move more time (an opponent)",
    timeouts.give_extra_time,
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
    ),
    serializers.ExtraTimeSerializer,
    examples.extra_time(),
)
GameReclaimView = _lobby_view(
    "games_seat_reclaim",
    "Take back a seat the AI took over after missed deadlines",
    timeouts.reclaim_seat,
    "The game with the caller's seat played by the caller again.",
    problems(Code.NOT_A_PLAYER, Code.GAME_NOT_FOUND, Code.SEAT_NOT_TAKEN_OVER),
)
GameCancelView = _lobby_view(
    "games_cancel",
    "Cancel the game (creator): a lobby, or a running game of AI seats only",
    lobby.cancel_game,
    "The game, cancelled; a running game keeps its moves for the record.",
    problems(
        Code.NOT_CREATOR,
        Code.GAME_NOT_FOUND,
        (
            Code.GAME_NOT_LOBBY,
            "The game is neither in the lobby nor running with AI seats only (it is over, "
            "cancelled already, or has a person seated); `game_status` says where it is.",
        ),
    ),
)


# ----------------------------------------------------------------------------- play
class LegalActionsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="games_legal_actions",
        summary="Every legal action of the caller now, payments spelled out",
        responses={
            200: OpenApiResponse(
                serializers.LegalActionsSerializer,
                description="The caller's legal actions at this version; none while no "
                "decision of theirs is pending.",
            ),
            **problems(
                Code.NOT_A_PLAYER,
                Code.GAME_NOT_FOUND,
                (
                    Code.GAME_NOT_ACTIVE,
                    "The game has not started (it is in the lobby, or was cancelled there); "
                    "`game_status` says where it is.",
                ),
            ),
        },
        examples=[examples.legal_actions()],
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(selectors.legal_actions_of(game_id, request.user))


def _respond(content: bytes, code: int, content_type: str, headers: dict[str, str]) -> HttpResponse:
    response = HttpResponse(content, status=code, content_type=content_type)
    for name, value in headers.items():
        response[name] = value
    return response


class ActionView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="games_actions_create",
        summary="Play an action",
        description=(
            "Needs the game version the move was decided on, in `If-Match` or the `version` "
            "field: a stale one gets 412 and changes nothing. A version is stale only when "
            "something the caller's decision depends on changed since: while every seat "
            "chooses its first tickets at once, the other seats' `keep_tickets` moves do not "
            "count, so a choice sent against the version the caller saw is accepted after "
            "theirs; any other change since (any move of the caller's seat, any move after "
            "the first choice, a deadline, a seat taken) gets 412. With an `Idempotency-Key` "
            "header, a retry returns the first response byte for byte and applies nothing "
            "twice; the same key with another body gets 422; a retry while the first request "
            "is still being processed gets 409 `IDEMPOTENCY_KEY_IN_FLIGHT` with `Retry-After`. "
            "Returns the caller's new view."
        ),
        parameters=[
            OpenApiParameter(
                "If-Match",
                {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": IF_MATCH_MAX_LENGTH,
                    "pattern": IF_MATCH_PATTERN,
                },
                OpenApiParameter.HEADER,
                description="The version the move was decided on: the game's ETag as read "
                '(`"g12-v7-s0"`, weak `W/` too), or the bare version number (`7` or `"7"`). '
                "Anything else gets 400 `BAD_IF_MATCH`. Takes precedence over the body's "
                "`version`.",
            ),
            idempotency.IDEMPOTENCY_KEY_PARAMETER,
            OpenApiParameter(
                "Retry-After",
                int,
                OpenApiParameter.HEADER,
                response=[409],
                description="With `IDEMPOTENCY_KEY_IN_FLIGHT`: seconds to wait before retrying.",
            ),
        ],
        request=serializers.ActionRequestSerializer,
        examples=[
            OpenApiExample(
                "Claim a route (2 red + 1 locomotive)",
                value={
                    "version": 17,
                    "action": {
                        "type": "claim_route",
                        "route": "berlin-frankfurt-2",
                        "color": "red",
                        "locomotives": 1,
                    },
                },
                request_only=True,
            ),
            OpenApiExample(
                "Keep two of the tickets offered",
                value={
                    "version": 3,
                    "action": {"type": "keep_tickets", "tickets": ["berlin-roma", "paris-wien"]},
                },
                request_only=True,
            ),
            OpenApiExample(
                "Draw the face-up card in slot 2",
                value={"version": 18, "action": {"type": "draw_face_up", "slot": 2}},
                request_only=True,
            ),
            OpenApiExample(
                "A move that does not fit (409)",
                value={
                    "type": "urn:ttr:problem:ROUTE_TAKEN",
                    "title": "Conflict",
                    "status": 409,
                    "code": "ROUTE_TAKEN",
                    "detail": "berlin-frankfurt-2 is already claimed by seat 1.",
                    "instance": "/api/v1/games/12/actions",
                    "errors": [],
                    "owner": 1,
                },
                response_only=True,
                status_codes=["409"],
                media_type=PROBLEM_CONTENT_TYPE,
            ),
            examples.game_detail(),
        ],
        responses={
            200: OpenApiResponse(
                serializers.GameDetailSerializer,
                description="The move is applied: the game as the caller now sees it, with "
                "its ETag. A retry with the same Idempotency-Key gets the first answer again, "
                "with `Idempotent-Replayed: true`.",
            ),
            **problems(
                Code.BAD_BODY,
                Code.BAD_IF_MATCH,
                Code.BAD_VERSION,
                Code.BAD_IDEMPOTENCY_KEY,
                ErrorCode.UNKNOWN_ROUTE,
                ErrorCode.UNKNOWN_CITY,
                ErrorCode.UNKNOWN_TICKET,
                ErrorCode.UNKNOWN_COLOR,
                (ErrorCode.BAD_ACTION, "A ticket kept twice."),
                Code.NOT_A_PLAYER,
                Code.GAME_NOT_FOUND,
                Code.GAME_NOT_ACTIVE,
                *RULE_CODES,
                Code.IDEMPOTENCY_KEY_IN_FLIGHT,
                Code.VERSION_MISMATCH,
                Code.IDEMPOTENCY_KEY_REUSED,
                Code.VERSION_REQUIRED,
                body=True,
            ),
        },
    )
    def post(self, request: Request, game_id: int) -> HttpResponse:
        if not isinstance(request.data, dict):
            raise ServiceError(Code.BAD_BODY, "The body must be a JSON object.")
        body = request.data

        def run() -> idempotency.Reply:
            """Parse and act inside the command's transaction; a refusal is an answer too
            (kept for a retry with the same Idempotency-Key)."""
            try:
                version = _expected_version(request, body)
                if not serializers.plainly_valid(body):
                    data = serializers.ActionRequestSerializer(data=body)
                    data.is_valid(raise_exception=True)
                acted = play.act_locked(request.user, game_id, body.get("action"), version)
            except (APIException, EngineError) as exc:
                failed = problem_exception_handler(exc, {"request": request})
                assert failed is not None
                # Rendered once: a retry with the same key gets these very bytes.
                return idempotency.Reply(
                    failed.status_code, rendered.render(failed.data), PROBLEM_CONTENT_TYPE
                )
            tag = rendered.etag(game_id, acted.game.version, acted.seat)
            return idempotency.Reply(
                status.HTTP_200_OK, acted.view, "application/json", {"ETag": tag}
            )

        key = request.headers.get("Idempotency-Key")
        print_ = idempotency.fingerprint(
            request.method or "POST", request.path, body, request.headers.get("If-Match")
        )
        reply = idempotency.run_once(request.user, key, print_, game_id, run)
        return _respond(reply.content, reply.status, reply.content_type, reply.headers)


def _expected_version(request: Request, body: dict[str, Any]) -> int:
    raw = request.headers.get("If-Match")
    if raw is not None:
        match = _IF_MATCH.fullmatch(raw.strip())
        if match is None or len(raw) > IF_MATCH_MAX_LENGTH:
            raise ServiceError(Code.BAD_IF_MATCH, "If-Match must be the game version or its ETag.")
        return int(match.group(3))
    version = body.get("version")
    if version is None:
        raise ServiceError(
            Code.VERSION_REQUIRED, "Send the game version in If-Match or the 'version' field."
        )
    if isinstance(version, bool) or not isinstance(version, int):
        raise ServiceError(Code.BAD_VERSION, "'version' must be a whole number.")
    return version


class MoveListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_moves_list",
        summary="The move log since a cursor, as the caller may see it",
        description="Each event is redacted for the caller (a blind draw's colour is shown "
        "to its drawer only). Once the game is over, everything is shown to everyone.",
        parameters=[serializers.MoveListQuery],
        responses={
            200: OpenApiResponse(
                serializers.MoveListSerializer,
                description="The moves after `after`, as the caller may see them, and the "
                "`after` to ask for next.",
            ),
            **problems(
                (
                    Code.BAD_CURSOR,
                    "`after` is not a whole number from 0, or `limit` not one from 1 to 500.",
                ),
                Code.GAME_NOT_FOUND,
                token="optional",
            ),
        },
        examples=[examples.moves()],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_or_404(game_id)
        query = serializers.MoveListQuery.read(request)
        after, limit = query["after"], query["limit"]
        moves, more = selectors.moves_since(game, request.user, after, limit)
        return Response(
            {
                "moves": moves,
                "next_after": moves[-1]["number"] if moves else after,
                "has_more": more,
            }
        )


class ResultView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_result",
        summary="The final result with the full breakdown (once the game is over)",
        responses={
            200: OpenApiResponse(
                serializers.ScoreSheetSerializer,
                description="The final score sheet: ranks, points and their breakdown.",
            ),
            **problems(
                Code.GAME_NOT_FOUND,
                (
                    Code.GAME_NOT_FINISHED,
                    "The game has no result: it is in the lobby, being played, or was cancelled; "
                    "`game_status` says where it is.",
                ),
                token="optional",
            ),
        },
        examples=[examples.result()],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_or_404(game_id)
        if game.status != GameStatus.FINISHED:
            raise errors.wrong_status(game.status, "finished")
        return Response(game.result)


class RecordView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_record",
        summary="Seed and full action log of a finished game, to verify every shuffle",
        responses={
            200: OpenApiResponse(
                serializers.GameRecordSerializer,
                description="The board, players, seed, rules version and every move in "
                "order: enough to replay the game and check each shuffle.",
            ),
            **problems(
                Code.GAME_NOT_FOUND,
                (
                    Code.GAME_NOT_FINISHED,
                    "The game has no result: it is in the lobby, being played, or was cancelled; "
                    "`game_status` says where it is.",
                ),
                token="optional",
            ),
        },
        examples=[examples.record()],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_or_404(game_id)
        if game.status != GameStatus.FINISHED:
            raise errors.wrong_status(game.status, "finished")
        state0 = new_game(game.board, game.players, game.seed, game.first_seat, game.options)
        log = [(m.seat, m.action) for m in game.moves.order_by("number")]
        record = game_record(state0, [])
        record["actions"] = [{"seat": seat, "action": action} for seat, action in log]
        record["rules_version"] = game.state["rules_version"] if game.state else None
        return Response(record)


# ----------------------------------------------------------------------------- vacations
def _vacations(user: Any) -> dict[str, Any]:
    rows = user.vacations.all()[:20]
    return {
        "days_per_year": settings.VACATION_DAYS_PER_YEAR,
        "days_left": round(clocks.days_left(user), 2),
        "vacations": [
            {"id": v.pk, "starts_at": v.starts_at.isoformat(), "ends_at": v.ends_at.isoformat()}
            for v in rows
        ],
    }


class VacationListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="vacations_list",
        summary="My vacations and the days left this year",
        responses={
            200: OpenApiResponse(
                serializers.VacationListSerializer,
                description="The caller's latest 20 vacations and the days left this year.",
            ),
            **problems(),
        },
        examples=[examples.vacation_list()],
    )
    def get(self, request: Request) -> Response:
        return Response(_vacations(request.user))

    @extend_schema(
        operation_id="vacations_start",
        summary="Stop my clocks for some days, starting now",
        request=serializers.VacationRequestSerializer,
        responses={
            201: OpenApiResponse(
                serializers.VacationListSerializer,
                description="The vacation is on: the caller's vacations and the days left.",
            ),
            **problems(Code.ALREADY_ON_VACATION, Code.VACATION_ALLOWANCE_USED, body=True),
        },
        examples=examples.vacation_start(),
    )
    def post(self, request: Request) -> Response:
        data = serializers.VacationRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        vacations.start_vacation(request.user, data.validated_data["days"])
        return Response(_vacations(request.user), status=status.HTTP_201_CREATED)


class VacationEndView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="vacations_end",
        summary="End a vacation now (unused days come back)",
        request=None,
        responses={
            200: OpenApiResponse(
                serializers.VacationListSerializer,
                description="The vacation is over: the caller's vacations and the days left, "
                "the unused ones back.",
            ),
            **problems(Code.VACATION_NOT_FOUND, Code.VACATION_OVER),
        },
        examples=[examples.vacation_end()],
    )
    def post(self, request: Request, vacation_id: int) -> Response:
        vacations.end_vacation(request.user, vacation_id)
        return Response(_vacations(request.user))
