"""What the fuzz runs (in-process and against a live server) know of this API that its
schema cannot say: the operations that end the token calling them, and the refusals of
schema-valid requests each operation documents. No Django here: the live run's hooks load
this module in the schemathesis process.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

# Operations that end the token that made the request.
TOKEN_ENDING = {"auth_logout", "auth_tokens_revoke"}


# positive_data_acceptance expects a schema-valid request to be accepted. These operations
# refuse some schema-valid requests for a documented reason no schema can state; a refusal
# is let through only when its problem code is the one named here.
DOCUMENTED_REFUSALS: dict[str, set[str]] = {
    # Password strength beyond its length and digits (see the field's description).
    "auth_register": {"password:PASSWORD_TOO_COMMON", "password:PASSWORD_TOO_SIMILAR"},
    # The same for a new password; a reset's secret is valid only as the message gave it,
    # and a verification code only as the last message gave it.
    "auth_password_change": {
        "new_password:PASSWORD_TOO_COMMON",
        "new_password:PASSWORD_TOO_SIMILAR",
    },
    "auth_password_reset_confirm": {
        "RESET_TOKEN_INVALID",
        "new_password:PASSWORD_TOO_COMMON",
        "new_password:PASSWORD_TOO_SIMILAR",
    },
    "auth_email_verify": {"EMAIL_CODE_INVALID"},
    # An account with a password confirms its deletion with it; `confirm` is for an account
    # without one.
    "account_delete": {"DELETION_NOT_CONFIRMED"},
    # Route, station and ticket ids are the board's own, and a `board` in the body must be
    # the one in the path; one schema serves every board.
    "boards_score": {
        "ILLEGAL_POSITION",
        "board:BOARD_MISMATCH",
        "players[].tickets[]:INVALID",
    },
    # The options a game may have are the board's own (see the `options` description), and
    # an invited username must be an account's; the creator takes one seat only; an
    # `invite` seat needs a username, a rule on `type` OpenAPI 3.0 states only by
    # splitting the seat into one schema per type.
    # The number of seats a board takes and `first_seat` being one of the seats depend on
    # the body's other fields.
    "games_create": {
        "BAD_OPTION",
        "UNKNOWN_USER",
        "BAD_SEATS",
        "BAD_SEAT_COUNT",
        "BAD_FIRST_SEAT",
        "seats[].username:INVALID",
    },
    # A seek's player range must lie within what its board allows, and `players_max` be
    # from `players_min`: rules across fields (and boards) a schema does not state.
    "seeks_create": {"players_max:INVALID"},
    # The version is required in If-Match or in the body, either one, and must be the
    # game's.
    "games_actions_create": {"VERSION_REQUIRED", "VERSION_MISMATCH"},
    # The username must be another player's than the caller's own.
    "friend_requests_send": {"NAMED_YOURSELF"},
    "blocks_create": {"NAMED_YOURSELF"},
    "chat_mutes_put": {"NAMED_YOURSELF"},
    # A chat message is `text` or `quick`, exactly one of them (a rule across fields), and
    # text of white space alone is blank once trimmed (see the field's description).
    "chat_post": {":INVALID", "text:BLANK"},
    # A cursor is opaque: only one the list gave out is valid.
    "notifications_list": {"BAD_CURSOR"},
    "webhooks_deliveries_list": {"BAD_CURSOR"},
    "chat_list": {"BAD_CURSOR"},
    # Time zones are the server's IANA database's; the schema says "an IANA time zone".
    # A quiet period's end must differ from its start.
    "notifications_preferences_update": {
        "quiet_hours.timezone:UNKNOWN_TIMEZONE",
        "quiet_hours.end:EMPTY",
    },
    # The host grammar Django's URL validator applies (labels, top-level domain, IP
    # ranges) is in the field's description; the pattern states only the URL's shape.
    # With DEBUG off (WEBHOOK_ALLOW_PRIVATE unset), a URL whose host is or resolves to a
    # private, loopback or link-local address; what a host resolves to is not the schema's.
    "webhooks_create": {"url:INVALID", "WEBHOOK_URL_PRIVATE"},
    "webhooks_update": {"url:INVALID", "WEBHOOK_URL_PRIVATE"},
    # An export is downloaded once: every download after the first is 410 by design.
    "account_exports_download": {"EXPORT_GONE"},
}


def problem_codes(response: Any) -> set[str]:
    """The problem's code, and each of its rows as ``field:CODE`` (list indices left out)."""
    try:
        body = response.json()
    except ValueError:
        return set()
    if not isinstance(body, dict):
        return set()
    codes = {str(body.get("code"))}
    for row in body.get("errors") or []:
        if isinstance(row, dict):
            field = re.sub(r"\[\d+\]", "[]", str(row.get("field")))
            codes.add(f"{field}:{row.get('code')}")
    return codes


# Any operation taking an Idempotency-Key refuses a key an earlier generated request used
# with another request.
KEYED_REFUSALS = {"IDEMPOTENCY_KEY_REUSED"}


def _keyed(operation: dict[str, Any]) -> bool:
    return any(p.get("name") == "Idempotency-Key" for p in operation.get("parameters", []))


def documented_refusal(case: Any, response: Any) -> bool:
    """Whether ``response`` refuses ``case`` (schema-valid) for one of the reasons its
    operation documents in ``DOCUMENTED_REFUSALS``, or a reused Idempotency-Key."""
    raw = case.operation.definition.raw
    allowed = DOCUMENTED_REFUSALS.get(raw.get("operationId"), set())
    allowed = allowed | (KEYED_REFUSALS if _keyed(raw) else set())
    refused = response.status_code in (400, 410, 412, 422, 428)
    return refused and bool(problem_codes(response) & allowed)


def endless_streams(schema_path: Path) -> list[str]:
    """The operations whose answer is a ``text/event-stream`` that lasts."""
    schema = yaml.safe_load(schema_path.read_text())
    found = []
    for item in schema["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            ok = operation.get("responses", {}).get("200", {})
            if "text/event-stream" in ok.get("content", {}):
                found.append(operation["operationId"])
    return found
