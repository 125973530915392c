"""Push transports: the boundary between the outbox and FCM/APNs.

``PUSH_TRANSPORT`` names them: ``logging`` (the default) writes what it would send to the
log, ``recording`` keeps it in memory (tests and demos), a dotted path names a class with
the ``PushTransport`` shape; each of these serves every device. ``fcm``, ``apns`` or
``fcm,apns`` send for real, each to the devices of its own platform. The message and the
``PushTransport`` protocol are in ``push_message``, which the transports import too.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import ClassVar

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

from .push_apns import ApnsTransport
from .push_credentials import ApnsKey, ServiceAccount
from .push_fcm import FcmTransport
from .push_message import PushMessage, PushTransport
from .results import DeliveryResult

logger = logging.getLogger(__name__)


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


class PlatformRouter:
    """Hands each message to the transport of its device's platform."""

    def __init__(self, transports: dict[str, PushTransport]) -> None:
        self.transports = transports

    def send(self, message: PushMessage) -> DeliveryResult:
        transport = self.transports.get(message.platform)
        if transport is None:
            return DeliveryResult.failed(
                f"No push transport for {message.platform} devices: PUSH_TRANSPORT is "
                f"{','.join(self.transports)}.",
                retry=False,
            )
        return transport.send(message)


_ALIASES = {
    "logging": "notifications.push.LoggingTransport",
    "recording": "notifications.push.RecordingTransport",
}
NATIVE = ("fcm", "apns")


def native_names(value: str) -> list[str] | None:
    """The platforms of a ``fcm``/``apns``/``fcm,apns`` value, or None for another value."""
    names = [name.strip() for name in value.split(",")]
    return names if all(name in NATIVE for name in names) else None


def _needed(name: str, value: str | None) -> str:
    """A setting the chosen transport needs: the settings and the app's startup check
    (``push_checks``) refuse to start without it."""
    if value is None:
        raise ImproperlyConfigured(f"{name} is not set, and PUSH_TRANSPORT needs it")
    return value


def build_fcm() -> PushTransport:
    path = _needed("FCM_CREDENTIALS_FILE", settings.FCM_CREDENTIALS_FILE)
    account = ServiceAccount.from_file(Path(path))
    project_id = _needed("FCM_PROJECT_ID", settings.FCM_PROJECT_ID)
    return FcmTransport(account, project_id, timeout=settings.PUSH_TIMEOUT_SECONDS)


def build_apns() -> PushTransport:
    key = ApnsKey.from_file(
        Path(_needed("APNS_KEY_FILE", settings.APNS_KEY_FILE)),
        _needed("APNS_KEY_ID", settings.APNS_KEY_ID),
        _needed("APNS_TEAM_ID", settings.APNS_TEAM_ID),
    )
    return ApnsTransport(
        key,
        _needed("APNS_TOPIC", settings.APNS_TOPIC),
        sandbox=settings.APNS_USE_SANDBOX,
        timeout=settings.PUSH_TIMEOUT_SECONDS,
    )


def build_transport(value: str) -> PushTransport:
    native = native_names(value)
    if native is not None:
        builders = {"fcm": build_fcm, "apns": build_apns}
        return PlatformRouter({name: builders[name]() for name in native})
    transport: PushTransport = import_string(_ALIASES.get(value, value))()
    return transport


_cache_lock = threading.Lock()
_cached: tuple[tuple[object, ...], PushTransport] | None = None


def _settings_key() -> tuple[object, ...]:
    names = (
        "PUSH_TRANSPORT",
        "PUSH_TIMEOUT_SECONDS",
        "FCM_PROJECT_ID",
        "FCM_CREDENTIALS_FILE",
        "APNS_KEY_FILE",
        "APNS_KEY_ID",
        "APNS_TEAM_ID",
        "APNS_TOPIC",
        "APNS_USE_SANDBOX",
    )
    return tuple(getattr(settings, name, None) for name in names)


def get_transport() -> PushTransport:
    """The configured transport, built once per process: FCM and APNs keep their access
    tokens and connections between messages."""
    global _cached
    key = _settings_key()
    with _cache_lock:
        if _cached is None or _cached[0] != key:
            _cached = (key, build_transport(settings.PUSH_TRANSPORT))
        return _cached[1]
