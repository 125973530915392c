"""Apple Push Notification service over HTTP/2, with token-based authentication.

The provider token is an ES256 JWT (``kid`` the key id, ``iss`` the team id, ``iat``)
signed with the .p8 key. Apple takes one for an hour and refuses new ones more often than
every 20 minutes, so one is kept for 50 minutes. One message is one
``POST /3/device/{token}``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import httpx
import jwt

from .push_credentials import ApnsKey
from .push_message import PushMessage
from .results import DeliveryResult

PRODUCTION_HOST = "https://api.push.apple.com"
SANDBOX_HOST = "https://api.sandbox.push.apple.com"
TOKEN_REFRESH_SECONDS = 50 * 60
# 10: deliver at once (an alert); Apple allows 5 and 1 for less urgent pushes.
PRIORITY = "10"
# Reasons that mean this token will never work again for this app.
_GONE_REASONS = frozenset({"BadDeviceToken", "Unregistered"})


def _transient(status: int) -> bool:
    return status == 429 or status >= 500


class ApnsTransport:
    """Sends to the devices registered with ``platform: apns``."""

    def __init__(
        self,
        key: ApnsKey,
        topic: str,
        *,
        sandbox: bool = False,
        client: httpx.Client | None = None,
        clock: Callable[[], float] = time.time,
        timeout: float = 10.0,
    ) -> None:
        self.key = key
        self.topic = topic
        self.host = SANDBOX_HOST if sandbox else PRODUCTION_HOST
        self._client = client or httpx.Client(http2=True, timeout=timeout, follow_redirects=False)
        self._clock = clock
        self._lock = threading.Lock()
        self._token: str | None = None
        self._issued_at = 0.0

    def provider_token(self) -> str:
        with self._lock:
            now = self._clock()
            if self._token is None or now - self._issued_at >= TOKEN_REFRESH_SECONDS:
                self._token = jwt.encode(
                    {"iss": self.key.team_id, "iat": int(now)},
                    self.key.private_key,
                    algorithm="ES256",
                    headers={"kid": self.key.key_id},
                )
                self._issued_at = now
            return self._token

    def forget_token(self) -> None:
        with self._lock:
            self._token = None

    def request_body(self, message: PushMessage) -> dict[str, Any]:
        # Apple reads "aps"; the app reads the notification's public payload beside it.
        return {
            **message.data,
            "aps": {"alert": {"title": message.title, "body": message.body}, "sound": "default"},
        }

    def send(self, message: PushMessage) -> DeliveryResult:
        headers = {
            "authorization": f"bearer {self.provider_token()}",
            "apns-topic": self.topic,
            "apns-push-type": "alert",
            "apns-priority": PRIORITY,
        }
        url = f"{self.host}/3/device/{quote(message.token, safe='')}"
        try:
            response = self._client.post(url, json=self.request_body(message), headers=headers)
        except httpx.HTTPError as exc:
            return DeliveryResult.failed(f"APNs: {type(exc).__name__}: {exc}")
        return self._outcome(response)

    def _outcome(self, response: httpx.Response) -> DeliveryResult:
        status = response.status_code
        if status == 200:
            return DeliveryResult.ok(status)
        try:
            reason = str(response.json().get("reason", ""))
        except (ValueError, AttributeError):
            reason = response.text[:200]
        error = f"APNs HTTP {status}: {reason}".strip()
        if status == 410 or (status == 400 and reason in _GONE_REASONS):
            return DeliveryResult.gone_for_good(error, status)
        if status == 403 and reason == "ExpiredProviderToken":
            self.forget_token()
            return DeliveryResult.failed(error, status)
        return DeliveryResult.failed(error, status, retry=_transient(status))
