"""One error body for every error: RFC 9457 problem details with a stable ``code``.

    {"type": "urn:ttr:problem:ROUTE_TAKEN", "title": "Conflict", "status": 409,
     "code": "ROUTE_TAKEN", "detail": "berlin-frankfurt-2 is already claimed by seat 1.",
     "instance": "/api/v1/games/12/actions", "errors": []}

``errors`` lists field problems of bad input (``field``, ``code``, ``detail``). Engine error
codes pass through unchanged. Every code, with its meaning, is in
``ttr_service.http.codes``; the schema lists them as the enum of ``code``. Served as
``application/problem+json``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from engine import EngineError, MalformedActionError, PositionError
from engine.phases import (
    CHOOSE_INITIAL_TICKETS,
    KEEP_TICKETS,
    SECOND_CARD,
    TUNNEL_PAYMENT,
    TURN_ACTION,
)
from ttr_service.http.codes import PROBLEM_CODE_CHOICES

logger = logging.getLogger(__name__)

PROBLEM_CONTENT_TYPE = "application/problem+json"


class ServiceError(exceptions.APIException):
    """An error raised by the service layer with its own code and status."""

    def __init__(self, code: str, detail: str, status_code: int = 400, **extra: Any) -> None:
        super().__init__(detail=detail, code=code)
        self.status_code = status_code
        self.problem_code = code
        self.extra = extra


class VersionMismatch(ServiceError):
    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            "VERSION_MISMATCH",
            f"The game is at version {current}, not {expected}: fetch it again and retry.",
            status.HTTP_412_PRECONDITION_FAILED,
            current_version=current,
        )


# Codes for DRF's own exceptions.
_DRF_CODES: dict[type[exceptions.APIException], str] = {
    exceptions.ParseError: "MALFORMED_JSON",
    exceptions.AuthenticationFailed: "AUTHENTICATION_FAILED",
    exceptions.NotAuthenticated: "NOT_AUTHENTICATED",
    exceptions.PermissionDenied: "PERMISSION_DENIED",
    exceptions.NotFound: "NOT_FOUND",
    exceptions.MethodNotAllowed: "METHOD_NOT_ALLOWED",
    exceptions.NotAcceptable: "NOT_ACCEPTABLE",
    exceptions.UnsupportedMediaType: "UNSUPPORTED_MEDIA_TYPE",
    exceptions.Throttled: "THROTTLED",
    exceptions.ValidationError: "VALIDATION_ERROR",
}


def problem(
    status_code: int,
    code: str,
    detail: str,
    instance: str | None = None,
    errors: list[dict[str, str]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": f"urn:ttr:problem:{code}",
        "title": HTTPStatus(status_code).phrase,
        "status": status_code,
        "code": code,
        "detail": detail,
    }
    if instance is not None:
        body["instance"] = instance
    body["errors"] = errors or []
    body.update(extra)
    return body


def _field_errors(data: Any, prefix: str = "") -> list[dict[str, str]]:
    """Flatten DRF's nested error dicts into ``field`` / ``code`` / ``detail`` rows."""
    out: list[dict[str, str]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(key, int) or str(key).isdigit():
                path = f"{prefix}[{key}]"  # an item of a list
            elif key == "non_field_errors":
                path = prefix
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            out += _field_errors(value, path)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            if isinstance(value, dict | list):
                out += _field_errors(value, f"{prefix}[{i}]" if prefix else str(i))
            else:
                out += _field_errors(value, prefix)
    else:
        code = getattr(data, "code", "invalid") or "invalid"
        out.append({"field": prefix, "code": str(code).upper(), "detail": str(data)})
    return out


def engine_error_status(error: EngineError) -> int:
    if isinstance(error, MalformedActionError | PositionError):
        return status.HTTP_400_BAD_REQUEST
    return status.HTTP_409_CONFLICT


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    request = context.get("request")
    instance = request.path if request is not None else None
    if isinstance(exc, EngineError):
        code_status = engine_error_status(exc)
        extra = {k: v for k, v in exc.context.items() if k != "field"}
        if isinstance(exc, PositionError):
            # One row per problem found in a position given to the score calculator.
            errors = [
                {"field": p.field, "code": str(p.code), "detail": p.message} for p in exc.problems
            ]
        elif "field" in exc.context:
            errors = [{"field": exc.context["field"], "code": str(exc.code), "detail": exc.message}]
        else:
            errors = []
        body = problem(code_status, str(exc.code), exc.message, instance, errors, **extra)
        return Response(body, status=code_status, content_type=PROBLEM_CONTENT_TYPE)
    if isinstance(exc, OperationalError | InterfaceError):
        # A dropped or refused database connection: the transaction was rolled back, and
        # the next request gets a fresh connection (CONN_HEALTH_CHECKS), so a retry works.
        logger.exception("Database connection failed during %s", instance)
        body = problem(
            503,
            "DATABASE_UNAVAILABLE",
            "The database connection failed; the request was not applied. Retry it.",
            instance,
        )
        return Response(
            body, status=503, content_type=PROBLEM_CONTENT_TYPE, headers={"Retry-After": "1"}
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, ServiceError):
        code = exc.problem_code
        detail = str(exc.detail)
        errors: list[dict[str, str]] = []
        extra = exc.extra
    else:
        code = next(
            (c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)),
            str(exc.default_code).upper(),
        )
        extra = {}
        if isinstance(exc, exceptions.ValidationError):
            errors = _field_errors(exc.detail)
            detail = "The request has invalid fields: " + ", ".join(
                sorted({e["field"] or "(body)" for e in errors})
            )
        else:
            errors = []
            detail = str(exc.detail)
    response.data = problem(response.status_code, code, detail, instance, errors, **extra)
    response.content_type = PROBLEM_CONTENT_TYPE
    return response


