"""One notifier per delivery channel, found by channel name."""

from __future__ import annotations

from .base import DeliveryResult, Notifier
from .email import EmailNotifier
from .push import PushNotifier
from .webhook import WebhookNotifier

NOTIFIERS: dict[str, Notifier] = {
    "webhook": WebhookNotifier(),
    "email": EmailNotifier(),
    "push": PushNotifier(),
}


def notifier_for(channel: str) -> Notifier:
    return NOTIFIERS[channel]


__all__ = ["NOTIFIERS", "DeliveryResult", "Notifier", "notifier_for"]
