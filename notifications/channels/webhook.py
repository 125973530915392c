"""Webhooks signed the Standard Webhooks way (``standardwebhooks``)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import httpx
from django.conf import settings
from standardwebhooks import Webhook

from notifications import messages
from notifications.models import Delivery

from .base import DeliveryResult

USER_AGENT = "ttr-service-webhooks/1"


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
        body = json.dumps(messages.payload(row.notification), separators=(",", ":"))
        headers = signed_request(endpoint.secret, row.message_id, body)
        try:
            # No redirects: the owner chose this URL, not whoever answers it.
            response = httpx.post(
                endpoint.url,
                content=body.encode(),
                headers=headers,
                timeout=settings.WEBHOOK_TIMEOUT_SECONDS,
                follow_redirects=False,
            )
        except httpx.HTTPError as exc:
            return DeliveryResult.failed(f"{type(exc).__name__}: {exc}")
        if response.is_success:
            return DeliveryResult.ok(response.status_code)
        return DeliveryResult.failed(
            f"HTTP {response.status_code}: {response.text[:200]}", response.status_code
        )
