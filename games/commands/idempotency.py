"""Idempotency-Key around a person's move: a retry gets the first answer.

The first request with a key claims the key's record and runs the move in the same
transaction, and the record keeps the outcome with it: a refusal's problem body, or the
version the move made. Nothing is rendered in that transaction: a move's answer (the
mover's new view) is rendered once it has committed and kept in the record by one more
statement (``answer_keep``). A retry gets the first answer byte for byte; the same key
with another request gets 422; a retry while the first is still running, or still
rendering its answer, gets 409 at once. A key that is not 1 to 255 visible ASCII
characters gets 400 before anything is stored or settled.

Should a process stop between the commit and keeping the answer, a retry made
``ANSWER_GRACE`` later gets the game as it is then (``Unanswered``): the move is never
applied twice, but that answer is the view of now.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import OperationalError, transaction
from django.utils import timezone
from psycopg.errors import LockNotAvailable
from rest_framework.exceptions import APIException
from rest_framework.renderers import JSONRenderer

from engine import EngineError
from games import errors
from games.commands.deadlines import settled_first
from games.commands.play import Played
from games.models import IdempotencyRecord
from ttr_service.http.codes import Code
from ttr_service.http.problems import PROBLEM_CONTENT_TYPE, ServiceError, in_order, problem_of

# The key's column holds 255 characters. Visible ASCII (RFC 9110's VCHAR) takes in UUIDs,
# ULIDs, base64 and a structured-field string's quotes, and keeps out spaces, control
# characters and anything that would compare differently after a Unicode normalisation.
KEY_MAX_LENGTH = 255
KEY_PATTERN = r"^[!-~]+$"  # "!" (0x21) to "~" (0x7e)
_KEY = re.compile(rf"[!-~]{{1,{KEY_MAX_LENGTH}}}")
# How long a move's answer may take to be kept after its commit before a retry stops
# waiting for it.
ANSWER_GRACE = timedelta(seconds=30)


@dataclass(frozen=True)
class Reply:
    """An answer as it goes out, kept byte for byte for a retry."""

    status: int
    content: bytes
    content_type: str
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Keyed:
    """A move applied under a key: its answer is to be kept in ``record_id``."""

    played: Played
    record_id: int


@dataclass(frozen=True)
class Unanswered:
    """A key whose move was applied (making ``version``) but whose answer was never kept."""

    version: int
    record_id: int


class KeyInFlight(ServiceError):
    def __init__(self) -> None:
        super().__init__(
            Code.IDEMPOTENCY_KEY_IN_FLIGHT,
            "A request with this Idempotency-Key is still being processed; retry shortly "
            "to get its response.",
        )
        self.wait = 1  # DRF sends it as Retry-After


def fingerprint(method: str, path: str, body: object, if_match: str | None = None) -> str:
    """What makes two requests with one key the same request: method, path, body, and the
    ``If-Match`` precondition when one is sent (a retry with another is another request)."""
    parts = [method, path, body] if if_match is None else [method, path, body, if_match]
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def check_key(key: str) -> None:
    """Refuse a key the service does not store: empty, too long, or not visible ASCII."""
    if not _KEY.fullmatch(key):
        raise errors.bad_idempotency_key(KEY_MAX_LENGTH)


def run_once(
    user: User,
    key: str,
    print_: str,
    game_id: int,
    instance: str,
    attempt: Callable[[], Played],
) -> Keyed | Reply | Unanswered:
    """``attempt`` (parsing the request and playing the move, in the caller's transaction)
    once per key: a move applied, the first answer again, or a refusal kept as the key's
    answer (``instance`` is the request path its problem names)."""
    check_key(key)
    # Claimed in its own (auto-committed) statement, so a concurrent request with the same
    # key finds the row and its lock below instead of inserting a second one.
    record, _ = IdempotencyRecord.objects.get_or_create(
        user=user, key=key, defaults={"fingerprint": print_}
    )

    def keyed() -> Played | tuple[IdempotencyRecord, bool]:
        with transaction.atomic():
            claimed = _claim(record.pk)
            if claimed.created_at <= _oldest_kept():
                # The key was forgotten (its time is up): a new request under it.
                claimed.fingerprint, claimed.created_at = print_, timezone.now()
                claimed.status_code = claimed.version = claimed.problem = claimed.body = None
                claimed.outcome_at, claimed.headers = None, {}
            if claimed.fingerprint != print_:
                raise ServiceError(
                    Code.IDEMPOTENCY_KEY_REUSED,
                    "This Idempotency-Key was used for a different request.",
                )
            if claimed.status_code is not None:
                return claimed, True
            claimed.outcome_at = timezone.now()
            try:
                played = attempt()
            except (APIException, EngineError) as refused:
                claimed.problem = problem_of(refused, instance)
                claimed.status_code = claimed.problem["status"]
                claimed.save()
                return claimed, False
            claimed.status_code, claimed.version = 200, played.game.version
            claimed.save()
            return played

    outcome = settled_first(game_id, keyed)
    if isinstance(outcome, Played):
        return Keyed(outcome, record.pk)
    return _answer(*outcome)


def _answer(record: IdempotencyRecord, replayed: bool) -> Reply | Unanswered:
    """The answer a key's record keeps (a refusal's problem, or a move's kept answer), as
    first given or ``replayed``."""
    assert record.status_code is not None
    if record.problem is not None:
        content = JSONRenderer().render(in_order(record.problem))
        return Reply(
            record.status_code, content, PROBLEM_CONTENT_TYPE, _REPLAYED if replayed else {}
        )
    if record.body is None:
        assert record.outcome_at is not None
        if record.outcome_at > timezone.now() - ANSWER_GRACE:
            raise KeyInFlight()
        assert record.version is not None
        return Unanswered(record.version, record.pk)
    headers = dict(record.headers)
    content_type = headers.pop("Content-Type", "application/json")
    return Reply(record.status_code, bytes(record.body), content_type, {**headers, **_REPLAYED})


_REPLAYED = {"Idempotent-Replayed": "true"}


def replayed(reply: Reply) -> Reply:
    """``reply`` as a retry gets it: marked as not applied again."""
    return Reply(reply.status, reply.content, reply.content_type, {**reply.headers, **_REPLAYED})


def answer_keep(record_id: int, reply: Reply) -> None:
    """Keep a move's answer, rendered after its commit, for the key's retries."""
    IdempotencyRecord.objects.filter(pk=record_id, body__isnull=True).update(
        body=reply.content, headers={"Content-Type": reply.content_type, **reply.headers}
    )


def _oldest_kept() -> datetime:
    return timezone.now() - timedelta(hours=settings.IDEMPOTENCY_KEY_HOURS)


def keys_forget_expired() -> int:
    """Delete the keys older than ``IDEMPOTENCY_KEY_HOURS`` (the deadline sweep does); how
    many."""
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lte=_oldest_kept()).delete()
    return deleted


def _claim(record_id: int) -> IdempotencyRecord:
    """Lock the key's record for this transaction, or fail at once if another request holds it.

    The lock is held until the outcome is stored with the move, so a second request
    meanwhile gets 409 instead of waiting. A record left without an outcome (the first
    request failed and rolled back) is simply claimed again. SQLite has no row locks:
    there the writers are serialised and the retry finds the stored outcome.
    """
    try:
        return IdempotencyRecord.objects.select_for_update(nowait=True).get(pk=record_id)
    except OperationalError as exc:
        # Only a lock held elsewhere means "in flight"; any other failure (a dropped
        # connection) goes on to the handler's 503.
        if isinstance(exc.__cause__, LockNotAvailable):
            raise KeyInFlight() from None
        raise
