"""What a push transport is handed, and the one method every transport has.

The bottom of the push modules: ``push`` (which picks the transport) and the FCM and APNs
transports all import it, and it imports none of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .results import DeliveryResult


@dataclass(frozen=True)
class PushMessage:
    platform: str
    token: str
    title: str
    body: str
    data: dict[str, Any]


class PushTransport(Protocol):
    def send(self, message: PushMessage) -> DeliveryResult: ...
