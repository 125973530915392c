"""The notifier interface: deliver one outbox row, say how it went."""

from __future__ import annotations

from typing import Protocol

from notifications.models import Delivery
from notifications.results import DeliveryResult


class Notifier(Protocol):
    def deliver(self, row: Delivery) -> DeliveryResult:
        """Send ``row`` once. Must not raise for delivery failures: return them."""
        ...


__all__ = ["DeliveryResult", "Notifier"]
