"""Quick messages, mutes and reports."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from idempotency.answers import idempotent
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.schema import problems

from .. import examples
from ..moderation import report_create
from ..mutes import mute_create, mute_delete, mutes_of
from ..openapi import TAG
from ..quick import QUICK_MESSAGES
from ..serializers import (
    MuteSerializer,
    QuickMessageSerializer,
    ReportCreateSerializer,
    ReportSerializer,
)

_REPORT = ReportCreateSerializer()
USERNAME = OpenApiParameter(
    "username",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description="The player's username, matched ignoring case.",
)
MESSAGE_ID = OpenApiParameter(
    "message_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The message's `id`."
)


class QuickMessageListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="chat_quick_messages",
        summary="The quick messages",
        description="Each code a post's `quick` may name, and its text in the caller's language.",
        tags=[TAG],
        responses={
            200: OpenApiResponse(
                QuickMessageSerializer(many=True), description="Every quick message."
            ),
            **problems(token="optional"),
        },
        examples=[examples.quick_messages()],
    )
    def get(self, request: Request) -> Response:
        shown = [{"code": code, "text": str(text)} for code, text in QUICK_MESSAGES.items()]
        return Response(QuickMessageSerializer(shown, many=True).data)


class MuteListView(APIView):
    @extend_schema(
        operation_id="chat_mutes_list",
        summary="The players I mute",
        description="The latest first. Their messages are not listed, nor streamed, to the "
        "caller, in any game.",
        tags=[TAG],
        responses={
            200: OpenApiResponse(MuteSerializer(many=True), description="The caller's mutes."),
            **problems(),
        },
        examples=[examples.mutes()],
    )
    def get(self, request: Request) -> Response:
        return Response(MuteSerializer(mutes_of(caller(request)), many=True).data)


class MuteDetailView(APIView):
    @extend_schema(
        operation_id="chat_mutes_put",
        summary="Mute a player",
        description="201 for a new mute, 200 when the caller muted the player already. The "
        "player is not told.",
        tags=[TAG],
        parameters=[USERNAME],
        request=None,
        responses={
            201: OpenApiResponse(MuteSerializer, description="The mute, new."),
            200: OpenApiResponse(MuteSerializer, description="The mute, made earlier."),
            **problems(
                (Code.NAMED_YOURSELF, "The username is the caller's own."),
                (Code.PLAYER_NOT_FOUND, "No player by that username."),
                keyed=True,
            ),
        },
        examples=[examples.mute()],
    )
    @idempotent
    def put(self, request: Request, username: str) -> Response:
        mute, created = mute_create(caller(request), username)
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(MuteSerializer(mute).data, status=code)

    @extend_schema(
        operation_id="chat_mutes_delete",
        summary="Unmute a player",
        description="Their messages are listed to the caller again, the earlier ones too.",
        tags=[TAG],
        parameters=[USERNAME],
        request=None,
        responses={204: None, **problems(Code.CHAT_MUTE_NOT_FOUND, keyed=True)},
    )
    @idempotent
    def delete(self, request: Request, username: str) -> Response:
        mute_delete(caller(request), username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ReportView(APIView):
    @extend_schema(
        operation_id="chat_report",
        summary="Report a message to the moderators",
        description="A message the caller may read, once per caller. The moderators may hide "
        "it (then it is listed to nobody) and suspend its sender's chat.",
        tags=[TAG],
        parameters=[MESSAGE_ID],
        request=ReportCreateSerializer,
        responses={
            201: OpenApiResponse(ReportSerializer, description="The report, queued."),
            **problems(
                Code.CHAT_MESSAGE_NOT_FOUND, Code.CHAT_ALREADY_REPORTED, body=True, keyed=True
            ),
        },
        examples=[examples.report_request(), examples.report()],
    )
    @idempotent
    def post(self, request: Request, message_id: int) -> Response:
        fields = _REPORT.run_validation(request.data)
        report = report_create(
            caller(request), message_id, fields["reason"], fields.get("note", "")
        )
        return Response(ReportSerializer(report).data, status=status.HTTP_201_CREATED)
