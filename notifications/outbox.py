"""Draining the outbox: claim a row once, send it, record the outcome, schedule retries.

A row is claimed with a conditional UPDATE (pending and due, or sending with an expired
lease), so two workers handed the same row never both send it. The result is written
only by the worker whose claim token is still on the row.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from .channels import notifier_for
from .models import Delivery, DeliveryStatus
from .preferences import HELD_IN_QUIET_HOURS, preferences_of
from .results import DeliveryResult

SWEEP_BATCH = 500


def backoff(attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failed attempt: base * 2^(attempts-1), capped."""
    seconds = settings.NOTIFICATIONS_RETRY_BASE_SECONDS * 2 ** max(attempts - 1, 0)
    return timedelta(seconds=min(seconds, settings.NOTIFICATIONS_RETRY_CAP_SECONDS))


def _claimable(now: datetime) -> Q:
    due = Q(status=DeliveryStatus.PENDING, next_attempt_at__lte=now)
    abandoned = Q(status=DeliveryStatus.SENDING, claimed_until__lt=now)
    return due | abandoned


def claim(delivery_id: int, now: datetime | None = None) -> uuid.UUID | None:
    """Take the row for one attempt; None when it is not due or someone else has it."""
    now = now or timezone.now()
    token = uuid.uuid4()
    lease = timedelta(seconds=settings.NOTIFICATIONS_LEASE_SECONDS)
    claimed = Delivery.objects.filter(_claimable(now), pk=delivery_id).update(
        status=DeliveryStatus.SENDING,
        claim_token=token,
        claimed_until=now + lease,
        attempts=F("attempts") + 1,
    )
    return token if claimed else None


def _held_until(row: Delivery, now: datetime) -> datetime | None:
    if row.channel not in HELD_IN_QUIET_HOURS:
        return None
    quiet = preferences_of(row.notification.user).quiet_hours
    return quiet.until(now) if quiet else None


def deliver(delivery_id: int) -> str:
    """One attempt at one row, if it is due. Returns the row's status afterwards."""
    token = claim(delivery_id)
    if token is None:
        return "skipped"
    row = Delivery.objects.select_related("notification__user", "endpoint", "device").get(
        pk=delivery_id
    )
    now = timezone.now()
    held = _held_until(row, now)
    if held is not None:  # quiet hours began after it was queued: wait, uncounted
        Delivery.objects.filter(pk=row.pk, claim_token=token).update(
            status=DeliveryStatus.PENDING,
            next_attempt_at=held,
            claim_token=None,
            claimed_until=None,
            attempts=F("attempts") - 1,
        )
        return DeliveryStatus.PENDING
    result = notifier_for(row.channel).deliver(row)
    return record(row, token, result, timezone.now())


def record(row: Delivery, token: uuid.UUID, result: DeliveryResult, now: datetime) -> str:
    if result.delivered:
        status, next_attempt_at, delivered_at = DeliveryStatus.DELIVERED, None, now
    elif result.retry and row.attempts < settings.NOTIFICATIONS_MAX_ATTEMPTS:
        status, next_attempt_at, delivered_at = (
            DeliveryStatus.PENDING,
            now + backoff(row.attempts),
            None,
        )
    else:
        status, next_attempt_at, delivered_at = DeliveryStatus.FAILED, None, None
    Delivery.objects.filter(pk=row.pk, claim_token=token).update(
        status=status,
        next_attempt_at=next_attempt_at,
        delivered_at=delivered_at,
        last_response_code=result.response_code,
        last_error=result.error,
        claim_token=None,
        claimed_until=None,
    )
    return status


def due_ids(now: datetime | None = None, limit: int = SWEEP_BATCH) -> list[int]:
    """Rows a worker should try now: new, retry time passed, quiet hours over, or stuck."""
    rows = Delivery.objects.filter(_claimable(now or timezone.now())).order_by("next_attempt_at")
    return list(rows.values_list("pk", flat=True)[:limit])


def sweep(queue: Callable[[int], object], now: datetime | None = None) -> int:
    ids = due_ids(now)
    for delivery_id in ids:
        queue(delivery_id)
    return len(ids)


PRUNE_BATCH = 1000


def prune(now: datetime | None = None) -> int:
    """Delete delivered and failed rows created more than the retention ago.

    Rows still pending or being sent stay whatever their age. Deletes in batches so a
    large backlog never holds one long lock. Returns how many rows went.
    """
    cutoff = (now or timezone.now()) - timedelta(days=settings.NOTIFICATIONS_RETENTION_DAYS)
    finished = (DeliveryStatus.DELIVERED, DeliveryStatus.FAILED)
    old = Delivery.objects.filter(status__in=finished, created_at__lt=cutoff)
    removed = 0
    while True:
        batch = list(old.order_by("pk").values_list("pk", flat=True)[:PRUNE_BATCH])
        if not batch:
            return removed
        removed += Delivery.objects.filter(pk__in=batch).delete()[0]
