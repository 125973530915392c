"""Webhook endpoints of a user: create, change, rotate the secret, redeliver."""

from __future__ import annotations

import base64
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError

from . import addresses
from .models import Channel, Delivery, DeliveryStatus, WebhookEndpoint
from .services import deliveries_queue

MAX_ENDPOINTS = 10
_CHANGEABLE = frozenset({"name", "url", "events", "active"})


def new_secret() -> str:
    """A signing secret in the ``whsec_<base64>`` form Standard Webhooks libraries read."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def check_url(url: str) -> None:
    """Refuse a URL aimed at the service's own networks (400 ``WEBHOOK_URL_PRIVATE``)."""
    try:
        addresses.check_url(url, allow_private=settings.WEBHOOK_ALLOW_PRIVATE)
    except addresses.AddressRefused as exc:
        raise ServiceError(Code.WEBHOOK_URL_PRIVATE, str(exc)) from None


def endpoint_of(user: User, endpoint_id: int) -> WebhookEndpoint:
    endpoint = WebhookEndpoint.objects.filter(user=user, pk=endpoint_id).first()
    if endpoint is None:
        raise ServiceError(Code.WEBHOOK_NOT_FOUND, _("No such webhook."))
    return endpoint


def endpoint_create(
    user: User, *, url: str, name: str = "", events: list[str], active: bool = True
) -> WebhookEndpoint:
    if WebhookEndpoint.objects.filter(user=user).count() >= MAX_ENDPOINTS:
        raise ServiceError(
            Code.WEBHOOK_LIMIT_REACHED,
            _("A user may have at most %(limit)d webhooks.") % {"limit": MAX_ENDPOINTS},
        )
    check_url(url)
    return WebhookEndpoint.objects.create(
        user=user, url=url, name=name, events=events, active=active, secret=new_secret()
    )


def endpoint_update(user: User, endpoint_id: int, **changes: Any) -> WebhookEndpoint:
    endpoint = endpoint_of(user, endpoint_id)
    unknown = set(changes) - _CHANGEABLE
    if unknown:
        raise ValueError(f"Cannot change {', '.join(sorted(unknown))}")
    if "url" in changes:
        check_url(changes["url"])
    for field, value in changes.items():
        setattr(endpoint, field, value)
    endpoint.save()
    return endpoint


def endpoint_delete(user: User, endpoint_id: int) -> None:
    endpoint_of(user, endpoint_id).delete()


def endpoint_rotate_secret(user: User, endpoint_id: int) -> WebhookEndpoint:
    """A new secret, used from the next attempt on; the old one stops working at once."""
    endpoint = endpoint_of(user, endpoint_id)
    endpoint.secret = new_secret()
    endpoint.save(update_fields=["secret", "updated_at"])
    return endpoint


def deliveries_of(user: User, endpoint_id: int) -> QuerySet[Delivery]:
    endpoint = endpoint_of(user, endpoint_id)
    return endpoint.deliveries.select_related("notification").order_by("-id")


def delivery_redeliver(user: User, endpoint_id: int, delivery_id: int) -> Delivery:
    """Send a delivery again as a new log row with the same ``webhook-id``."""
    endpoint = endpoint_of(user, endpoint_id)
    original = endpoint.deliveries.filter(pk=delivery_id).first()
    if original is None:
        raise ServiceError(Code.DELIVERY_NOT_FOUND, _("No such delivery."))
    if not endpoint.active:
        raise ServiceError(
            Code.WEBHOOK_INACTIVE, _("The webhook is not active; activate it to redeliver.")
        )
    copy = Delivery.objects.create(
        notification_id=original.notification_id,
        channel=Channel.WEBHOOK,
        endpoint=endpoint,
        status=DeliveryStatus.PENDING,
        message_id=original.message_id,
    )
    copy.next_attempt_at = copy.created_at
    copy.save(update_fields=["next_attempt_at"])
    transaction.on_commit(lambda: deliveries_queue([copy.pk]))
    return copy
