"""Push through the configured ``PushTransport`` (``PUSH_TRANSPORT``)."""

from __future__ import annotations

from notifications import messages
from notifications.models import Delivery
from notifications.push import PushMessage, get_transport

from .base import DeliveryResult


class PushNotifier:
    def deliver(self, row: Delivery) -> DeliveryResult:
        device = row.device
        if device is None:
            return DeliveryResult.failed("The device is gone.", retry=False)
        notification = row.notification
        message = PushMessage(
            platform=device.platform,
            token=device.token,
            title=messages.title(notification),
            body=messages.body(notification),
            data=messages.payload(notification),
        )
        return get_transport().send(message)
