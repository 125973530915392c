"""django-axes hooks: who the client is, and the problem body of a lockout."""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import ngettext
from rest_framework.throttling import BaseThrottle

from ttr_service.http.codes import Code
from ttr_service.http.problems import PROBLEM_CONTENT_TYPE, ServiceError, problem


def client_ip(request: HttpRequest) -> str | None:
    """The client address exactly as DRF's throttles see it (``NUM_PROXIES`` applies)."""
    # get_ident reads only META, which Django's request has as DRF's does; without
    # REMOTE_ADDR it answers None, whatever its stubs say.
    return BaseThrottle().get_ident(request)  # type: ignore[arg-type]


def cool_off_seconds(request: HttpRequest | None = None) -> int:
    cool_off = get_cool_off(request)
    return int(cool_off.total_seconds()) if cool_off else 0


def lockout_detail() -> str:
    minutes = cool_off_seconds() // 60
    return ngettext(
        "Too many failed logins: this account is locked from this address for %(minutes)d "
        "minute after the last failed attempt.",
        "Too many failed logins: this account is locked from this address for %(minutes)d "
        "minutes after the last failed attempt.",
        minutes,
    ) % {"minutes": minutes}


def account_locked() -> ServiceError:
    error = ServiceError(Code.ACCOUNT_LOCKED, lockout_detail())
    error.wait = cool_off_seconds()  # DRF turns this into Retry-After
    return error


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the same problem body the login view raises."""
    body = problem(Code.ACCOUNT_LOCKED, lockout_detail(), request.path)
    response = JsonResponse(body, status=body["status"], content_type=PROBLEM_CONTENT_TYPE)
    response["Retry-After"] = str(cool_off_seconds(request))
    return response
