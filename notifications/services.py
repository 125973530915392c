"""Recording notifications (the public ``notification_send``) and the in-app inbox."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from celery import current_app
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError
from ttr_service.storage import rows

from . import streams
from .models import Channel, Delivery, Device, Kind, Notification, WebhookEndpoint
from .preferences import HELD_IN_QUIET_HOURS
from .recipients import recipient_of

logger = logging.getLogger(__name__)

DELIVER_OUTBOX = "notifications.tasks.deliver_outbox"


def notification_send(
    user: User,
    kind: str,
    *,
    game_id: int | None = None,
    data: dict[str, Any] | None = None,
    dedupe_key: str | None = None,
) -> Notification | None:
    """Record a notification for ``user`` and queue its deliveries.

    Call it inside the transaction that makes the event happen (a move, a timeout, a
    lobby change): the in-app ``Notification`` and one outbox ``Delivery`` row per channel
    the user wants for ``kind`` (each webhook endpoint subscribed to it, their email
    address, each push device) are written in that transaction, and the delivery tasks
    are queued only once it commits. If it rolls back, nothing is recorded and nothing
    is sent; if the broker is down at commit, the periodic sweep sends the rows later.

    ``kind`` is one of ``notifications.models.Kind``: ``your_turn``,
    ``deadline_approaching``, ``timed_out``, ``seat_taken_over``, ``invitation``,
    ``game_started``, ``game_over``, ``friend_request``, ``friend_accepted``,
    ``export_ready``, ``match_found``, ``rematch_offered``, ``rematch_declined``,
    ``chat_message``; anything else raises ``ValueError``.

    ``data`` is sent as is to the user's webhooks and devices, so it must stay small
    and public: ids, the board, the seat, a deadline as an ISO time. Never put cards,
    tickets or anything else from a player's hidden hand in it.

    ``dedupe_key`` (at most 200 characters) is unique per user, for instance
    ``"game:12:turn:57:seat:1"``: a second call with a key the user already has records
    nothing and returns None, so a retried task never notifies twice.

    Returns the new notification, or None for a duplicate.
    """
    if kind not in Kind.values:
        raise ValueError(f"Unknown notification kind {kind!r}")
    # Inside the caller's transaction nothing of its own: anything failing here fails the
    # change it reports. The unique (user, dedupe_key) constraint drops a duplicate.
    with transaction.atomic(savepoint=False):
        notification = Notification(
            user=user, kind=kind, game_id=game_id, data=data or {}, dedupe_key=dedupe_key
        )
        if not rows.insert(notification, ignore_conflicts=True):
            return None  # a notification with this key exists, or was just committed
        streams.announce(user.pk)  # the user's event streams, once this commits
        deliveries = _outbox_rows(user, notification)
        due = [
            d.pk
            for d in deliveries
            if d.next_attempt_at is not None and d.next_attempt_at <= notification.created_at
        ]
        if due:
            transaction.on_commit(lambda: deliveries_queue(due))
    return notification


def _outbox_rows(user: User, notification: Notification) -> list[Delivery]:
    kind = notification.kind
    now = notification.created_at
    recipient = recipient_of(user)
    preferences = recipient.preferences
    quiet_end = preferences.quiet_hours.until(now) if preferences.quiet_hours else None

    def add(channel: str, **destination: Any) -> Delivery:
        held = channel in HELD_IN_QUIET_HOURS and quiet_end is not None
        delivery = Delivery(
            notification=notification,
            channel=channel,
            next_attempt_at=quiet_end if held else now,
            **destination,
        )
        rows.insert(delivery)
        return delivery

    made: list[Delivery] = []
    if preferences.wants(kind, Channel.WEBHOOK) and recipient.has_webhooks:
        endpoints: Iterable[WebhookEndpoint] = rows.select(
            WebhookEndpoint, user=user.pk, active=True
        )
        made += [add(Channel.WEBHOOK, endpoint=e) for e in endpoints if e.wants(kind)]
    if preferences.wants(kind, Channel.EMAIL) and user.email:
        made.append(add(Channel.EMAIL))
    if preferences.wants(kind, Channel.PUSH) and recipient.has_devices:
        devices = rows.select(Device, user=user.pk, active=True)
        made += [add(Channel.PUSH, device=d) for d in devices]
    return made


def deliveries_queue(delivery_ids: Iterable[int]) -> None:
    """Hand rows to the workers; a broker failure is logged, the sweep retries later.

    The task is found by its name (``NotificationsConfig.ready`` registers it): the tasks
    module imports the code that calls this one.
    """
    deliver_outbox = current_app.tasks[DELIVER_OUTBOX]
    for delivery_id in delivery_ids:
        try:
            deliver_outbox.delay(delivery_id)
        except Exception:  # the outbox row is the record; the sweep will find it
            logger.warning("Could not queue delivery %s; the sweep will", delivery_id)


# ------------------------------------------------------------------------------ inbox
def notification_mark_read(user: User, notification_id: int) -> Notification:
    notification = Notification.objects.filter(user=user, pk=notification_id).first()
    if notification is None:
        raise ServiceError(Code.NOTIFICATION_NOT_FOUND, _("No such notification."))
    if notification.read_at is None:
        notification.read_at = timezone.now()
        notification.save(update_fields=["read_at"])
    return notification


def notifications_mark_all_read(user: User, now: datetime | None = None) -> int:
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    return unread.update(read_at=now or timezone.now())
