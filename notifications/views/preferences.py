"""GET/PUT /notifications/preferences."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from idempotency.answers import idempotent
from notifications import examples
from notifications.openapi import NOTIFICATIONS_TAG
from notifications.preferences import (
    Preferences,
    QuietHours,
    preferences_of,
    preferences_update,
)
from notifications.serializers import PreferencesSerializer
from ttr_service.http.caller import caller
from ttr_service.http.schema import problems


def _shown(preferences: Preferences) -> dict[str, Any]:
    quiet = preferences.quiet_hours
    data: dict[str, Any] = PreferencesSerializer(
        {
            "channels": preferences.channels,
            "quiet_hours": (
                {"start": quiet.start, "end": quiet.end, "timezone": quiet.timezone}
                if quiet
                else None
            ),
        }
    ).data
    return data


class PreferencesView(APIView):
    @extend_schema(
        operation_id="notifications_preferences_retrieve",
        summary="My notification preferences",
        description="For every kind, the channels it goes to (in-app is always on), and "
        "the quiet hours during which email and push wait. Webhooks are never held.",
        tags=[NOTIFICATIONS_TAG],
        responses={
            200: OpenApiResponse(PreferencesSerializer, description="The caller's preferences."),
            **problems(),
        },
        examples=examples.preferences()[1:],
    )
    def get(self, request: Request) -> Response:
        return Response(_shown(preferences_of(caller(request))))

    @extend_schema(
        operation_id="notifications_preferences_update",
        summary="Replace my notification preferences",
        description="Kinds left out of `channels` go back to their defaults; a missing or "
        "null `quiet_hours` turns quiet hours off.",
        tags=[NOTIFICATIONS_TAG],
        request=PreferencesSerializer,
        responses={
            200: OpenApiResponse(
                PreferencesSerializer, description="The caller's preferences, as now saved."
            ),
            **problems(body=True, keyed=True),
        },
        examples=examples.preferences(),
    )
    @idempotent
    def put(self, request: Request) -> Response:
        body = PreferencesSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        quiet = body.validated_data.get("quiet_hours")
        preferences = preferences_update(
            caller(request),
            channels=body.validated_data["channels"],
            quiet_hours=QuietHours(**quiet) if quiet else None,
        )
        return Response(_shown(preferences))
