"""Service errors of the notifications app, each with a stable code."""

from __future__ import annotations

from rest_framework import status

from ttr_service.http.problems import ServiceError


def not_found(what: str) -> ServiceError:
    code = what.upper().replace(" ", "_") + "_NOT_FOUND"
    return ServiceError(code, f"No such {what}.", status.HTTP_404_NOT_FOUND)


def conflict(code: str, detail: str) -> ServiceError:
    return ServiceError(code, detail, status.HTTP_409_CONFLICT)


def bad_request(code: str, detail: str) -> ServiceError:
    return ServiceError(code, detail, status.HTTP_400_BAD_REQUEST)
