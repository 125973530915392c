"""The readiness check: the database, the broker, the workers and the beat, in one probe."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import DatabaseError
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ttr_service.http.writers import Writer

from . import heartbeats, probes

# SPECTACULAR_SETTINGS names each once: HealthStateEnum and HeartbeatStateEnum.
HEALTH_STATES = ("ok", "error")
HEARTBEAT_STATES = ("ok", "stale", "missing", "unknown")


class HealthWorkerSerializer(serializers.Serializer[Any]):
    hostname = serializers.CharField(help_text="The worker's Celery node name.")
    pid = serializers.IntegerField(help_text="The worker's process id on its host.")
    age_seconds = serializers.FloatField(help_text="Seconds since its last heartbeat.")


class HealthSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=HEALTH_STATES,
        help_text="`ok` (200) when every check that counts passed, `error` (503) otherwise.",
    )
    database = serializers.ChoiceField(
        choices=HEALTH_STATES, help_text="The database answered `SELECT 1`."
    )
    broker = serializers.ChoiceField(
        choices=HEALTH_STATES,
        help_text=(
            "The Celery broker answered: Redis replied to PING within a second, or the "
            "embedded filesystem transport's folders exist and can be written."
        ),
    )
    workers = serializers.ChoiceField(
        choices=HEARTBEAT_STATES,
        help_text=(
            "`ok`: a worker's heartbeat is younger than `worker_max_age_seconds`. `stale`: "
            "there are heartbeats, none that recent. `missing`: no worker has a heartbeat "
            "row; none has ever run, or every one stopped cleanly (a clean shutdown removes "
            "the row). `unknown`: the database did not answer."
        ),
    )
    beat = serializers.ChoiceField(
        choices=HEARTBEAT_STATES,
        help_text=(
            "The deadline sweep the beat queues: `ok` when it last ran to the end less than "
            "`beat_max_age_seconds` ago, `stale` when longer ago (no beat, or no worker "
            "free to run it), `missing` when it never has, `unknown` when the database did "
            "not answer."
        ),
    )
    worker_heartbeats = HealthWorkerSerializer(
        many=True,
        help_text=(
            "The workers with a heartbeat row, the most recently seen first (at most 20); "
            "a worker that stops cleanly removes its row, one killed leaves it to age."
        ),
    )
    beat_age_seconds = serializers.FloatField(
        allow_null=True,
        help_text="Seconds since the deadline sweep last ran to the end; null if never.",
    )
    worker_max_age_seconds = serializers.IntegerField(
        help_text="The limit for `workers` (HEALTH_WORKER_MAX_AGE_SECONDS)."
    )
    beat_max_age_seconds = serializers.IntegerField(
        help_text="The limit for `beat` (HEALTH_BEAT_MAX_AGE_SECONDS)."
    )
    workers_required = serializers.BooleanField(
        help_text=(
            "Whether `workers` and `beat` count towards `status` (HEALTH_REQUIRE_WORKERS). "
            "When false they are still measured and reported."
        )
    )
    version = serializers.CharField(help_text="The service's release version.")


@dataclass(frozen=True)
class Heartbeats:
    workers: str
    beat: str
    seen: list[heartbeats.Seen]
    beat_age: float | None


_HEALTH = Writer(HealthSerializer())


def _state(ages: list[float], limit: int) -> str:
    if not ages:
        return "missing"
    return "ok" if min(ages) < limit else "stale"


def read_heartbeats() -> Heartbeats | None:
    """The workers' and the sweep's heartbeats, or None when the database fails."""
    try:
        seen = heartbeats.workers()
        beat_age = heartbeats.run_age(heartbeats.SWEEP_TASK)
    except DatabaseError:
        return None
    return Heartbeats(
        workers=_state([w.age_seconds for w in seen], settings.HEALTH_WORKER_MAX_AGE_SECONDS),
        beat=_state([] if beat_age is None else [beat_age], settings.HEALTH_BEAT_MAX_AGE_SECONDS),
        seen=seen,
        beat_age=beat_age,
    )


def health() -> tuple[dict[str, Any], bool]:
    """The health body, and whether the service counts as healthy."""
    database = probes.database_answers()
    broker = probes.broker_answers()
    beats = read_heartbeats() if database else None
    # SELECT 1 answered but the heartbeat tables did not (say, migrations not run).
    database = database and beats is not None
    required = settings.HEALTH_REQUIRE_WORKERS
    healthy = (
        database
        and broker
        and (not required or (beats is not None and beats.workers == beats.beat == "ok"))
    )
    body = {
        "status": "ok" if healthy else "error",
        "database": "ok" if database else "error",
        "broker": "ok" if broker else "error",
        "workers": beats.workers if beats else "unknown",
        "beat": beats.beat if beats else "unknown",
        "worker_heartbeats": [
            {"hostname": w.hostname, "pid": w.pid, "age_seconds": round(w.age_seconds, 1)}
            for w in (beats.seen if beats else [])
        ],
        "beat_age_seconds": (
            round(beats.beat_age, 1) if beats and beats.beat_age is not None else None
        ),
        "worker_max_age_seconds": settings.HEALTH_WORKER_MAX_AGE_SECONDS,
        "beat_max_age_seconds": settings.HEALTH_BEAT_MAX_AGE_SECONDS,
        "workers_required": required,
        "version": settings.SERVICE_VERSION,
    }
    return body, bool(healthy)


_HEALTHY = {
    "status": "ok",
    "database": "ok",
    "broker": "ok",
    "workers": "ok",
    "beat": "ok",
    "worker_heartbeats": [{"hostname": "celery@ttr-1", "pid": 4242, "age_seconds": 3.2}],
    "beat_age_seconds": 12.5,
    "worker_max_age_seconds": 60,
    "beat_max_age_seconds": 120,
    "workers_required": True,
    "version": "0.1.0",
}

DESCRIPTION = """\
Answers 200 when the database and the broker answer, a worker's heartbeat is younger than \
`worker_max_age_seconds` and the deadline sweep ran less than `beat_max_age_seconds` ago; \
503 otherwise, with the same body saying which check failed.

