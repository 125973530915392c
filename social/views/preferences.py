"""GET/PATCH /social-settings: who may invite me."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.blocks import social_preference_set
from accounts.relations import social_preference_of
from idempotency.answers import idempotent
from social import examples
from social.openapi import TAG
from social.serializers import SocialSettingsSerializer
from ttr_service.http.caller import caller
from ttr_service.http.schema import problems


class SocialSettingsView(APIView):
    @extend_schema(
        operation_id="social_settings_retrieve",
        summary="Who may invite me",
        tags=[TAG],
        responses={
            200: OpenApiResponse(SocialSettingsSerializer, description="The caller's settings."),
            **problems(),
        },
        examples=[examples.social_settings(response=True)],
    )
    def get(self, request: Request) -> Response:
        return Response(SocialSettingsSerializer.of(social_preference_of(caller(request).pk)))

    @extend_schema(
        operation_id="social_settings_update",
        summary="Change who may invite me",
        description="Fields left out keep their value. Invitations sent before a change stay.",
        tags=[TAG],
        request=SocialSettingsSerializer,
        responses={
            200: OpenApiResponse(
                SocialSettingsSerializer, description="The caller's settings, as now saved."
            ),
            **problems(body=True, keyed=True),
        },
        examples=[
            examples.social_settings(response=False),
            examples.social_settings(response=True),
        ],
    )
    @idempotent
    def patch(self, request: Request) -> Response:
        user = caller(request)
        current = social_preference_of(user.pk)
        body = SocialSettingsSerializer(current, data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        wanted = body.validated_data.get(
            "invitations_from_friends_only", current.invitations_from_friends_only
        )
        preference = social_preference_set(user, invitations_from_friends_only=wanted)
        return Response(SocialSettingsSerializer.of(preference))
