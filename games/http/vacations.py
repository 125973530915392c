"""A player's vacations: the list and the days left, a new one, and one ended early."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.commands import vacations
from games.http import examples
from games.queries.deadlines import vacation_days_left
from games.queries.games import vacations_of
from games.serializers.requests import VacationRequestSerializer
from games.serializers.vacations import VacationListSerializer, vacation_list
from idempotency.answers import idempotent
from ttr_service.http.caller import caller
from ttr_service.http.codes import Code
from ttr_service.http.schema import problems

_START = VacationRequestSerializer()


def _vacations(user: User) -> dict[str, Any]:
    return vacation_list(
        settings.VACATION_DAYS_PER_YEAR, vacation_days_left(user), vacations_of(user)
    )


class VacationListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="vacations_list",
        summary="My vacations and the days left this year",
        responses={
            200: OpenApiResponse(
                VacationListSerializer,
                description="The caller's latest 20 vacations and the days left this year.",
            ),
            **problems(),
        },
        examples=[examples.vacation_list()],
    )
    def get(self, request: Request) -> Response:
        return Response(_vacations(caller(request)))

    @extend_schema(
        operation_id="vacations_start",
        summary="Stop my clocks for some days, starting now",
        request=VacationRequestSerializer,
        responses={
            201: OpenApiResponse(
                VacationListSerializer,
                description="The vacation is on: the caller's vacations and the days left.",
            ),
            **problems(
                Code.ALREADY_ON_VACATION, Code.VACATION_ALLOWANCE_USED, body=True, keyed=True
            ),
        },
        examples=examples.vacation_start(),
    )
    @idempotent
    def post(self, request: Request) -> Response:
        days = _START.run_validation(request.data)["days"]
        user = caller(request)
        vacations.vacation_start(user, days)
        return Response(_vacations(user), status=201)


class VacationEndView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="vacations_end",
        summary="End a vacation now (unused days come back)",
        request=None,
        responses={
            200: OpenApiResponse(
                VacationListSerializer,
                description="The vacation is over: the caller's vacations and the days left, "
                "the unused ones back.",
            ),
            **problems(Code.VACATION_NOT_FOUND, Code.VACATION_OVER, keyed=True),
        },
        examples=[examples.vacation_end()],
    )
    @idempotent
    def post(self, request: Request, vacation_id: int) -> Response:
        user = caller(request)
        vacations.vacation_end(user, vacation_id)
        return Response(_vacations(user))
