"""Push transports: the boundary between the outbox and FCM/APNs.

``PUSH_TRANSPORT`` names one: ``logging`` (the default) writes what it would send to the
log, ``recording`` keeps it in memory (tests and demos), or a dotted path to a class with
the ``PushTransport`` shape.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from django.conf import settings
from django.utils.module_loading import import_string

from .results import DeliveryResult

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PushMessage:
    platform: str
    token: str
    title: str
    body: str
    data: dict[str, Any]


class PushTransport(Protocol):
    def send(self, message: PushMessage) -> DeliveryResult: ...


class LoggingTransport:
    """Sends nothing: logs the message it would have sent."""

    def send(self, message: PushMessage) -> DeliveryResult:
        logger.info(
            "push to %s device %s…: %s",
            message.platform,
            message.token[:8],
            message.title,
            extra={"push_data": message.data},
        )
        return DeliveryResult.ok()


class RecordingTransport:
    """Keeps every message in ``RecordingTransport.sent``; ``fail_with`` makes it fail."""

    sent: ClassVar[list[PushMessage]] = []
    fail_with: ClassVar[str | None] = None

    def send(self, message: PushMessage) -> DeliveryResult:
        if self.fail_with is not None:
            return DeliveryResult.failed(self.fail_with)
        self.sent.append(message)
        return DeliveryResult.ok()


_ALIASES = {
    "logging": "notifications.push.LoggingTransport",
    "recording": "notifications.push.RecordingTransport",
}


def get_transport() -> PushTransport:
    name = settings.PUSH_TRANSPORT
    transport: PushTransport = import_string(_ALIASES.get(name, name))()
    return transport
