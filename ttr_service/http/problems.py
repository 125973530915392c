"""One error body for every error: RFC 9457 problem details with a stable ``code``.

    {"type": "urn:ttr:problem:ROUTE_TAKEN", "title": "Conflict", "status": 409,
     "code": "ROUTE_TAKEN", "detail": "berlin-frankfurt-2 is already claimed by seat 1.",
     "instance": "/api/v1/games/12/actions", "errors": []}

``errors`` lists field problems of bad input (``field``, ``code``, ``detail``). Every code,
with its status, meaning and the members it adds, is declared in ``ttr_service.http.codes``;
engine error codes pass through unchanged. Served as ``application/problem+json``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponseBase, JsonResponse
from django.utils.encoding import escape_uri_path
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, serializers
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from engine import EngineError, PositionError, Text
from ttr_service.http.codes import Code, ProblemCode, declared, every_code
from ttr_service.http.declarations import MEMBERS
from ttr_service.http.titles import title
from ttr_service.http.writers import Writer

logger = logging.getLogger(__name__)

PROBLEM_CONTENT_TYPE = "application/problem+json"
_JSON_ERROR = "JSON parse error - "


class ServiceError(exceptions.APIException):
    """A refusal with a declared code: its status comes from the declaration, and
    ``members`` may only be those the code declares."""

    # DRF's exception handler sends these, when set, as WWW-Authenticate and Retry-After.
    auth_header: str | None = None
    wait: float | None = None

    def __init__(self, code: ProblemCode, detail: str, **members: Any) -> None:
        declaration = declared(code)
        undeclared = set(members) - set(declaration.members)
        if undeclared:
            raise TypeError(f"{code} does not carry {sorted(undeclared)}")
        super().__init__(detail=detail, code=str(code))
        self.status_code = declaration.status
        self.problem_code = code
        self.extra = members


# DRF's own exceptions, by the code each answers with.
DRF_CODES: dict[type[exceptions.APIException], Code] = {
    exceptions.ParseError: Code.MALFORMED_JSON,
    exceptions.AuthenticationFailed: Code.AUTHENTICATION_FAILED,
    exceptions.NotAuthenticated: Code.NOT_AUTHENTICATED,
    exceptions.PermissionDenied: Code.PERMISSION_DENIED,
    exceptions.NotFound: Code.NOT_FOUND,
    exceptions.MethodNotAllowed: Code.METHOD_NOT_ALLOWED,
    exceptions.NotAcceptable: Code.NOT_ACCEPTABLE,
    exceptions.UnsupportedMediaType: Code.UNSUPPORTED_MEDIA_TYPE,
    exceptions.Throttled: Code.THROTTLED,
    exceptions.ValidationError: Code.VALIDATION_ERROR,
}


def _listed(codes: Iterable[str]) -> str:
    quoted = [f"`{code}`" for code in codes]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def _member_field(name: str) -> serializers.Field[Any, Any, Any, Any]:
    member = MEMBERS[name]
    carriers = {code: d for code, d in every_code().items() if name in d.members}
    statuses = sorted({d.status for d in carriers.values()})
    text = f"With {_listed(carriers)} ({', '.join(map(str, statuses))}) only: {member.text}"
    if member.choices:
        return serializers.ChoiceField(choices=list(member.choices), required=False, help_text=text)
    if member.type is int:
        return serializers.IntegerField(required=False, help_text=text)
    return serializers.CharField(required=False, help_text=text)


class ProblemErrorSerializer(serializers.Serializer[Any]):
    field = serializers.CharField(help_text="The field at fault (dotted path); empty for the body.")
    code = serializers.CharField(help_text="A stable machine code for this field's problem.")
    detail = serializers.CharField()


def _problem_serializer() -> type[serializers.Serializer[Any]]:
    fields: dict[str, Any] = {
        "type": serializers.CharField(help_text="urn:ttr:problem:<code>"),
        "title": serializers.CharField(
            help_text="The HTTP status phrase, in the answer's language (`Content-Language`)."
        ),
        "status": serializers.IntegerField(),
        "code": serializers.ChoiceField(
            choices=sorted((name, d.meaning) for name, d in every_code().items()),
            help_text="A stable machine code, e.g. ROUTE_TAKEN. New codes may be added; a "
            "client should treat an unknown one by its HTTP status.",
        ),
        "detail": serializers.CharField(
            help_text="What went wrong, for a person, in the answer's language."
        ),
        "instance": serializers.CharField(
            required=False,
            help_text="The request path, as a URI reference: a character other than ASCII "
            "letters, digits and `/:@&+$,-_.!~*'()` is percent-encoded (UTF-8).",
        ),
        "errors": ProblemErrorSerializer(many=True),
        **{name: _member_field(name) for name in MEMBERS},
        "__doc__": "RFC 9457 problem details, with a stable ``code``.",
    }
    return type("ProblemSerializer", (serializers.Serializer,), fields)


ProblemSerializer = _problem_serializer()

_PROBLEM = Writer(ProblemSerializer())


def problem(
    code: ProblemCode,
    detail: str,
    instance: str | None = None,
    errors: list[dict[str, str]] | None = None,
    **members: Any,
) -> dict[str, Any]:
    """The body of a problem with this code (its status as declared)."""
    status_code = declared(code).status
    body: dict[str, Any] = {
        "type": f"urn:ttr:problem:{code}",
        "title": title(status_code),
        "status": status_code,
        "code": str(code),
        "detail": detail,
    }
    if instance is not None:
        # RFC 9457 asks for a URI reference; the request's path is decoded text.
        body["instance"] = escape_uri_path(instance)
    body["errors"] = errors or []
    body.update(members)
    return written(body)


def written(body: dict[str, Any]) -> dict[str, Any]:
    """A problem body as ``ProblemSerializer`` writes it: its declared members, in their
    order (a body read back from a JSON column may come with its keys in another)."""
    return _PROBLEM(body)


def field_errors(data: Any, prefix: str = "") -> list[dict[str, str]]:
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
            out += field_errors(value, path)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            if isinstance(value, dict | list):
                out += field_errors(value, f"{prefix}[{i}]" if prefix else str(i))
            else:
                out += field_errors(value, prefix)
    else:
        code = getattr(data, "code", "invalid") or "invalid"
        out.append({"field": prefix, "code": str(code).upper(), "detail": str(data)})
    return out


def engine_text(text: Text) -> str:
    """An engine message in the request's language (the engine's catalogue, engine/locale)."""
    return text.render(gettext, ngettext)


def engine_problem(error: EngineError, instance: str | None) -> dict[str, Any]:
    """The problem body of an engine error: its code, message and declared members."""
    members = declared(error.code).members
    extra = {k: v for k, v in error.context.items() if k in members}
    detail = engine_text(error.text)
    if isinstance(error, PositionError):
        # One row per problem found in a position given to the score calculator.
        errors = [
            {"field": p.field, "code": str(p.code), "detail": engine_text(p.text)}
            for p in error.problems
        ]
    elif "field" in error.context:
        errors = [{"field": error.context["field"], "code": str(error.code), "detail": detail}]
    else:
        errors = []
    return problem(error.code, detail, instance, errors, **extra)


def problem_of(error: APIException | EngineError, instance: str | None) -> dict[str, Any]:
    """The problem body of a refusal: a service, DRF or engine error."""
    if isinstance(error, EngineError):
        return engine_problem(error, instance)
    if isinstance(error, ServiceError):
        return problem(error.problem_code, str(error.detail), instance, **error.extra)
    code = next((c for cls, c in DRF_CODES.items() if isinstance(error, cls)), Code.SERVER_ERROR)
    if isinstance(error, exceptions.ValidationError):
        errors = field_errors(error.detail)
        fields = ", ".join(sorted({e["field"] or "(body)" for e in errors}))
        detail = _("The request has invalid fields: %(fields)s") % {"fields": fields}
        return problem(code, detail, instance, errors)
    detail = str(error.detail)
    if isinstance(error, exceptions.ParseError) and detail.startswith(_JSON_ERROR):
        # DRF's parser writes this one without marking it for translation.
        said = detail.removeprefix(_JSON_ERROR)
        detail = _("JSON parse error - %(error)s") % {"error": said}
    return problem(code, detail, instance)


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    request = context.get("request")
    instance = request.path if request is not None else None
    if isinstance(exc, EngineError):
        body = engine_problem(exc, instance)
        return Response(body, status=body["status"], content_type=PROBLEM_CONTENT_TYPE)
    if isinstance(exc, OperationalError | InterfaceError):
        # A dropped or refused database connection: the transaction was rolled back, and
        # the next request gets a fresh connection (CONN_HEALTH_CHECKS), so a retry works.
        logger.exception("Database connection failed during %s", instance)
        body = problem(
            Code.DATABASE_UNAVAILABLE,
            _("The database connection failed; the request was not applied. Retry it."),
            instance,
        )
        return Response(
            body,
            status=body["status"],
            content_type=PROBLEM_CONTENT_TYPE,
            headers={"Retry-After": "1"},
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    # DRF's handler gives the status and the headers (Retry-After, WWW-Authenticate).
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    response.data = problem_of(exc, instance)
    response.status_code = response.data["status"]
    response.content_type = PROBLEM_CONTENT_TYPE
    return response


def json_handler404(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    body = problem(Code.NOT_FOUND, _("No such resource."), request.path)
    return JsonResponse(body, status=404, content_type=PROBLEM_CONTENT_TYPE)


def json_handler500(request: HttpRequest) -> JsonResponse:
    body = problem(
        Code.SERVER_ERROR, _("The server failed; the request was not applied."), request.path
    )
    return JsonResponse(body, status=500, content_type=PROBLEM_CONTENT_TYPE)


class ApiProblemsMiddleware:
    """Everything under ``/api/`` answers problem+json, whatever ``DEBUG`` says.

    Django answers an error that no view handled with its handlers (``handler404``,
    ``handler500``) only when ``DEBUG`` is off; with it on (the ``make run`` default) it
    shows its HTML debug pages. A client of the API gets the same body either way; the
    error is still logged and signalled as Django would.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> JsonResponse | None:
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
