"""Liveness and readiness in one probe: the process answers and the database does too."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import DatabaseError, connection
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

logger = logging.getLogger(__name__)

# Shared by both fields; SPECTACULAR_SETTINGS names it once as HealthStateEnum.
HEALTH_STATES = ("ok", "error")


def database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            row = cursor.fetchone()
    except DatabaseError:
        logger.exception("Health check: the database did not answer SELECT 1")
        return False
    return row is not None and row[0] == 1


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=HEALTH_STATES)
    database = serializers.ChoiceField(choices=HEALTH_STATES)
    version = serializers.CharField(help_text="The service's release version.")


class HealthView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]
    # Load balancers and monitors probe often; the probe must not be rate limited.
    throttle_classes = []

    @extend_schema(
        operation_id="health",
        summary="Service health",
        description="Answers 200 when the service and its database answer, 503 otherwise.",
        responses={200: HealthSerializer, 503: HealthSerializer},
        examples=[
            OpenApiExample(
                "Healthy",
                value={"status": "ok", "database": "ok", "version": "0.1.0"},
                response_only=True,
                status_codes=["200"],
            ),
            OpenApiExample(
                "The database does not answer",
                value={"status": "error", "database": "error", "version": "0.1.0"},
                response_only=True,
                status_codes=["503"],
            ),
        ],
    )
    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        healthy = database_answers()
        body = {
            "status": "ok" if healthy else "error",
            "database": "ok" if healthy else "error",
            "version": settings.SERVICE_VERSION,
        }
        code = status.HTTP_200_OK if healthy else status.HTTP_503_SERVICE_UNAVAILABLE
        return Response(body, status=code, headers={"Cache-Control": "no-store"})
