"""Idempotency-Key handling around the action command: a retry gets the first answer.

The first request with a key claims the key's record, runs the command and stores its
answer (success or refusal) in the same transaction as the move, so the answer exists if
and only if the move does. A retry gets those very bytes back; the same key with another
body gets 422; a retry while the first is still running gets 409 at once. A key that is
not 1 to 255 visible ASCII characters gets 400 before anything is stored or settled.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import OperationalError, transaction
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter
from psycopg.errors import LockNotAvailable

from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

from . import errors
from .models import IdempotencyRecord
from .timeouts import settled_first

# The key's column holds 255 characters. Visible ASCII (RFC 9110's VCHAR) takes in UUIDs,
# ULIDs, base64 and a structured-field string's quotes, and keeps out spaces, control
# characters and anything that would compare differently after a Unicode normalisation.
KEY_MAX_LENGTH = 255
KEY_PATTERN = r"^[!-~]+$"  # "!" (0x21) to "~" (0x7e)
_KEY = re.compile(rf"[!-~]{{1,{KEY_MAX_LENGTH}}}")

# The header as the schema declares it, for the operations that take it.
IDEMPOTENCY_KEY_PARAMETER = OpenApiParameter(
    "Idempotency-Key",
    {
        "type": "string",
        "minLength": 1,
        "maxLength": KEY_MAX_LENGTH,
        "pattern": KEY_PATTERN,
    },
    OpenApiParameter.HEADER,
    description="A fresh key per move, to retry it safely: 1 to 255 visible ASCII characters "
    "(no spaces), such as a UUID. Any other key gets 400 `BAD_IDEMPOTENCY_KEY` and changes "
    "nothing.",
)


@dataclass(frozen=True)
class Reply:
    """An answer as it goes out, kept byte for byte for a retry."""

    status: int
    content: bytes
    content_type: str
    headers: dict[str, str] = field(default_factory=dict)


class KeyInFlight(ServiceError):
    def __init__(self) -> None:
        super().__init__(
            Code.IDEMPOTENCY_KEY_IN_FLIGHT,
            "A request with this Idempotency-Key is still being processed; retry shortly "
            "to get its response.",
        )
        self.wait = 1  # DRF sends it as Retry-After


def fingerprint(method: str, path: str, body: Any, if_match: str | None = None) -> str:
    """What makes two requests with one key the same request: method, path, body, and the
    ``If-Match`` precondition when one is sent (a retry with another is another request)."""
    parts = [method, path, body] if if_match is None else [method, path, body, if_match]
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def run_once(
    user: AbstractBaseUser,
    key: str | None,
    print_: str,
    game_id: int,
    run: Callable[[], Reply],
) -> Reply:
    """``run`` (the action command and its rendering, which raises ``DeadlinePassed`` when
    the game must be settled first) in a transaction; with a ``key``, once per key, its
    reply stored with its effects. A ``key`` that is not a valid key is refused first."""
    if key is None:

        def plain() -> Reply:
            with transaction.atomic():
                return run()

        return settled_first(game_id, plain)
    check_key(key)
    # Claimed in its own (auto-committed) statement, so a concurrent request with the same
    # key finds the row and its lock below instead of inserting a second one.
    record, _ = IdempotencyRecord.objects.get_or_create(
        user=user, key=key, defaults={"fingerprint": print_}
    )

    def command() -> Reply:
        with transaction.atomic():
            claimed = _claim(record.pk)
            if claimed.created_at <= _oldest_kept():
                # The key was forgotten (its time is up): a new request under it.
                claimed.fingerprint = print_
                claimed.status_code = None
                claimed.created_at = timezone.now()
            if claimed.fingerprint != print_:
                raise ServiceError(
                    Code.IDEMPOTENCY_KEY_REUSED,
                    "This Idempotency-Key was used for a different request.",
                )
            if claimed.status_code is not None:
                return _replay(claimed)
            reply = run()
            claimed.status_code = reply.status
            claimed.body = reply.content
            claimed.headers = {"Content-Type": reply.content_type, **reply.headers}
            claimed.save(
                update_fields=["fingerprint", "status_code", "body", "headers", "created_at"]
            )
            return reply

    return settled_first(game_id, command)


def _oldest_kept() -> datetime:
    return timezone.now() - timedelta(hours=settings.IDEMPOTENCY_KEY_HOURS)


def forget_expired() -> int:
    """Delete the keys older than ``IDEMPOTENCY_KEY_HOURS`` (the deadline sweep does); how
    many."""
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lte=_oldest_kept()).delete()
    return deleted


def check_key(key: str) -> None:
    """Refuse a key the service does not store: empty, too long, or not visible ASCII."""
    if not _KEY.fullmatch(key):
        raise errors.bad_idempotency_key(KEY_MAX_LENGTH)


def _claim(record_id: int) -> IdempotencyRecord:
    """Lock the key's record for this transaction, or fail at once if another request holds it.

    The lock is held until the answer is stored with the move, so a second request meanwhile
    gets 409 instead of waiting. A record left without an answer (the first request failed
    and rolled back) is simply claimed again. SQLite has no row locks: there the writers are
    serialised and the retry finds the stored answer.
    """
    try:
        return IdempotencyRecord.objects.select_for_update(nowait=True).get(pk=record_id)
    except OperationalError as exc:
        # Only a lock held elsewhere means "in flight"; any other failure (a dropped
        # connection) goes on to the handler's 503.
        if isinstance(exc.__cause__, LockNotAvailable):
            raise KeyInFlight() from None
        raise


def _replay(record: IdempotencyRecord) -> Reply:
    headers = dict(record.headers)
    content_type = headers.pop("Content-Type", "application/json")
    assert record.status_code is not None
    return Reply(
        record.status_code,
        bytes(record.body),
        content_type,
        {**headers, "Idempotent-Replayed": "true"},
    )
