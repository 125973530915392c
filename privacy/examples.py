"""The schema's examples of the deletion and export endpoints."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

from ttr_service.http.codes import Code
from ttr_service.http.schema import problem_example

EXPORT = {
    "id": 7,
    "status": "ready",
    "created_at": "2026-11-29T12:00:00Z",
    "ready_at": "2026-11-29T12:00:04Z",
    "expires_at": "2026-11-30T12:00:04Z",
    "download": "https://ttr.example.org/api/v1/account/exports/7/download",
}
PENDING = {**EXPORT, "status": "pending", "ready_at": None, "expires_at": None, "download": None}

DELETE_WITH_PASSWORD = OpenApiExample(
    "With the password", value={"password": "correct horse battery staple"}, request_only=True
)
DELETE_CONFIRMED = OpenApiExample(
    "An account that signs in with Apple or Google only",
    value={"confirm": "DELETE"},
    request_only=True,
)
DELETION = OpenApiExample(
    "Erased after the grace period",
    value={"status": "scheduled", "erase_at": "2026-12-06T12:00:00Z"},
    response_only=True,
    status_codes=["202"],
)
NOT_CONFIRMED = problem_example(
    Code.DELETION_NOT_CONFIRMED,
    "Send the account's password to delete it.",
    "/api/v1/account/deletion",
)
EXPORT_ASKED = OpenApiExample(
    "Being built", value=PENDING, response_only=True, status_codes=["202"]
)
EXPORT_READY = OpenApiExample("Ready", value=EXPORT, response_only=True)
EXPORT_LIST = OpenApiExample("My exports", value=[EXPORT], response_only=True)
THROTTLED = problem_example(
    Code.EXPORT_THROTTLED,
    "An export was asked for less than 60 minutes ago. Try again in 1200 seconds.",
    "/api/v1/account/exports",
)
GONE = problem_example(
    Code.EXPORT_GONE,
    "This export was downloaded already, or has expired; ask for a new one.",
    "/api/v1/account/exports/7/download",
)
