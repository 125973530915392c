"""Idempotency-Key handling around the action command: a retry gets the first answer.

The first request with a key claims the key's record, runs the command and stores its
answer (success or refusal) in the same transaction as the move, so the answer exists if
and only if the move does. A retry gets those very bytes back; the same key with another
body gets 422; a retry while the first is still running gets 409 at once.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import OperationalError, transaction
from psycopg.errors import LockNotAvailable
from rest_framework import status

from ttr_service.problems import ServiceError

from .models import IdempotencyRecord
from .timeouts import settled_first


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
            "IDEMPOTENCY_KEY_IN_FLIGHT",
            "A request with this Idempotency-Key is still being processed; retry shortly "
            "to get its response.",
            status.HTTP_409_CONFLICT,
        )
        self.wait = 1  # DRF sends it as Retry-After


def fingerprint(method: str, path: str, body: Any) -> str:
    return hashlib.sha256(json.dumps([method, path, body], sort_keys=True).encode()).hexdigest()


def run_once(
    user: AbstractBaseUser,
    key: str | None,
    print_: str,
    game_id: int,
    run: Callable[[], Reply],
) -> Reply:
    """``run`` (the action command and its rendering, which raises ``DeadlinePassed`` when
    the game must be settled first) in a transaction; with a ``key``, once per key, its
    reply stored with its effects."""
    if not key:

        def plain() -> Reply:
            with transaction.atomic():
                return run()

        return settled_first(game_id, plain)
    # Claimed in its own (auto-committed) statement, so a concurrent request with the same
    # key finds the row and its lock below instead of inserting a second one.
    record, _ = IdempotencyRecord.objects.get_or_create(
        user=user, key=key, defaults={"fingerprint": print_}
    )

    def command() -> Reply:
        with transaction.atomic():
            claimed = _claim(record.pk)
            if claimed.fingerprint != print_:
                raise ServiceError(
                    "IDEMPOTENCY_KEY_REUSED",
                    "This Idempotency-Key was used for a different request.",
                    status.HTTP_422_UNPROCESSABLE_ENTITY,
                )
            if claimed.status_code is not None:
                return _replay(claimed)
            reply = run()
            claimed.status_code = reply.status
            claimed.body = reply.content
            claimed.headers = {"Content-Type": reply.content_type, **reply.headers}
            claimed.save(update_fields=["status_code", "body", "headers"])
            return reply

    return settled_first(game_id, command)


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
