"""Push through the configured ``PushTransport`` (``PUSH_TRANSPORT``)."""

from __future__ import annotations

from notifications import messages
from notifications.devices import device_deactivate
from notifications.models import Delivery
from notifications.push import get_transport
from notifications.push_credentials import CredentialsError
from notifications.push_message import PushMessage

from .base import DeliveryResult


class PushNotifier:
    def deliver(self, row: Delivery) -> DeliveryResult:
        device = row.device
        if device is None:
            return DeliveryResult.failed("The device is gone.", retry=False)
        if not device.active:
            return DeliveryResult.failed(
                "The device was switched off: its token is no longer valid.", retry=False
            )
        notification = row.notification
        with messages.in_recipients_language(notification):
            message = PushMessage(
                platform=device.platform,
                token=device.token,
                title=messages.title(notification),
                body=messages.body(notification),
                data=messages.payload(notification),
            )
        try:
            transport = get_transport()
        except CredentialsError as exc:  # the file changed since startup; fixable, so retried
            return DeliveryResult.failed(f"Push transport: {exc}")
        result = transport.send(message)
        if result.gone:
            device_deactivate(device, result.error)
        return result