class ProblemErrorSerializer(serializers.Serializer):
    field = serializers.CharField(help_text="The field at fault (dotted path); empty for the body.")
    code = serializers.CharField(help_text="A stable machine code for this field's problem.")
    detail = serializers.CharField()


# The members some problems add beside the standard ones (``problem(..., **extra)``, and
# the context of an engine error): each is declared here, and present only when its code
# says so.
_PENDING_KINDS = [CHOOSE_INITIAL_TICKETS, TURN_ACTION, SECOND_CARD, TUNNEL_PAYMENT, KEEP_TICKETS]
_GAME_STATUSES = ["lobby", "active", "finished", "cancelled"]


class ProblemSerializer(serializers.Serializer):
    """RFC 9457 problem details, with a stable ``code``."""

    type = serializers.CharField(help_text="urn:ttr:problem:<code>")
    title = serializers.CharField(help_text="The HTTP status phrase.")
    status = serializers.IntegerField()
    code = serializers.ChoiceField(
        choices=PROBLEM_CODE_CHOICES,
        help_text="A stable machine code, e.g. ROUTE_TAKEN. New codes may be added; a client "
        "should treat an unknown one by its HTTP status.",
    )
    detail = serializers.CharField(help_text="What went wrong, for a person.")
    instance = serializers.CharField(required=False, help_text="The request path.")
    errors = ProblemErrorSerializer(many=True)
    current_version = serializers.IntegerField(
        required=False,
        help_text="With `VERSION_MISMATCH` (412) only: the game's version now. Fetch the game "
        "and decide again at this version.",
    )
    game_status = serializers.ChoiceField(
        choices=_GAME_STATUSES,
        required=False,
        help_text="With `GAME_NOT_LOBBY`, `GAME_NOT_ACTIVE` and `GAME_NOT_FINISHED` (409) "
        "only: the game's status now.",
    )
    pending = serializers.CharField(
        required=False,
        help_text="With `WRONG_PHASE` (409) only: the kind of decision the seat must make now, "
        f"one of {', '.join(f'`{kind}`' for kind in _PENDING_KINDS)}.",
    )
    owner = serializers.IntegerField(
        required=False,
        help_text="With `ROUTE_TAKEN` and `STATION_TAKEN` (409) only: the seat holding the "
        "route, or the city's station.",
    )
    minimum = serializers.IntegerField(
        required=False,
        help_text="With `MUST_KEEP_TICKETS` (409) only: the fewest tickets that may be kept.",
    )


def json_handler404(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    body = problem(404, "NOT_FOUND", "No such resource.", request.path)
    return JsonResponse(body, status=404, content_type=PROBLEM_CONTENT_TYPE)


def json_handler500(request: HttpRequest) -> JsonResponse:
    body = problem(
        500, "SERVER_ERROR", "The server failed; the request was not applied.", request.path
    )
    return JsonResponse(body, status=500, content_type=PROBLEM_CONTENT_TYPE)


class ApiProblemsMiddleware:
    """Everything under ``/api/`` answers problem+json, whatever ``DEBUG`` says.

    Django answers an error that no view handled with its handlers (``handler404``,
    ``handler500``) only when ``DEBUG`` is off; with it on (the ``make run`` default) it
    shows its HTML debug pages. A client of the API gets the same body either way; the
    error is still logged and signalled as Django would.
    """

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> Any:
        if not request.path.startswith("/api/"):
            return None
        if isinstance(exception, Http404):
            return json_handler404(request, exception)
        logger.error("Internal Server Error: %s", request.path, exc_info=exception)
        got_request_exception.send(sender=None, request=request)
        return json_handler500(request)


@csrf_exempt  # any method gets the 404; no form to protect
def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """The last route under ``/api/``: no other matched (an unknown path, or an id that is
    not a number)."""
    return json_handler404(request)


def problem_responses(
    *codes: int, texts: Mapping[int, str], **described: str
) -> dict[Any, OpenApiResponse]:
    """OpenAPI responses for these statuses, as ``application/problem+json`` bodies.

    ``texts`` gives an app's wording per status; ``described`` overrides one for a single
    operation (key ``s404="..."``).
    """
    return {
        (code, PROBLEM_CONTENT_TYPE): OpenApiResponse(
            ProblemSerializer, description=described.get(f"s{code}", texts[code])
        )
        for code in codes
    }