Each Celery worker writes a heartbeat every WORKER_HEARTBEAT_SECONDS (10 by default); the \
default limits are 60 seconds for the workers and three deadline sweeps plus 30 seconds \
(120) for the beat. A service where no worker has ever written a heartbeat answers 503 \
with `workers: "missing"`, as does one just started until its first worker is ready and \
its first sweep has run. With HEALTH_REQUIRE_WORKERS=false the workers and the beat are \
still reported but only the database and the broker decide the answer.

This is the readiness check, for a load balancer or an orchestrator's readiness probe. \
`GET /health/live` is the liveness probe: it asks none of these.

Never cached, never throttled, no credentials needed."""


class HealthView(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]
    # Load balancers and monitors probe often; the probe must not be rate limited.
    throttle_classes = []

    @extend_schema(
        operation_id="health",
        summary="Service health",
        description=DESCRIPTION,
        responses={
            200: OpenApiResponse(
                HealthSerializer, description="Healthy: every check that counts passed."
            ),
            503: OpenApiResponse(
                HealthSerializer,
                description="Unhealthy: the same body, saying which check failed.",
            ),
        },
        examples=[
            OpenApiExample("Healthy", value=_HEALTHY, response_only=True, status_codes=["200"]),
            OpenApiExample(
                "No worker has ever run",
                value={
                    **_HEALTHY,
                    "status": "error",
                    "workers": "missing",
                    "beat": "missing",
                    "worker_heartbeats": [],
                    "beat_age_seconds": None,
                },
                response_only=True,
                status_codes=["503"],
            ),
            OpenApiExample(
                "The only worker stopped",
                value={
                    **_HEALTHY,
                    "status": "error",
                    "workers": "stale",
                    "beat": "stale",
                    "worker_heartbeats": [
                        {"hostname": "celery@ttr-1", "pid": 4242, "age_seconds": 75.0}
                    ],
                    "beat_age_seconds": 130.4,
                },
                response_only=True,
                status_codes=["503"],
            ),
            OpenApiExample(
                "The broker does not answer",
                value={**_HEALTHY, "status": "error", "broker": "error"},
                response_only=True,
                status_codes=["503"],
            ),
            OpenApiExample(
                "The database does not answer",
                value={
                    **_HEALTHY,
                    "status": "error",
                    "database": "error",
                    "workers": "unknown",
                    "beat": "unknown",
                    "worker_heartbeats": [],
                    "beat_age_seconds": None,
                },
                response_only=True,
                status_codes=["503"],
            ),
        ],
    )
    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        body, healthy = health()
        code = status.HTTP_200_OK if healthy else status.HTTP_503_SERVICE_UNAVAILABLE
        return Response(_HEALTH(body), status=code, headers={"Cache-Control": "no-store"})
