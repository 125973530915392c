"""Webhooks signed the Standard Webhooks way (``standardwebhooks``)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import httpx
from django.conf import settings
from standardwebhooks import Webhook

from notifications import addresses, messages
from notifications.models import Delivery

from .base import DeliveryResult

USER_AGENT = "ttr-service-webhooks/1"
# The start of ``last_error`` for an attempt refused before sending (a private address).
REFUSED = "Refused: "


def signed_request(
    secret: str, message_id: str, body: str, now: datetime | None = None
) -> dict[str, str]:
    """The headers of one attempt: the id stays, the timestamp and signature are fresh."""
    sent_at = (now or datetime.now(UTC)).astimezone(UTC)
    return {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "webhook-id": message_id,
        "webhook-timestamp": str(int(sent_at.timestamp())),
        "webhook-signature": Webhook(secret).sign(message_id, sent_at, body),
    }


class WebhookNotifier:
    def deliver(self, row: Delivery) -> DeliveryResult:
        endpoint = row.endpoint
        if endpoint is None or not endpoint.active:
            return DeliveryResult.failed("The webhook is gone or not active.", retry=False)
        try:
            target = addresses.pin(endpoint.url, allow_private=settings.WEBHOOK_ALLOW_PRIVATE)
        except addresses.AddressRefused as exc:
            return DeliveryResult.failed(f"{REFUSED}{exc}", retry=False)
        except (OSError, UnicodeError) as exc:  # the name does not resolve (now)
            return DeliveryResult.failed(f"DNS: {exc}")
        body = json.dumps(messages.payload(row.notification), separators=(",", ":"))
        headers = signed_request(endpoint.secret, row.message_id, body)
        headers["host"] = target.host_header
        extensions = {"sni_hostname": target.server_name} if target.server_name else None
        try:
            # No redirects: the owner chose this URL, not whoever answers it.
            with httpx.Client(
                timeout=settings.WEBHOOK_TIMEOUT_SECONDS, follow_redirects=False
            ) as client:
                response = client.post(
                    target.url, content=body.encode(), headers=headers, extensions=extensions
                )
        except httpx.HTTPError as exc:
            return DeliveryResult.failed(f"{type(exc).__name__}: {exc}")
        if response.is_success:
            return DeliveryResult.ok(response.status_code)
        return DeliveryResult.failed(
            f"HTTP {response.status_code}: {response.text[:200]}", response.status_code
        )
