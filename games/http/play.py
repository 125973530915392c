"""Play: the legal actions of the caller's seat, and a move."""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine import ErrorCode
from games import errors, rendering
from games.commands import play
from games.commands.play import Played, Reply, move_play, move_play_locked
from games.domain.versions import etag
from games.http import examples
from games.queries.games import current_epoch, game_version, playing_game
from games.serializers.actions import ActionRequestSerializer, action_request_read
from games.serializers.games import GameDetailSerializer, LegalActionsSerializer, legal_actions
from idempotency import keys
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code, engine_codes
from ttr_service.http.problems import PROBLEM_CONTENT_TYPE, ServiceError
from ttr_service.http.schema import problems

# The engine's refusals of a move that does not fit the game now.
RULE_CODES = engine_codes(409)

# A game's ETag (``"g12-v7-s0-e3f9a01c2"``, weak or not; its restore epoch may be left out)
# or a bare version (``7``, ``"7"``).
IF_MATCH_PATTERN = r'^(W/)?"?(g[0-9]+-v)?([0-9]{1,18})(-s[0-9x]+)?(-e[0-9a-f]{8})?"?$'
IF_MATCH_MAX_LENGTH = 64
_IF_MATCH = re.compile(IF_MATCH_PATTERN)


class LegalActionsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="games_legal_actions",
        summary="Every legal action of the caller now, payments spelled out",
        responses={
            200: OpenApiResponse(
                LegalActionsSerializer,
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
        game, seat = playing_game(game_id, caller(request))
        if seat is None:
            raise errors.not_a_player()
        if game.state is None:
            raise errors.wrong_status(game.status, "active")
        return Response(legal_actions(game, seat))


class ActionView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="games_actions_create",
        summary="Play an action",
        description=(
            "Needs the game version the move was decided on, in `If-Match` or the `version` "
            "field: a stale one gets 412 and changes nothing, as does an ETag of another "
            "restore epoch (one handed out before the database was restored from a backup). A "
            "version is stale only when something the caller's decision depends on changed "
            "since: while every seat "
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
                '(`"g12-v7-s0-e3f9a01c2"`, weak `W/` too; its restore epoch `-e…` must be '
                "the current one, or the move gets 412), or the bare version number (`7` or "
                '`"7"`). Anything else gets 400 `BAD_IF_MATCH`. Takes precedence over the '
                "body's `version`.",
            ),
            keys.PARAMETER,
            OpenApiParameter(
                "Retry-After",
                int,
                OpenApiParameter.HEADER,
                response=[409],
                description="With `IDEMPOTENCY_KEY_IN_FLIGHT`: seconds to wait before retrying.",
            ),
        ],
        request=ActionRequestSerializer,
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
                GameDetailSerializer,
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
        body = request.data
        if not isinstance(body, dict):
            raise ServiceError(Code.BAD_BODY, _("The body must be a JSON object."))
        user = caller(request)
        key = request.headers.get("Idempotency-Key")
        if key is None:
            version, action = _expected_version(request, game_id, body), action_request_read(body)
            played = move_play(user, game_id, action, version)
            return _answer(_played(played))

        def attempt() -> Played:
            """Read the request and play the move in the keyed transaction: a refusal is
            the key's answer too."""
            version, action = _expected_version(request, game_id, body), action_request_read(body)
            return move_play_locked(user, game_id, action, version)

        print_ = play.fingerprint(
            request.method or "POST", request.path, body, request.headers.get("If-Match")
        )
        outcome = play.move_play_once(user, key, print_, game_id, request.path, attempt)
        if isinstance(outcome, Reply):
            return _answer(outcome)
        if isinstance(outcome, play.Keyed):
            reply = _played(outcome.played)
        else:  # applied, but its answer was never kept: the game as it is now
            tag, view = rendering.view_for(game_id, user, None)
            assert view is not None
            reply = Reply(200, view, "application/json", {"ETag": tag})
            play.answer_keep(outcome.record_id, reply)
            return _answer(play.replayed(reply))
        play.answer_keep(outcome.record_id, reply)
        return _answer(reply)


def _played(played: Played) -> Reply:
    """The mover's new view, rendered once the move has committed, with the views of the
    other people at the table (kept for their next poll)."""
    bodies = rendering.views_keep(played.game, played.state)
    tag = etag(played.game.pk, played.game.version, played.seat, current_epoch())
    return Reply(200, bodies[played.seat], "application/json", {"ETag": tag})


def _answer(reply: Reply) -> HttpResponse:
    response = HttpResponse(reply.content, status=reply.status, content_type=reply.content_type)
    for name, value in reply.headers.items():
        response[name] = value
    return response


def _expected_version(request: Request, game_id: int, body: dict[str, Any]) -> int:
    """The version the move was decided on: If-Match, or else the body's ``version``. An
    ETag of another restore epoch names a version of a history the game may not have:
    412, whatever its number."""
    raw = request.headers.get("If-Match")
    if raw is not None:
        match = _IF_MATCH.fullmatch(raw.strip())
        if match is None or len(raw) > IF_MATCH_MAX_LENGTH:
            raise ServiceError(
                Code.BAD_IF_MATCH, _("If-Match must be the game version or its ETag.")
            )
        epoch = match.group(5)
        if epoch is not None and epoch.removeprefix("-e") != current_epoch():
            now = game_version(game_id)
            raise ServiceError(
                Code.VERSION_MISMATCH,
                _(
                    "That ETag is from before the game was restored from a backup: it is at "
                    "version %(version)d now; fetch it again."
                )
                % {"version": now},
                current_version=now,
            )
        return int(match.group(3))
    version = body.get("version")
    if version is None:
        raise ServiceError(
            Code.VERSION_REQUIRED, _("Send the game version in If-Match or the 'version' field.")
        )
    if isinstance(version, bool) or not isinstance(version, int):
        raise ServiceError(Code.BAD_VERSION, _("'version' must be a whole number."))
    return version
