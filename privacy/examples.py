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
    # Not the password the other examples set: a fuzz run sending every example in turn
    # would delete its own account.
    "With the password",
    value={"password": "the account's own password"},
    request_only=True,
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
# A list's example is its one item: the schema shows it in a list.
EXPORT_LIST = OpenApiExample("My exports", value=EXPORT, response_only=True)
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

ARCHIVE = OpenApiExample(
    "An archive",
    response_only=True,
    value={
        "format": "ttr-account-export",
        "format_version": 1,
        "created_at": "2026-11-29T12:00:04Z",
        "profile": {
            "id": 42,
            "username": "alice",
            "email": "alice@example.org",
            "verified_email": "alice@example.org",
            "email_verified_at": "2025-11-29T12:10:00Z",
            "pending_email": None,
            "has_password": True,
            "date_joined": "2025-11-29T12:00:00Z",
            "last_login": "2026-11-29T11:58:00Z",
        },
        "settings": {
            "notifications": {
                "channels": {
                    "your_turn": {"in_app": True, "webhook": True, "email": False, "push": True}
                },
                "quiet_hours": {"start": "22:00", "end": "07:30", "timezone": "Europe/Paris"},
            },
            "social": {"invitations_from_friends_only": False},
            "language": "el",
        },
        "friends": [{"username": "bob", "since": "2026-01-04T18:00:00Z"}],
        "friend_requests": {
            "sent": [{"username": "carol", "at": "2026-11-20T09:00:00Z"}],
            "received": [],
        },
        "blocks": [],
        "games": [
            {
                "id": 12,
                "board": "europe",
                "options": {},
                "status": "active",
                "created_at": "2026-11-28T20:00:00Z",
                "started_at": "2026-11-28T20:05:00Z",
                "finished_at": None,
                "players": [
                    {"seat": 0, "kind": "human", "username": "alice", "ai_level": None},
                    {"seat": 1, "kind": "ai", "username": None, "ai_level": "hard"},
                ],
                "result": None,
                "seat": {
                    "index": 0,
                    "kind": "human",
                    "joined_at": "2026-11-28T20:00:00Z",
                    "ai_controlled": False,
                },
                "moves": [],
            }
        ],
        "ratings": [{"board": "europe", "rating": 1512.5, "rated_games": 3, "rated_wins": 2}],
        "statistics": [],
        "vacations": [],
        "notifications": [
            {
                "id": 99,
                "type": "export_ready",
                "game_id": None,
                "data": {"export_id": 7, "expires_at": "2026-11-30T12:00:04Z"},
                "created_at": "2026-11-29T12:00:04Z",
                "read_at": None,
                "read": False,
            }
        ],
        "devices": [
            {
                "platform": "apns",
                "name": "Alice's iPhone",
                "created_at": "2026-02-01T10:00:00Z",
                "active": True,
            }
        ],
        "webhooks": [],
        "identities": [
            {"provider": "apple", "linked_at": "2026-02-01T10:00:00Z", "last_used": None}
        ],
        "chat_messages": [
            {
                "game": 12,
                "room": "players",
                "seat": 0,
                "text": "good luck",
                "quick": None,
                "at": "2026-03-01T18:02:00Z",
                "hidden": False,
            }
        ],
    },
)
