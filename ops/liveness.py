"""The liveness probe: the process answers HTTP, and nothing else is asked.

``GET /api/v1/health`` is the readiness check (ops/health.py): it asks the database, the
broker and the heartbeats, so it fails whenever one of them is down. An orchestrator that
restarted a web process on that answer would restart every one of them for an outage a
restart cannot cure. This probe touches no database, no cache and no broker: no
authentication (a token would be looked up), no throttle (the counters live in the cache,
Redis in production), no query. It fails only when the process cannot answer at all.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

# The one answer: a process that cannot give it gives none.
LIVE = "ok"


class LivenessSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=[LIVE],
        help_text="Always `ok`: the process answered. A process that is not alive answers "
        "nothing (a refused connection or a timeout).",
    )


DESCRIPTION = """\
Answers 200 `{"status": "ok"}` whenever the web process can answer HTTP at all. It asks \
nothing else: no database, no cache, no broker, no token. Use it as an orchestrator's \
liveness probe (restart the process when it fails); use `GET /health`, the readiness \
check, to take a process out of rotation while what it depends on is down.

Never cached, never throttled, no credentials needed."""


class LivenessView(APIView):
    # Each of these would touch a shared service: a token is looked up in the database,
    # and a throttle counts in the cache (Redis in production).
    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = []

    @extend_schema(
        operation_id="health_live",
        summary="Liveness: the process answers",
        description=DESCRIPTION,
        responses={
            200: OpenApiResponse(LivenessSerializer, description="The process answered."),
        },
        examples=[
            OpenApiExample("Alive", value={"status": LIVE}, response_only=True),
        ],
    )
    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        body = LivenessSerializer({"status": LIVE}).data
        return Response(body, headers={"Cache-Control": "no-store"})
